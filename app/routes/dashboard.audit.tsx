import { FilterSelect, FilterText } from '~/components/ui/filter-select';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { AuditList } from '~/components/audit/audit-list';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { Pagination } from '~/components/parcels/pagination';
import { listAudit } from '~/models/audit.server';
import { AUDIT_ACTION_NAMES, AUDIT_ENTITY_NAMES, AuditQuerySchema } from '~/schemas/audit';
import { requireUserWithRole } from '~/http/auth.server';

/** The whole audit trail for admins, filtered by record kind, id, action and user. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'admin');
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = AuditQuerySchema.safeParse(params);
  // A bad filter in the address bar shows everything rather than an error.
  const query = parsed.success ? parsed.data : AuditQuerySchema.parse({});
  const result = await listAudit(query);
  return json({
    ...result,
    filters: {
      entity: query.entity ?? '',
      action: query.action ?? '',
      actor: query.actor ?? '',
      entityId: query.entityId ?? '',
    },
  });
}

export const meta: MetaFunction = () => [{ title: 'Audit trail · Management dashboard' }];

export default function AuditPage() {
  const { entries, pagination, filters } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-gray-900">Audit trail</h1>
      <Form
        method="get"
        role="search"
        aria-label="Filter the audit trail"
        className="card flex flex-wrap items-end gap-3 p-4"
      >
        <FilterSelect
          id="audit-entity"
          name="entity"
          label="Record"
          defaultValue={filters.entity}
          all="All records"
          choices={AUDIT_ENTITY_NAMES}
        />
        <FilterSelect
          id="audit-action"
          name="action"
          label="Action"
          defaultValue={filters.action}
          all="All actions"
          choices={AUDIT_ACTION_NAMES}
        />
        <FilterText
          id="audit-actor"
          name="actor"
          label="User"
          defaultValue={filters.actor}
          maxLength={50}
        />
        <FilterText
          id="audit-entity-id"
          name="entityId"
          label="Record id"
          defaultValue={filters.entityId}
          maxLength={24}
          className="field-input font-mono"
        />
        <button type="submit" className="btn-secondary">
          Filter
        </button>
      </Form>
      <p className="text-sm text-gray-600">{`${pagination.totalItems} entries`}</p>
      <AuditList entries={entries} />
      <Pagination pagination={pagination} basePath="/dashboard/audit" />
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
