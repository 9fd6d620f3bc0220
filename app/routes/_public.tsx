import type { HeadersFunction } from '@remix-run/node';
import { Outlet } from '@remix-run/react';
import { SiteFooter } from '~/components/public/site-footer';
import { SiteHeader } from '~/components/public/site-header';
import { useCompany } from '~/utils/use-company';
import { PUBLIC_PAGE_CACHE } from '~/lib/http-cache.server';
import type { RouteHandle } from '~/utils/route-handle';

// The public site is plain HTML and CSS: visitors on slow phones get the page in one round trip,
// with none of the framework's JavaScript.
export const handle: RouteHandle = { hydrate: false };

// Marketing pages are the same for everyone, so any cache may keep them for five minutes. A flash
// message travels in a cookie: `Vary: Cookie` makes a browser ask again once one is set, and a
// page that shows it (clearing the cookie) is not stored at all (see entry.server).
export const headers: HeadersFunction = () => ({
  'Cache-Control': PUBLIC_PAGE_CACHE,
  Vary: 'Cookie',
});

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
      <main id="main" className="public-main flex-1">
        <Outlet />
      </main>
      <SiteFooter company={company} />
    </>
  );
}
