import { isRouteErrorResponse, Link, useRouteError } from '@remix-run/react';
import type { ReactNode } from 'react';

type StatusHandler = (info: { status: number; data: unknown }) => ReactNode;

function messageOf(data: unknown): string | null {
  if (typeof data === 'string' && data.trim()) return data;
  if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string')
    return data.message;
  return null;
}

export function GeneralErrorBoundary({
  statusHandlers,
  unexpected,
}: {
  statusHandlers?: Record<number, StatusHandler>;
  unexpected?: () => ReactNode;
}) {
  const error = useRouteError();
  if (typeof document !== 'undefined' && !isRouteErrorResponse(error)) console.error(error);

  if (isRouteErrorResponse(error)) {
    const handler = statusHandlers?.[error.status];
    if (handler) return <>{handler({ status: error.status, data: error.data })}</>;
    if (error.status === 404) return <NotFound />;
    return (
      <div role="alert" className="space-y-4">
        <h1 className="text-2xl font-bold">Something went wrong</h1>
        <p className="text-gray-600">{messageOf(error.data) ?? `Error ${error.status}`}</p>
        <Link to="/" reloadDocument className="btn-primary">
          Return to Home
        </Link>
      </div>
    );
  }
  if (unexpected) return <>{unexpected()}</>;
  return (
    <div role="alert" className="space-y-4">
      <h1 className="text-2xl font-bold">Unexpected Application Error!</h1>
      <p className="text-gray-600">
        Something went wrong on our side. Please try again in a moment.
      </p>
      <Link to="/" reloadDocument className="btn-primary">
        Return to Home
      </Link>
    </div>
  );
}

const NOT_FOUND_WORDS = {
  heading: 'Oops! Page not found',
  text: 'The page you are looking for has moved, or never existed.',
  home: 'Return to Home',
  homeHref: '/',
};

/** The 404 page: in English, or in the words the public site gives it in the page's language. */
export function NotFound({ words = NOT_FOUND_WORDS }: { words?: typeof NOT_FOUND_WORDS }) {
  return (
    <div className="space-y-4 py-16 text-center">
      <p className="text-6xl font-extrabold text-brand-600">404</p>
      <h1 className="text-3xl font-bold">{words.heading}</h1>
      <p className="text-gray-600">{words.text}</p>
      <Link to={words.homeHref} reloadDocument className="btn-primary">
        {words.home}
      </Link>
    </div>
  );
}
