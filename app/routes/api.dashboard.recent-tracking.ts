import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listRecentTrackingEvents } from '~/models/dashboard.server';
import { RecentTrackingQuerySchema } from '~/schemas/dashboard';
import { handleApi, methodNotAllowed, parseQuery } from '~/lib/api.server';
import { requireApiUser } from '~/services/auth.server';

export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const { limit } = parseQuery(request, RecentTrackingQuerySchema);
    return json({ events: await listRecentTrackingEvents({ limit }) });
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
