import { Outlet } from '@remix-run/react';
import { SiteFooter } from '~/components/public/site-footer';
import { SiteHeader } from '~/components/public/site-header';
import { useCompany } from '~/root';
import type { RouteHandle } from '~/utils/route-handle';

// The public site is plain HTML and CSS: visitors on slow phones get the page in one round trip,
// with none of the framework's JavaScript.
export const handle: RouteHandle = { hydrate: false };

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
