import { json } from '@remix-run/node';
import { ParcelReopenSchema } from '~/schemas/tracking-event';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { reopenParcel } from '~/services/tracking-events.server';

export const { loader, action } = apiRoute({
  /**
   * POST /api/parcels/:id/reopen {status?, reason} → 201 {event, parcel}: staff reopen a
   * delivered or returned parcel, with the reason in its timeline and the audit trail. 409 for a
   * parcel whose journey is not over. :id is the parcel's id or its tracking number.
   */
  POST: apiHandler(
    { role: 'staff', ids: { id: resolveParcelRef }, idempotent: true, body: ParcelReopenSchema },
    async ({ ids, body, actor }) => {
      const reopened = await found(reopenParcel(ids.id, body, actor), 'Parcel not found');
      return json(reopened, { status: 201 });
    },
  ),
});
