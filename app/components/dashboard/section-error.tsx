import { Link, useLocation } from '@remix-run/react';
import { GeneralErrorBoundary } from '~/components/error-boundary';

/**
 * The dashboard's section error boundary: 'Something went wrong' with 'Try Again' (runs the
 * loaders again) and 'Reload Page' (a full page load). Both are links, so they work without JS.
 */
export function DashboardSectionError() {
  const location = useLocation();
  const here = location.pathname + location.search;
  const actions = (
    <div className="flex flex-wrap gap-3">
      <Link to={here} className="btn-primary">
        Try Again
      </Link>
      <Link to={here} reloadDocument className="btn-secondary">
        Reload Page
      </Link>
    </div>
  );
  const fallback = (message: string) => (
    <div role="alert" className="card space-y-4 p-6">
      <h2 className="text-xl font-bold text-gray-900">Something went wrong</h2>
      <p className="text-gray-600">{message}</p>
      {actions}
    </div>
  );
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        403: ({ data }) =>
          fallback(
            data &&
              typeof data === 'object' &&
              'message' in data &&
              typeof data.message === 'string'
              ? `You do not have access to this. ${data.message}.`
              : 'You do not have access to this.',
          ),
        404: () => fallback('We could not find what you were looking for.'),
        500: () => fallback('Something went wrong on our side. Please try again.'),
        503: () => fallback('The service is temporarily unavailable. Please try again.'),
      }}
      unexpected={() => fallback('Something went wrong on our side. Please try again.')}
    />
  );
}
