import { apiRoute } from '~/http/api.server';
import { conditionalResponse } from '~/lib/http-cache.server';
import { openApiDocument } from '~/http/openapi.server';

export const { loader, action } = apiRoute({
  /** GET /api/openapi.json: the OpenAPI 3.1 document of this API (public). */
  GET: ({ request }) =>
    conditionalResponse(request, JSON.stringify(openApiDocument(new URL(request.url).origin)), {
      headers: new Headers({
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': 'public, max-age=300',
        'Access-Control-Allow-Origin': '*',
      }),
    }),
});
