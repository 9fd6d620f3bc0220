import {
  findParcelByTrackingNumber,
  toPublicTrackingResult,
  type PublicTrackingResult,
} from '~/models/parcel.server';
import { normalizeTrackingNumber, TRACKING_NUMBER_PATTERN } from '~/schemas/constants';
import { connectDb } from './db.server';
import { env } from './env.server';
import { RateLimit } from './rate-limit.server';

/** One budget per client address, shared by the tracking page and the public API. */
export const trackingLimiter = new RateLimit(
  'tracking',
  env.RATE_LIMIT_TRACKING_PER_MINUTE,
  60_000,
);

export type TrackingLookup =
  | { kind: 'found'; result: PublicTrackingResult }
  | { kind: 'malformed'; trackingNumber: string }
  | { kind: 'not-found'; trackingNumber: string };

/** Looks a parcel up by what a visitor typed: spaces around it and letter case don't matter. */
export async function lookupTrackingNumber(input: string): Promise<TrackingLookup> {
  const trackingNumber = normalizeTrackingNumber(input);
  if (!TRACKING_NUMBER_PATTERN.test(trackingNumber)) return { kind: 'malformed', trackingNumber };
  await connectDb();
  const parcel = await findParcelByTrackingNumber(trackingNumber);
  if (!parcel) return { kind: 'not-found', trackingNumber };
  return { kind: 'found', result: toPublicTrackingResult(parcel) };
}
