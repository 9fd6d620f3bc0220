import type { LoaderFunctionArgs, MetaFunction, SerializeFrom } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { RoleBadge } from '~/components/dashboard/dashboard-header';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { DataTable, type Column } from '~/components/ui/data-table';
import { listUsers } from '~/models/user.server';
import { requireUserWithRole } from '~/http/auth.server';
import { formatDate } from '~/utils/format';
import { useCompany } from '~/utils/use-company';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'admin');
  return json({ users: await listUsers() });
}

export const meta: MetaFunction = () => [{ title: 'Users · Management dashboard' }];

type UserRow = SerializeFrom<typeof loader>['users'][number];

const NARROW_HIDDEN = 'hidden md:table-cell';

function userColumns(timeZone: string): Column<UserRow>[] {
  return [
    {
      header: 'Username',
      rowHeader: true,
      cellClassName: 'font-normal',
      cell: (user) => (
        <Link
          to={`/dashboard/users/${user.id}`}
          className="font-semibold text-brand-700 hover:underline"
        >
          {user.username}
        </Link>
      ),
    },
    { header: 'Name', cell: (user) => user.name || '—' },
    {
      header: 'E-mail',
      className: NARROW_HIDDEN,
      cellClassName: 'break-all',
      cell: (user) => user.email || '—',
    },
    { header: 'Role', cell: (user) => <RoleBadge role={user.role} /> },
    {
      header: 'State',
      cell: (user) =>
        user.disabled ? (
          <span className="text-red-700">Disabled</span>
        ) : user.mustChangePassword ? (
          'Temporary password'
        ) : (
          'Active'
        ),
    },
    {
      header: 'Added',
      className: NARROW_HIDDEN,
      cell: (user) => formatDate(user.createdAt, timeZone),
    },
  ];
}

export default function UsersPage() {
  const { timeZone } = useCompany();
  const { users } = useLoaderData<typeof loader>();
  const columns = userColumns(timeZone);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-gray-900">Users</h1>
        <Link to="/dashboard/users/new" className="btn-primary">
          Add User
        </Link>
      </div>
      <DataTable
        caption="Users"
        className="card w-full text-left text-sm"
        columns={columns}
        rows={users}
        rowKey={(user) => user.id}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
