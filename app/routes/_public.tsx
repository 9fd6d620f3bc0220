import { Outlet } from '@remix-run/react';
import { SiteFooter } from '~/components/public/site-footer';
import { SiteHeader } from '~/components/public/site-header';
import { useCompany } from '~/root';

export default function PublicLayout() {
  const company = useCompany();
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <SiteHeader company={company} />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter company={company} />
    </>
  );
}
