import { NavLink } from '@remix-run/react';

export const DASHBOARD_TABS = [
  { to: '/dashboard', label: 'Overview', end: true },
  { to: '/dashboard/parcels', label: 'Parcels', end: false },
  { to: '/dashboard/tracking', label: 'Tracking', end: false },
  { to: '/dashboard/notifications', label: 'Notifications', end: false },
  { to: '/dashboard/receipts', label: 'Receipts', end: false },
] as const;

export const SETTINGS_TAB = { to: '/dashboard/settings', label: 'Settings', end: false } as const;

/**
 * The five dashboard sections as links, and Settings (API keys, webhooks) for admins; on a phone
 * the row scrolls sideways.
 */
export function DashboardTabs({ showSettings = false }: { showSettings?: boolean }) {
  const tabs = showSettings ? [...DASHBOARD_TABS, SETTINGS_TAB] : DASHBOARD_TABS;
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
