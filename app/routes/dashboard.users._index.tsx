import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { RoleBadge } from '~/components/dashboard/dashboard-header';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { listUsers } from '~/models/user.server';
import { requireUserWithRole } from '~/services/auth.server';
import { formatDate } from '~/utils/format';
import { useCompany } from '~/root';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'admin');
  return json({ users: await listUsers() });
}

export const meta: MetaFunction = () => [{ title: 'Users · Management dashboard' }];

export default function UsersPage() {
  const { timeZone } = useCompany();
  const { users } = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-gray-900">Users</h1>
        <Link to="/dashboard/users/new" className="btn-primary">
          Add User
        </Link>
      </div>
      <table className="card w-full text-left text-sm">
        <caption className="sr-only">Users</caption>
        <thead className="border-b border-gray-200 bg-gray-50">
          <tr>
            <th scope="col" className="px-3 py-2">
              Username
            </th>
            <th scope="col" className="px-3 py-2">
              Name
            </th>
            <th scope="col" className="hidden px-3 py-2 md:table-cell">
              E-mail
            </th>
            <th scope="col" className="px-3 py-2">
              Role
            </th>
            <th scope="col" className="px-3 py-2">
              State
            </th>
            <th scope="col" className="hidden px-3 py-2 md:table-cell">
              Added
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-200">
          {users.map((user) => (
            <tr key={user.id}>
              <th scope="row" className="px-3 py-2 font-normal">
                <Link
                  to={`/dashboard/users/${user.id}`}
                  className="font-semibold text-brand-700 hover:underline"
                >
                  {user.username}
                </Link>
              </th>
              <td className="px-3 py-2">{user.name || '—'}</td>
              <td className="hidden break-all px-3 py-2 md:table-cell">{user.email || '—'}</td>
              <td className="px-3 py-2">
                <RoleBadge role={user.role} />
              </td>
              <td className="px-3 py-2">
                {user.disabled ? (
                  <span className="text-red-700">Disabled</span>
                ) : user.mustChangePassword ? (
                  'Temporary password'
                ) : (
                  'Active'
                )}
              </td>
              <td className="hidden px-3 py-2 md:table-cell">
                {formatDate(user.createdAt, timeZone)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
