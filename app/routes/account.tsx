import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, NavLink, Outlet, useLoaderData } from '@remix-run/react';
import { getAccount } from '~/models/account.server';
import { isAccountAdmin, requireShipper } from '~/http/auth.server';
import { staffStyles } from '~/utils/stylesheets';

export { staffStyles as links };

/**
 * The shipper portal: an account's own parcels, for its users. Every page works without
 * JavaScript and reads through the account's scope (app/lib/tenancy.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  const account = await getAccount(user.account.accountId);
  return json({
    user: { name: user.name, email: user.email },
    accountName: account?.name ?? '',
    isAdmin: isAccountAdmin(user),
  });
}

export const meta: MetaFunction = () => [
  { title: 'Your shipping account' },
  { name: 'robots', content: 'noindex' },
];

const LINKS = [
  { to: '/account', label: 'Overview', end: true },
  { to: '/account/parcels', label: 'Parcels', end: false },
  { to: '/account/send', label: 'Send a parcel', end: false },
  { to: '/account/users', label: 'Users', end: false },
  { to: '/account/api-keys', label: 'API keys', end: false, admin: true },
  { to: '/account/webhooks', label: 'Webhooks', end: false, admin: true },
  { to: '/account/pickups', label: 'Pickups', end: false },
  { to: '/account/statements', label: 'Statements', end: false },
];

export default function AccountLayout() {
  const { user, accountName, isAdmin } = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-full flex-1 flex-col">
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <p className="font-semibold text-gray-900">{accountName}</p>
          <nav aria-label="Account" className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
            {LINKS.filter((link) => isAdmin || !link.admin).map((link) => (
              <NavLink
                key={link.to}
                to={link.to}
                end={link.end}
                className={({ isActive }) =>
                  isActive ? 'font-semibold text-brand-700' : 'text-gray-700 hover:underline'
                }
              >
                {link.label}
              </NavLink>
            ))}
          </nav>
          <Form method="post" action="/logout" className="ms-auto text-sm">
            <span className="me-2 text-gray-600">{user.email}</span>
            <button type="submit" className="text-brand-700 hover:underline">
              Sign out
            </button>
          </Form>
        </div>
      </header>
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}
