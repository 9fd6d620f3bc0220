import type { MetaFunction } from '@remix-run/node';
import { Outlet, useLoaderData } from '@remix-run/react';
import { DashboardBrand, DashboardHeader } from '~/components/dashboard/dashboard-header';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { DashboardTabs } from '~/components/dashboard/dashboard-tabs';
import { RouteAnnouncer } from '~/components/route-announcer';
import { useCompany } from '~/utils/use-company';
import { dashboardLayoutLoader } from '~/http/dashboard-layout.server';
import { staffStyles } from '~/utils/stylesheets';

export { dashboardLayoutLoader as loader, staffStyles as links };

export const meta: MetaFunction = () => [{ title: 'Management dashboard' }];

export default function DashboardLayout() {
  const { user } = useLoaderData<typeof dashboardLayoutLoader>();
  const company = useCompany();
  return (
    <div className="flex min-h-full flex-1 flex-col">
      <a
        href="#dashboard-main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <DashboardHeader user={user} companyName={company.name} />
      <DashboardTabs role={user.role} />
      <main id="dashboard-main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
        <Outlet />
      </main>
      <RouteAnnouncer />
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <div className="flex min-h-full flex-1 flex-col">
      <header className="border-b border-gray-200 bg-white">
        <div className="mx-auto max-w-7xl px-4 py-3">
          <DashboardBrand homeLabel="Website home" />
        </div>
      </header>
      <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-10">
        <DashboardSectionError />
      </main>
    </div>
  );
}
