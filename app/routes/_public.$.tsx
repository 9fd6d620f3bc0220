import { NotFound } from '~/components/error-boundary';

export async function loader() {
  throw new Response('Not Found', { status: 404 });
}

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
