import { json } from '@remix-run/node';
import { ParcelReopenSchema } from '~/schemas/tracking-event';
import { apiRoute, found } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { example, obj, ref } from '~/http/api-operation.server';
import { resolveParcelRef } from '~/services/parcels.server';
import { reopenParcel } from '~/services/tracking-events.server';

export const { loader, action } = apiRoute({
  POST: apiHandler(
    {
      role: 'staff',
      ids: { id: resolveParcelRef },
      idempotent: true,
      body: ParcelReopenSchema,
      summary:
        'Reopen a delivered or returned parcel (staff), with the reason; 409 for one whose journey is not over',
      description:
        'Reopens a delivered or returned parcel, which scans no longer change (staff): an event with the status chosen (default In Transit) and the reason ("Reopened: …") goes into its timeline, and a `reopen` entry with the reason into the audit trail. Its proofs of delivery stay. 409 for a parcel that is not delivered or returned.',
      bodyExample: {
        status: 'In Transit',
        reason: 'Left at the wrong address; collecting it again',
      },
      responses: {
        201: {
          schema: obj({ event: ref('ParcelTrackingEvent'), parcel: ref('Parcel') }),
          example: { event: example('ParcelTrackingEvent'), parcel: example('Parcel') },
        },
      },
      errors: [404, 409],
    },
    async ({ ids, body, actor }) => {
      const reopened = await found(reopenParcel(ids.id, body, actor), 'Parcel not found');
      return json(reopened, { status: 201 });
    },
  ),
});
