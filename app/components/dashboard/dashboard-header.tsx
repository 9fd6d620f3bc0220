import { Form, Link } from '@remix-run/react';
import { Logo } from '~/components/public/logo';
import type { PublicUser } from '~/models/user.server';

export function RoleBadge({ role }: { role: string }) {
  const style = role === 'admin' ? 'bg-brand-100 text-brand-800' : 'bg-gray-100 text-gray-700';
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${style}`}
    >
      {role}
    </span>
  );
}

/** The dashboard's name beside the logo, which leads back to the website. */
export function DashboardBrand({ homeLabel }: { homeLabel: string }) {
  return (
    <div className="flex items-center gap-3">
      <Link to="/" reloadDocument aria-label={homeLabel}>
        <Logo name="" />
      </Link>
      <div>
        <p className="text-lg font-bold leading-tight text-gray-900">Management</p>
        <p className="text-sm text-gray-600">Admin Dashboard</p>
      </div>
    </div>
  );
}

export function DashboardHeader({
  user,
  companyName,
}: {
  user: Pick<PublicUser, 'name' | 'username' | 'role'>;
  companyName: string;
}) {
  return (
    <header className="border-b border-gray-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <DashboardBrand homeLabel={`${companyName} website`} />
        <div className="flex items-center gap-3">
          <p className="flex items-center gap-2 text-sm" data-testid="current-user">
            <span className="sr-only">Signed in as</span>
            <span className="font-medium text-gray-900">{user.name || user.username}</span>
            <RoleBadge role={user.role} />
          </p>
          <Link
            to="/dashboard/account"
            className="inline-flex min-h-6 items-center text-sm text-brand-700 hover:underline"
          >
            Account
          </Link>
          <Form method="post" action="/logout">
            <button type="submit" className="btn-secondary">
              Logout
            </button>
          </Form>
        </div>
      </div>
    </header>
  );
}
