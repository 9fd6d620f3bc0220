import {
  claimQuote,
  insertQuotes,
  releaseQuote,
  type QuoteFields,
  type QuoteLine,
  type StoredQuote,
} from '~/models/quote.server';
import { getRateCard } from '~/models/rate-card.server';
import { ConflictError, ValidationError } from '~/lib/errors.server';
import { scopeOf, type AccountScope, type Scoped } from '~/lib/tenancy.server';
import { SERVICE_TYPES, type ServiceType } from '~/schemas/constants';
import type { QuoteCreateInput, RateCard, Zone } from '~/schemas/rate-card';
import { percentOf, sumAmounts } from '~/utils/money';
import { RateLimit } from '~/lib/rate-limit.server';

/** How long a quote holds its price. */
export const QUOTE_TTL_MS = 30 * 60 * 1000;

/** Business days from booking to delivery, by service (the services page's promises). */
export const TRANSIT_BUSINESS_DAYS: Record<ServiceType, number> = {
  Overnight: 1,
  Express: 2,
  Premium: 3,
  Standard: 5,
};

type Place = QuoteCreateInput['to'];

/**
 * The zone that serves a place: among the zones of its country, one whose postcode prefix it
 * starts with (the longest wins) before one that covers the whole country; null when none does.
 */
export function zoneOf(card: RateCard, place: Place): Zone | null {
  const postcode = place.postalCode.toUpperCase().replace(/\s+/g, '');
  let best: { zone: Zone; length: number } | null = null;
  for (const zone of card.zones) {
    if (!zone.countries.includes(place.country)) continue;
    const length = zone.postcodePrefixes.length
      ? Math.max(...zone.postcodePrefixes.map((p) => (postcode.startsWith(p) ? p.length : -1)))
      : 0;
    if (length >= 0 && (!best || length > best.length)) best = { zone, length };
  }
  return best?.zone ?? null;
}

function isRemote(card: RateCard, place: Place) {
  const postcode = place.postalCode.toUpperCase().replace(/\s+/g, '');
  return card.remoteAreas.some(
    (area) =>
      area.country === place.country &&
      area.postcodePrefixes.some((prefix) => postcode.startsWith(prefix)),
  );
}

function notServed(field: 'from' | 'to', place: Place): never {
  const which = field === 'to' ? 'destination' : 'origin';
  throw new ValidationError(
    {
      [`${field}.postalCode`]: [
        `We do not deliver to this ${which} (${place.country} ${place.postalCode}).`,
      ],
    },
    `The rate card does not serve this ${which}`,
    'destination_not_served',
  );
}

/** The larger of the actual weight and the volumetric one, in kg to the gram. */
export function chargeableWeight(
  card: RateCard,
  input: Pick<QuoteCreateInput, 'weight' | 'dimensions'>,
) {
  const { length, width, height } = input.dimensions;
  const volumetric = (length * width * height) / card.volumetricDivisor;
  return Math.round(Math.max(input.weight, volumetric) * 1000) / 1000;
}

function addBusinessDays(from: Date, days: number) {
  const date = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
  let left = days;
  while (left > 0) {
    date.setUTCDate(date.getUTCDate() + 1);
    if (date.getUTCDay() !== 0 && date.getUTCDay() !== 6) left -= 1;
  }
  return date;
}

/**
 * The price of a parcel by the card, one per service (the one asked for, or every service the card
 * prices for its zone and weight): the band's price, the remote surcharge, the fuel surcharge on
 * both, then the account's discount, each a line of the breakdown. Throws when the card does
 * not serve a place, or prices no service for it.
 */
