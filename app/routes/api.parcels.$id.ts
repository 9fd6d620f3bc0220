import { getParcel, getParcelVersioned } from '~/models/parcel.server';
import { ParcelUpdateSchema } from '~/schemas/parcel';
import { apiRoute } from '~/http/api.server';
import { apiRecord } from '~/http/api-handler.server';
import { deleteParcel, resolveParcelRef, updateParcel } from '~/services/parcels.server';

// :id is the parcel's id or its tracking number.
const parcel = apiRecord('parcel', { idLabel: resolveParcelRef, notFound: 'Parcel not found' });

export const { loader, action } = apiRoute({
  /** GET /api/parcels/:id → { parcel } (with its tracking events) */
  GET: parcel.get('viewer', getParcel),
  /**
   * PUT /api/parcels/:id → { parcel }. Only the fields in the body change (nested ones too); 412
   * for an If-Match that is not the parcel's ETag now.
   */
  PUT: parcel.update('staff', ParcelUpdateSchema, updateParcel, getParcelVersioned),
  /** DELETE /api/parcels/:id → 200 { success: true, message } — its tracking events go with it. */
  DELETE: parcel.change('staff', deleteParcel, (deleted) => ({
    success: true,
    message: `Parcel ${deleted.trackingNumber} deleted`,
  })),
});
