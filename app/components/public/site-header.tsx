import { useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { CompanyInfo } from '~/lib/env.server';
import { keepLanguage } from '~/utils/page-language';
import { Logo } from './logo';

/** The site's pages, each named by its `layout.nav` message. */
export const NAV_LINKS = [
  { to: '/', label: 'home' },
  { to: '/track', label: 'track' },
  { to: '/services', label: 'services' },
  { to: '/about', label: 'about' },
  { to: '/contact', label: 'contact' },
] as const;

function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** Whether a navigation entry is the page being shown (or a page under it). */
function isCurrent(pathname: string, to: string): boolean {
  return to === '/' ? pathname === '/' : pathname === to || pathname.startsWith(`${to}/`);
}

/** The site's pages, the current one marked: in the bar on wide screens, in the menu on phones. */
function NavLinks({
  pathname,
  className,
  linkClassName,
}: {
  pathname: string;
  className: string;
  linkClassName: (current: boolean) => string;
}) {
  const { t } = useTranslation('public');
  const { search } = useLocation();
  return (
    <ul className={className}>
      {NAV_LINKS.map((link) => {
        const current = isCurrent(pathname, link.to);
        return (
          <li key={link.to}>
            <a
              href={keepLanguage(link.to, search)}
              aria-current={current ? 'page' : undefined}
              className={linkClassName(current)}
            >
              {t(`layout.nav.${link.label}`)}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Plain links, and a `<details>` menu on narrow screens: the public pages run no JavaScript, so
 * every link is an ordinary page load.
 */
export function SiteHeader({ company }: { company: CompanyInfo }) {
  const { pathname, search } = useLocation();
  const { t } = useTranslation('public');
  return (
    <header className="bg-white shadow-sm">
      <div className="bg-brand-800 text-sm text-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-2">
          <div className="flex min-w-0 flex-wrap items-center gap-x-6 gap-y-1">
            <a href={telHref(company.phone)} className="hover:underline">
              <span aria-hidden="true">☎ </span>
              <bdi>{t('layout.phone', { phone: company.phone })}</bdi>
            </a>
            <a
              href={`mailto:${company.email}`}
              className="[overflow-wrap:anywhere] hover:underline"
            >
              <span aria-hidden="true">✉ </span>
              {company.email}
            </a>
          </div>
          <div className="flex items-center gap-4">
            <span className="hidden sm:inline">{t('layout.tagline')}</span>
            <a
              href={keepLanguage('/quote', search)}
              className="rounded bg-accent-700 px-3 py-1 font-semibold text-white hover:bg-accent-800"
            >
              {t('layout.getQuote')}
            </a>
          </div>
        </div>
      </div>
      <nav
        aria-label={t('layout.mainNav')}
        className="mx-auto flex min-h-[3.875rem] max-w-7xl items-center justify-between gap-4 px-4 py-3 md:min-h-0"
      >
        <a
          href={keepLanguage('/', search)}
          aria-label={t('layout.homeLink', { company: company.name })}
          className="min-w-0"
        >
          <Logo name={company.name} />
        </a>
        <NavLinks
          pathname={pathname}
          className="hidden items-center gap-1 md:flex"
          linkClassName={(current) =>
            `rounded-md px-3 py-2 text-sm font-medium ${
              current ? 'bg-brand-50 text-brand-700' : 'text-gray-700 hover:bg-gray-100'
            }`
          }
        />
        {/* A fixed box, and the bar above (min-h) as tall as it: on a slow phone the browser can
            paint the header before it has read the menu, and a bar sized by its content would then
            grow and move the logo. */}
        <details
          className="group relative h-[2.375rem] w-[5.5rem] shrink-0 md:hidden"
          data-mobile-menu
        >
          <summary className="block h-full list-none whitespace-nowrap rounded-md border border-gray-300 text-center text-sm font-medium leading-9 text-gray-800 [&::-webkit-details-marker]:hidden">
            <span aria-hidden="true">☰</span> {t('layout.menu')}
          </summary>
          <NavLinks
            pathname={pathname}
            className="absolute end-0 z-40 mt-2 w-56 max-w-[calc(100vw-2rem)] rounded-md border border-gray-200 bg-white py-2 shadow-lg"
            linkClassName={(current) =>
              `block px-4 py-3 text-base ${
                current
                  ? 'bg-brand-50 font-semibold text-brand-700'
                  : 'text-gray-700 hover:bg-gray-100'
              }`
            }
          />
        </details>
      </nav>
    </header>
  );
}
