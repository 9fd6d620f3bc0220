import mongoose from 'mongoose';
import { ValidationError } from '~/lib/errors.server';
import { isDuplicateKey } from '~/lib/db.server';
import { scopeOf, type AccountScope } from '~/lib/tenancy.server';
import { getAccount } from '~/models/account.server';
import { insertBookingBatch, removeBookingBatch } from '~/models/booking-batch.server';
import { importedParcelDocument, insertImportedParcels } from '~/models/parcel-writes.server';
import { serializeParcel, type LeanParcel, type SerializedParcel } from '~/models/parcel.server';
import { getRateCard } from '~/models/rate-card.server';
import { BULK_BOOKING_COLUMN_NAMES, BULK_BOOKING_MAX_ROWS } from '~/schemas/bulk-booking';
import { defaultDestination, type ParcelImportRow } from '~/schemas/parcel';
import { QuoteCreateSchema } from '~/schemas/rate-card';
import type { ShipperUser } from '~/http/auth.server';
import { sumAmounts, toMajor, type Money } from '~/utils/money';
import { auditNewParcels, type Actor } from './audit.server';
import { planDayBeforeEmailsOf } from './day-before-emails.server';
import {
  freshTrackingNumbers,
  parcelCsvTemplate,
  readParcelCsv,
  type ImportError,
  type ParcelCsvLayout,
} from './parcel-import.server';
import { priceParcel } from './quotes.server';
import { emitWebhookEvent } from './webhooks.server';

/**
 * Bulk booking from the portal: a CSV of up to BULK_BOOKING_MAX_ROWS parcels, read and checked
 * row by row by the staff import's reader (readParcelCsv, with the booking's columns), each row
 * priced by the rate card at the account's prices (priceParcel, as every quote is), from the
 * account's pickup address. Booking checks and prices the text again (the browser's preview is
 * never trusted) and books every row or none: a row with a problem stops the whole booking.
 */

const LAYOUT: ParcelCsvLayout = {
  columns: BULK_BOOKING_COLUMN_NAMES,
  required: ['recipientName', 'recipientAddress'],
  columnsNote: BULK_BOOKING_COLUMN_NAMES.join(', '),
  maxRows: BULK_BOOKING_MAX_ROWS,
  previewRows: BULK_BOOKING_MAX_ROWS,
  previewColumns: [
    'recipientName',
    'recipientAddress',
    'recipientPostalCode',
    'recipientCountry',
    'serviceType',
    'weight',
    'reference',
  ],
  done: 'booked',
};

/** A row of the preview: what it is, and its price or its problems (by column). */
export type BulkRow = {
  row: number;
  recipientName: string;
  recipientAddress: string;
  recipientPostalCode: string;
  recipientCountry: string;
  serviceType: string;
  weight: string;
  reference: string;
  price: Money | null;
  problems: Array<{ field: string | null; message: string }>;
};

export type BulkCheck = {
  /** Every row of the file, in its order. */
  rows: BulkRow[];
  /** Problems with the file as a whole (its header, its size, the account's pickup address). */
  fileProblems: string[];
  /** Whether every row can be booked: no problem anywhere, and at least one row. */
  ok: boolean;
  count: number;
  total: Money | null;
};

type Planned = { row: number; parcel: ParcelImportRow; quote: ReturnType<typeof priceParcel>[0] };

/** The quote's field as the CSV names its column. */
const COLUMN_OF: Record<string, string> = {
  'to.country': 'recipientCountry',
  'to.postalCode': 'recipientPostalCode',
  weight: 'weight',
  'dimensions.length': 'length',
  'dimensions.width': 'width',
  'dimensions.height': 'height',
  serviceType: 'serviceType',
};

/** The account's pickup address, the sender of every parcel it books; null when it has none. */
async function pickupSender(scope: AccountScope) {
  const account = await getAccount(scope.accountId);
  const pickup = account?.pickupAddress;
  if (!account || !pickup?.address || !pickup.country) return null;
  return {
    name: account.name,
    email: account.email,
    phone: account.phone,
    ...pickup,
    timeZone: '',
  };
}

async function check(
  text: string,
  scope: AccountScope,
): Promise<BulkCheck & { planned: Planned[] }> {
  const read = readParcelCsv(text, LAYOUT);
  const sender = await pickupSender(scope);
  const problems = new Map<number, BulkRow['problems']>();
  const note = (row: number, field: string | null, message: string) =>
    problems.set(row, [...(problems.get(row) ?? []), { field, message }]);
  const fileProblems: string[] = [];
  for (const error of read.errors as ImportError[]) {
    if (error.row === 1) fileProblems.push(error.message);
    else note(error.row, error.field, error.message);
  }
  if (!sender)
    fileProblems.push(
      'Your account has no pickup address to send from: ask us to add one, then book again.',
    );

  const planned: Planned[] = [];
  const card = sender ? await getRateCard() : null;
  for (const { row, parcel } of sender && card ? (read.valid ?? []) : []) {
    const country = (parcel.recipient.country || sender!.country).toUpperCase();
    const input = QuoteCreateSchema.safeParse({
      from: { country: sender!.country, postalCode: sender!.postalCode },
      to: { country, postalCode: parcel.recipient.postalCode },
      weight: parcel.weight,
      dimensions: parcel.dimensions,
      serviceType: parcel.serviceType,
    });
    if (!input.success) {
      for (const issue of input.error.issues) {
        const path = issue.path.join('.');
        if (path.startsWith('from.'))
          fileProblems.push(`Your pickup address cannot be priced from: ${issue.message}`);
        else note(row, COLUMN_OF[path] ?? null, issue.message);
      }
      continue;
    }
    try {
      const [quote] = priceParcel(card!, input.data, { accountId: scope.accountId });
      planned.push({
        row,
        parcel: { ...parcel, recipient: { ...parcel.recipient, country } },
        quote: quote!,
      });
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      for (const [path, messages] of Object.entries(error.options.details ?? {}))
        for (const message of messages) {
          if (path.startsWith('from.'))
            fileProblems.push(`Your pickup address is not served: ${message}`);
          else note(row, COLUMN_OF[path] ?? null, message);
        }
    }
  }

  const priced = new Map(planned.map((p) => [p.row, p.quote]));
  const rows = read.preview.map((cells) => {
    const quote = priced.get(cells.row);
    const values = cells as unknown as Record<string, string>;
    return {
      row: cells.row,
      recipientName: values.recipientName ?? '',
      recipientAddress: values.recipientAddress ?? '',
      recipientPostalCode: values.recipientPostalCode ?? '',
      recipientCountry: values.recipientCountry ?? '',
      serviceType: values.serviceType || 'Standard',
      weight: values.weight ?? '',
      reference: values.reference ?? '',
      price:
        quote && !problems.has(cells.row)
          ? { amount: quote.amount, currency: quote.currency }
          : null,
      problems: problems.get(cells.row) ?? [],
    };
  });
  const unique = [...new Set(fileProblems)];
  const ok = !unique.length && !problems.size && planned.length > 0;
  const currency = planned[0]?.quote.currency;
  return {
    rows,
    fileProblems: unique,
    ok,
    count: planned.length,
    total: currency ? { amount: sumAmounts(planned.map((p) => p.quote.amount)), currency } : null,
    planned,
  };
}

