import { wordsFor } from '~/lib/i18n.server';
import { beforeAll, describe, expect, it } from 'vitest';
import { connectDb } from '~/lib/db.server';
import { Notification } from '~/models/notification.server';
import { Parcel } from '~/models/parcel.server';
import { insertRun, Run } from '~/models/run.server';
import { createDepot } from '~/services/depots.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { lookupGlance, lookupTrackingNumber } from '~/services/public-tracking.server';
import { companyToday } from '~/services/runs.server';
import { createWebhook, WebhookDelivery } from '~/models/webhook.server';
import { action as runsAction, loader as runsLoader } from '~/routes/api.runs';
import { action as runAction, loader as runLoader } from '~/routes/api.runs.$id';
import { action as startAction } from '~/routes/api.runs.$id.start';
import { loader as parcelLoader } from '~/routes/api.parcels.$id';
import { action as scansAction } from '~/routes/api.scans';
import { loader as reportLoader } from '~/routes/api.reports.delivery-performance';
import { deliveryPerformanceCsv } from '~/services/reports.server';
import { loader as reportsPage } from '~/routes/dashboard.reports';
import { loader as reportsCsv } from '~/routes/dashboard.reports[.]csv';
import { action as myRunAction, loader as myRunLoader } from '~/routes/dashboard.my-run';
import { action as dispatchAction, loader as dispatchLoader } from '~/routes/dashboard.dispatch';
import { loader as sheetLoader } from '~/routes/dashboard.dispatch.$runId.sheet[.]pdf';
import { pdfBarcodes, pdfText } from '../support/pdf';
import { action as proofAction } from '~/routes/api.parcels.$id.proof-of-delivery';
import { callRoute } from '../support/api';
import { createParcel, createUsers, type UsersByRole } from '../support/factories';

let users: UsersByRole;
let depotId = '';
const today = () => companyToday();

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  users = await createUsers(['admin', 'staff', 'courier', 'viewer'], 'runs');
  depotId = (
    await createDepot({ name: 'Runs Hub', address: '1 Hub Rd', timeZone: 'America/New_York' })
  ).id;
  await createWebhook({
    url: 'https://hooks.example/runs',
    events: ['parcel.eta_updated'],
    description: '',
  });
});

/** A parcel due today, scanned at the depot, at `postalCode` and `street`. */
async function dueParcel(postalCode: string, street: string, email = '') {
  const parcel = await createParcel({
    recipient: { name: `R ${street}`, address: street, postalCode, email, country: 'US' },
    estimatedDelivery: new Date(`${today()}T12:00:00Z`),
  });
  await callRoute(scansAction, '/api/scans', {
    method: 'POST',
    headers: users.staff.auth,
    body: { trackingNumber: parcel.trackingNumber, status: 'Arrived at Facility', depotId },
  });
  return parcel;
}

async function planRun(parcelIds: string[], courierId = users.courier.user.id) {
  const res = await callRoute(runsAction, '/api/runs', {
    method: 'POST',
    headers: users.staff.auth,
    body: { date: today(), depotId, courierId, parcelIds },
  });
  return { res, body: await res.json() };
}

async function apiParcel(id: string) {
  const res = await callRoute(parcelLoader, `/api/parcels/${id}`, {
    headers: users.viewer.auth,
    params: { id },
  });
  return (await res.json()).parcel;
}

