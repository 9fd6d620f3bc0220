import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectDb } from '~/lib/db.server';
import { createWebhook, WebhookDelivery } from '~/models/webhook.server';
import { action as pickupsAction, loader as pickupsLoader } from '~/routes/api.pickups';
import { action as pickupAction, loader as pickupLoader } from '~/routes/api.pickups.$id';
import { action as scansAction } from '~/routes/api.scans';
import { action as portalAction, loader as portalLoader } from '~/routes/account.pickups';
import { insertShipperUser } from '~/models/user.server';
import { loader as staffPickupsLoader } from '~/routes/dashboard.pickups';
import { savePickupCutoff } from '~/services/depots.server';
import { sessionCookie } from '../support/sign-in';
import { registerJobKinds } from '~/services/job-kinds.server';
import { callRoute } from '../support/api';
import {
  atCompanyTime,
  createAccount,
  createParcel,
  createTwoAccounts,
  type TestUser,
} from '../support/factories';

/** Friday 27 November 2026 and the days around it. */
const FRIDAY = '2026-11-27';
const SATURDAY = '2026-11-28';
const MONDAY = '2026-11-30';
const window = { from: '09:00', until: '12:00' };

let staff: TestUser;
let account: Awaited<ReturnType<typeof createAccount>>;
let key: Record<string, string>;
let otherKey: Record<string, string>;
let accountHook: string;
let otherHook: string;

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  const accounts = await createTwoAccounts({}, { name: 'Other Shop' });
  ({ staff, account, key, otherKey } = accounts);
  const events = ['pickup.scheduled', 'pickup.cancelled', 'pickup.completed'] as const;
  const hook = (id: string, url: string) =>
    createWebhook({ url, events: [...events], description: '' }, id);
  accountHook = (await hook(account.id, 'https://hooks.example/a')).webhook.id;
  otherHook = (await hook(accounts.other.id, 'https://hooks.example/b')).webhook.id;
});

afterEach(() => {
  vi.useRealTimers();
});

function clock(instant: Date) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(instant);
}

async function ask(body: Record<string, unknown>, headers = key) {
  const res = await callRoute(pickupsAction, '/api/pickups', { method: 'POST', headers, body });
  return { status: res.status, body: await res.json() };
}

async function cancel(id: string, headers = key) {
  const res = await callRoute(pickupAction, `/api/pickups/${id}`, {
    method: 'DELETE',
    headers,
    params: { id },
  });
  return { status: res.status, body: await res.json() };
}

const deliveries = async (webhookId: string) =>
  (await WebhookDelivery.find({ webhookId }).lean()).map((d) => ({
    type: d.type,
    payload: JSON.parse(d.payload),
  }));

