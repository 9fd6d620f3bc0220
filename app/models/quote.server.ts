import { Schema, Types } from 'mongoose';
import { iso, recordIds, registeredModel } from '~/lib/records.server';
import { isObjectId } from '~/lib/db.server';
import type { AccountScope } from '~/lib/tenancy.server';

/**
 * Quotes: a price given for one parcel and service, kept until it expires so that a booking made
 * with it pays that price. A quote is used once (`usedAt` set atomically by the booking); expired
 * ones are removed a day after they expire, by a TTL index.
 */
const placeSchema = new Schema(
  { country: { type: String, required: true }, postalCode: { type: String, default: '' } },
  { _id: false },
);

const quoteSchema = new Schema(
  {
    // Whose price it is: the account and mode of the key that asked, or none (the public's).
    accountId: { type: Schema.Types.ObjectId, default: null },
    livemode: { type: Boolean, default: true },
    serviceType: { type: String, required: true },
    amount: { type: Number, required: true },
    currency: { type: String, required: true },
    breakdown: {
      type: [new Schema({ label: String, amount: Number }, { _id: false })],
      default: [],
    },
    from: { type: placeSchema, required: true },
    to: { type: placeSchema, required: true },
    zone: { type: String, required: true },
    weight: { type: Number, required: true },
    dimensions: {
      type: new Schema({ length: Number, width: Number, height: Number }, { _id: false }),
      required: true,
    },
    chargeableWeight: { type: Number, required: true },
    estimatedDelivery: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
    usedAt: { type: Date, default: null },
    parcelId: { type: Schema.Types.ObjectId, default: null },
  },
  { timestamps: true },
);
quoteSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 24 * 60 * 60 });

export const Quote = registeredModel('Quote', quoteSchema);

export type QuotePlace = { country: string; postalCode: string };
export type QuoteLine = { label: string; amount: number };
export type QuoteFields = {
  serviceType: string;
  amount: number;
  currency: string;
  breakdown: QuoteLine[];
  from: QuotePlace;
  to: QuotePlace;
  zone: string;
  weight: number;
  dimensions: { length: number; width: number; height: number };
  chargeableWeight: number;
  estimatedDelivery: Date;
  expiresAt: Date;
};
type LeanQuote = QuoteFields & {
  _id: Types.ObjectId;
  accountId?: Types.ObjectId | null;
  livemode?: boolean;
  usedAt?: Date | null;
  parcelId?: Types.ObjectId | null;
};

/** A quote as the API answers it. */
export function serializeQuote(quote: LeanQuote) {
  return {
    ...recordIds(quote._id),
    serviceType: quote.serviceType,
    amount: quote.amount,
    currency: quote.currency,
    breakdown: quote.breakdown.map(({ label, amount }) => ({ label, amount })),
    estimatedDelivery: iso(quote.estimatedDelivery)!.slice(0, 10),
    expiresAt: iso(quote.expiresAt)!,
  };
}
export type SerializedQuote = ReturnType<typeof serializeQuote>;
export type StoredQuote = SerializedQuote & Omit<QuoteFields, 'estimatedDelivery' | 'expiresAt'>;

function stored(quote: LeanQuote): StoredQuote {
  return { ...quote, ...serializeQuote(quote) };
}

const scopeFields = (scope: AccountScope | null) => ({
  accountId: scope ? new Types.ObjectId(scope.accountId) : null,
  livemode: scope ? scope.livemode : true,
});

export async function insertQuotes(quotes: QuoteFields[], scope: AccountScope | null) {
  const docs = await Quote.insertMany(quotes.map((quote) => ({ ...quote, ...scopeFields(scope) })));
  return docs.map((doc) => serializeQuote(doc.toObject() as unknown as LeanQuote));
}

export type QuoteClaim =
  | { outcome: 'claimed'; quote: StoredQuote }
  | { outcome: 'used' | 'expired'; quote: StoredQuote }
  | { outcome: 'not-found' };

/**
 * Marks the quote used, atomically, if it is the caller's, unused and not expired; otherwise
 * says why not.
 */
export async function claimQuote(
  id: string,
  scope: AccountScope | null,
  now = new Date(),
): Promise<QuoteClaim> {
  if (!isObjectId(id)) return { outcome: 'not-found' };
  const mine = { _id: new Types.ObjectId(id), ...scopeFields(scope) };
  const claimed = await Quote.findOneAndUpdate(
    { ...mine, usedAt: null, expiresAt: { $gt: now } },
    { $set: { usedAt: now } },
    { returnDocument: 'after' },
  ).lean<LeanQuote>();
  if (claimed) return { outcome: 'claimed', quote: stored(claimed) };
  const quote = await Quote.findOne(mine).lean<LeanQuote>();
  if (!quote) return { outcome: 'not-found' };
  return { outcome: quote.usedAt ? 'used' : 'expired', quote: stored(quote) };
}

/** Gives a claimed quote back (the booking it was claimed for did not happen). */
export async function releaseQuote(id: string) {
  await Quote.updateOne({ _id: new Types.ObjectId(id) }, { $set: { usedAt: null } });
}

/** Notes the parcel a quote was booked as. */
export async function noteQuoteParcel(id: string, parcelId: string) {
  await Quote.updateOne(
    { _id: new Types.ObjectId(id) },
    { $set: { parcelId: new Types.ObjectId(parcelId) } },
  );
}

/**
 * A quote the public asked for (no account's) that can still be booked: unused and not expired;
 * null otherwise.
 */
export async function getOpenPublicQuote(
  id: string,
  now = new Date(),
): Promise<StoredQuote | null> {
  if (!isObjectId(id)) return null;
  const quote = await Quote.findOne({
    _id: new Types.ObjectId(id),
    accountId: null,
    usedAt: null,
    expiresAt: { $gt: now },
  }).lean<LeanQuote>();
  return quote ? stored(quote) : null;
}
