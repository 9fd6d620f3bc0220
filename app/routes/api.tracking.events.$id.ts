import { getEvent, getEventVersioned } from '~/models/tracking-event.server';
import { TrackingEventUpdateSchema } from '~/schemas/tracking-event';
import { apiRoute } from '~/http/api.server';
import { apiRecord } from '~/http/api-handler.server';
import { deleteEvent, updateEvent } from '~/services/tracking-events.server';

const event = apiRecord('event', { idLabel: 'event id', notFound: 'Tracking event not found' });

export const { loader, action } = apiRoute({
  /** GET /api/tracking/events/:id → { event } (with its parcelId). */
  GET: event.get('viewer', getEvent),
  /** PUT /api/tracking/events/:id → { event }; 412 for an If-Match that is not its ETag now. */
  PUT: event.update(
    'staff',
    TrackingEventUpdateSchema,
    (id, input, actor, { version }) => updateEvent(id, input, { version }, actor),
    getEventVersioned,
  ),
  /** DELETE → { success, message }. */
  DELETE: event.change(
    'staff',
    (id, actor) => deleteEvent(id, {}, actor),
    () => ({ success: true, message: 'Tracking event deleted' }),
  ),
});
