import { beforeAll, describe, expect, it } from 'vitest';
import { generateTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { Parcel } from '~/models/parcel.server';
import { loader as trackApi } from '~/routes/api.tracking.track.$trackingNumber';
import { action as batchApi } from '~/routes/api.tracking.track';
import { loader as trackPage } from '~/routes/_public.track';
import { connectDb } from '~/lib/db.server';
import { hasValidCheckDigit, s10CheckDigit } from '~/utils/tracking-number';
import { callRoute, uniqueAddress } from '../support/api';

// An old number (issued before check digits), which fails the check but exists.
const OLD_NUMBER = 'OLD123456789';
// Unknown numbers: one whose last digit fits the eight before it, one whose does not.
const UNKNOWN = 'ZZZ473124829';
const MISTYPED = 'ZZZ473124820';

beforeAll(async () => {
  await connectDb();
  await Parcel.create({ trackingNumber: OLD_NUMBER, recipient: { name: 'Old Timer' } });
});

describe('the S10 check digit', () => {
  it('matches the UPU test vectors', () => {
    expect(s10CheckDigit('47312482')).toBe(9);
    expect(s10CheckDigit('47302482')).toBe(5);
    expect(s10CheckDigit('48302382')).toBe(0);
    expect(hasValidCheckDigit('ABC473124829')).toBe(true);
    expect(hasValidCheckDigit('ABC473124828')).toBe(false);
  });

  it('ends every new number', () => {
    for (let i = 0; i < 200; i++) {
      const number = generateTrackingNumber();
      expect(number).toMatch(/^[A-Z]{3}\d{9}$/);
      expect(hasValidCheckDigit(number), number).toBe(true);
    }
  });
});

describe('a number not found', () => {
  const single = (number: string) =>
    callRoute(trackApi, `/api/tracking/track/${number}`, {
      params: { trackingNumber: number },
      clientAddress: uniqueAddress(),
    });

  it('is mistyped on the API when it fails its check digit, else not found', async () => {
    const mistyped = await single(MISTYPED);
    expect(mistyped.status).toBe(404);
    expect(await mistyped.json()).toMatchObject({
      error: 'Tracking number not found',
      code: 'tracking_number_mistyped',
    });
    const unknown = await single(UNKNOWN);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: 'Tracking number not found',
      code: 'tracking_number_not_found',
    });
    // An old number without a check digit is still found.
    expect((await single(OLD_NUMBER.toLowerCase())).status).toBe(200);
  });

  it('carries the same codes in a batch lookup', async () => {
    const res = await callRoute(batchApi, '/api/tracking/track', {
      method: 'POST',
      body: { trackingNumbers: [MISTYPED, UNKNOWN, OLD_NUMBER] },
      clientAddress: uniqueAddress(),
    });
    const { results } = await res.json();
    expect(results.map((r: { code?: string; found: boolean }) => r.code ?? r.found)).toEqual([
      'tracking_number_mistyped',
      'tracking_number_not_found',
      true,
    ]);
  });

  it('tells the visitor on the track page which digits to check', async () => {
    const mistyped = await callRoute(trackPage, `/track?number=${MISTYPED}`, {
      clientAddress: uniqueAddress(),
    });
    expect(mistyped.status).toBe(404);
    const data = await mistyped.json();
    expect(data.error).toBe('Tracking number not found');
    expect(data.hint).toBe(
      'Please check the digits of ZZZ 47312482 0: the last digit, 0, does not match the eight before it, so one of these nine digits is probably mistyped.',
    );
    const unknown = await callRoute(trackPage, `/track?number=${UNKNOWN}`, {
      clientAddress: uniqueAddress(),
    });
    expect(await unknown.json()).toMatchObject({ error: 'Tracking number not found', hint: null });
  });
});
