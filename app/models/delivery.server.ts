import mongoose from 'mongoose';
import { scopeFilter } from '~/lib/tenancy.server';
import { isObjectId } from '~/lib/db.server';
import { FAILED_DELIVERY } from '~/schemas/constants';
import { Parcel, serializeEvent, type LeanParcel } from './parcel.server';
import { parcelHeading } from './parcel-reads.server';

/**
 * Reads of the parcels collection for running deliveries: the scan station's lookup and the
 * staff's Exceptions view (failed attempts, parcels that have gone quiet).
 */

/** The id of the parcel with this (normalised) tracking number; null when none has it. */
export async function parcelIdByTrackingNumber(trackingNumber: string): Promise<string | null> {
  // An account's test parcel is never in a courier's hands: the scan station does not know it.
  const doc = await Parcel.findOne(
    { trackingNumber, ...scopeFilter(null, { mode: 'live' }) },
    { _id: 1 },
  ).lean<{ _id: unknown }>();
  return doc ? String(doc._id) : null;
}

/** Who scanned the event at the scan station (a user id), or null (typed, or unknown). */
export async function eventScannedBy(eventId: string): Promise<string | null> {
  if (!isObjectId(eventId)) return null;
  const id = new mongoose.Types.ObjectId(eventId);
  const doc = await Parcel.findOne({ 'events._id': id }, { 'events.$': 1 }).lean<LeanParcel>();
  const scannedBy = doc?.events?.[0]?.scannedBy;
  return scannedBy ? String(scannedBy) : null;
}

const SUMMARY = {
  trackingNumber: 1,
  status: 1,
  'recipient.name': 1,
  'recipient.address': 1,
  events: 1,
  createdAt: 1,
} as const;

function summary(parcel: LeanParcel) {
  return {
    ...parcelHeading(parcel),
    recipientName: parcel.recipient?.name ?? '',
    recipientAddress: parcel.recipient?.address ?? '',
  };
}

/** Failed delivery attempts whose time is in [from, to), newest first, with their parcel. */
export async function failedAttemptsBetween(from: Date, to: Date, limit = 200) {
  const parcels = await Parcel.find(
    { events: { $elemMatch: { status: FAILED_DELIVERY, timestamp: { $gte: from, $lt: to } } } },
    SUMMARY,
  )
    .limit(limit)
    .lean<LeanParcel[]>();
  return parcels
    .flatMap((parcel) =>
      (parcel.events ?? [])
        .filter((e) => {
          const at = new Date(e.timestamp).getTime();
          return e.status === FAILED_DELIVERY && at >= from.getTime() && at < to.getTime();
        })
        .map((e) => ({ parcel: summary(parcel), event: serializeEvent(e) })),
    )
    .sort((a, b) => Date.parse(b.event.timestamp ?? '') - Date.parse(a.event.timestamp ?? ''));
}
export type FailedAttempt = Awaited<ReturnType<typeof failedAttemptsBetween>>[number];

/**
 * Open parcels (not delivered or returned) with no event since `since` and created before it:
 * the ones nobody has scanned for a while, the quietest first, with their last event if any.
 */
export async function parcelsWithoutScanSince(since: Date, limit = 200) {
  const parcels = await Parcel.find(
    {
      status: { $nin: ['Delivered', 'Returned'] },
      createdAt: { $lt: since },
      'events.timestamp': { $not: { $gte: since } },
    },
    SUMMARY,
  )
    .sort({ createdAt: 1 })
    .limit(limit)
    .lean<LeanParcel[]>();
  return parcels
    .map((parcel) => {
      const last = [...(parcel.events ?? [])].sort(
        (a, b) => new Date(b.timestamp).getTime() - new Date(a.timestamp).getTime(),
      )[0];
      return {
        parcel: summary(parcel),
        lastEvent: last ? serializeEvent(last) : null,
        since: new Date(last?.timestamp ?? parcel.createdAt ?? since).toISOString(),
      };
    })
    .sort((a, b) => Date.parse(a.since) - Date.parse(b.since));
}
export type QuietParcel = Awaited<ReturnType<typeof parcelsWithoutScanSince>>[number];
