import { apiErrorResponse } from '~/http/api.server';

/**
 * Any /api path no route takes: the API's JSON 404, whatever the method, never the site's page.
 */
function notFound(request: Request) {
  const { pathname } = new URL(request.url);
  return apiErrorResponse(404, `No API endpoint at ${pathname}`);
}

export function loader({ request }: { request: Request }) {
  return notFound(request);
}

export function action({ request }: { request: Request }) {
  return notFound(request);
}
