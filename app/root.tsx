import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from '@remix-run/react';
import type { ReactNode } from 'react';
import { GeneralErrorBoundary } from './components/error-boundary';
import { Toaster } from './components/toaster';
import { publicCompanyInfo } from './lib/env.server';
import { getToast } from './lib/flash.server';
import { useNonce } from './utils/nonce-provider';
import { shouldHydrate } from './utils/route-handle';
import { requestLanguage } from './lib/i18n.server';
import { publicUrl } from './lib/urls.server';
import { languageDirection, SOURCE_LANGUAGE } from './schemas/languages';
import { languageAlternates, languageUrl, pageLanguage } from './utils/page-language';
import { publicStylesheet } from './utils/stylesheets';

// Each side's layout links its own stylesheet (utils/stylesheets.ts).
export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const { toast, headers } = await getToast(request);
  return json(
    {
      toast,
      company: publicCompanyInfo(),
      // The public pages' language (a tracking result may name its recipient's instead).
      language: await requestLanguage(request),
      siteUrl: new URL(publicUrl('/')).origin,
    },
    { headers: headers ?? undefined },
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.company.name ?? 'Courier' },
  {
    name: 'description',
    content: 'Fast, reliable parcel delivery with real-time tracking worldwide.',
  },
];

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const nonce = useNonce();
  const matches = useMatches();
  const location = useLocation();
  // Public pages ship no framework JavaScript (see their layout's handle); they are in the
  // reader's language, the staff's pages in English.
  const hydrate = shouldHydrate(matches);
  const language = hydrate ? SOURCE_LANGUAGE : pageLanguage(matches);
  const site = data?.siteUrl ?? '';
  return (
    <html lang={language} dir={languageDirection(language)} className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {hydrate ? null : (
          <>
            <link
              rel="canonical"
              href={languageUrl(
                site,
                location.pathname,
                location.search,
                new URLSearchParams(location.search).has('lang') ? language : null,
              )}
            />
            {languageAlternates(site, location.pathname, location.search).map((alternate) => (
              <link key={alternate.hrefLang} rel="alternate" {...alternate} />
            ))}
          </>
        )}
      </head>
      <body className="flex min-h-full flex-col bg-gray-50 text-gray-900 antialiased">
        {children}
        <Toaster toast={data?.toast ?? null} />
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

export function ErrorBoundary() {
  // Without any route below the root, no layout links a stylesheet: the public site's is used.
  return (
    <>
      <link rel="stylesheet" href={publicStylesheet} />
      <main className="mx-auto flex max-w-xl flex-1 flex-col items-center justify-center px-4 py-16 text-center">
        <GeneralErrorBoundary />
      </main>
    </>
  );
}
