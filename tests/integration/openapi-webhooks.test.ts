import { action as preferencesAction } from '~/routes/api.tracking.track.$trackingNumber.delivery-preferences';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as notificationsAction } from '~/routes/api.notifications';
import { action as parcelAction } from '~/routes/api.parcels.$id';
import { action as proofAction } from '~/routes/api.parcels.$id.proof-of-delivery';
import { action as importAction } from '~/routes/api.parcels.import';
import { action as parcelsAction } from '~/routes/api.parcels';
import { action as scansAction } from '~/routes/api.scans';
import { action as depotsAction } from '~/routes/api.depots';
import { action as runsAction } from '~/routes/api.runs';
import { action as pickupsAction } from '~/routes/api.pickups';
import { action as pickupAction } from '~/routes/api.pickups.$id';
import { action as pickupOutcomeAction } from '~/routes/api.pickups.$id.outcome';
import { firstPickupDay } from '~/services/pickups.server';
import { insertPickup } from '~/models/pickup.server';
import { companyToday } from '~/services/runs.server';
import { DEFAULT_PICKUP_CUTOFF } from '~/schemas/pickup';
import { nextWorkingDay } from '~/utils/delivery-headline';
import { action as runStartAction } from '~/routes/api.runs.$id.start';
import { action as eventsAction } from '~/routes/api.tracking.$parcelId.events';
import { action as eventAction } from '~/routes/api.tracking.events.$id';
import { action as webhooksAction } from '~/routes/api.webhooks';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { WEBHOOK_EVENT_TYPES } from '~/schemas/integrations';
import { registerJobKinds } from '~/services/job-kinds.server';
import { startJobWorker, type JobWorker } from '~/services/jobs.server';
import { callRoute } from '../support/api';
import { checkAgainstDocument } from '../support/contract';
import { until } from '../support/jobs';
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp';
import { createUser } from '../support/factories';

/**
 * Each kind of webhook event, made for real through the API and delivered by the worker, against
 * the payload schema the OpenAPI document gives it.
 */
type Received = { headers: Record<string, string>; body: string };
const received: Received[] = [];

const receiver = setupServer(
  http.post('https://hooks.example.test/contract', async ({ request }) => {
    received.push({ headers: Object.fromEntries(request.headers), body: await request.text() });
    return HttpResponse.json({ ok: true });
  }),
);

const bouncing = 'bounce@example.com';
const saved = {
  allow: env.WEBHOOKS_ALLOW_PRIVATE,
  smtp: env.SMTP_URL,
  mailDelays: env.MAIL_RETRY_DELAYS,
};
let auth: Record<string, string>;
let adminId: string;
let secret: string;
let smtp: TestSmtpServer;
let worker: JobWorker;

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  receiver.listen({ onUnhandledRequest: 'bypass' });
  const refusals = fs.mkdtempSync(path.join(os.tmpdir(), 'refuse-'));
  fs.writeFileSync(path.join(refusals, bouncing), '');
  smtp = await startTestSmtpServer({ reject: refusals });
  Object.assign(env, { WEBHOOKS_ALLOW_PRIVATE: 'true', SMTP_URL: smtp.url, MAIL_RETRY_DELAYS: [] });
  const admin = await createUser('admin', { username: 'payloads' });
  ({ auth } = admin);
  adminId = admin.user.id;
  const created = await callRoute(webhooksAction, '/api/webhooks', {
    method: 'POST',
    headers: auth,
    body: { url: 'https://hooks.example.test/contract', events: [...WEBHOOK_EVENT_TYPES] },
  });
  expect(created.status).toBe(201);
  secret = (await created.json()).secret;
  worker = startJobWorker({ pollMs: 20 });
});

afterAll(async () => {
  await worker.stop();
  receiver.close();
  await smtp.stop();
  Object.assign(env, {
    WEBHOOKS_ALLOW_PRIVATE: saved.allow,
    SMTP_URL: saved.smtp,
    MAIL_RETRY_DELAYS: saved.mailDelays,
  });
  await disconnectDb();
});

async function call(handler: unknown, url: string, options: Parameters<typeof callRoute>[2]) {
  const res = await callRoute(handler, url, { headers: auth, ...options });
  expect(res.status, `${options?.method} ${url}`).toBeLessThan(300);
  return res.json();
}

