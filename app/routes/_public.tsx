import type { HeadersFunction } from '@remix-run/node';
import { Outlet } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { SiteFooter } from '~/components/public/site-footer';
import { SiteHeader } from '~/components/public/site-header';
import { useCompany } from '~/utils/use-company';
import { PUBLIC_PAGE_CACHE } from '~/lib/http-cache.server';
import type { RouteHandle } from '~/utils/route-handle';
import { publicStyles } from '~/utils/stylesheets';

export { publicStyles as links };

// The public site is plain HTML and CSS: visitors on slow phones get the page in one round trip,
// with none of the framework's JavaScript.
export const handle: RouteHandle = { hydrate: false };

// Marketing pages are the same for everyone who reads the same language, so any cache may keep
// them for five minutes. A flash message and the footer's choice of language travel in cookies:
// `Vary: Cookie` makes a browser ask again once one is set, and a page that shows a flash message
// (clearing the cookie) is not stored at all (see entry.server); `Accept-Language` picks the
// language of a visitor who chose none.
export const headers: HeadersFunction = () => ({
  'Cache-Control': PUBLIC_PAGE_CACHE,
  Vary: 'Cookie, Accept-Language',
});

export default function PublicLayout() {
  const company = useCompany();
  const { t } = useTranslation('public');
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:start-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        {t('layout.skip')}
      </a>
      <SiteHeader company={company} />
      <main id="main" className="public-main flex-1">
        <Outlet />
      </main>
      <SiteFooter company={company} />
    </>
  );
}
