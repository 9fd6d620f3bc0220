import { describe, expect, it } from 'vitest';
import { COURIER_DAY, courierDayCapacity } from '../../scripts/support/capacity';

// The capacity `npm run bench` ends with: the rates it measured, as a regional courier's day.
describe("a regional courier's day", () => {
  it('carries the parcels whose lookups, polls and peak scans keep the machine 70 % busy', () => {
    const rates = { trackingPage: 100, trackingApi: 100, scans: 50 };
    const { parcelsPerDay, peak, scanShare } = courierDayCapacity(rates);
    // Per parcel a second: 1.5 lookups over 12 hours (1/28,800) and a poll every 30 minutes
    // (1/1,800); the 5 scans a second take a tenth of the machine.
    expect(scanShare).toBeCloseTo(0.1);
    expect(parcelsPerDay).toBe(Math.floor(0.6 / ((1 / 28_800 + 1 / 1_800) / 100)));
    expect(peak.polls).toBeCloseTo(parcelsPerDay / 1_800);
    expect(peak.lookups).toBeCloseTo(parcelsPerDay / 28_800);
    const busy = peak.lookups / 100 + peak.polls / 100 + peak.scans / 50;
    expect(busy).toBeCloseTo(COURIER_DAY.busiest, 4);
  });

  it('carries nothing when the peak scans alone take more than that', () => {
    expect(
      courierDayCapacity({ trackingPage: 100, trackingApi: 100, scans: 5 }).parcelsPerDay,
    ).toBe(0);
  });
});
