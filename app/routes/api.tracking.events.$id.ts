import { audit } from '~/services/audit.server';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { deleteEvent, getEvent, updateEvent } from '~/models/tracking-event.server';
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
    if (request.method === 'DELETE') {
      const removed = await deleteEvent(id);
      if (!removed) throw new ApiError(404, 'Tracking event not found');
      await audit(
        { user, context, via: 'api' },
        {
          action: 'delete',
          entity: 'event',
          entityId: removed.id,
          label: removed.status,
          parcelId: removed.parcelId,
          before: removed,
        },
      );
      return json({ success: true, message: 'Tracking event deleted' });
    }
    const input = await readJsonBody(request, TrackingEventUpdateSchema);
    const before = await getEvent(id);
    const event = await updateEvent(id, input);
    if (!event) throw new ApiError(404, 'Tracking event not found');
    await audit(
      { user, context, via: 'api' },
      {
        action: 'update',
        entity: 'event',
        entityId: event.id,
        label: event.status,
        parcelId: event.parcelId,
        before,
        after: event,
      },
    );
    return json({ event });
  });
}
