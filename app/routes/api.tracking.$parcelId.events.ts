import { json } from '@remix-run/node';
import { listEventChanges, listEvents } from '~/models/tracking-event.server';
import { EventListQuerySchema } from '~/schemas/sync';
import { TrackingEventSchema } from '~/schemas/tracking-event';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { SYNC_NOTE, syncedList, wrap, forAccounts } from '~/http/api-operation.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { addEvent } from '~/services/tracking-events.server';

const NOT_FOUND = 'Parcel not found';
// :parcelId is the parcel's id or its tracking number.
const ID = { parcelId: resolveParcelRef };

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: forAccounts('viewer'),
      ids: ID,
      query: EventListQuerySchema,
      summary: "A parcel's events, newest first",
      description: `The tracking events of the parcel, newest first, each with its parcelId, a page at a time (\`page\` from 1, \`limit\` at most 100).${SYNC_NOTE}`,
      responses: { 200: syncedList('events', 'ParcelTrackingEvent') },
      errors: [404],
    },
    async ({ ids, query }) =>
      json(
        query.cursor || query.updatedSince
          ? await found(listEventChanges(ids.parcelId, query), NOT_FOUND)
          : await found(listEvents(ids.parcelId, query), NOT_FOUND),
      ),
  ),
  POST: apiHandler(
    {
      role: 'staff',
      ids: ID,
      idempotent: true,
      body: TrackingEventSchema,
      summary: "Add an event (updates the parcel's status)",
      description:
        "Adds a tracking event. `status` is one of the statuses listed (anything else is a 400 that names them); the parcel's status follows its newest event (Delivered also sets actualDelivery), except a Custom Status, which says what it is in `customStatus`. The parcel's followers and the automatic e-mail rules hear of it. A Failed Delivery needs a `reason`. `timeZone` is the IANA zone of the place (default: the company's); `depotId` takes the depot's name and zone.",
      bodyExample: {
        status: 'Arrived at Facility',
        location: 'Chicago Hub',
        description: 'Sorted for delivery',
        timestamp: '2026-05-04T14:30:00Z',
        timeZone: 'America/Chicago',
      },
      responses: { 201: wrap('event', 'ParcelTrackingEvent') },
      errors: [404],
    },
    async ({ ids, body, actor }) =>
      json({ event: await found(addEvent(ids.parcelId, body, actor), NOT_FOUND) }, { status: 201 }),
  ),
});