describe('pickups', () => {
  it('are refused after the cut-off or on a weekend with the next possible day', async () => {
    clock(atCompanyTime(FRIDAY, '14:05'));
    const late = await ask({ date: FRIDAY, window, parcelCount: 2 });
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({
      code: 'pickup_too_late',
      nextDate: MONDAY,
      details: { nextDate: [MONDAY] },
    });
    const weekend = await ask({ date: SATURDAY, window, parcelCount: 2 });
    expect(weekend.body).toMatchObject({ code: 'pickup_too_late', nextDate: MONDAY });
    const backwards = await ask({ date: MONDAY, window: { from: '12:00', until: '09:00' } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.details['window.until']).toBeDefined();

    // Before the cut-off the same day is open, at the account's pickup address by default.
    clock(atCompanyTime(FRIDAY, '13:55'));
    const ok = await ask({ date: FRIDAY, window, parcelCount: 2, notes: 'Gate B' });
    expect(ok.status).toBe(201);
    expect(ok.body.pickup).toMatchObject({
      accountId: account.id,
      livemode: true,
      date: FRIDAY,
      window,
      parcelCount: 2,
      status: 'scheduled',
      address: { address: account.pickupAddress.address, city: 'Portland' },
    });
  });

  it("name only the account's own parcels, and are cancelled until their day's cut-off", async () => {
    clock(atCompanyTime(FRIDAY, '10:00'));
    const foreign = await createParcel({ accountId: (await createAccount()).id });
    const theirs = await ask({ date: MONDAY, window, parcelIds: [foreign.id] });
    expect(theirs.status).toBe(404);

    const first = await ask({ date: MONDAY, window, parcelCount: 1 });
    const second = await ask({ date: MONDAY, window, parcelCount: 1 });
    expect((await cancel(first.body.pickup.id, otherKey)).status).toBe(404);
    clock(atCompanyTime(MONDAY, '13:59'));
    const cancelled = await cancel(first.body.pickup.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.pickup).toMatchObject({ status: 'cancelled' });
    clock(atCompanyTime(MONDAY, '14:00'));
    const tooLate = await cancel(second.body.pickup.id);
    expect(tooLate.status).toBe(409);
    expect(tooLate.body.code).toBe('pickup_closed');

    // Another account neither reads nor lists them; staff list the day's.
    const read = await callRoute(pickupLoader, `/api/pickups/${second.body.pickup.id}`, {
      headers: otherKey,
      params: { id: second.body.pickup.id },
    });
    expect(read.status).toBe(404);
    const listed = await callRoute(pickupsLoader, '/api/pickups', { headers: otherKey });
    expect((await listed.json()).pickups).toEqual([]);
    const day = await callRoute(pickupsLoader, `/api/pickups?date=${MONDAY}`, {
      headers: staff.auth,
    });
    expect((await day.json()).pickups.map((p: { id: string }) => p.id).sort()).toEqual(
      [first.body.pickup.id, second.body.pickup.id].sort(),
    );
  });

  it('are done when a parcel named is scanned Picked Up on their day, with pickup.completed once', async () => {
    clock(atCompanyTime(FRIDAY, '09:00'));
    const parcels = [
      await createParcel({ accountId: account.id, livemode: true }),
      await createParcel({ accountId: account.id, livemode: true }),
    ];
    const { body } = await ask({
      date: FRIDAY,
      window,
      parcelIds: parcels.map((p) => p.id),
    });
    expect(body.pickup.parcelCount).toBe(2);
    const scan = (trackingNumber: string) =>
      callRoute(scansAction, '/api/scans', {
        method: 'POST',
        headers: staff.auth,
        body: { trackingNumber, status: 'Picked Up', location: 'Shipper dock' },
      });
    expect((await scan(parcels[0]!.trackingNumber)).status).toBe(201);
    const half = await callRoute(pickupLoader, `/api/pickups/${body.pickup.id}`, {
      headers: key,
      params: { id: body.pickup.id },
    });
    expect((await half.json()).pickup).toMatchObject({ status: 'completed', collectedCount: 1 });
    await scan(parcels[1]!.trackingNumber);
    const done = await callRoute(pickupLoader, `/api/pickups/${body.pickup.id}`, {
      headers: key,
      params: { id: body.pickup.id },
    });
    expect((await done.json()).pickup).toMatchObject({ status: 'completed', collectedCount: 2 });

    const mine = await deliveries(accountHook);
    const completed = mine.filter((d) => d.type === 'pickup.completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]!.payload).toMatchObject({
      accountId: account.id,
      livemode: true,
      data: { pickup: { id: body.pickup.id, status: 'completed' } },
    });
    expect(mine.map((d) => d.type)).toEqual(
      expect.arrayContaining(['pickup.scheduled', 'pickup.cancelled']),
    );
    // The other account's endpoint hears of none of them.
    expect(await deliveries(otherHook)).toEqual([]);
  });

  it('are asked for and cancelled in the portal with the same rules, without JavaScript', async () => {
    const shipper = await insertShipperUser({
      accountId: account.id,
      accountRole: 'member',
      name: 'Portal shipper',
      email: 'portal@pickups.example',
      accessNonce: 'x',
      accessExpires: new Date(),
    });
    const cookie = await sessionCookie(shipper.id);
    clock(atCompanyTime(FRIDAY, '15:00'));
    const form = { date: FRIDAY, from: '09:00', until: '12:00', parcelCount: '3', notes: '' };
    const late = await callRoute(portalAction, '/account/pickups', { cookie, form });
    expect(late.status).toBe(400);
    expect(JSON.stringify(await late.json())).toContain('the next possible day is 2026-11-30');
    const made = await callRoute(portalAction, '/account/pickups', {
      cookie,
      form: { ...form, date: MONDAY },
    });
    expect(made.status).toBe(302);
    const page = await (await callRoute(portalLoader, '/account/pickups', { cookie })).json();
    expect(page.firstDay).toBe(MONDAY);
    const mine = page.pickups.find((p: { parcelCount: number }) => p.parcelCount === 3);
    expect(mine).toMatchObject({ date: MONDAY, status: 'scheduled' });
    const cancelled = await callRoute(portalAction, '/account/pickups', {
      cookie,
      form: { intent: 'cancel', pickupId: mine.id },
    });
    expect(cancelled.status).toBe(302);
    const foreign = await callRoute(portalAction, '/account/pickups', {
      cookie,
      form: { intent: 'cancel', pickupId: '6b0abf97c9cfe6f3f6d515f5' },
    });
    expect(foreign.status).toBe(404);
  });

  it("follow the settings' cut-off, and staff see each day's on the Pickups page", async () => {
    clock(atCompanyTime(FRIDAY, '15:00'));
    await savePickupCutoff('16:00', { user: staff.user, context: null });
    const ok = await ask({ date: FRIDAY, window, parcelCount: 5 });
    await savePickupCutoff('14:00', { user: staff.user, context: null });
    expect(ok.status).toBe(201);
    const page = await callRoute(staffPickupsLoader, `/dashboard/pickups?date=${FRIDAY}`, {
      cookie: staff.cookie,
    });
    const { pickups } = await page.json();
    expect(pickups.map((p: { id: string }) => p.id)).toContain(ok.body.pickup.id);
    expect(pickups.every((p: { date: string }) => p.date === FRIDAY)).toBe(true);
  });
});
