import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '~/models/audit.server';
import { insertWithTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { Parcel } from '~/models/parcel.server';
import { createWebhook, WebhookDelivery } from '~/models/webhook.server';
import { action as preferencesApi } from '~/routes/api.tracking.track.$trackingNumber.delivery-preferences';
import { loader as parcelApi } from '~/routes/api.parcels.$id';
import {
  POSTCODE_SLOW_SECONDS,
  POSTCODE_TRIES,
  postcodeClientLimiter,
  postcodeParcelSlowLimiter,
  requestableDays,
} from '~/services/delivery-preferences.server';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { callRoute, uniqueAddress } from '../support/api';
import { createUser } from '../support/factories';

let staffToken = '';

beforeAll(async () => {
  await connectDb();
  ({ token: staffToken } = await createUser('staff', { username: 'prefs-staff', name: 'Staff' }));
  await createWebhook({
    url: 'https://hooks.example/preferences',
    events: ['parcel.delivery_preferences_updated'],
    description: '',
  });
});

afterAll(async () => {
  await disconnectDb();
});

async function newParcel(fields: Record<string, unknown> = {}) {
  return insertWithTrackingNumber((trackingNumber) =>
    Parcel.create({
      trackingNumber,
      recipient: { name: 'Jane Roe', address: '9 Elm St', postalCode: 'SW1A 1AA' },
      status: 'In Transit',
      ...fields,
    }),
  );
}

function ask(trackingNumber: string, body: unknown, clientAddress = uniqueAddress()) {
  return callRoute(preferencesApi, `/api/tracking/track/${trackingNumber}/delivery-preferences`, {
    method: 'POST',
    params: { trackingNumber },
    body,
    clientAddress,
  });
}

async function staffView(id: string) {
  const res = await callRoute(parcelApi, `/api/parcels/${id}`, {
    params: { id },
    headers: { authorization: `Bearer ${staffToken}` },
  });
  return ((await res.json()) as { parcel: { deliveryPreferences: unknown } }).parcel;
}

describe('POST /api/tracking/track/:trackingNumber/delivery-preferences', () => {
  it('the right postcode (any case, any spaces) stores them for staff, a webhook and the audit trail', async () => {
    const parcel = await newParcel();
    const day = requestableDays()[2]!;
    const res = await ask(parcel.trackingNumber.toLowerCase(), {
      postalCode: ' sw1a1aa ',
      instructions: 'Ring twice',
      safePlace: 'other',
      safePlaceOther: 'Behind the blue bin',
      requestedDate: day,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const expected = {
      instructions: 'Ring twice',
      safePlace: 'other',
      safePlaceOther: 'Behind the blue bin',
      requestedDate: day,
      holdAtDepot: false,
      updatedAt: expect.any(String),
    };
    expect(await res.json()).toEqual({ deliveryPreferences: expected });
    expect((await staffView(String(parcel._id))).deliveryPreferences).toEqual(expected);
    const [hook] = await WebhookDelivery.find({ type: 'parcel.delivery_preferences_updated' }).lean<
      { payload: string }[]
    >();
    expect(JSON.parse(hook!.payload).data).toMatchObject({
      parcel: { trackingNumber: parcel.trackingNumber },
      deliveryPreferences: { instructions: 'Ring twice' },
    });
    const { entries } = await listAudit({ entity: 'parcel', entityId: String(parcel._id) });
    expect(entries[0]).toMatchObject({
      action: 'update',
      actor: { username: 'recipient (postcode)' },
    });
  });

  it('the postcode of the stop the recipient is named on opens it; another stop’s does not', async () => {
    const parcel = await newParcel({
      recipient: { name: 'Claire Dubois', address: '12 rue de Rivoli' },
      destinations: [
        { name: 'Claire  DUBOIS', address: '12 rue de Rivoli', postalCode: '75004' },
        { name: 'Atelier Lenoir', address: '3 rue du Louvre', postalCode: '75001' },
      ],
    });
    const other = await ask(parcel.trackingNumber, { postalCode: '75001', holdAtDepot: true });
    expect(other.status).toBe(403);
    expect((await staffView(String(parcel._id))).deliveryPreferences).toBeNull();
    const own = await ask(parcel.trackingNumber, { postalCode: ' 75 004', holdAtDepot: true });
    expect(own.status).toBe(200);
  });

  it('a single stop’s postcode opens a parcel whose recipient has none', async () => {
    const parcel = await newParcel({
      recipient: { name: 'Sam', address: '1 Road' },
      destinations: [{ name: 'Sam', address: '1 Road', postalCode: '10001' }],
    });
    expect(
      (await ask(parcel.trackingNumber, { postalCode: '10001', holdAtDepot: true })).status,
    ).toBe(200);
  });

  it('a wrong postcode is 403 and changes nothing', async () => {
    const parcel = await newParcel();
    const res = await ask(parcel.trackingNumber, { postalCode: 'SW1A 1AB', holdAtDepot: true });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'forbidden' });
    expect((await staffView(String(parcel._id))).deliveryPreferences).toBeNull();
  });

  it('strangers guessing from many addresses slow a parcel down to one try a minute, never lock the recipient out', async () => {
    const parcel = await newParcel();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push(
        (await ask(parcel.trackingNumber, { postalCode: `X${i}`, holdAtDepot: true })).status,
      );
    expect(statuses).toEqual(Array(10).fill(403));
    // Past the parcel's budget, one attempt a minute is still checked…
    expect(
      (await ask(parcel.trackingNumber, { postalCode: 'X10', holdAtDepot: true })).status,
    ).toBe(403);
    const refused = await ask(parcel.trackingNumber, { postalCode: 'SW1A 1AA', holdAtDepot: true });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(POSTCODE_SLOW_SECONDS);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    expect((await staffView(String(parcel._id))).deliveryPreferences).toBeNull();
    // …so once that minute is over, the recipient gets in with the right postcode.
    await postcodeParcelSlowLimiter.reset(parcel.trackingNumber);
    const recipient = await ask(parcel.trackingNumber, {
      postalCode: 'SW1A 1AA',
      holdAtDepot: true,
    });
    expect(recipient.status).toBe(200);
  });

  it('counts every one of 40 wrong postcodes sent at once before checking any: ten are checked', async () => {
    const address = uniqueAddress();
    const parcels = await Promise.all(Array.from({ length: 4 }, () => newParcel()));
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ask(parcels[i % 4]!.trackingNumber, { postalCode: `N${i}`, holdAtDepot: true }, address),
      ),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 403)).toHaveLength(POSTCODE_TRIES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - POSTCODE_TRIES);
    const counted = await postcodeClientLimiter.peek(address);
    expect(counted.allowed).toBe(false);
    expect(counted.remaining).toBe(0);
  });

  it('a client that moves within its IPv6 /64 is still limited; another /64 is not', async () => {
    const parcel = await newParcel();
    const network = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
    const statuses: number[] = [];
    for (let i = 0; i <= POSTCODE_TRIES; i++) {
      const other = await newParcel();
      const address = `${network}:${(i + 1).toString(16)}::${i + 1}`;
      statuses.push(
        (await ask(other.trackingNumber, { postalCode: 'NOPE', holdAtDepot: true }, address))
          .status,
      );
    }
    expect(statuses).toEqual([...Array(POSTCODE_TRIES).fill(403), 429]);
    const elsewhere = await ask(
      parcel.trackingNumber,
      { postalCode: 'SW1A 1AA', holdAtDepot: true },
      `2001:db8:ffff:${Math.floor(Math.random() * 0xffff).toString(16)}::1`,
    );
    expect(elsewhere.status).toBe(200);
  });

  it('a client meets 429 after ten wrong postcodes over many parcels', async () => {
    const address = uniqueAddress();
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) {
      const other = await newParcel();
      answers.push(
        (await ask(other.trackingNumber, { postalCode: 'NOPE', holdAtDepot: true }, address))
          .status,
      );
    }
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(answers[10]).toBe(429);
  });

  it('refuses bad input with what to fix, and unknown numbers by their code', async () => {
    const parcel = await newParcel();
    const cases: Array<[unknown, string]> = [
      [{ postalCode: 'SW1A 1AA' }, ''],
      [{ postalCode: 'SW1A 1AA', instructions: 'x'.repeat(501) }, 'instructions'],
      [{ postalCode: 'SW1A 1AA', safePlace: 'roof' }, 'safePlace'],
      [{ postalCode: 'SW1A 1AA', safePlace: 'other' }, 'safePlaceOther'],
      [{ postalCode: 'SW1A 1AA', requestedDate: '2020-01-01' }, 'requestedDate'],
      [{ postalCode: 'SW1A 1AA', holdAtDepot: 'yes' }, 'holdAtDepot'],
      [{ holdAtDepot: true }, 'postalCode'],
      [{ postalCode: 'SW1A 1AA', holdAtDepot: true, tip: 5 }, ''],
    ];
    for (const [body, field] of cases) {
      const res = await ask(parcel.trackingNumber, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const answer = (await res.json()) as { code: string; details?: Record<string, string[]> };
      expect(answer.code).toBe('validation_failed');
      if (field) expect(Object.keys(answer.details ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect((await staffView(String(parcel._id))).deliveryPreferences).toBeNull();
    const unknown = await ask('ZZZ999999995', { postalCode: 'X', holdAtDepot: true });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'tracking_number_not_found' });
  });

  it('a delivered parcel takes no more preferences (409)', async () => {
    const parcel = await newParcel({ status: 'Delivered' });
    expect(
      (await ask(parcel.trackingNumber, { postalCode: 'SW1A1AA', holdAtDepot: true })).status,
    ).toBe(409);
  });
});
