import { openApiDocument } from '~/api-routes.server';
import { apiRoute } from '~/http/api.server';
import { declared, obj } from '~/http/api-operation.server';
import { conditionalResponse } from '~/lib/http-cache.server';

export const { loader, action } = apiRoute({
  GET: declared(
    {
      access: 'public',
      etag: true,
      summary: 'This document',
      description:
        'This OpenAPI 3.1 document, public and cacheable (5 minutes; an ETag for If-None-Match); /api/docs renders it with a guide.',
      responses: {
        200: {
          schema: obj({
            openapi: { type: 'string', pattern: '^3\\.1\\.' },
            info: { type: 'object' },
            paths: { type: 'object' },
          }),
          example: { openapi: '3.1.0', info: { title: 'API', version: '1.0.0' }, paths: {} },
        },
      },
    },
    ({ request }) =>
      conditionalResponse(request, JSON.stringify(openApiDocument(new URL(request.url).origin)), {
        headers: new Headers({
          'Content-Type': 'application/json; charset=utf-8',
          'Cache-Control': 'public, max-age=300',
          'Access-Control-Allow-Origin': '*',
        }),
      }),
  ),
});
