import { json } from '@remix-run/node';
import { apiRoute } from '~/http/api.server';
import { pingDb } from '~/lib/db.server';
import { declared, example, ref } from '~/http/api-operation.server';

export const { loader, action } = apiRoute({
  GET: declared(
    {
      access: 'public',
      summary: 'Health and database',
      description:
        'Whether the app and its database answer (503 when the database does not). Public, for load balancers and monitors; never cached.',
      responses: { 200: 'Health' },
      errors: [503],
      errorAnswers: {
        503: {
          schema: ref('Health'),
          example: { ...(example('Health') as object), status: 'error', database: 'down' },
        },
      },
    },
    async () => {
      const up = await pingDb();
      return json(
        {
          status: up ? 'ok' : 'error',
          database: up ? 'up' : 'down',
          timestamp: new Date().toISOString(),
        },
        { status: up ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
      );
    },
  ),
});
