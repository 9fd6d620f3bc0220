import type { MetaFunction } from '@remix-run/node';
import { NotFound } from '~/components/error-boundary';
import { pageTitle } from '~/components/public/page-meta';
import { usePageText } from '~/components/public/page-text';
import { metaText } from '~/utils/page-language';

export async function loader() {
  throw new Response('Not Found', { status: 404 });
}

export const meta: MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, metaText('pages:notFound.title')) },
  { name: 'robots', content: 'noindex' },
];

/** The 404 page in the page's language. */
function PublicNotFound() {
  const { t, href } = usePageText();
  return (
    <NotFound
      words={{
        heading: t('notFound.heading'),
        text: t('notFound.text'),
        home: t('notFound.home'),
        homeHref: href('/'),
      }}
    />
  );
}

export default function NotFoundPage() {
  return <PublicNotFound />;
}

export function ErrorBoundary() {
  return (
    <div className="mx-auto max-w-xl px-4">
      <PublicNotFound />
    </div>
  );
}