describe('runs', () => {
  it('keep the stops in the order given; a parcel is on one open run, moved in one action', async () => {
    const [a, b, c] = [
      await dueParcel('10002', '5 Elm St'),
      await dueParcel('10001', '9 Oak St'),
      await dueParcel('10001', '3 Oak St'),
    ];
    const { res, body } = await planRun([a!.id, b!.id]);
    expect(res.status).toBe(201);
    expect(body.run).toMatchObject({ status: 'planned', date: today(), depotId });
    expect(body.run.stops).toMatchObject([
      { parcelId: a!.id, trackingNumber: a!.trackingNumber, sequence: 1, eta: null },
      { parcelId: b!.id, sequence: 2 },
    ]);

    // Another run takes b: it leaves the first, which keeps a.
    const second = await planRun([c!.id, b!.id]);
    expect(second.res.status).toBe(201);
    const first = await callRoute(runLoader, `/api/runs/${body.run.id}`, {
      headers: users.viewer.auth,
      params: { id: body.run.id },
    });
    expect((await first.json()).run.stops.map((s: { parcelId: string }) => s.parcelId)).toEqual([
      a!.id,
    ]);

    // The database refuses a second open run for a parcel, whatever the code does.
    await expect(
      insertRun({
        date: today(),
        depotId,
        courierId: users.courier.user.id,
        stops: [{ kind: 'delivery', id: a!.id, trackingNumber: a!.trackingNumber }],
      }),
    ).rejects.toThrow(/E11000/);

    // PUT reorders; the list of the depot's day has both runs.
    const put = await callRoute(runAction, `/api/runs/${second.body.run.id}`, {
      method: 'PUT',
      headers: users.staff.auth,
      params: { id: second.body.run.id },
      body: { parcelIds: [b!.id, c!.id] },
    });
    expect(put.status).toBe(200);
    expect(
      (await put.json()).run.stops.map((s: { sequence: number; parcelId: string }) => s.parcelId),
    ).toEqual([b!.id, c!.id]);
    const list = await callRoute(runsLoader, `/api/runs?date=${today()}&depotId=${depotId}`, {
      headers: users.viewer.auth,
    });
    expect((await list.json()).runs).toHaveLength(2);
  });

  it('refuse bad input without a 500: unknown parcels, couriers, days; viewers may not plan', async () => {
    const parcel = await dueParcel('10003', '1 Pine St');
    const bad = await callRoute(runsAction, '/api/runs', {
      method: 'POST',
      headers: users.staff.auth,
      body: {
        date: '2026-02-31',
        depotId,
        courierId: users.viewer.user.id,
        parcelIds: [parcel.id, parcel.id],
      },
    });
    expect(bad.status).toBe(400);
    const unknown = await planRun(['0123456789abcdef01234567'], users.viewer.user.id);
    expect(unknown.res.status).toBe(400);
    expect(Object.keys(unknown.body.details)).toContain('courierId');
    const viewer = await callRoute(runsAction, '/api/runs', {
      method: 'POST',
      headers: users.viewer.auth,
      body: { date: today(), depotId, courierId: users.courier.user.id, parcelIds: [parcel.id] },
    });
    expect(viewer.status).toBe(403);
  });

  it('start: every stop Out for Delivery; the recipient sees their stop and window, which moves with the run', async () => {
    const parcels = [
      await dueParcel('20001', '1 First St', 'one@example.com'),
      await dueParcel('20002', '2 Second St', 'two@example.com'),
      await dueParcel('20003', '3 Third St', 'three@example.com'),
    ];
    const { body } = await planRun(parcels.map((p) => p.id));
    const runId = body.run.id;
    const started = await callRoute(startAction, `/api/runs/${runId}/start`, {
      method: 'POST',
      headers: users.courier.auth,
      params: { id: runId },
    });
    expect(started.status).toBe(200);
    const run = (await started.json()).run;
    expect(run.status).toBe('started');
    expect(run.stops.every((s: { eta: string | null }) => s.eta)).toBe(true);
    for (const p of parcels) expect((await apiParcel(p.id)).status).toBe('Out for Delivery');

    const second = await apiParcel(parcels[1]!.id);
    expect(second.eta).toMatchObject({ stopsBefore: 1, stops: 3 });
    expect(Date.parse(second.eta.until) - Date.parse(second.eta.from)).toBe(3_600_000);
    const lookup = await lookupTrackingNumber(parcels[1]!.trackingNumber);
    if (lookup.kind !== 'found') throw new Error('not found');
    const glance = await lookupGlance(lookup.result, wordsFor('en'));
    expect(glance.onItsWay).toMatch(
      /^Your parcel is on its way — you are stop 2 of 3, expected between \d{1,2}(:\d0)? [ap]m and \d{1,2}(:\d0)? [ap]m E[SD]T$/,
    );
    // Nothing of the courier reaches the recipient.
    expect(JSON.stringify(lookup.result)).not.toContain(users.courier.user.id);
    expect(JSON.stringify(lookup.result)).not.toContain(parcels[0]!.trackingNumber);

    // Started once; planned stops no longer change.
    const again = await callRoute(startAction, `/api/runs/${runId}/start`, {
      method: 'POST',
      headers: users.courier.auth,
      params: { id: runId },
    });
    expect(again.status).toBe(409);
    expect((await again.json()).code).toBe('run_started');

    // The first stop delivered: the second is now stop 1.
    const form = new FormData();
    form.append('receivedBy', 'One');
    const proof = await callRoute(proofAction, `/api/parcels/${parcels[0]!.id}/proof-of-delivery`, {
      method: 'POST',
      headers: users.courier.auth,
      params: { id: parcels[0]!.id },
      body: form,
    });
    expect(proof.status).toBe(201);
    expect((await apiParcel(parcels[1]!.id)).eta).toMatchObject({ stopsBefore: 0, stops: 2 });
    const after = await lookupTrackingNumber(parcels[1]!.trackingNumber);
    if (after.kind !== 'found') throw new Error('not found');
    expect((await lookupGlance(after.result, wordsFor('en'))).onItsWay).toContain(
      'you are stop 1 of 2',
    );
    expect(await WebhookDelivery.countDocuments({ type: 'parcel.eta_updated' })).toBeGreaterThan(0);

    // A failed attempt two hours late moves the last stop's window by more than 30 minutes: its
    // recipient is told once.
    const late = new Date(Date.parse(run.startedAt) + 2 * 3_600_000).toISOString();
    await callRoute(scansAction, '/api/scans', {
      method: 'POST',
      headers: users.courier.auth,
      body: {
        trackingNumber: parcels[1]!.trackingNumber,
        status: 'Failed Delivery',
        reason: 'recipient_unavailable',
        location: 'Door',
        timestamp: late,
      },
    });
    const told = await Notification.find({
      recipient: 'three@example.com',
      title: /is now expected between/,
    }).lean();
    expect(told).toHaveLength(1);
    expect((await apiParcel(parcels[1]!.id)).eta).toBeNull();
    expect(await Run.countDocuments({ _id: runId, status: 'started' })).toBe(1);
  });

  it('a courier starts only their own run', async () => {
    const parcel = await dueParcel('30001', '1 Own St');
    const { body } = await planRun([parcel.id], users.admin.user.id);
    const res = await callRoute(startAction, `/api/runs/${body.run.id}/start`, {
      method: 'POST',
      headers: users.courier.auth,
      params: { id: body.run.id },
    });
    expect(res.status).toBe(404);
    expect((await Parcel.findById(parcel.id).lean())?.status).not.toBe('Out for Delivery');
  });
});

