import { getParcel, getParcelVersioned } from '~/models/parcel-reads.server';
import { ParcelUpdateSchema } from '~/schemas/parcel';
import { apiRoute } from '~/http/api.server';
import { apiRecord } from '~/http/api-handler.server';
import { deleted, forAccounts } from '~/http/api-operation.server';
import { deleteParcel, resolveParcelRef, updateParcel } from '~/services/parcels.server';

// :id is the parcel's id or its tracking number.
const parcel = apiRecord('parcel', { item: 'Parcel', idLabel: resolveParcelRef });

export const { loader, action } = apiRoute({
  GET: parcel.get(forAccounts('viewer'), getParcel, {
    summary: 'A parcel with its tracking events',
    description:
      'One parcel with its tracking events, newest first. Answers carry an ETag: send it back in If-None-Match for a 304 while the parcel is unchanged.',
  }),
  PUT: parcel.update('staff', ParcelUpdateSchema, updateParcel, {
    versioned: getParcelVersioned,
    summary: 'Change the fields given',
    description:
      "Changes only the fields given, nested contact fields included; a status given here is the parcel's status until its next event. A delivery window must fall on the estimated day (the one given, else the parcel's) in the company's zone; a new estimated day without a window clears a window on another day.",
    bodyExample: { priority: 'High', recipient: { phone: '+1 555 0100' } },
  }),
  DELETE: parcel.change('staff', deleteParcel, {
    summary: 'Delete a parcel and its events',
    description:
      'Deletes the parcel with its tracking events; its receipts and notifications stay.',
    responses: { 200: deleted() },
    answer: (removed) => ({ success: true, message: `Parcel ${removed.trackingNumber} deleted` }),
  }),
});
