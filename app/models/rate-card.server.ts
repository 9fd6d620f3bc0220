import { Schema } from 'mongoose';
import { iso, registeredModel } from '~/lib/records.server';
import { DEFAULT_VOLUMETRIC_DIVISOR, type RateCard } from '~/schemas/rate-card';
import { SERVICE_TYPES, type ServiceType } from '~/schemas/constants';

/** The rate card: one document, the one every quote is priced by (schemas/rate-card.ts). */
const rateCardSchema = new Schema(
  {
    key: { type: String, required: true, unique: true },
    // The card as it was saved; validated by RateCardSchema before it is written.
    card: { type: Schema.Types.Mixed, required: true },
  },
  { timestamps: true, minimize: false },
);

export const RateCardModel = registeredModel('RateCard', rateCardSchema);

const KEY = 'rates';

const band = (zone: string, serviceType: ServiceType, amounts: number[]) =>
  [1, 5, 10, 30].map((maxWeightKg, index) => ({
    zone,
    serviceType,
    maxWeightKg,
    priceAmount: amounts[index]!,
  }));

/**
 * The card a new company starts with (and the first start and `npm run seed` write): a small
 * parcel at home costs the spec's plans, Basic 9.99 (Standard) and Premium 19.99.
 */
export const DEFAULT_RATE_CARD: RateCard = {
  currency: 'USD',
  volumetricDivisor: DEFAULT_VOLUMETRIC_DIVISOR,
  fuelSurchargePercent: 0,
  remoteSurchargeAmount: 1500,
  remoteAreas: [
    { country: 'US', postcodePrefixes: ['967', '968', '995', '996', '997', '998', '999'] },
  ],
  zones: [
    { code: 'domestic', name: 'United States', countries: ['US'], postcodePrefixes: [] },
    {
      code: 'international',
      name: 'International',
      countries: ['CA', 'MX', 'GB', 'IE', 'FR', 'DE', 'ES', 'IT', 'NL', 'BE', 'AE', 'SA', 'EG'],
      postcodePrefixes: [],
    },
  ],
  prices: [
    ...band('domestic', 'Standard', [999, 1499, 2299, 3999]),
    ...band('domestic', 'Express', [1499, 2199, 3299, 5499]),
    ...band('domestic', 'Premium', [1999, 2799, 3999, 6499]),
    ...band('domestic', 'Overnight', [2499, 3499, 4999, 7999]),
    ...band('international', 'Standard', [2999, 4999, 7999, 14999]),
    ...band('international', 'Express', [4499, 6999, 10999, 19999]),
    ...band('international', 'Premium', [5999, 8999, 12999, 23999]),
  ].sort(
    (a, b) =>
      a.zone.localeCompare(b.zone) ||
      SERVICE_TYPES.indexOf(a.serviceType) - SERVICE_TYPES.indexOf(b.serviceType) ||
      a.maxWeightKg - b.maxWeightKg,
  ),
  accountDiscounts: [],
};

export type StoredRateCard = RateCard & { updatedAt: string | null };

/** The card in force: the saved one, else the one a new company starts with. */
export async function getRateCard(): Promise<StoredRateCard> {
  const doc = await RateCardModel.findOne({ key: KEY }).lean<{
    card: RateCard;
    updatedAt?: Date;
  }>();
  if (!doc) return { ...structuredClone(DEFAULT_RATE_CARD), updatedAt: null };
  return { ...doc.card, updatedAt: iso(doc.updatedAt) };
}

/** Saves the whole card; the card before, for the audit entry. */
export async function saveRateCard(card: RateCard) {
  const before = await getRateCard();
  await RateCardModel.updateOne({ key: KEY }, { $set: { card } }, { upsert: true });
  return { before, after: await getRateCard() };
}

/** Writes the starting card when none is saved (first start, seed). */
export async function seedRateCard() {
  await RateCardModel.updateOne(
    { key: KEY },
    { $setOnInsert: { card: DEFAULT_RATE_CARD } },
    { upsert: true },
  );
}
