import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { parcelListCursor, type ParcelListOptions } from '~/models/parcel-reads.server';
import { type LeanParcel } from '~/models/parcel.server';
import { CSV_ESCAPING } from '~/lib/csv.server';

export { unescapeCsvCell } from '~/lib/csv.server';

/** The columns of a parcel CSV, in order: the header row names them. */
export const PARCEL_CSV_COLUMNS = [
  'trackingNumber',
  'status',
  'serviceType',
  'priority',
  'weight',
  'length',
  'width',
  'height',
  'cost',
  'estimatedDelivery',
  'actualDelivery',
  'createdAt',
  'senderName',
  'senderEmail',
  'senderPhone',
  'senderAddress',
  'senderCity',
  'senderRegion',
  'senderPostalCode',
  'senderCountry',
  'senderTimeZone',
  'recipientName',
  'recipientEmail',
  'recipientPhone',
  'recipientAddress',
  'recipientCity',
  'recipientRegion',
  'recipientPostalCode',
  'recipientCountry',
  'recipientTimeZone',
  'destinations',
  'recipientLanguage',
] as const;

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : '');

function toRow(p: LeanParcel): Record<(typeof PARCEL_CSV_COLUMNS)[number], string | number> {
  return {
    trackingNumber: p.trackingNumber,
    status: p.status ?? 'Pending',
    serviceType: p.serviceType ?? 'Standard',
    priority: p.priority ?? 'Standard',
    weight: p.weight ?? 0,
    length: p.dimensions?.length ?? 0,
    width: p.dimensions?.width ?? 0,
    height: p.dimensions?.height ?? 0,
    cost: p.cost ?? 0,
    estimatedDelivery: iso(p.estimatedDelivery),
    actualDelivery: iso(p.actualDelivery),
    createdAt: iso(p.createdAt),
    senderName: p.sender?.name ?? '',
    senderEmail: p.sender?.email ?? '',
    senderPhone: p.sender?.phone ?? '',
    senderAddress: p.sender?.address ?? '',
    senderCity: p.sender?.city ?? '',
    senderRegion: p.sender?.region ?? '',
    senderPostalCode: p.sender?.postalCode ?? '',
    senderCountry: p.sender?.country ?? '',
    senderTimeZone: p.sender?.timeZone ?? '',
    recipientName: p.recipient?.name ?? '',
    recipientEmail: p.recipient?.email ?? '',
    recipientPhone: p.recipient?.phone ?? '',
    recipientAddress: p.recipient?.address ?? '',
    recipientCity: p.recipient?.city ?? '',
    recipientRegion: p.recipient?.region ?? '',
    recipientPostalCode: p.recipient?.postalCode ?? '',
    recipientCountry: p.recipient?.country ?? '',
    recipientTimeZone: p.recipient?.timeZone ?? '',
    recipientLanguage: p.recipient?.language ?? '',
    // The stops as JSON in one cell: name, address, city, country, postalCode each.
    destinations: JSON.stringify(
      (p.destinations ?? []).map((d) => ({
        name: d.name ?? '',
        address: d.address ?? '',
        city: d.city ?? '',
        ...(d.region ? { region: d.region } : {}),
        country: d.country ?? '',
        postalCode: d.postalCode ?? '',
      })),
    ),
  };
}

/**
 * The parcels of a filtered list as CSV, streamed: a database cursor feeds csv-stringify one
 * parcel at a time, so an export of any size never holds the list in memory. Cells that a
 * spreadsheet would run as a formula (=, +, -, @ first) are escaped by csv-stringify with a
 * leading `'`, and a text cell that begins with `'` gets one more, so the import can undo both.
 */
export async function parcelCsvStream(
  options: ParcelListOptions & { updatedSince?: Date },
): Promise<Readable> {
  const cursor = parcelListCursor(options);
  const csv = stringify({
    header: true,
    columns: [...PARCEL_CSV_COLUMNS],
    ...CSV_ESCAPING,
  });
  const rows = Readable.from(
    (async function* () {
      for await (const parcel of cursor) yield toRow(parcel as unknown as LeanParcel);
    })(),
  );
  rows.on('error', (error) => csv.destroy(error));
  return rows.pipe(csv);
}
