import { json } from '@remix-run/node';
import { listEvents } from '~/models/tracking-event.server';
import { TrackingEventSchema } from '~/schemas/tracking-event';
import { apiRoute, found } from '~/lib/api.server';
import { apiHandler } from '~/services/api-handler.server';
import { addEvent } from '~/services/tracking-events.server';

const NOT_FOUND = 'Parcel not found';
const ID = { parcelId: 'parcel id' };

export const { loader, action } = apiRoute({
  /** GET /api/tracking/:parcelId/events → { events } newest first. */
  GET: apiHandler({ role: 'viewer', ids: ID }, async ({ ids }) =>
    json({ events: await found(listEvents(ids.parcelId), NOT_FOUND) }),
  ),
  /** POST /api/tracking/:parcelId/events → 201 { event }. */
  POST: apiHandler(
    { role: 'staff', ids: ID, idempotent: true, body: TrackingEventSchema },
    async ({ ids, body, actor }) =>
      json({ event: await found(addEvent(ids.parcelId, body, actor), NOT_FOUND) }, { status: 201 }),
  ),
});
