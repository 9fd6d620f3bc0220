import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listEvents } from '~/models/tracking-event.server';
import { TrackingEventSchema } from '~/schemas/tracking-event';
import {
  ApiError,
  handleApi,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';
import { idempotent } from '~/services/idempotency.server';
import { addEvent } from '~/services/tracking-events.server';

/** GET /api/tracking/:parcelId/events → { events } newest first. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const parcelId = requireObjectId(params.parcelId, 'parcel id');
    const events = await listEvents(parcelId);
    if (!events) throw new ApiError(404, 'Parcel not found');
    return json({ events });
  });
}

/** POST /api/tracking/:parcelId/events → 201 { event }. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST') return methodNotAllowed(['GET', 'POST']);
    const user = await requireApiRole(request, 'staff');
    const parcelId = requireObjectId(params.parcelId, 'parcel id');
    return idempotent(request, async () => {
      const input = await readJsonBody(request, TrackingEventSchema);
      const event = await addEvent(parcelId, input, { user, context, via: 'api' });
      if (!event) throw new ApiError(404, 'Parcel not found');
      return json({ event }, { status: 201 });
    });
  });
}
