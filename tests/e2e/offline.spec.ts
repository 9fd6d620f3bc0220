import path from 'node:path';
import type { APIRequestContext, Request } from '@playwright/test';
import mongoose from 'mongoose';
import sharp from 'sharp';
import { E2E_DIR } from '../../playwright.config';
import { expect, test } from './support/fixtures';
import { drawSignature, uniqueEmail, uniqueName } from './support/helpers';

/** The company's day (America/New_York unless COMPANY_TIMEZONE says otherwise). */
const today = new Intl.DateTimeFormat('en-CA', {
  timeZone: process.env.COMPANY_TIMEZONE ?? 'America/New_York',
}).format(new Date());

type Parcel = { id: string; trackingNumber: string };

async function parcelAt(request: APIRequestContext, admin: Record<string, string>, depot: string) {
  const res = await request.post('/api/parcels', {
    headers: admin,
    data: {
      recipient: { name: uniqueName('Offline Recipient'), address: '9 Signal St' },
      estimatedDelivery: `${today}T12:00:00.000Z`,
    },
  });
  const { parcel } = (await res.json()) as { parcel: Parcel };
  await request.post('/api/scans', {
    headers: admin,
    data: { trackingNumber: parcel.trackingNumber, status: 'Arrived at Facility', depotId: depot },
  });
  return parcel;
}

/**
 * An account's pickup of today at the depot, written into the server's database (MONGODB_URI,
 * else the embedded engine's socket under its DATA_DIR) as the vitest suites write theirs: the
 * API takes a pickup only for a business day before its cut-off, and this test runs on any day
 * at any hour.
 */
async function pickupToday(
  request: APIRequestContext,
  admin: Record<string, string>,
  depot: string,
) {
  const name = uniqueName('Offline Shop');
  const address = { address: '4 Dock Rd', city: 'Portland', country: 'US' };
  const res = await request.post('/api/accounts', {
    headers: admin,
    data: { name, email: uniqueEmail('offline-shop'), address },
  });
  const { account } = (await res.json()) as { account: { id: string } };
  const socket = path.join(E2E_DIR, 'data', 'db', 'mongod.sock');
  const uri = process.env.MONGODB_URI ?? `mongodb://${encodeURIComponent(socket)}/courier`;
  const db = await mongoose.createConnection(uri).asPromise();
  try {
    const now = new Date();
    const { ObjectId } = mongoose.Types;
    const { insertedId } = await db.collection('pickups').insertOne({
      accountId: new ObjectId(account.id),
      livemode: true,
      date: today,
      window: { from: '09:00', until: '17:00' },
      address: { ...address, region: '', postalCode: '' },
      depotId: new ObjectId(depot),
      parcelIds: [],
      parcelCount: 2,
      collectedParcelIds: [],
      notes: '',
      status: 'scheduled',
      createdAt: now,
      updatedAt: now,
    });
    return { id: String(insertedId), accountName: name };
  } finally {
    await db.close();
  }
}