export function priceParcel(
  card: RateCard,
  input: QuoteCreateInput,
  { accountId = null, now = new Date() }: { accountId?: string | null; now?: Date } = {},
): QuoteFields[] {
  if (!zoneOf(card, input.from)) notServed('from', input.from);
  const zone = zoneOf(card, input.to) ?? notServed('to', input.to);
  const weight = chargeableWeight(card, input);
  const remote = isRemote(card, input.to) ? card.remoteSurchargeAmount : 0;
  const discount =
    card.accountDiscounts.find((d) => d.accountId === accountId)?.discountPercent ?? 0;
  const services = input.serviceType ? [input.serviceType] : SERVICE_TYPES;
  const quotes = services.flatMap((serviceType) => {
    const band = card.prices
      .filter(
        (p) => p.zone === zone.code && p.serviceType === serviceType && p.maxWeightKg >= weight,
      )
      .sort((a, b) => a.maxWeightKg - b.maxWeightKg)[0];
    if (!band) return [];
    const lines: QuoteLine[] = [
      {
        label: `${serviceType}, up to ${band.maxWeightKg} kg, ${zone.name}`,
        amount: band.priceAmount,
      },
    ];
    if (remote) lines.push({ label: 'Remote area surcharge', amount: remote });
    const fuel = percentOf(band.priceAmount + remote, card.fuelSurchargePercent);
    if (fuel) lines.push({ label: `Fuel surcharge (${card.fuelSurchargePercent}%)`, amount: fuel });
    const cut = percentOf(sumAmounts(lines.map((line) => line.amount)), discount);
    if (cut) lines.push({ label: `Account discount (${discount}%)`, amount: -cut });
    return [
      {
        serviceType,
        amount: sumAmounts(lines.map((line) => line.amount)),
        currency: card.currency,
        breakdown: lines,
        from: input.from,
        to: input.to,
        zone: zone.code,
        weight: input.weight,
        dimensions: input.dimensions,
        chargeableWeight: weight,
        estimatedDelivery: addBusinessDays(now, TRANSIT_BUSINESS_DAYS[serviceType]),
        expiresAt: new Date(now.getTime() + QUOTE_TTL_MS),
      },
    ];
  });
  if (!quotes.length)
    throw new ValidationError(
      {
        [input.serviceType ? 'serviceType' : 'weight']: [
          input.serviceType
            ? `${input.serviceType} is not offered for this parcel to ${zone.name}.`
            : `No service takes a parcel of ${weight} kg to ${zone.name}.`,
        ],
      },
      'No price on the rate card for this parcel',
      'service_not_offered',
    );
  return quotes;
}

/** Quotes for a parcel, stored so that a booking pays their price; an account's at its price. */
export async function createQuotes(input: QuoteCreateInput, actor?: Scoped) {
  const scope = scopeOf(actor);
  const quotes = priceParcel(await getRateCard(), input, { accountId: scope?.accountId ?? null });
  return insertQuotes(quotes, scope);
}

/**
 * Takes a quote for a booking: the caller's, unused and current, marked used. A used one is a
 * conflict (`quote_used`); an expired one too (`quote_expired`), with today's price for the same
 * parcel and service in its details when the card still prices it.
 */
export async function takeQuote(id: string, scope: AccountScope | null): Promise<StoredQuote> {
  const claim = await claimQuote(id, scope);
  if (claim.outcome === 'claimed') return claim.quote;
  if (claim.outcome === 'not-found')
    throw new ValidationError({ quoteId: ['No such quote'] }, 'No such quote', 'quote_not_found');
  if (claim.outcome === 'used')
    throw new ConflictError('This quote was already used for a booking: ask for a new one', {
      code: 'quote_used',
    });
  const { quote } = claim;
  let fresh: unknown = null;
  try {
    [fresh] = await createQuotes(
      {
        from: quote.from,
        to: quote.to,
        weight: quote.weight,
        dimensions: quote.dimensions,
        serviceType: quote.serviceType as ServiceType,
      },
      scope ? { user: { account: scope } } : null,
    );
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
  }
  throw new ConflictError('This quote has expired: book with the new quote', {
    code: 'quote_expired',
    details: { quoteId: ['This quote has expired: `quote` is today’s price for the same parcel'] },
    extra: { quote: fresh },
  });
}

export { releaseQuote };

/** Public quotes (without a key) per client address: the /quote page and POST /api/quotes. */
export const quoteClientLimiter = new RateLimit('quotes', 60, 10 * 60 * 1000, { perAddress: true });

/** The public's prices for a parcel, one per service, without holding them (the /quote page). */
export async function publicPrices(input: QuoteCreateInput) {
  return priceParcel(await getRateCard(), input).map((quote) => ({
    serviceType: quote.serviceType,
    amount: quote.amount,
    currency: quote.currency,
    chargeableWeight: quote.chargeableWeight,
    estimatedDelivery: quote.estimatedDelivery.toISOString().slice(0, 10),
  }));
}
