/**
 * What a build serves in the terms of a regional courier's day, from the rates `npm run bench`
 * measured on one machine: how many parcels a day it can carry when
 * - people look each parcel up `lookupsPerParcel` times on the tracking page, over the
 *   `lookupHours` of the day;
 * - an aggregator polls each parcel's tracking API every `pollMinutes`, around the clock, for
 *   the day it is on the road (so as many parcels are polled at any time as are carried a day);
 * - couriers scan `peakScansPerSecond` at the depot's morning peak, all of it at once,
 * and the machine is to stay at most `busiest` busy then, leaving the rest for staff on the
 * dashboard, the e-mails the scans send and bursts. Each request of a kind takes 1/rate of the
 * machine (the rates are each kind's most, measured alone), so the kinds add up.
 */
export const COURIER_DAY = {
  lookupsPerParcel: 1.5,
  lookupHours: 12,
  pollMinutes: 30,
  peakScansPerSecond: 5,
  busiest: 0.7,
};

export type MeasuredRates = {
  /** GET /track?number=… (people), requests a second. */
  trackingPage: number;
  /** GET /api/tracking/track/:number (the aggregator), requests a second. */
  trackingApi: number;
  /** POST /api/scans, scans a second. */
  scans: number;
};

export type Capacity = {
  parcelsPerDay: number;
  /** At the morning peak with that many parcels: requests a second of each kind. */
  peak: { lookups: number; polls: number; scans: number };
  /** The share of the machine the scans take at the peak. */
  scanShare: number;
};

export function courierDayCapacity(rates: MeasuredRates, day = COURIER_DAY): Capacity {
  const scanShare = day.peakScansPerSecond / rates.scans;
  // Requests a second per parcel carried a day, and the machine's share each takes.
  const lookupsPerParcel = day.lookupsPerParcel / (day.lookupHours * 3600);
  const pollsPerParcel = 1 / (day.pollMinutes * 60);
  const sharePerParcel = lookupsPerParcel / rates.trackingPage + pollsPerParcel / rates.trackingApi;
  const parcelsPerDay = Math.max(0, Math.floor((day.busiest - scanShare) / sharePerParcel));
  return {
    parcelsPerDay,
    peak: {
      lookups: parcelsPerDay * lookupsPerParcel,
      polls: parcelsPerDay * pollsPerParcel,
      scans: day.peakScansPerSecond,
    },
    scanShare,
  };
}
