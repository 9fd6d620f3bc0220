import { json } from '@remix-run/node';
import { listEventChanges, listEvents } from '~/models/tracking-event.server';
import { EventListQuerySchema } from '~/schemas/sync';
import { TrackingEventSchema } from '~/schemas/tracking-event';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { addEvent } from '~/services/tracking-events.server';

const NOT_FOUND = 'Parcel not found';
// :parcelId is the parcel's id or its tracking number.
const ID = { parcelId: resolveParcelRef };

export const { loader, action } = apiRoute({
  /**
   * GET /api/tracking/:parcelId/events?page&limit → { events, pagination } newest first; with
   * updatedSince or cursor, a page of a sync → { events (deleted ones too), pagination,
   * nextCursor, hasMore }.
   */
  GET: apiHandler(
    { role: 'viewer', ids: ID, query: EventListQuerySchema },
    async ({ ids, query }) =>
      json(
        query.cursor || query.updatedSince
          ? await found(listEventChanges(ids.parcelId, query), NOT_FOUND)
          : await found(listEvents(ids.parcelId, query), NOT_FOUND),
      ),
  ),
  /** POST /api/tracking/:parcelId/events → 201 { event }. */
  POST: apiHandler(
    { role: 'staff', ids: ID, idempotent: true, body: TrackingEventSchema },
    async ({ ids, body, actor }) =>
      json({ event: await found(addEvent(ids.parcelId, body, actor), NOT_FOUND) }, { status: 201 }),
  ),
});
