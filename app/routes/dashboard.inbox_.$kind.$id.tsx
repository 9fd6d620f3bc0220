import { getFormProps, useForm } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { FormErrors } from '~/components/ui/field';
import { getInboxItem } from '~/models/inbox.server';
import { INBOX_KIND_LABELS, INBOX_KINDS, InboxHandleSchema, type InboxKind } from '~/schemas/inbox';
import { requireUserWithRole } from '~/http/auth.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { markInboxItem } from '~/services/inbox.server';
import { formatDateTime } from '~/utils/format';
import { safeRedirect } from '~/utils/safe-redirect';
import { useCompany } from '~/utils/use-company';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';

function readKind(value: string | undefined): InboxKind {
  if (!INBOX_KINDS.includes(value as InboxKind)) throw new Response('Not found', { status: 404 });
  return value as InboxKind;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const kind = readKind(params.kind);
  const item = await getInboxItem(kind, params.id ?? '');
  if (!item) throw new Response('Not found', { status: 404 });
  return json({ item });
}

/** Mark handled / Mark unhandled, recorded in the audit trail. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const kind = readKind(params.kind);
  const submission = parseWithZod(await readFormData(request), { schema: InboxHandleSchema });
  if (submission.status !== 'success') return invalidForm(submission);
  const handled = submission.value.handled === 'true';
  const after = await markInboxItem(kind, params.id ?? '', handled, { user, context });
  if (!after) throw new Response('Not found', { status: 404 });
  const url = new URL(request.url);
  return redirectWithToast(
    request,
    safeRedirect(`${url.pathname}${url.search}`, '/dashboard/inbox'),
    {
      type: 'success',
      title: handled ? 'Marked handled' : 'Marked not handled',
      description: after.email,
    },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.item.subject || data?.item.email || 'Item'} · Inbox · Management dashboard` },
];

export default function InboxItemPage() {
  const { timeZone } = useCompany();
  const { item } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { search } = useLocation();
  const [form] = useForm({ id: 'inbox-handle', lastResult });
  const params = new URLSearchParams(search);
  const back = `/dashboard/inbox${params.size ? `?${params}` : `?kind=${item.kind}`}`;
  const busy = useIsPending({ state: 'submitting' });
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <Link to={back} className="text-sm text-brand-700 underline">
        Back to {INBOX_KIND_LABELS[item.kind as InboxKind].toLowerCase()}
      </Link>
      <div className="card space-y-4 p-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h1 className="text-xl font-bold text-gray-900">{item.subject || item.email}</h1>
            <p className="text-sm text-gray-600">
              Received{' '}
              <time dateTime={item.receivedAt}>{formatDateTime(item.receivedAt, timeZone)}</time>
            </p>
          </div>
          <Form method="post" {...getFormProps(form)}>
            <FormErrors id={form.errorId} errors={form.errors} />
            <input type="hidden" name="handled" value={item.handledAt ? 'false' : 'true'} />
            <SubmitButton
              className={item.handledAt ? 'btn-secondary' : 'btn-primary'}
              pending={busy}
            >
              {item.handledAt ? 'Mark unhandled' : 'Mark handled'}
            </SubmitButton>
          </Form>
        </div>
        <p className="text-sm">
          {item.handledAt ? (
            <>
              Handled by {item.handledBy ?? 'someone'} on{' '}
              <time dateTime={item.handledAt}>{formatDateTime(item.handledAt, timeZone)}</time>
            </>
          ) : (
            <span className="font-semibold text-amber-800">Not handled yet</span>
          )}
        </p>
        <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
          {item.fields.map((f) => (
            <div key={f.label} className="contents">
              <dt className="text-gray-600">{f.label}</dt>
              <dd className="break-words">
                {f.label === 'Email' ? (
                  <a href={`mailto:${f.value}`} className="text-brand-700 underline">
                    {f.value}
                  </a>
                ) : (
                  f.value
                )}
              </dd>
            </div>
          ))}
        </dl>
        {item.message ? (
          <section aria-labelledby="inbox-message">
            <h2 id="inbox-message" className="mb-1 text-sm font-semibold text-gray-900">
              Message
            </h2>
            <p className="whitespace-pre-wrap break-words rounded-md bg-gray-50 p-3 text-sm">
              {item.message}
            </p>
          </section>
        ) : null}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
