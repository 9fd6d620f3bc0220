import { beforeAll, describe, expect, it } from 'vitest';
import { connectDb } from '~/lib/db.server';
import { insertPickup, type SerializedPickup } from '~/models/pickup.server';
import { AuditEntry } from '~/models/audit.server';
import { createWebhook, WebhookDelivery } from '~/models/webhook.server';
import { createDepot } from '~/services/depots.server';
import { getPickup } from '~/services/pickups.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { companyToday, getRun } from '~/services/runs.server';
import { action as runsAction } from '~/routes/api.runs';
import { action as runAction } from '~/routes/api.runs.$id';
import { action as startAction } from '~/routes/api.runs.$id.start';
import { loader as parcelLoader } from '~/routes/api.parcels.$id';
import { action as scansAction } from '~/routes/api.scans';
import { action as outcomeAction } from '~/routes/api.pickups.$id.outcome';
import { action as myRunAction, loader as myRunLoader } from '~/routes/dashboard.my-run';
import { action as dispatchAction, loader as dispatchLoader } from '~/routes/dashboard.dispatch';
import { loader as sheetLoader } from '~/routes/dashboard.dispatch.$runId.sheet[.]pdf';
import { pdfText } from '../support/pdf';
import { callRoute } from '../support/api';
import { createAccount, createParcel, createUsers, type UsersByRole } from '../support/factories';

let users: UsersByRole;
let depotId = '';
let account: Awaited<ReturnType<typeof createAccount>>;
const today = () => companyToday();
const dock = { address: '12 Dock Rd', city: 'Pickford', region: '', postalCode: '50002' };

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  users = await createUsers(['admin', 'staff', 'courier', 'viewer'], 'stops');
  depotId = (
    await createDepot({
      name: 'Pickford Hub',
      address: '1 Hub Rd',
      city: 'Pickford',
      timeZone: 'America/New_York',
    })
  ).id;
  account = await createAccount({ name: 'Dockside Books' });
  await createWebhook(
    { url: 'https://hooks.example/stops', events: ['pickup.completed'], description: '' },
    account.id,
  );
});

/** A pickup of today at the depot's town: a count, or the parcels named. */
function pickupToday(
  overrides: Partial<{ parcelIds: string[]; parcelCount: number; postalCode: string }> = {},
): Promise<SerializedPickup> {
  return insertPickup({
    scope: { accountId: account.id, livemode: true },
    date: today(),
    window: { from: '09:00', until: '12:00' },
    address: { ...dock, postalCode: overrides.postalCode ?? dock.postalCode, country: 'US' },
    depotId,
    parcelIds: overrides.parcelIds ?? [],
    parcelCount: overrides.parcelCount ?? 3,
    notes: 'Loading bay at the back',
  });
}

/** A parcel due today, scanned at the depot. */
async function dueParcel(postalCode: string, street: string) {
  const parcel = await createParcel({
    recipient: { name: `R ${street}`, address: street, postalCode, country: 'US' },
    estimatedDelivery: new Date(`${today()}T12:00:00Z`),
  });
  await scan(parcel.trackingNumber, 'Arrived at Facility');
  return parcel;
}

function scan(trackingNumber: string, status: string) {
  return callRoute(scansAction, '/api/scans', {
    method: 'POST',
    headers: users.staff.auth,
    body: { trackingNumber, status, depotId, location: 'Pickford' },
  });
}

/** A run of today for the courier with the pickup as its one stop, started. */
async function startedRunOf(pickupId: string, courierId: string): Promise<{ id: string }> {
  const planned = await callRoute(runsAction, '/api/runs', {
    method: 'POST',
    headers: users.staff.auth,
    body: { date: today(), depotId, courierId, pickupIds: [pickupId] },
  });
  const { run } = await planned.json();
  await callRoute(startAction, `/api/runs/${run.id}/start`, {
    method: 'POST',
    headers: users.staff.auth,
    params: { id: run.id },
  });
  return run;
}

const completions = (pickupId: string) =>
  WebhookDelivery.countDocuments({ type: 'pickup.completed', payload: new RegExp(pickupId) });

