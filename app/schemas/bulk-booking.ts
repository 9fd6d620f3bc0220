import { z } from './zod';
import { isUploadedFile, type UploadedFile } from './parcel';

/**
 * The portal's bulk booking: a CSV of up to BULK_BOOKING_MAX_ROWS parcels, pasted or uploaded,
 * previewed with each row's price or its problems, then booked all at once. Its columns are a
 * part of the staff import's (the same names, read by the same reader), plus the reference.
 */
export const BULK_BOOKING_MAX_ROWS = 500;
/** The most text one booking takes (about a kilobyte a row is far more than a row needs). */
export const BULK_BOOKING_MAX_BYTES = 512 * 1024;

/** The columns, in the template's order, each with what it holds for the page's table. */
export const BULK_BOOKING_COLUMNS = [
  ['recipientName', 'The recipient’s name (required)'],
  ['recipientAddress', 'Street and number (required)'],
  ['recipientCity', 'City'],
  ['recipientRegion', 'State, province or region'],
  ['recipientPostalCode', 'Postcode (priced by it)'],
  ['recipientCountry', 'Two-letter country code, e.g. US (empty: your pickup address’s)'],
  ['recipientEmail', 'E-mail, for tracking updates'],
  ['recipientPhone', 'Phone, for texts'],
  ['weight', 'Weight in kg (required)'],
  ['length', 'Length in cm (required)'],
  ['width', 'Width in cm (required)'],
  ['height', 'Height in cm (required)'],
  ['serviceType', 'Standard, Express, Overnight or Premium (empty: Standard)'],
  ['reference', 'Your own reference, such as an order number'],
] as const;
export const BULK_BOOKING_COLUMN_NAMES = BULK_BOOKING_COLUMNS.map(([name]) => name);

const csvText = z
  .string({ error: 'Paste the CSV or choose a file' })
  .max(BULK_BOOKING_MAX_BYTES, `At most ${BULK_BOOKING_MAX_BYTES / 1024} KB of CSV at once`);

/**
 * The page's two steps: the preview (pasted text or an uploaded file) and the booking, which
 * sends the text back with the count and total it was shown, all checked and priced again.
 */
export const BulkBookingFormSchema = z.discriminatedUnion('intent', [
  z
    .object({
      intent: z.literal('preview'),
      csv: csvText.optional(),
      file: z
        .custom<UploadedFile>((value) => isUploadedFile(value), { error: 'Choose a CSV file' })
        .optional(),
    })
    .refine((form) => form.csv || (form.file && form.file.size > 0), {
      path: ['csv'],
      error: 'Paste the CSV or choose a file',
    }),
  z.object({
    intent: z.literal('book'),
    csv: csvText.min(1, 'Paste the CSV or choose a file'),
    count: z.number({ error: 'Preview the parcels first' }).int().min(1),
    totalAmount: z.number({ error: 'Preview the parcels first' }).int(),
  }),
]);
export type BulkBookingForm = z.output<typeof BulkBookingFormSchema>;
