import { FilterSelect } from '~/components/ui/filter-select';
import type { LoaderFunctionArgs, MetaFunction, SerializeFrom } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useLoaderData, useLocation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { Pagination } from '~/components/parcels/pagination';
import { DataTable, ScrollRegion, type Column } from '~/components/ui/data-table';
import { listInbox, openInboxCounts } from '~/models/inbox.server';
import {
  INBOX_KIND_LABELS,
  INBOX_KINDS,
  INBOX_PAGE_SIZE,
  InboxQuerySchema,
  type InboxKind,
} from '~/schemas/inbox';
import { requireUserWithRole } from '~/http/auth.server';
import { formatDateTime } from '~/utils/format';
import { useCompany } from '~/utils/use-company';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const query = InboxQuerySchema.parse(params);
  const [list, open] = await Promise.all([
    listInbox({ ...query, limit: INBOX_PAGE_SIZE }),
    openInboxCounts(),
  ]);
  return json({ ...query, ...list, open });
}

export const meta: MetaFunction = () => [{ title: 'Inbox · Management dashboard' }];

const STATE_LABELS = { all: 'All', open: 'Not handled', handled: 'Handled' } as const;

function kindHref(kind: InboxKind) {
  return kind === 'contact' ? '/dashboard/inbox' : `/dashboard/inbox?kind=${kind}`;
}

type InboxRow = SerializeFrom<typeof loader>['items'][number];

function inboxColumns(kind: InboxKind, search: string, timeZone: string): Column<InboxRow>[] {
  const newsletter = kind === 'newsletter';
  return [
    {
      header: 'Received',
      cellClassName: 'whitespace-nowrap',
      cell: (it) => <time dateTime={it.receivedAt}>{formatDateTime(it.receivedAt, timeZone)}</time>,
    },
    {
      header: newsletter ? 'Email' : 'From',
      cell: (it) => (
        <Link
          to={`/dashboard/inbox/${kind}/${it.id}${search}`}
          className={`text-brand-700 underline ${it.handledAt ? '' : 'font-semibold'}`}
        >
          {newsletter ? it.email : `${it.name} <${it.email}>`}
        </Link>
      ),
    },
    {
      header: newsletter ? 'Source' : 'Subject',
      cellClassName: 'max-w-[24rem] truncate',
      cell: (it) => it.subject,
    },
    {
      header: 'Status',
      cell: (it) =>
        it.handledAt ? (
          <span className="text-gray-600">Handled</span>
        ) : (
          <span className="font-semibold text-amber-800">New</span>
        ),
    },
  ];
}

/**
 * What visitors sent: contact messages, quote requests and newsletter subscriptions, one tab each,
 * newest first, filtered by whether they were handled; the subscribers export as CSV.
 */
export default function InboxPage() {
  const { timeZone } = useCompany();
  const { kind, state, items, pagination, open } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  const newsletter = kind === 'newsletter';
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-gray-900">Inbox</h1>
        {newsletter ? (
          <a href="/dashboard/inbox/subscribers.csv" className="btn-secondary" download>
            Export subscribers
          </a>
        ) : null}
      </div>
      <nav aria-label="Inbox kinds" className="flex flex-wrap gap-2 text-sm">
        {INBOX_KINDS.map((k) => (
          <Link
            key={k}
            to={kindHref(k)}
            aria-current={k === kind ? 'page' : undefined}
            className={k === kind ? 'btn-primary' : 'btn-secondary'}
          >
            {INBOX_KIND_LABELS[k]}
            {open[k] ? ` (${open[k]} new)` : ''}
          </Link>
        ))}
      </nav>
      <Form method="get" className="card flex flex-wrap items-end gap-3 p-4" aria-label="Filter">
        <input type="hidden" name="kind" value={kind} />
        <FilterSelect
          id="inbox-state"
          name="state"
          label="Show"
          defaultValue={state}
          choices={(Object.keys(STATE_LABELS) as Array<keyof typeof STATE_LABELS>).map((s) => ({
            value: s,
            label: STATE_LABELS[s],
          }))}
        />
        <button type="submit" className="btn-secondary">
          Filter
        </button>
      </Form>
      {items.length === 0 ? (
        <p className="card p-8 text-center text-gray-600">
          Nothing here{state === 'all' ? ' yet' : ''}.
        </p>
      ) : (
        <ScrollRegion label={INBOX_KIND_LABELS[kind]} className="card overflow-x-auto">
          <DataTable
            caption={`${INBOX_KIND_LABELS[kind]}, newest first: ${pagination.totalItems}`}
            columns={inboxColumns(kind, search, timeZone)}
            rows={items}
            rowKey={(it) => it.id}
          />
        </ScrollRegion>
      )}
      <Pagination pagination={pagination} basePath="/dashboard/inbox" />
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
