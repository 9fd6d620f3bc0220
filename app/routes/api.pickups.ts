import { json } from '@remix-run/node';
import { PickupCreateSchema, PickupListQuerySchema } from '~/schemas/pickup';
import { apiRoute } from '~/http/api.server';
import { apiHandler } from '~/http/api-handler.server';
import { forAccounts, items, wrap } from '~/http/api-operation.server';
import { scopeOf } from '~/lib/tenancy.server';
import { listPickups, requestPickup } from '~/services/pickups.server';
import { EXAMPLE_IDS } from '~/schemas/api-examples';

export const { loader, action } = apiRoute({
  GET: apiHandler(
    {
      role: forAccounts('viewer'),
      query: PickupListQuerySchema,
      summary: 'Pickups (staff: every one, by depot and day; an account its own)',
      description:
        'Pickups, the latest day first (at most 500). Staff filter by `date` (YYYY-MM-DD, company time), `depotId` and `status`; with a shipper account’s key or session, the account’s own of its mode.',
      responses: { 200: items('pickups', 'Pickup') },
    },
    async ({ query, actor }) => json({ pickups: await listPickups(scopeOf(actor), query) }),
  ),
  POST: apiHandler(
    {
      role: forAccounts('staff'),
      idempotent: true,
      body: PickupCreateSchema,
      summary: 'Ask for a pickup on a business day, within a window',
      description:
        'Asks for a courier to collect on `date` between `window.from` and `window.until` (company time). The same day is taken until the cut-off (14:00 company time unless Settings → Depots says otherwise), Monday to Friday only: otherwise 400 with code pickup_too_late and `nextDate`, the first day open. With a shipper account’s key or session the pickup is the account’s, at its pickup address unless `address` is given, and `parcelIds` must be its own (another’s is 404); staff give the address. Without `parcelIds`, `parcelCount` says how many parcels. Sends `pickup.scheduled`.',
      bodyExample: {
        date: '2026-05-06',
        window: { from: '14:00', until: '17:00' },
        parcelIds: [EXAMPLE_IDS.parcel],
        notes: 'Loading bay at the back',
      },
      responses: { 201: wrap('pickup', 'Pickup') },
      errors: [404],
    },
    async ({ body, actor }) => json({ pickup: await requestPickup(body, actor) }, { status: 201 }),
  ),
});
