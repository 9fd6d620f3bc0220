import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { getEvent } from '~/models/tracking-event.server';
import { TrackingEventUpdateSchema } from '~/schemas/tracking-event';
import {
  ApiError,
  handleApi,
  jsonWithEtag,
  methodNotAllowed,
  readJsonBody,
  requireObjectId,
} from '~/lib/api.server';
import { requireApiRole, requireApiUser } from '~/services/auth.server';
import { deleteEvent, updateEvent } from '~/services/tracking-events.server';

/** GET /api/tracking/events/:id → { event } (with its parcelId). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await requireApiUser(request);
    const id = requireObjectId(params.id, 'event id');
    const event = await getEvent(id);
    if (!event) throw new ApiError(404, 'Tracking event not found');
    return jsonWithEtag(request, { event });
  });
}

/** PUT /api/tracking/events/:id → { event }; DELETE → { success, message }. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'PUT' && request.method !== 'DELETE')
      return methodNotAllowed(['GET', 'PUT', 'DELETE']);
    const user = await requireApiRole(request, 'staff');
    const id = requireObjectId(params.id, 'event id');
    const actor = { user, context, via: 'api' } as const;
    if (request.method === 'DELETE') {
      const removed = await deleteEvent(id, {}, actor);
      if (!removed) throw new ApiError(404, 'Tracking event not found');
      return json({ success: true, message: 'Tracking event deleted' });
    }
    const input = await readJsonBody(request, TrackingEventUpdateSchema);
    const event = await updateEvent(id, input, {}, actor);
    if (!event) throw new ApiError(404, 'Tracking event not found');
    return json({ event });
  });
}
