import { z } from './zod';
import { BOOKING_PAYMENT_METHODS, OBJECT_ID_PATTERN, SERVICE_TYPES } from './constants';
import { fromMajor, isCurrency, minorDigits, toMajor } from '~/utils/money';

/**
 * The rate card: what a parcel costs, by the zone its destination is in, its service and the
 * weight band of its chargeable weight. Every money value is an integer of the card's currency's
 * minor units, in a field named `…Amount`. `GET /api/rates` answers it as `PUT` takes it back.
 */

export const DEFAULT_VOLUMETRIC_DIVISOR = 5000;
export const RATE_CARD_LIMITS = { zones: 50, prices: 1000, prefixes: 500, accounts: 500 } as const;

const countryCode = z
  .string({ error: 'Must be a string' })
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, 'A country is its two-letter ISO 3166 code, e.g. US'));

const postcodePrefix = z
  .string({ error: 'Must be a string' })
  .trim()
  .transform((value) => value.toUpperCase().replace(/\s+/g, ''))
  .pipe(z.string().regex(/^[A-Z0-9-]{1,10}$/, 'A postcode prefix is 1 to 10 letters or digits'));

const prefixes = z
  .array(postcodePrefix, { error: 'Must be a list of postcode prefixes' })
  .max(RATE_CARD_LIMITS.prefixes, `At most ${RATE_CARD_LIMITS.prefixes} prefixes`);

const minorAmount = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} is a whole number of the currency's minor units`)
    .min(0, `${label} cannot be negative`)
    .max(100_000_000, `${label} is too large`);

const percent = (label: string, max = 100) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(max, `${label} is at most ${max}`);

export const ZoneSchema = z.object({
  code: z
    .string({ error: 'Must be a string' })
    .trim()
    .regex(/^[a-z0-9-]{1,30}$/, 'A zone code is 1 to 30 lower-case letters, digits or dashes'),
  name: z.string({ error: 'Must be a string' }).trim().min(1, 'Name the zone').max(100),
  countries: z
    .array(countryCode, { error: 'Must be a list of countries' })
    .min(1, 'A zone covers at least one country')
    .max(250),
  postcodePrefixes: prefixes
    .default([])
    .describe(
      'Empty: the whole of its countries; else only postcodes starting with one of these. The zone with the longest matching prefix wins.',
    ),
});

export const PriceSchema = z.object({
  zone: z.string({ error: 'Must be a string' }).trim().min(1, 'Choose a zone'),
  serviceType: z.enum(SERVICE_TYPES, {
    error: `Service type must be one of: ${SERVICE_TYPES.join(', ')}`,
  }),
  maxWeightKg: z
    .number({ error: 'Weight band must be a number' })
    .positive('A weight band is above 0 kg')
    .max(10_000, 'At most 10,000 kg'),
  priceAmount: minorAmount('Price'),
});

export const RemoteAreaSchema = z.object({ country: countryCode, postcodePrefixes: prefixes });

export const AccountDiscountSchema = z.object({
  accountId: z
    .string({ error: 'Invalid account' })
    .regex(OBJECT_ID_PATTERN, 'Invalid account')
    .transform((value) => value.toLowerCase()),
  discountPercent: percent('Discount', 100),
});

/**
 * An issue on `field` of each item of `list` (the card's `name`) whose `field` an earlier item
 * already has; the values it has.
 */
function refuseRepeats<F extends string, T extends Record<F, string>>(
  ctx: z.RefinementCtx,
  list: T[],
  name: string,
  field: F,
  message: string,
): Set<string> {
  const values = new Set<string>();
  list.forEach((item, index) => {
    if (values.has(item[field]))
      ctx.addIssue({ code: 'custom', path: [name, index, field], message });
    values.add(item[field]);
  });
  return values;
}