describe('delivery performance', () => {
  it('is computed by the database over company days: 23:30 there counts on that day', async () => {
    const failed = {
      status: 'Failed Delivery',
      reason: 'recipient_unavailable',
      timestamp: new Date('2026-03-10T14:00:00Z'),
      timeZone: 'America/New_York',
    };
    const run = { id: users.staff.user.id, depotId, courierId: users.courier.user.id };
    await createParcel({
      status: 'Delivered',
      estimatedDelivery: new Date('2026-03-10T00:00:00Z'),
      actualDelivery: new Date('2026-03-10T15:00:00Z'),
      run,
    });
    await createParcel({
      status: 'Delivered',
      estimatedDelivery: new Date('2026-03-09T00:00:00Z'),
      // 23:30 in New York on 10 March.
      actualDelivery: new Date('2026-03-11T03:30:00Z'),
      events: [failed],
      run,
    });
    const report = async (query: string) => {
      const res = await callRoute(reportLoader, `/api/reports/delivery-performance?${query}`, {
        headers: users.staff.auth,
      });
      expect(res.status).toBe(200);
      return (await res.json()).rows;
    };
    expect(await report('from=2026-03-10&to=2026-03-10&groupBy=day')).toEqual([
      {
        key: '2026-03-10',
        delivered: 2,
        firstAttemptRate: 0.5,
        onTimeRate: 0.5,
        failedAttempts: 1,
        failedByReason: { recipient_unavailable: 1 },
        averageStopsPerRun: 2,
      },
    ]);
    expect(await report('from=2026-03-11&to=2026-03-11')).toEqual([]);
    const byCourier = await report('from=2026-03-01&to=2026-03-31&groupBy=courier');
    expect(byCourier).toMatchObject([{ key: users.courier.user.id, delivered: 2 }]);
    expect(await report('from=2026-03-01&to=2026-03-31&groupBy=account')).toMatchObject([
      { key: 'none', delivered: 2 },
    ]);
    expect(await report('from=2026-03-01&to=2026-03-31&groupBy=week')).toMatchObject([
      { key: '2026-W11', delivered: 2 },
    ]);
    const bad = await callRoute(
      reportLoader,
      '/api/reports/delivery-performance?from=2026-03-10&to=2026-03-01&groupBy=month',
      {
        headers: users.staff.auth,
      },
    );
    expect(bad.status).toBe(400);
    const page = await callRoute(reportsPage, '/dashboard/reports?from=2026-03-10&to=2026-03-10', {
      cookie: users.staff.cookie,
    });
    expect((await page.json()).rows).toHaveLength(1);
    const csv = await callRoute(
      reportsCsv,
      '/dashboard/reports.csv?from=2026-03-10&to=2026-03-10',
      {
        cookie: users.staff.cookie,
      },
    );
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await csv.text()).toContain('2026-03-10,2,0.5,0.5,1,recipient_unavailable=1,2');
    expect(deliveryPerformanceCsv(await report('from=2026-03-10&to=2026-03-10'))).toBe(
      'key,delivered,firstAttemptRate,onTimeRate,failedAttempts,failedByReason,averageStopsPerRun\n2026-03-10,2,0.5,0.5,1,recipient_unavailable=1,2\n',
    );
  });
});

