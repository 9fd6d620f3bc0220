import type { LoaderFunctionArgs } from '@remix-run/node';
import { methodNotAllowed } from '~/lib/api.server';
import { conditionalResponse } from '~/lib/http-cache.server';
import { openApiDocument } from '~/services/openapi.server';

/** GET /api/openapi.json: the OpenAPI 3.1 document of this API (public). */
export function loader({ request }: LoaderFunctionArgs) {
  return conditionalResponse(request, JSON.stringify(openApiDocument()), {
    headers: new Headers({
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'public, max-age=300',
      'Access-Control-Allow-Origin': '*',
    }),
  });
}

export function action() {
  return methodNotAllowed(['GET']);
}
