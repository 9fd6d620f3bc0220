import { getEvent, getEventVersioned } from '~/models/tracking-event.server';
import { TrackingEventUpdateSchema } from '~/schemas/tracking-event';
import { apiRoute } from '~/http/api.server';
import { apiRecord } from '~/http/api-handler.server';
import { deleted } from '~/http/api-operation.server';
import { deleteEvent, updateEvent } from '~/services/tracking-events.server';

const event = apiRecord('event', {
  item: 'ParcelTrackingEvent',
  notFound: 'Tracking event not found',
});

export const { loader, action } = apiRoute({
  GET: event.get('viewer', getEvent, {
    summary: 'One event',
    description: 'One tracking event, with its parcelId and an ETag.',
  }),
  PUT: event.update(
    'staff',
    TrackingEventUpdateSchema,
    (id, input, actor, { version }) => updateEvent(id, input, { version }, actor),
    {
      versioned: getEventVersioned,
      summary: 'Change the fields given',
      description:
        "Changes the fields given; the parcel's status is worked out again from its events.",
      bodyExample: { description: 'Sorted for delivery, bay 4' },
    },
  ),
  DELETE: event.change('staff', (id, actor) => deleteEvent(id, {}, actor), {
    summary: 'Delete an event',
    description: "Deletes the event; the parcel's status is worked out again from the events left.",
    responses: { 200: deleted() },
    answer: () => ({ success: true, message: 'Tracking event deleted' }),
  }),
});