export const RateCardSchema = z
  .object({
    currency: z
      .string({ error: 'Must be a string' })
      .trim()
      .transform((value) => value.toUpperCase())
      .refine(isCurrency, 'Currency must be an ISO 4217 code, e.g. USD'),
    volumetricDivisor: z
      .number({ error: 'Volumetric divisor must be a number' })
      .positive('Volumetric divisor is above 0')
      .max(1_000_000)
      .default(DEFAULT_VOLUMETRIC_DIVISOR)
      .describe(
        'cm³ per kg: the chargeable weight is the larger of the actual weight and length × width × height (cm) / this',
      ),
    fuelSurchargePercent: percent('Fuel surcharge', 100).default(0),
    remoteSurchargeAmount: minorAmount('Remote surcharge').default(0),
    remoteAreas: z
      .array(RemoteAreaSchema)
      .max(RATE_CARD_LIMITS.zones)
      .default([])
      .describe('Postcodes that cost the remote surcharge on top'),
    zones: z.array(ZoneSchema).min(1, 'At least one zone').max(RATE_CARD_LIMITS.zones),
    prices: z
      .array(PriceSchema)
      .min(1, 'At least one price')
      .max(RATE_CARD_LIMITS.prices)
      .describe(
        'A parcel costs the price of its zone and service whose weight band (maxWeightKg) is the smallest that holds its chargeable weight',
      ),
    accountDiscounts: z
      .array(AccountDiscountSchema)
      .max(RATE_CARD_LIMITS.accounts)
      .default([])
      .describe('Per shipper account: a discount off every price it is quoted'),
    // What GET answers besides; taken back and ignored, so a read can be sent back unchanged.
    updatedAt: z.string().nullable().optional().describe('Ignored: when it was last saved'),
  })
  .superRefine((card, ctx) => {
    const codes = refuseRepeats(ctx, card.zones, 'zones', 'code', 'Zone codes are unique');
    const seen = new Set<string>();
    card.prices.forEach((price, index) => {
      if (!codes.has(price.zone))
        ctx.addIssue({
          code: 'custom',
          path: ['prices', index, 'zone'],
          message: 'No zone has this code',
        });
      const key = `${price.zone}|${price.serviceType}|${price.maxWeightKg}`;
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: ['prices', index, 'maxWeightKg'],
          message: 'This zone and service already have a price for this weight band',
        });
      seen.add(key);
    });
    refuseRepeats(
      ctx,
      card.accountDiscounts,
      'accountDiscounts',
      'accountId',
      'One discount per account',
    );
  })
  .transform(({ updatedAt: _updatedAt, ...card }) => card);

export type RateCard = z.output<typeof RateCardSchema>;
export type Zone = RateCard['zones'][number];

/** A place a parcel leaves from or goes to, as a quote names it. */
export const QuotePlaceSchema = z.object({
  country: countryCode,
  postalCode: z
    .string({ error: 'Must be a string' })
    .trim()
    .max(20, 'At most 20 characters')
    .default(''),
});

const measure = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .positive(`${label} must be above 0`)
    .max(max, `${label} is at most ${max}`);

/** A parcel to price: where from, where to, its weight (kg) and dimensions (cm). */
export const QuoteRequestFields = {
  from: QuotePlaceSchema,
  to: QuotePlaceSchema,
  weight: measure('Weight', 1000).describe('kg'),
  dimensions: z
    .object({
      length: measure('Length', 1000),
      width: measure('Width', 1000),
      height: measure('Height', 1000),
    })
    .describe('cm'),
  serviceType: z
    .enum(SERVICE_TYPES, { error: `Service type must be one of: ${SERVICE_TYPES.join(', ')}` })
    .optional()
    .describe('One service; every service the card prices when not given'),
};
export const QuoteCreateSchema = z.object(QuoteRequestFields);
export type QuoteCreateInput = z.output<typeof QuoteCreateSchema>;

const formText = z.string().trim().default('');
const words = (text: string) => text.split(/[\s,;]+/).filter(Boolean);
const formNumber = (text: string) => (text === '' ? Number.NaN : Number(text));

/**
 * Settings → Prices as it posts: money in major units ("9.99"), lists as words ("US, CA"), remote
 * areas one per line ("US 995 996"), and blank rows (the form's spare ones) left out; read into
 * the card and checked by the API's own schema.
 */
export const RateCardFormSchema = z
  .object({
    currency: formText,
    volumetricDivisor: formText,
    fuelSurchargePercent: formText,
    remoteSurcharge: formText,
    remoteAreas: formText,
    zones: z
      .array(
        z.object({
          code: formText,
          name: formText,
          countries: formText,
          postcodePrefixes: formText,
        }),
      )
      .max(RATE_CARD_LIMITS.zones)
      .default([]),
    prices: z
      .array(
        z.object({ zone: formText, serviceType: formText, maxWeightKg: formText, price: formText }),
      )
      .max(RATE_CARD_LIMITS.prices)
      .default([]),
    accountDiscounts: z
      .array(z.object({ accountId: formText, discountPercent: formText }))
      .max(RATE_CARD_LIMITS.accounts)
      .default([]),
  })
  .transform((form): unknown => {
    const currency = form.currency.toUpperCase();
    const minor = (text: string) =>
      (isCurrency(currency) ? fromMajor(text, currency) : null) ?? Number.NaN;
    const filled = <T extends Record<string, string>>(rows: T[]) =>
      rows.filter((row) => Object.values(row).some(Boolean));
    return {
      currency,
      volumetricDivisor: formNumber(form.volumetricDivisor),
      fuelSurchargePercent: formNumber(form.fuelSurchargePercent || '0'),
      remoteSurchargeAmount: minor(form.remoteSurcharge || '0'),
      remoteAreas: form.remoteAreas
        .split('\n')
        .map(words)
        .filter((line) => line.length)
        .map(([country = '', ...postcodePrefixes]) => ({ country, postcodePrefixes })),
      zones: filled(form.zones).map((zone) => ({
        ...zone,
        countries: words(zone.countries),
        postcodePrefixes: words(zone.postcodePrefixes),
      })),
      prices: filled(form.prices).map(({ price, maxWeightKg, ...row }) => ({
        ...row,
        maxWeightKg: formNumber(maxWeightKg),
        priceAmount: minor(price),
      })),
      accountDiscounts: filled(form.accountDiscounts).map((row) => ({
        accountId: row.accountId,
        discountPercent: formNumber(row.discountPercent),
      })),
    };
  })
  .pipe(RateCardSchema as z.ZodType<RateCard>);

