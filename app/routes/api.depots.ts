import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listDepots } from '~/models/depot.server';
import { DepotSchema } from '~/schemas/depot';
import { ApiError, handleApi, methodNotAllowed, readJsonBody } from '~/lib/api.server';
import { requireApiRole } from '~/services/auth.server';
import { createDepot, DepotNameTaken } from '~/services/depots.server';
import { idempotent } from '~/services/idempotency.server';

/** GET /api/depots → {depots} by name: for couriers and staff, who scan at them. */
export async function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiRole(request, 'courier');
    return json({ depots: await listDepots() });
  });
}

/** POST {name, address?, timeZone} → 201 {depot} (admin); 409 for a name already taken. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
  return handleApi(async () => {
    const user = await requireApiRole(request, 'admin');
    return idempotent(request, async () => {
      const input = await readJsonBody(request, DepotSchema);
      try {
        const depot = await createDepot(input, { user, context, via: 'api' });
        return json({ depot }, { status: 201 });
      } catch (error) {
        if (error instanceof DepotNameTaken) throw new ApiError(409, error.message);
        throw error;
      }
    });
  });
}