describe('the courier’s run page', () => {
  it('lists today’s stops in the planned order, starts the run with one post, then the next stop first', async () => {
    const courier = (await createUsers(['courier'], 'my-run')).courier;
    const parcels = [
      await dueParcel('40003', '3 Last St'),
      await dueParcel('40001', '1 First St'),
      await dueParcel('40002', '2 Middle St'),
    ];
    await planRun(
      parcels.map((p) => p.id),
      courier.user.id,
    );
    const page = async () => {
      const res = await callRoute(myRunLoader, '/dashboard/my-run', { cookie: courier.cookie });
      return (await res.json()).runs[0];
    };
    const planned = await page();
    expect(planned.stops.map((s: { trackingNumber: string }) => s.trackingNumber)).toEqual(
      parcels.map((p) => p.trackingNumber),
    );
    expect(planned.stops[0]).toMatchObject({ address: expect.stringContaining('3 Last St') });
    expect(planned.stops[0].mapsHref).toMatch(/^https:\/\/www\.google\.com\/maps\/search\//);

    const started = await callRoute(myRunAction, '/dashboard/my-run', {
      cookie: courier.cookie,
      form: { intent: 'start', runId: planned.id },
    });
    expect(started.status).toBe(302);
    for (const p of parcels) expect((await apiParcel(p.id)).status).toBe('Out for Delivery');

    const failed = await callRoute(myRunAction, '/dashboard/my-run', {
      cookie: courier.cookie,
      form: {
        trackingNumber: parcels[0]!.trackingNumber,
        status: 'Failed Delivery',
        reason: 'recipient_unavailable',
        location: 'Springfield',
      },
    });
    expect(failed.status).toBe(302);
    const after = await page();
    expect(
      after.stops.find((s: { outcome: string | null }) => s.outcome === 'failed'),
    ).toMatchObject({
      trackingNumber: parcels[0]!.trackingNumber,
    });
    expect(after.stops.filter((s: { outcome: string | null }) => !s.outcome)).toHaveLength(2);
  });
});

describe('a stop’s expected time on the courier’s run', () => {
  it('is written in the zone of the stop’s address', async () => {
    const courier = (await createUsers(['courier'], 'my-run-zone')).courier;
    const parcel = await createParcel({
      recipient: {
        name: 'R Seattle',
        address: '400 Broad St',
        city: 'Seattle',
        region: 'WA',
        postalCode: '98109',
        country: 'US',
      },
      estimatedDelivery: new Date(`${today()}T12:00:00Z`),
    });
    await callRoute(scansAction, '/api/scans', {
      method: 'POST',
      headers: users.staff.auth,
      body: { trackingNumber: parcel.trackingNumber, status: 'Arrived at Facility', depotId },
    });
    const { body } = await planRun([parcel.id], courier.user.id);
    await callRoute(myRunAction, '/dashboard/my-run', {
      cookie: courier.cookie,
      form: { intent: 'start', runId: body.run.id },
    });
    const res = await callRoute(myRunLoader, '/dashboard/my-run', { cookie: courier.cookie });
    const [stop] = (await res.json()).runs[0].stops;
    expect(stop.expected).toMatch(/P[SD]T$/);
  });
});

describe('the Dispatch page', () => {
  it('suggests the day’s parcels by postcode then street, plans a run by tick and choice, moves stops and prints the run sheet', async () => {
    const dispatchDepot = (
      await createDepot({ name: 'Dispatch Hub', address: '', timeZone: 'America/New_York' })
    ).id;
    const at = async (postalCode: string, street: string) => {
      const parcel = await createParcel({
        recipient: { name: `D ${street}`, address: street, postalCode, country: 'US' },
        estimatedDelivery: new Date(`${today()}T12:00:00Z`),
        deliveryPreferences: { instructions: 'Ring twice', updatedAt: new Date() },
      });
      await callRoute(scansAction, '/api/scans', {
        method: 'POST',
        headers: users.staff.auth,
        body: {
          trackingNumber: parcel.trackingNumber,
          status: 'Arrived at Facility',
          depotId: dispatchDepot,
        },
      });
      return parcel;
    };
    const [z, b10, b2] = [
      await at('99999', '1 Zed Rd'),
      await at('11111', '10 Bay St'),
      await at('11111', '2 Bay St'),
    ];
    const url = `/dashboard/dispatch?date=${today()}&depot=${dispatchDepot}`;
    const page = async () =>
      (await callRoute(dispatchLoader, url, { cookie: users.staff.cookie })).json();
    const before = await page();
    expect(before.toDispatch.map((p: { id: string }) => p.id)).toEqual([b2!.id, b10!.id, z!.id]);

    const missing = await callRoute(dispatchAction, url, {
      cookie: users.staff.cookie,
      form: { intent: 'assign', ids: z!.id },
    });
    expect(missing.status).toBe(400);
    const assign = new URLSearchParams({ intent: 'assign', courierId: users.courier.user.id });
    for (const p of [b2!, z!]) assign.append('ids', p.id);
    const planned = await callRoute(dispatchAction, url, {
      cookie: users.staff.cookie,
      body: assign,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(planned.status).toBe(302);
    const after = await page();
    expect(after.toDispatch.map((p: { id: string }) => p.id)).toEqual([b10!.id]);
    expect(after.runs[0].stops.map((s: { id: string }) => s.id)).toEqual([b2!.id, z!.id]);

    const moved = await callRoute(dispatchAction, url, {
      cookie: users.staff.cookie,
      form: { intent: 'move', runId: after.runs[0].id, parcelId: z!.id, direction: 'up' },
    });
    expect(moved.status).toBe(302);
    expect((await page()).runs[0].stops.map((s: { id: string }) => s.id)).toEqual([z!.id, b2!.id]);
    // Dragged: the same action takes the position it was dropped at; a bad one is a 400.
    await callRoute(dispatchAction, url, {
      cookie: users.staff.cookie,
      form: { intent: 'assign', ids: b10!.id, courierId: users.courier.user.id },
    });
    const dragged = await callRoute(dispatchAction, url, {
      cookie: users.staff.cookie,
      form: { intent: 'move', runId: after.runs[0].id, parcelId: b10!.id, position: '0' },
    });
    expect(dragged.status).toBe(302);
    const order = async () => (await page()).runs[0].stops.map((s: { id: string }) => s.id);
    expect(await order()).toEqual([b10!.id, z!.id, b2!.id]);
    const bads: Record<string, string>[] = [
      { position: 'first' },
      { position: '1', direction: 'up' },
      {},
    ];
    for (const bad of bads) {
      const refused = await callRoute(dispatchAction, url, {
        cookie: users.staff.cookie,
        form: { intent: 'move', runId: after.runs[0].id, parcelId: b10!.id, ...bad },
      });
      expect(refused.status).toBe(400);
    }
    await callRoute(dispatchAction, url, {
      cookie: users.staff.cookie,
      form: { intent: 'move', runId: after.runs[0].id, parcelId: b10!.id, position: '2' },
    });
    expect(await order()).toEqual([z!.id, b2!.id, b10!.id]);

    const sheet = await callRoute(
      sheetLoader,
      `/dashboard/dispatch/${after.runs[0].id}/sheet.pdf`,
      {
        cookie: users.courier.cookie,
        params: { runId: after.runs[0].id },
      },
    );
    expect(sheet.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await sheet.arrayBuffer());
    // Each stop's barcode (pdfkit writes the images as each finishes: the text gives the order).
    expect(pdfBarcodes(pdf, 'code128').sort()).toEqual(
      [z!.trackingNumber, b2!.trackingNumber, b10!.trackingNumber].sort(),
    );
    const text = pdfText(pdf);
    expect(text.indexOf(z!.trackingNumber)).toBeLessThan(text.indexOf(b2!.trackingNumber));
    expect(text.indexOf(b2!.trackingNumber)).toBeLessThan(text.indexOf(b10!.trackingNumber));
    expect(text).toContain('Ring twice');
  });
});
