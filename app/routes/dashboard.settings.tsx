import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { NavLink, Outlet } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { requireRole, requireUser } from '~/http/auth.server';

/** Settings for admins: API keys and webhooks for integrators. */
export async function loader({ request }: LoaderFunctionArgs) {
  requireRole(await requireUser(request), 'admin', 'page');
  return json({});
}

export const meta: MetaFunction = () => [{ title: 'Settings · Management dashboard' }];

const SECTIONS = [
  { to: '/dashboard/settings/api-keys', label: 'API keys' },
  { to: '/dashboard/settings/webhooks', label: 'Webhooks' },
  { to: '/dashboard/settings/depots', label: 'Depots' },
  { to: '/dashboard/settings/accounts', label: 'Accounts' },
  { to: '/dashboard/settings/prices', label: 'Prices' },
];

export default function Settings() {
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold text-gray-900">Settings</h1>
      <nav aria-label="Settings sections">
        <ul className="flex gap-2">
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                className={({ isActive }) =>
                  `inline-block rounded-md px-3 py-2 text-sm font-medium ${
                    isActive ? 'bg-brand-50 text-brand-700' : 'text-gray-600 hover:bg-gray-100'
                  }`
                }
              >
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
