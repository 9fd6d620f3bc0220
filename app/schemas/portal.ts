import { z } from './zod';
import { ParcelListQuerySchema } from './parcel';
import { dayField } from './run';

/** An optional day of a filter: the form's empty field means none. */
const filterDay = z.preprocess((value) => (value === '' ? undefined : value), dayField.optional());

/**
 * The portal's parcels list and its CSV: search (number, recipient, reference), status, and the
 * days created from and to (in the company's zone), with the list's page.
 */
export const PortalParcelQuerySchema = ParcelListQuerySchema.pick({
  page: true,
  status: true,
  search: true,
})
  .extend({ from: filterDay, to: filterDay })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    path: ['to'],
    error: 'The last day comes after the first',
  });
export type PortalParcelQuery = z.output<typeof PortalParcelQuerySchema>;
