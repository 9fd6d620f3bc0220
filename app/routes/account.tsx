import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, NavLink, Outlet, useLoaderData } from '@remix-run/react';
import { getAccount } from '~/models/account.server';
import { requireShipper } from '~/http/auth.server';

/**
 * The shipper portal: an account's own parcels, for its users. Every page works without
 * JavaScript and reads through the account's scope (app/lib/tenancy.server.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShipper(request);
  const account = await getAccount(user.account.accountId);
  return json({ user: { name: user.name, email: user.email }, accountName: account?.name ?? '' });
}

export const meta: MetaFunction = () => [
  { title: 'Your shipping account' },
  { name: 'robots', content: 'noindex' },
];

const LINKS = [
  { to: '/account', label: 'Overview', end: true },
  { to: '/account/parcels', label: 'Parcels', end: false },
  { to: '/account/pickups', label: 'Pickups', end: false },
  { to: '/account/statements', label: 'Statements', end: false },
];

export default function AccountLayout() {
  const { user, accountName } = useLoaderData<typeof loader>();
  return (
    <div className="flex min-h-full flex-1 flex-col">
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <p className="font-semibold text-gray-900">{accountName}</p>
          <nav aria-label="Account" className="flex gap-3 text-sm">
            {LINKS.map((link) => (
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
