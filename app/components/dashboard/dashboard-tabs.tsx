import { NavLink } from '@remix-run/react';
import { hasRole, type UserRole } from '~/schemas/roles';

export const DASHBOARD_TABS = [
  { to: '/dashboard', label: 'Overview', end: true },
  { to: '/dashboard/parcels', label: 'Parcels', end: false },
  { to: '/dashboard/tracking', label: 'Tracking', end: false },
  { to: '/dashboard/notifications', label: 'Notifications', end: false },
  { to: '/dashboard/receipts', label: 'Receipts', end: false },
] as const;

/** For couriers, staff and admins: the scan station and their run of the day. */
export const COURIER_TABS = [
  { to: '/dashboard/scan', label: 'Scan', end: false },
  { to: '/dashboard/my-run', label: 'My run', end: false },
] as const;

/** Where a courier lands (the dashboard's overview sends them there). */
export const COURIER_HOME = '/dashboard/scan';

/**
 * What a courier's work needs, their station first: no overview of revenue, no e-mails or
 * receipts.
 */
const COURIER_SECTIONS = new Set([
  '/dashboard/scan',
  '/dashboard/my-run',
  '/dashboard/parcels',
  '/dashboard/tracking',
]);

/**
 * Sections for staff and admins: deliveries that need someone (failed attempts, parcels gone
 * quiet), and what visitors sent (contact, quotes, newsletter).
 */
export const STAFF_TABS = [
  { to: '/dashboard/exceptions', label: 'Exceptions', end: false },
  { to: '/dashboard/dispatch', label: 'Dispatch', end: false },
  { to: '/dashboard/pickups', label: 'Pickups', end: false },
  { to: '/dashboard/reports', label: 'Reports', end: false },
  { to: '/dashboard/inbox', label: 'Inbox', end: false },
] as const;

/** Sections only admins see: users, the audit trail, and Settings (API keys, webhooks). */
export const ADMIN_TABS = [
  { to: '/dashboard/users', label: 'Users', end: false },
  { to: '/dashboard/audit', label: 'Audit', end: false },
  { to: '/dashboard/settings', label: 'Settings', end: false },
] as const;

/** The dashboard sections as links; on a phone the row scrolls sideways. */
export function DashboardTabs({ role }: { role: UserRole }) {
  const tabs =
    role === 'courier'
      ? [...COURIER_TABS, ...DASHBOARD_TABS].filter((tab) => COURIER_SECTIONS.has(tab.to))
      : [
          ...DASHBOARD_TABS,
          ...(hasRole({ role }, 'courier') ? COURIER_TABS : []),
          ...(hasRole({ role }, 'staff') ? STAFF_TABS : []),
          ...(hasRole({ role }, 'admin') ? ADMIN_TABS : []),
        ];
  return (
    <nav aria-label="Dashboard sections" className="border-b border-gray-200 bg-white">
      <ul className="mx-auto flex max-w-7xl gap-1 overflow-x-auto whitespace-nowrap px-4">
        {tabs.map((tab) => (
          <li key={tab.to} className="shrink-0">
            <NavLink
              to={tab.to}
              end={tab.end}
              prefetch="intent"
              className={({ isActive }) =>
                `inline-block border-b-2 px-4 py-3 text-sm font-medium ${
                  isActive
                    ? 'border-brand-600 text-brand-700'
                    : 'border-transparent text-gray-600 hover:border-gray-300 hover:text-gray-900'
                }`
              }
            >
              {tab.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
