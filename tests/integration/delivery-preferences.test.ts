import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '~/models/audit.server';
import { insertWithTrackingNumber, Parcel } from '~/models/parcel.server';
import { createWebhook, WebhookDelivery } from '~/models/webhook.server';
import { action as preferencesApi } from '~/routes/api.tracking.track.$trackingNumber.delivery-preferences';
import { loader as parcelApi } from '~/routes/api.parcels.$id';
import { requestableDays } from '~/services/delivery-preferences.server';
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

  it('the last stop’s postcode opens a parcel whose recipient has none', async () => {
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

  it('guessing meets 429 within ten tries, per parcel from many addresses and per address over many parcels', async () => {
    const parcel = await newParcel();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await ask(parcel.trackingNumber, { postalCode: `X${i}`, holdAtDepot: true })).status,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    const refused = await ask(parcel.trackingNumber, { postalCode: 'SW1A 1AA', holdAtDepot: true });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    expect((await staffView(String(parcel._id))).deliveryPreferences).toBeNull();

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
