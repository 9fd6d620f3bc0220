import { json } from '@remix-run/node';
import { apiRoute } from '~/http/api.server';
import { pingDb } from '~/lib/db.server';

export const { loader, action } = apiRoute({
  GET: async () => {
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
});