/** Checks and prices a bulk booking's CSV for the shipper's account; writes nothing. */
export async function checkBulkBooking(text: string, user: ShipperUser): Promise<BulkCheck> {
  const { planned: _planned, ...result } = await check(text, scopeOf({ user })!);
  return result;
}

export type BulkBookingResult =
  | { booked: true; batchId: string; parcels: SerializedParcel[] }
  | { booked: false; check: BulkCheck; message: string };

/**
 * Books every row of the CSV, or none: checked and priced again, the count and total must be
 * those the shipper saw (else nothing, with the new preview). The parcels are written at once
 * (insertImportedParcels, which takes back what it wrote when the write fails part-way), each
 * on account at its price, from the pickup address; then each gets its audit entry, its
 * `parcel.created` webhook with its price, and its day-before e-mail plan, as createParcel does.
 */
export async function bookBulk(
  text: string,
  seen: { count: number; totalAmount: number },
  actor: Actor & { user: ShipperUser },
): Promise<BulkBookingResult> {
  const scope = scopeOf(actor)!;
  const { planned, ...result } = await check(text, scope);
  if (!result.ok)
    return {
      booked: false,
      check: result,
      message: 'Nothing was booked: fix the rows below, then preview and book again.',
    };
  if (result.count !== seen.count || result.total?.amount !== seen.totalAmount)
    return {
      booked: false,
      check: result,
      message:
        'Nothing was booked: the prices changed since the preview. Check the new prices and book again.',
    };
  const sender = (await pickupSender(scope))!;
  const numbers = await freshTrackingNumbers(planned.length, new Set());
  const now = new Date();
  const docs = planned.map(({ parcel, quote }, i) => {
    const recipient = {
      ...parcel.recipient,
      postalCode: parcel.recipient.postalCode || quote.to.postalCode,
    };
    const price = { amount: quote.amount, currency: quote.currency };
    return {
      ...importedParcelDocument({
        ...parcel,
        trackingNumber: numbers[i]!,
        sender,
        recipient,
        destinations: [defaultDestination(recipient)],
        serviceType: quote.serviceType as ParcelImportRow['serviceType'],
        estimatedDelivery: quote.estimatedDelivery,
        status: 'Pending',
        cost: toMajor(price),
        createdAt: now,
        updatedAt: now,
      }),
      accountId: new mongoose.Types.ObjectId(scope.accountId),
      livemode: scope.livemode,
      price,
      paymentMethod: 'account',
      ...(parcel.reference ? { reference: parcel.reference } : {}),
    };
  });
  const batchId = new mongoose.Types.ObjectId().toString();
  await insertBookingBatch({
    id: batchId,
    scope,
    userId: actor.user.id,
    parcelIds: docs.map((doc) => String(doc._id)),
    totalAmount: result.total!.amount,
    currency: result.total!.currency,
  });
  try {
    await insertImportedParcels(docs);
  } catch (error) {
    await removeBookingBatch(batchId);
    if (!isDuplicateKey(error)) throw error;
    return {
      booked: false,
      check: result,
      message: 'Nothing was booked: a tracking number was taken meanwhile. Book again.',
    };
  }
  const parcels = docs.map((doc) => serializeParcel(doc as unknown as LeanParcel));
  await auditNewParcels(actor, 'create', parcels);
  const owner = { accountId: scope.accountId, livemode: scope.livemode };
  for (const parcel of parcels) await emitWebhookEvent('parcel.created', { parcel }, owner);
  await planDayBeforeEmailsOf(parcels);
  return { booked: true, batchId, parcels };
}

/** The bulk booking's template: its columns and one example parcel. */
export function bulkBookingTemplate(): string {
  return parcelCsvTemplate(BULK_BOOKING_COLUMN_NAMES, {
    recipientName: 'Jane Doe',
    recipientAddress: '12 Main St',
    recipientCity: 'Springfield',
    recipientRegion: 'IL',
    recipientPostalCode: '62701',
    recipientCountry: 'US',
    recipientEmail: 'jane@example.com',
    recipientPhone: '+1 217 555 0100',
    weight: '1.5',
    length: '30',
    width: '20',
    height: '10',
    serviceType: 'Standard',
    reference: 'ORDER-1001',
  });
}