test('offline, a scan and three stops’ outcomes wait on the phone through a closed tab and are sent once, in order', async ({
  context,
  request,
  admin,
}) => {
  const depotRes = await request.post('/api/depots', {
    headers: admin,
    data: { name: uniqueName('Offline Depot'), timeZone: 'America/New_York' },
  });
  const depot = ((await depotRes.json()) as { depot: { id: string } }).depot.id;
  const scanned = await parcelAt(request, admin, depot);
  const delivered = await parcelAt(request, admin, depot);
  const failed = await parcelAt(request, admin, depot);
  const pickup = await pickupToday(request, admin, depot);
  const me = (await (await request.get('/api/auth/me', { headers: admin })).json()).user;
  const runRes = await request.post('/api/runs', {
    headers: admin,
    data: {
      date: today,
      depotId: depot,
      courierId: me.id,
      parcelIds: [delivered.id, failed.id],
      pickupIds: [pickup.id],
    },
  });
  const { run } = (await runRes.json()) as { run: { id: string } };
  expect((await request.post(`/api/runs/${run.id}/start`, { headers: admin })).ok()).toBe(true);
  const photo = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 90, b: 30 } },
  })
    .jpeg()
    .toBuffer();

  // Both pages open while the connection holds; then it drops.
  const station = await context.newPage();
  await station.goto(`/dashboard/scan?status=Out+for+Delivery&depot=${depot}`);
  const ready =
    'Without a connection, this phone keeps what you record and sends it once it is back.';
  await expect(station.getByText(ready)).toBeVisible();
  const myRun = await context.newPage();
  await myRun.goto('/dashboard/my-run');
  const stops = myRun.getByRole('region', { name: 'Run of 3 stops' }).filter({
    hasText: delivered.trackingNumber,
  });
  await expect(stops.getByRole('heading', { name: 'Next stop: Stop 1' })).toBeVisible();
  await expect(myRun.getByText(ready)).toBeVisible();
  const stop = (parcel: Parcel) =>
    stops.getByRole('listitem').filter({ hasText: parcel.trackingNumber });
  await context.setOffline(true);

  await station.getByLabel('Tracking number').fill(scanned.trackingNumber.toLowerCase());
  await station.getByLabel('Tracking number').press('Enter');
  await expect(station.getByRole('heading', { name: 'Waiting to send — 1' })).toBeVisible();

  // Delivered opens the proof form in place; its photo and drawn signature wait with it.
  await stop(delivered).getByRole('link', { name: 'Delivered' }).click();
  await stop(delivered).getByLabel('Received by').fill('Sam at the door');
  await stop(delivered)
    .getByLabel(/Photos/)
    .setInputFiles({
      name: 'door.jpg',
      mimeType: 'image/jpeg',
      buffer: photo,
    });
  await drawSignature(myRun, stop(delivered).getByRole('img', { name: 'Signature' }));
  await stop(delivered).getByRole('button', { name: 'Record proof of delivery' }).click();
  await expect(
    stops.getByRole('heading', { name: 'Stop 1 · Delivered, waiting to send' }),
  ).toBeVisible();
  await stop(failed).getByRole('button', { name: 'Recipient unavailable' }).click();
  // The pickup's Not collected waits too, for its own API operation.
  const pickupStop = stops.getByRole('listitem').filter({ hasText: pickup.accountName });
  await pickupStop.getByRole('button', { name: 'Parcels not ready' }).click();
  await expect(
    stops.getByRole('heading', { name: 'Stop 3 · Pickup · Not collected, waiting to send' }),
  ).toBeVisible();
  await expect(myRun.getByRole('heading', { name: 'Waiting to send — 4' })).toBeVisible();

  // The tabs close. The proof's answer is lost on the way back, after the server took it.
  await station.close();
  await myRun.close();
  const sent: Request[] = [];
  let lost = false;
  const firstSent = new Promise<void>((resolve) =>
    context.route('**/proof-of-delivery', async (route) => {
      if (lost) return route.continue();
      lost = true;
      await route.fetch();
      await route.abort('connectionreset');
      resolve();
    }),
  );
  context.on('request', (req) => {
    if (req.method() === 'POST' && req.url().includes('/api/')) sent.push(req);
  });
  await context.setOffline(false);
  const page = await context.newPage();
  await page.goto('/dashboard/my-run');
  await firstSent;
  await expect(page.getByRole('heading', { name: 'Waiting to send — 3' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Waiting to send' }).getByRole('listitem'),
  ).toHaveText([
    `${delivered.trackingNumber} · Delivered`,
    `${failed.trackingNumber} · Failed Delivery`,
    `Pickup from ${pickup.accountName} · Not collected`,
  ]);

  // The connection comes back: the rest go in the order made, the proof again with its key.
  await context.setOffline(true);
  await context.setOffline(false);
  await expect(page.getByRole('heading', { name: 'Everything is sent' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Sent' }).getByRole('listitem')).toHaveCount(4);
  await expect(page.getByRole('heading', { name: 'Stop 2 · Failed' })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'Stop 3 · Pickup · Not collected' }),
  ).toBeVisible();
  const urls = sent.map((req) => new URL(req.url()).pathname);
  const proofUrl = `/api/parcels/${delivered.id}/proof-of-delivery`;
  const pickupUrl = `/api/pickups/${pickup.id}/outcome`;
  expect(urls).toEqual(['/api/scans', proofUrl, proofUrl, '/api/scans', pickupUrl]);
  const keys = sent.map((req) => req.headers()['idempotency-key']);
  expect(keys[1]).toBe(keys[2]);
  expect(new Set(keys).size).toBe(4);
  const replay = await sent[2]!.response();
  expect(replay?.headers()['idempotent-replayed']).toBe('true');

  // The server holds one event for each.
  const statuses = async (parcel: Parcel) =>
    (
      (await (
        await request.get(`/api/tracking/${parcel.id}/events`, { headers: admin })
      ).json()) as { events: { status: string }[] }
    ).events.map((event) => event.status);
  expect((await statuses(scanned)).filter((s) => s === 'Out for Delivery')).toHaveLength(1);
  expect((await statuses(delivered)).filter((s) => s === 'Delivered')).toHaveLength(1);
  expect((await statuses(failed)).filter((s) => s === 'Failed Delivery')).toHaveLength(1);
  const missed = await request.get(`/api/pickups/${pickup.id}`, { headers: admin });
  expect(((await missed.json()) as { pickup: unknown }).pickup).toMatchObject({
    status: 'missed',
    missedReason: 'not_ready',
  });
  const proofs = await request.get(`/api/parcels/${delivered.id}/proof-of-delivery`, {
    headers: admin,
  });
  const { proofsOfDelivery } = (await proofs.json()) as {
    proofsOfDelivery: { receivedBy: string; photos: unknown[]; signature: unknown }[];
  };
  expect(proofsOfDelivery).toHaveLength(1);
  expect(proofsOfDelivery[0]).toMatchObject({ receivedBy: 'Sam at the door' });
  expect(proofsOfDelivery[0]!.photos).toHaveLength(1);
  expect(proofsOfDelivery[0]!.signature).toBeTruthy();
});