describe('webhook payloads', () => {
  it('of every event type, as delivered, match the schema the document gives them', async () => {
    const { parcel } = await call(parcelsAction, '/api/parcels', {
      method: 'POST',
      body: {
        recipient: {
          name: 'Payload Recipient',
          address: '1 Payload St',
          postalCode: '02139',
          email: 'p@example.com',
        },
      },
    });
    const params = { id: parcel.id, parcelId: parcel.id };
    await call(parcelAction, `/api/parcels/${parcel.id}`, {
      method: 'PUT',
      params,
      body: { priority: 'High', status: 'In Transit' },
    });
    const { event } = await call(eventsAction, `/api/tracking/${parcel.id}/events`, {
      method: 'POST',
      params,
      body: { status: 'Arrived at Facility', location: 'Hub', timeZone: 'America/Chicago' },
    });
    await call(eventAction, `/api/tracking/events/${event.id}`, {
      method: 'PUT',
      params: { id: event.id },
      body: { description: 'Sorted' },
    });
    await call(eventAction, `/api/tracking/events/${event.id}`, {
      method: 'DELETE',
      params: { id: event.id },
    });
    await call(scansAction, '/api/scans', {
      method: 'POST',
      body: {
        trackingNumber: parcel.trackingNumber,
        status: 'Out for Delivery',
        location: 'Van 4',
      },
    });
    // A run started: each stop gets its window (parcel.eta_updated).
    const { depot } = await call(depotsAction, '/api/depots', {
      method: 'POST',
      body: { name: 'Payload Hub', timeZone: 'America/New_York' },
    });
    const { parcel: onRun } = await call(parcelsAction, '/api/parcels', {
      method: 'POST',
      body: { recipient: { name: 'Run Recipient', address: '2 Run St' } },
    });
    const { run } = await call(runsAction, '/api/runs', {
      method: 'POST',
      body: { date: '2026-06-01', depotId: depot.id, courierId: adminId, parcelIds: [onRun.id] },
    });
    await call(runStartAction, `/api/runs/${run.id}/start`, {
      method: 'POST',
      params: { id: run.id },
    });
    await call(
      preferencesAction,
      `/api/tracking/track/${parcel.trackingNumber}/delivery-preferences`,
      {
        method: 'POST',
        params: { trackingNumber: parcel.trackingNumber },
        body: { postalCode: '02139', instructions: 'Ring twice', safePlace: 'porch' },
      },
    );
    await call(eventsAction, `/api/tracking/${parcel.id}/events`, {
      method: 'POST',
      params,
      body: {
        status: 'Failed Delivery',
        reason: 'recipient_unavailable',
        nextAttemptDate: '2026-06-02',
      },
    });
    const form = new FormData();
    form.append('receivedBy', 'Payload Recipient');
    await call(proofAction, `/api/parcels/${parcel.id}/proof-of-delivery`, {
      method: 'POST',
      params,
      body: form,
    });
    await call(importAction, '/api/parcels/import', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'text/csv' },
      body: 'recipientName,recipientAddress\nImported One,2 Payload St\n',
    });
    for (const recipient of ['reader@example.com', bouncing])
      await call(notificationsAction, '/api/notifications', {
        method: 'POST',
        body: {
          type: 'Custom',
          recipient,
          title: 'Payload check',
          message: 'A message',
          trackingNumber: parcel.trackingNumber,
        },
      });
    // A pickup asked for, another cancelled, today's done once its parcel is picked up, and one
    // not collected.
    const day = nextWorkingDay(firstPickupDay(new Date(), DEFAULT_PICKUP_CUTOFF));
    const address = { address: '3 Dock Rd', city: 'Boston', country: 'US' };
    const pickupOf = (parcelIds: string[]) =>
      call(pickupsAction, '/api/pickups', {
        method: 'POST',
        body: { date: day, window: { from: '09:00', until: '12:00' }, address, parcelIds },
      });
    const { parcel: collected } = await call(parcelsAction, '/api/parcels', {
      method: 'POST',
      body: { recipient: { name: 'Pickup Recipient', address: '4 Dock Rd' } },
    });
    await pickupOf([collected.id]);
    const { pickup: dropped } = await pickupOf([collected.id]);
    // A scan completes a pickup of its own day: one for today, as a courier's run has it.
    const todays = (parcelIds: string[]) =>
      insertPickup({
        scope: null,
        date: companyToday(),
        window: { from: '09:00', until: '12:00' },
        address: { ...address, region: '', postalCode: '' },
        depotId: null,
        parcelIds,
        parcelCount: 1,
        notes: '',
      });
    await todays([collected.id]);
    // And one the courier could not collect.
    const missed = await todays([]);
    await call(pickupOutcomeAction, `/api/pickups/${missed.id}/outcome`, {
      method: 'POST',
      params: { id: missed.id },
      body: { outcome: 'not_collected', reason: 'closed' },
    });
    await call(pickupAction, `/api/pickups/${dropped.id}`, {
      method: 'DELETE',
      params: { id: dropped.id },
    });
    await call(scansAction, '/api/scans', {
      method: 'POST',
      body: { trackingNumber: collected.trackingNumber, status: 'Picked Up', location: 'Dock' },
    });
    await call(parcelAction, `/api/parcels/${parcel.id}`, { method: 'DELETE', params });

    const types = () => new Set(received.map((r) => JSON.parse(r.body).type as string));
    await until(async () => types().size === WEBHOOK_EVENT_TYPES.length, 20_000).catch(() => {
      throw new Error(`Missing: ${WEBHOOK_EVENT_TYPES.filter((t) => !types().has(t)).join(', ')}`);
    });

    const verifier = new Verifier(secret);
    for (const { headers, body } of received) {
      const payload = verifier.verify(body, headers) as { type: string };
      expect(
        await checkAgainstDocument(
          [
            'webhooks',
            payload.type,
            'post',
            'requestBody',
            'content',
            'application/json',
            'schema',
          ],
          payload,
        ),
        `${payload.type}: ${body}`,
      ).toBeNull();
    }
    const byType = (type: string) =>
      received.map((r) => JSON.parse(r.body)).find((p) => p.type === type).data;
    expect(byType('parcel.status_changed')).toMatchObject({ previousStatus: expect.any(String) });
    expect(byType('parcel.imported')).toMatchObject({
      count: 1,
      trackingNumbers: [expect.any(String)],
      updatedTrackingNumbers: [],
    });
    expect(byType('parcel.delivery_failed')).toMatchObject({
      reason: 'recipient_unavailable',
      nextAttemptDate: '2026-06-02',
    });
    expect(byType('parcel.delivered').proofOfDeliveryIds).toHaveLength(1);
  });

  it('the check can fail: a payload without its documented fields is refused', async () => {
    const where = [
      'webhooks',
      'parcel.imported',
      'post',
      'requestBody',
      'content',
      'application/json',
      'schema',
    ];
    expect(
      await checkAgainstDocument(where, {
        type: 'parcel.imported',
        timestamp: new Date().toISOString(),
        data: { count: 1 },
      }),
    ).toMatch(/trackingNumbers/);
  });
});