/** The card as Settings → Prices shows it: what RateCardFormSchema reads back. */
export function rateCardForm(card: RateCard) {
  const major = (amount: number) =>
    toMajor({ amount, currency: card.currency }).toFixed(minorDigits(card.currency));
  return {
    currency: card.currency,
    volumetricDivisor: String(card.volumetricDivisor),
    fuelSurchargePercent: String(card.fuelSurchargePercent),
    remoteSurcharge: major(card.remoteSurchargeAmount),
    remoteAreas: card.remoteAreas
      .map((area) => [area.country, ...area.postcodePrefixes].join(' '))
      .join('\n'),
    zones: card.zones.map((zone) => ({
      code: zone.code,
      name: zone.name,
      countries: zone.countries.join(', '),
      postcodePrefixes: zone.postcodePrefixes.join(' '),
    })),
    prices: card.prices.map((price) => ({
      zone: price.zone,
      serviceType: price.serviceType,
      maxWeightKg: String(price.maxWeightKg),
      price: major(price.priceAmount),
    })),
    accountDiscounts: card.accountDiscounts.map((row) => ({
      accountId: row.accountId,
      discountPercent: String(row.discountPercent),
    })),
  };
}
export type RateCardFormValues = ReturnType<typeof rateCardForm>;

/** The public quote page's GET form: a parcel to price, as its fields are named. */
export const QUOTE_PAGE_FIELDS = {
  fromCountry: 'from.country',
  fromPostalCode: 'from.postalCode',
  toCountry: 'to.country',
  toPostalCode: 'to.postalCode',
  weight: 'weight',
  length: 'dimensions.length',
  width: 'dimensions.width',
  height: 'dimensions.height',
} as const;
export type QuotePageField = keyof typeof QUOTE_PAGE_FIELDS;

export const QuotePageQuerySchema = z
  .object(
    Object.fromEntries(Object.keys(QUOTE_PAGE_FIELDS).map((name) => [name, formText])) as Record<
      QuotePageField,
      typeof formText
    >,
  )
  .transform((query): unknown => ({
    from: { country: query.fromCountry, postalCode: query.fromPostalCode },
    to: { country: query.toCountry, postalCode: query.toPostalCode },
    weight: formNumber(query.weight),
    dimensions: {
      length: formNumber(query.length),
      width: formNumber(query.width),
      height: formNumber(query.height),
    },
  }))
  .pipe(QuoteCreateSchema as z.ZodType<QuoteCreateInput>);

/** The portal's "Send a parcel" form: the addresses, the parcel, a reference, then its quote. */
export const SendParcelFormSchema = z.object({
  intent: z.enum(['price', 'book']).default('price'),
  recipientName: z.string().trim().min(1, 'Recipient name is required').max(200),
  recipientAddress: z.string().trim().min(1, 'Recipient address is required').max(500),
  recipientCity: z.string().trim().max(100).default(''),
  recipientPostalCode: z.string().trim().max(20).default(''),
  recipientCountry: QuotePlaceSchema.shape.country,
  recipientEmail: z
    .string()
    .trim()
    .refine((v) => v === '' || z.email().safeParse(v).success, 'Invalid email address')
    .default(''),
  senderName: z.string().trim().max(200).default(''),
  senderAddress: z.string().trim().min(1, 'Pickup address is required').max(500),
  senderCity: z.string().trim().max(100).default(''),
  senderPostalCode: z.string().trim().max(20).default(''),
  senderCountry: QuotePlaceSchema.shape.country,
  weight: QuoteRequestFields.weight,
  length: QuoteRequestFields.dimensions.shape.length,
  width: QuoteRequestFields.dimensions.shape.width,
  height: QuoteRequestFields.dimensions.shape.height,
  reference: z.string().trim().max(100).default(''),
  quoteId: formText,
  paymentMethod: z.enum(BOOKING_PAYMENT_METHODS).default('account'),
});
export type SendParcelForm = z.output<typeof SendParcelFormSchema>;
