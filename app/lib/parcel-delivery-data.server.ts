import { env } from './env.server';
import { publicUrl, trackingUrl } from './urls.server';
import { SERVICE_DELIVERY_BY, type ServiceType } from '~/schemas/constants';
import { zonedDateTimeToUtc } from '~/utils/time-zone';

/**
 * A parcel as schema.org's ParcelDelivery, the structured data that search engines and mail
 * programs (Gmail's order and delivery cards) read from the tracking page and the tracking
 * e-mails: the number, the expected arrival, the status, the carrier and where to track it.
 * Built here only, so the page and every e-mail say the same. Nothing about the recipient is in
 * it: the page is public.
 */
export type ParcelDeliveryFacts = {
  trackingNumber: string;
  status: string;
  /** The estimated day (midnight UTC of it, as parcels keep it). */
  estimatedDelivery: string | Date | null | undefined;
  /** The expected window on that day: the parcel's own or its service's (from null: "by"). */
  window: { from: string | null; until: string } | null;
  /** When its latest tracking event happened, if it has one. */
  lastEventAt?: string | null;
  /** The recipient's zone, in which the estimated day is read (the company's when not given). */
  timeZone?: string;
};

export type ParcelDeliveryData = Record<string, unknown>;

/** What the expected window is read from: a parcel as stored. */
export type WindowSource = {
  serviceType?: string | null;
  estimatedDelivery?: Date | string | null;
  deliveryWindow?: { from?: Date | string | null; until?: Date | string | null } | null;
};

const iso = (value: Date | string | null | undefined) =>
  value ? new Date(value).toISOString() : null;

/**
 * The window a parcel is expected in on its estimated day: its own, else its service's rule
 * (arriving by a time in `timeZone`, the recipient's). None without an estimated day.
 */
export function expectedWindow(
  parcel: WindowSource,
  timeZone: string = env.COMPANY_TIMEZONE,
): { from: string | null; until: string } | null {
  const own = parcel.deliveryWindow;
  if (own?.until) return { from: iso(own.from), until: iso(own.until)! };
  if (!parcel.estimatedDelivery) return null;
  const by = SERVICE_DELIVERY_BY[(parcel.serviceType ?? 'Standard') as ServiceType];
  if (!by) return null;
  const day = new Date(parcel.estimatedDelivery).toISOString().slice(0, 10);
  return { from: null, until: zonedDateTimeToUtc(day, by, timeZone).toISOString() };
}

/** The goodrelations delivery mode schema.org's DeliveryMethod names for a parcel service. */
const PARCEL_SERVICE = 'http://purl.org/goodrelations/v1#DeliveryModeParcelService';

function expectedArrival(facts: ParcelDeliveryFacts) {
  if (!facts.estimatedDelivery) return {};
  const day = new Date(facts.estimatedDelivery).toISOString().slice(0, 10);
  const zone = facts.timeZone ?? env.COMPANY_TIMEZONE;
  const from = facts.window?.from ?? zonedDateTimeToUtc(day, '00:00', zone).toISOString();
  const until = facts.window?.until ?? zonedDateTimeToUtc(day, '23:59:59', zone).toISOString();
  return { expectedArrivalFrom: from, expectedArrivalUntil: until };
}

export function parcelDeliveryData(facts: ParcelDeliveryFacts): ParcelDeliveryData {
  return {
    '@context': 'https://schema.org',
    '@type': 'ParcelDelivery',
    trackingNumber: facts.trackingNumber,
    trackingUrl: trackingUrl(facts.trackingNumber),
    ...expectedArrival(facts),
    deliveryStatus: {
      '@type': 'DeliveryEvent',
      name: facts.status,
      ...(facts.lastEventAt ? { startDate: facts.lastEventAt } : {}),
    },
    hasDeliveryMethod: PARCEL_SERVICE,
    provider: { '@type': 'Organization', name: env.COMPANY_NAME, url: publicUrl('/') },
  };
}
