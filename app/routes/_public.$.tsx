import type { MetaFunction } from '@remix-run/node';
import { NotFound } from '~/components/error-boundary';
import { pageTitle } from '~/components/public/page-meta';

export async function loader() {
  throw new Response('Not Found', { status: 404 });
}

export const meta: MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Page not found') },
  { name: 'robots', content: 'noindex' },
];

export default function NotFoundPage() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return (
    <div className="mx-auto max-w-xl px-4">
      <NotFound />
    </div>
  );
}
