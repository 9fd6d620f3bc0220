import { json } from '@remix-run/node';
import { methodNotAllowed } from '~/lib/api.server';
import { pingDb } from '~/lib/db.server';

export async function loader() {
  const up = await pingDb();
  return json(
    {
      status: up ? 'ok' : 'error',
      database: up ? 'up' : 'down',
      timestamp: new Date().toISOString(),
    },
    { status: up ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}

export function action() {
  return methodNotAllowed(['GET']);
}