describe('pickups as stops', () => {
  it('ride a run through the API in order with their ETA; Collected on my-run completes the pickup once', async () => {
    const parcel = await dueParcel('50001', '1 Elm St');
    const [pickup, missed] = [await pickupToday(), await pickupToday({ postalCode: '50009' })];
    const created = await callRoute(runsAction, '/api/runs', {
      method: 'POST',
      headers: users.staff.auth,
      body: {
        date: today(),
        depotId,
        courierId: users.courier.user.id,
        stops: [
          { kind: 'pickup', pickupId: pickup.id },
          { kind: 'delivery', parcelId: parcel.id },
        ],
      },
    });
    expect(created.status).toBe(201);
    const { run } = await created.json();
    expect(run.stops).toMatchObject([
      { kind: 'pickup', pickupId: pickup.id, parcelId: null, trackingNumber: null, sequence: 1 },
      { kind: 'delivery', parcelId: parcel.id, pickupId: null, sequence: 2 },
    ]);
    // parcelIds alone, as clients before pickups send it: the pickup keeps its place.
    const put = await callRoute(runAction, `/api/runs/${run.id}`, {
      method: 'PUT',
      headers: users.staff.auth,
      params: { id: run.id },
      body: { parcelIds: [parcel.id] },
    });
    expect((await put.json()).run.stops.map((s: { kind: string }) => s.kind)).toEqual([
      'pickup',
      'delivery',
    ]);
    const added = await callRoute(runAction, `/api/runs/${run.id}`, {
      method: 'PUT',
      headers: users.staff.auth,
      params: { id: run.id },
      body: { pickupIds: [pickup.id, missed.id] },
    });
    expect(added.status).toBe(200);

    // Start run: the parcel goes out, the pickups stay scheduled; each stop has its time, and
    // the recipient's stop counts the pickup before it.
    const page = async () =>
      (
        await (
          await callRoute(myRunLoader, '/dashboard/my-run', { cookie: users.courier.cookie })
        ).json()
      ).runs[0];
    const start = await callRoute(myRunAction, '/dashboard/my-run', {
      cookie: users.courier.cookie,
      form: { intent: 'start', runId: run.id },
    });
    expect(start.status).toBe(302);
    expect((await getPickup(pickup.id))?.status).toBe('scheduled');
    const started = (await getRun(run.id))!;
    const etas = started.stops.map((s) => Date.parse(s.eta!));
    expect(etas[0]).toBeLessThan(etas[1]!);
    expect(etas[1]).toBeLessThan(etas[2]!);
    const apiParcel = await callRoute(parcelLoader, `/api/parcels/${parcel.id}`, {
      headers: users.viewer.auth,
      params: { id: parcel.id },
    });
    expect((await apiParcel.json()).parcel).toMatchObject({
      status: 'Out for Delivery',
      eta: { stopsBefore: 1, stops: 3 },
    });
    const stops = (await page()).stops;
    expect(stops[0]).toMatchObject({
      kind: 'pickup',
      accountName: 'Dockside Books',
      summary: '09:00–12:00 · 3 parcels',
      notes: 'Loading bay at the back',
      mapsHref: expect.stringContaining('12%20Dock%20Rd'),
    });

    const collect = () =>
      callRoute(myRunAction, '/dashboard/my-run', {
        cookie: users.courier.cookie,
        form: { intent: 'pickup', pickupId: pickup.id, outcome: 'collected', collectedCount: '2' },
      });
    expect((await collect()).status).toBe(302);
    expect(await getPickup(pickup.id)).toMatchObject({ status: 'completed', collectedCount: 2 });
    expect((await collect()).status).toBe(409);
    expect(await completions(pickup.id)).toBe(1);
    const bad = await callRoute(myRunAction, '/dashboard/my-run', {
      cookie: users.courier.cookie,
      form: { intent: 'pickup', pickupId: missed.id, outcome: 'not_collected', reason: 'gone' },
    });
    expect(bad.status).toBe(400);
    await callRoute(myRunAction, '/dashboard/my-run', {
      cookie: users.courier.cookie,
      form: { intent: 'pickup', pickupId: missed.id, outcome: 'not_collected', reason: 'closed' },
    });
    expect(await getPickup(missed.id)).toMatchObject({ status: 'missed', missedReason: 'closed' });
    const after = (await getRun(run.id))!;
    expect(after.stops.map((s) => s.outcome)).toEqual(['collected', null, 'not_collected']);
    // The parcel is now the only stop left.
    const again = await callRoute(parcelLoader, `/api/parcels/${parcel.id}`, {
      headers: users.viewer.auth,
      params: { id: parcel.id },
    });
    expect((await again.json()).parcel.eta).toMatchObject({ stopsBefore: 0, stops: 1 });
  });

  it('are dispatched by tick and choice in the postcode order, moved, and printed on the run sheet', async () => {
    const [early, late] = [
      await dueParcel('50001', '5 Elm St'),
      await dueParcel('50003', '9 Oak St'),
    ];
    const pickup = await pickupToday();
    const url = `/dashboard/dispatch?date=${today()}&depot=${depotId}`;
    const page = async () =>
      (await callRoute(dispatchLoader, url, { cookie: users.staff.cookie })).json();
    const listed = (await page()).toDispatch.map((line: { id: string; kind: string }) => line.id);
    expect(listed.indexOf(early.id)).toBeLessThan(listed.indexOf(pickup.id));
    expect(listed.indexOf(pickup.id)).toBeLessThan(listed.indexOf(late.id));

    const form = new URLSearchParams({ intent: 'assign', courierId: users.courier.user.id });
    form.append('ids', late.id);
    form.append('ids', early.id);
    form.append('pickupIds', pickup.id);
    const assigned = await callRoute(dispatchAction, url, {
      cookie: users.staff.cookie,
      body: form,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(assigned.status).toBe(302);
    const runOf = async () =>
      (await page()).runs.find((r: { stops: { id: string }[] }) =>
        r.stops.some((s) => s.id === pickup.id),
      );
    const run = await runOf();
    expect(run.stops.map((s: { id: string }) => s.id)).toEqual([early.id, pickup.id, late.id]);
    const moved = await callRoute(dispatchAction, url, {
      cookie: users.staff.cookie,
      form: { intent: 'move', runId: run.id, pickupId: pickup.id, direction: 'up' },
    });
    expect(moved.status).toBe(302);
    expect((await runOf()).stops.map((s: { kind: string }) => s.kind)).toEqual([
      'pickup',
      'delivery',
      'delivery',
    ]);
    const sheet = await callRoute(sheetLoader, `/dashboard/dispatch/${run.id}/sheet.pdf`, {
      cookie: users.staff.cookie,
      params: { runId: run.id },
    });
    const text = pdfText(Buffer.from(await sheet.arrayBuffer()));
    expect(text).toContain('1. Pickup · Dockside Books');
    expect(text).toContain('09:00–12:00 · 3 parcels · Loading bay at the back');
  });

  it('are completed by the first parcel scanned Picked Up there today, once', async () => {
    const pickup = await pickupToday({ postalCode: '50077' });
    const sent = () =>
      createParcel({
        accountId: account.id,
        livemode: true,
        sender: { name: 'Dockside Books', address: '12 Dock Rd', postalCode: '50077' },
      });
    const [first, second] = [await sent(), await sent()];
    // On a started run, its stop is then collected too.
    const run = await startedRunOf(pickup.id, users.admin.user.id);
    const elsewhere = await createParcel({ accountId: account.id, livemode: true });
    expect((await scan(elsewhere.trackingNumber, 'Picked Up')).status).toBe(201);
    expect((await getPickup(pickup.id))?.status).toBe('scheduled');

    expect((await scan(first.trackingNumber, 'Picked Up')).status).toBe(201);
    expect(await getPickup(pickup.id)).toMatchObject({ status: 'completed', collectedCount: 1 });
    await scan(second.trackingNumber, 'Picked Up');
    expect(await getPickup(pickup.id)).toMatchObject({ status: 'completed', collectedCount: 2 });
    expect(await completions(pickup.id)).toBe(1);
    expect(await getRun(run.id)).toMatchObject({
      status: 'completed',
      stops: [{ outcome: 'collected' }],
    });

    // A pickup naming its parcels is completed by one of them.
    const named = await createParcel({ accountId: account.id, livemode: true });
    const listing = await pickupToday({ parcelIds: [named.id], parcelCount: 1 });
    const res = await scan(named.trackingNumber, 'Picked Up');
    expect((await res.json()).parcel.status).toBe('Picked Up');
    expect((await getPickup(listing.id))?.status).toBe('completed');
    expect(await completions(listing.id)).toBe(1);
  });

  it('take their outcome through the API as the phone sends it, once under one Idempotency-Key', async () => {
    const pickup = await pickupToday({ postalCode: '50101' });
    const run = await startedRunOf(pickup.id, users.courier.user.id);
    const outcome = (body: Record<string, unknown>, key: string, headers = users.courier.auth) =>
      callRoute(outcomeAction, `/api/pickups/${pickup.id}/outcome`, {
        method: 'POST',
        headers: { ...headers, 'Idempotency-Key': key },
        params: { id: pickup.id },
        body,
      });
    const collected = { outcome: 'collected', collectedCount: 2 };
    expect((await outcome(collected, 'viewer-1', users.viewer.auth)).status).toBe(403);
    const wrong = await outcome({ outcome: 'not_collected', reason: 'gone' }, 'bad-1');
    expect(wrong.status).toBe(400);
    expect((await outcome(collected, 'outcome-0', users.courier.auth)).status).toBe(200);
    // The answer was lost: the phone sends the same outcome again with its key.
    const again = await outcome(collected, 'outcome-0');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).pickup).toMatchObject({ status: 'completed', collectedCount: 2 });
    expect(await completions(pickup.id)).toBe(1);
    expect(
      await AuditEntry.countDocuments({ entity: 'pickup', entityId: pickup.id, action: 'update' }),
    ).toBe(1);
    expect((await getRun(run.id))?.stops.map((s) => s.outcome)).toEqual(['collected']);
    // Another outcome for it is refused.
    const late = await outcome({ outcome: 'not_collected', reason: 'closed' }, 'outcome-1');
    expect(late.status).toBe(409);
    expect((await late.json()).code).toBe('pickup_closed');
    expect(await getPickup(pickup.id)).toMatchObject({ status: 'completed' });
  });
});
