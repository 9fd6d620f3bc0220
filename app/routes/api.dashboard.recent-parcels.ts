import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listRecentParcels } from '~/models/dashboard.server';
import { RecentParcelsQuerySchema } from '~/schemas/dashboard';
import { handleApi, methodNotAllowed, parseQuery } from '~/lib/api.server';
import { requireApiUser } from '~/services/auth.server';

export function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const { limit } = parseQuery(request, RecentParcelsQuerySchema);
    return json({ parcels: await listRecentParcels({ limit }) });
  });
}

export function action(_args: ActionFunctionArgs) {
  return methodNotAllowed(['GET']);
}
