import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDelivery } from '~/models/webhook.server';
import { action as parcelsAction } from '~/routes/api.parcels';
import { action as eventsAction } from '~/routes/api.tracking.$parcelId.events';
import { action as pickupOutcomeAction } from '~/routes/api.pickups.$id.outcome';
import { insertPickup } from '~/models/pickup.server';
import { loader as deliveriesLoader } from '~/routes/api.webhooks.$id.deliveries';
import { action as redeliverAction } from '~/routes/api.webhooks.$id.deliveries.$deliveryId.redeliver';
import { action as webhookAction, loader as webhookLoader } from '~/routes/api.webhooks.$id';
import { action as webhooksAction, loader as webhooksLoader } from '~/routes/api.webhooks';
import { action as dashboardCreate } from '~/routes/dashboard.parcels.new';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { startJobWorker, type JobWorker } from '~/services/jobs.server';
import { callRoute } from '../support/api';
import { until } from '../support/jobs';
import { createUser } from '../support/factories';

/** What the receiving service saw: one entry per request, in order. */
type Received = { path: string; headers: Record<string, string>; body: string };
const received: Received[] = [];
const answers = new Map<string, Array<'ok' | 'fail' | 'hang'>>();

const receiver = setupServer(
  http.post('https://hooks.example.test/:name', async ({ request, params }) => {
    const body = await request.text();
    received.push({
      path: String(params.name),
      headers: Object.fromEntries(request.headers),
      body,
    });
    const next = answers.get(String(params.name))?.shift() ?? 'ok';
    if (next === 'hang') await delay(5_000);
    if (next === 'fail') return new HttpResponse('x'.repeat(3000), { status: 500 });
    return HttpResponse.json({ received: true });
  }),
);

let auth: Record<string, string>;
let staffAuth: Record<string, string>;
let adminCookie: string;
let worker: JobWorker;
const saved = {
  allow: env.WEBHOOKS_ALLOW_PRIVATE,
  delays: env.WEBHOOK_RETRY_DELAYS,
  timeout: env.WEBHOOK_TIMEOUT_MS,
};

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  receiver.listen({ onUnhandledRequest: 'error' });
  env.WEBHOOK_RETRY_DELAYS = [0.05, 0.05, 0.05];
  env.WEBHOOK_TIMEOUT_MS = 300;
  const admin = await createUser('admin', { username: 'hooks' });
  auth = admin.auth;
  adminCookie = admin.cookie;
  staffAuth = (await createUser('staff', { username: 'hooks-staff' })).auth;
  worker = startJobWorker({ pollMs: 20 });
});

afterEach(() => {
  env.WEBHOOKS_ALLOW_PRIVATE = 'true';
});

afterAll(async () => {
  await worker.stop();
  receiver.close();
  Object.assign(env, {
    WEBHOOKS_ALLOW_PRIVATE: saved.allow,
    WEBHOOK_RETRY_DELAYS: saved.delays,
    WEBHOOK_TIMEOUT_MS: saved.timeout,
  });
  await disconnectDb();
});

async function createWebhook(body: Record<string, unknown>, headers = auth) {
  const res = await callRoute(webhooksAction, '/api/webhooks', { method: 'POST', headers, body });
  return { status: res.status, body: await res.json() };
}

async function createParcel(name: string) {
  const res = await callRoute(parcelsAction, '/api/parcels', {
    method: 'POST',
    headers: auth,
    body: { recipient: { name, address: '1 Hook Rd' } },
  });
  expect(res.status).toBe(201);
  return (await res.json()).parcel as { id: string; trackingNumber: string };
}

const bodiesFor = (path: string) =>
  received.filter((r) => r.path === path).map((r) => JSON.parse(r.body));

describe('webhook endpoints', () => {
  it('are created by admins with a secret shown once, and read back without it', async () => {
    env.WEBHOOKS_ALLOW_PRIVATE = 'true';
    const created = await createWebhook({
      url: 'https://hooks.example.test/crud',
      events: ['parcel.deleted', 'parcel.created'],
      description: 'Warehouse',
    });
    expect(created.status).toBe(201);
    const { webhook, secret } = created.body;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(webhook).toEqual({
      id: expect.stringMatching(/^[a-f\d]{24}$/),
      _id: webhook.id,
      url: 'https://hooks.example.test/crud',
      events: ['parcel.created', 'parcel.deleted'],
      description: 'Warehouse',
      active: true,
      createdAt: expect.any(String),
      accountId: null,
    });
    const list = await (await callRoute(webhooksLoader, '/api/webhooks', { headers: auth })).json();
    expect(list.webhooks).toContainEqual(webhook);
    expect(JSON.stringify(list)).not.toContain(secret.slice(6));
    const params = { id: webhook.id };
    const one = await callRoute(webhookLoader, `/api/webhooks/${webhook.id}`, {
      headers: auth,
      params,
    });
    expect((await one.json()).webhook).toEqual(webhook);

    const put = await callRoute(webhookAction, `/api/webhooks/${webhook.id}`, {
      method: 'PUT',
      headers: auth,
      params,
      body: { active: false, description: 'Paused' },
    });
    expect((await put.json()).webhook).toMatchObject({ active: false, description: 'Paused' });
    const del = await callRoute(webhookAction, `/api/webhooks/${webhook.id}`, {
      method: 'DELETE',
      headers: auth,
      params,
    });
    expect(del.status).toBe(200);
    const gone = await callRoute(webhookLoader, `/api/webhooks/${webhook.id}`, {
      headers: auth,
      params,
    });
    expect(gone.status).toBe(404);
  });

  it('refuse bad input with per-field details, and non-admins', async () => {
    const bad = await createWebhook({ url: 'ftp://x', events: ['parcel.exploded'] });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details).sort()).toEqual(['events.0', 'url']);
    const staff = await createWebhook(
      { url: 'https://hooks.example.test/x', events: ['parcel.created'] },
      staffAuth,
    );
    expect(staff.status).toBe(403);
    expect(staff.body.error).toBe('This needs the admin role');
  });

  it('refuse loopback, private and link-local receivers unless they are allowed', async () => {
    env.WEBHOOKS_ALLOW_PRIVATE = 'false';
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://192.168.0.10/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://[fe80::1]/hook',
    ]) {
      const res = await createWebhook({ url, events: ['parcel.created'] });
      expect(res.status, url).toBe(400);
      expect(res.body.details.url[0]).toMatch(/public address/);
    }
    env.WEBHOOKS_ALLOW_PRIVATE = 'true';
    const allowed = await createWebhook({
      url: 'http://127.0.0.1:9/x',
      events: ['parcel.created'],
    });
    expect(allowed.status).toBe(201);
    await callRoute(webhookAction, `/api/webhooks/${allowed.body.webhook.id}`, {
      method: 'DELETE',
      headers: auth,
      params: { id: allowed.body.webhook.id },
    });
  });
});

describe('deliveries', () => {
  it('sign parcel.created and tracking_event.created so that the receiver can verify them', async () => {
    const { body } = await createWebhook({
      url: 'https://hooks.example.test/signed',
      events: ['parcel.created', 'tracking_event.created', 'parcel.status_changed'],
    });
    const verifier = new Verifier(body.secret);
    const parcel = await createParcel('Signed Recipient');
    const event = await callRoute(eventsAction, `/api/tracking/${parcel.id}/events`, {
      method: 'POST',
      headers: auth,
      params: { parcelId: parcel.id },
      body: { status: 'In Transit', location: 'Hub 7', description: 'On its way' },
    });
    expect(event.status).toBe(201);
    const created = (await event.json()).event;

    await until(async () => received.filter((r) => r.path === 'signed').length >= 3);
    const signed = received.filter((r) => r.path === 'signed');
    for (const r of signed) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['webhook-id']).toMatch(/^msg_/);
      expect(r.headers['webhook-signature']).toMatch(/^v1,/);
      // The library's own check: signature, and a timestamp within its tolerance.
      expect(verifier.verify(r.body, r.headers)).toEqual(JSON.parse(r.body));
      // A body changed on the way fails it.
      expect(() => verifier.verify(r.body.replace('}', ' }'), r.headers)).toThrow();
    }
    const types = signed.map((r) => JSON.parse(r.body).type).sort();
    expect(types).toEqual(['parcel.created', 'parcel.status_changed', 'tracking_event.created']);
    const byType = Object.fromEntries(
      signed.map((r) => [JSON.parse(r.body).type, JSON.parse(r.body)]),
    );
    expect(byType['parcel.created']).toEqual({
      type: 'parcel.created',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      accountId: null,
      livemode: true,
      data: { parcel: expect.objectContaining({ id: parcel.id, status: 'Pending' }) },
    });
    expect(byType['tracking_event.created'].data).toEqual({
      event: expect.objectContaining({ id: created.id, status: 'In Transit', location: 'Hub 7' }),
      parcel: { id: parcel.id, trackingNumber: parcel.trackingNumber, status: 'In Transit' },
    });
    expect(byType['parcel.status_changed'].data).toMatchObject({
      previousStatus: 'Pending',
      parcel: { id: parcel.id, status: 'In Transit' },
    });
    // Another secret does not verify them.
    const other = new Verifier(`whsec_${Buffer.alloc(32, 1).toString('base64')}`);
    expect(() => other.verify(signed[0]!.body, signed[0]!.headers)).toThrow();
  });

  it('come from the dashboard too, and only for the events an endpoint wants', async () => {
    const { body } = await createWebhook({
      url: 'https://hooks.example.test/dashboard',
      events: ['parcel.created'],
    });
    expect(body.webhook.events).toEqual(['parcel.created']);
    const res = await dashboardCreate({
      request: new Request('http://localhost/dashboard/parcels/new', {
        method: 'POST',
        headers: { Cookie: adminCookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          'recipient.name': 'Dashboard Hook',
          'recipient.address': '2 Form St',
          weight: '1',
          serviceType: 'Standard',
          priority: 'Standard',
        }),
      }),
      params: {},
      context: {},
    } as never);
    expect(res.status).toBe(302);
    await until(async () => bodiesFor('dashboard').length >= 1);
    const [delivered] = bodiesFor('dashboard');
    expect(delivered.data.parcel.recipient.name).toBe('Dashboard Hook');
    await worker.idle();
    // The endpoint from the test above wants parcel.created too, but no other event happened.
    const forThisParcel = bodiesFor('signed').filter(
      (b) => b.data.parcel?.recipient?.name === 'Dashboard Hook',
    );
    expect(forThisParcel.map((b) => b.type)).toEqual(['parcel.created']);
  });

  it('retry a receiver that fails twice and succeed on the third attempt, logging each', async () => {
    answers.set('flaky', ['fail', 'fail']);
    const { body } = await createWebhook({
      url: 'https://hooks.example.test/flaky',
      events: ['parcel.created'],
    });
    await createParcel('Flaky Recipient');
    const delivery = await until(async () => {
      const d = await WebhookDelivery.findOne({ webhookId: body.webhook.id }).lean();
      return d?.status === 'succeeded' ? d : null;
    });
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([500, 500, 200]);
    expect(delivery.attempts[0]!.response).toHaveLength(1024);
    expect(delivery.attempts[0]!.error).toBe('The receiver answered 500');
    expect(delivery.attempts[2]!.response).toBe('{"received":true}');
    for (const a of delivery.attempts) expect(a.durationMs).toBeGreaterThanOrEqual(0);
    const flaky = received.filter((r) => r.path === 'flaky');
    expect(flaky).toHaveLength(3);
    // Every attempt is the same message: one id, one body.
    expect(new Set(flaky.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(flaky.map((r) => r.body)).size).toBe(1);

    const listed = await callRoute(
      deliveriesLoader,
      `/api/webhooks/${body.webhook.id}/deliveries`,
      {
        headers: auth,
        params: { id: body.webhook.id },
      },
    );
    const page = await listed.json();
    expect(page.pagination).toEqual({ totalItems: 1, currentPage: 1, totalPages: 1, limit: 20 });
    expect(page.deliveries[0]).toMatchObject({
      type: 'parcel.created',
      status: 'succeeded',
      messageId: flaky[0]!.headers['webhook-id'],
      attempts: [{ statusCode: 500 }, { statusCode: 500 }, { statusCode: 200, error: null }],
    });
  });

  it('count a receiver that does not answer in time as failed, then fail for good, then redeliver', async () => {
    answers.set('slow', ['hang', 'hang', 'fail', 'fail']);
    const { body } = await createWebhook({
      url: 'https://hooks.example.test/slow',
      events: ['parcel.deleted'],
    });
    const parcel = await createParcel('Slow Recipient');
    const { action: parcelAction } = await import('~/routes/api.parcels.$id');
    await callRoute(parcelAction, `/api/parcels/${parcel.id}`, {
      method: 'DELETE',
      headers: auth,
      params: { id: parcel.id },
    });
    const failed = await until(async () => {
      const d = await WebhookDelivery.findOne({ webhookId: body.webhook.id }).lean();
      return d?.status === 'failed' ? d : null;
    });
    // The first attempt and the three retries of WEBHOOK_RETRY_DELAYS.
    expect(failed.attempts).toHaveLength(4);
    expect(failed.attempts[0]).toMatchObject({ statusCode: null, error: 'No answer within 0.3 s' });
    expect(failed.attempts[3]).toMatchObject({ statusCode: 500 });

    const redeliver = () =>
      callRoute(
        redeliverAction,
        `/api/webhooks/${body.webhook.id}/deliveries/${failed._id}/redeliver`,
        {
          method: 'POST',
          headers: auth,
          params: { id: body.webhook.id, deliveryId: String(failed._id) },
        },
      );
    const res = await redeliver();
    expect(res.status).toBe(202);
    expect((await res.json()).delivery).toMatchObject({
      id: String(failed._id),
      status: 'pending',
    });
    const done = await until(async () => {
      const d = await WebhookDelivery.findById(failed._id).lean();
      return d?.status === 'succeeded' ? d : null;
    });
    expect(done.attempts).toHaveLength(5);
    const slow = received.filter((r) => r.path === 'slow');
    expect(new Set(slow.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(JSON.parse(slow.at(-1)!.body).data.parcel.id).toBe(parcel.id);

    const unknown = await callRoute(
      redeliverAction,
      `/api/webhooks/${body.webhook.id}/deliveries/${'0'.repeat(24)}/redeliver`,
      {
        method: 'POST',
        headers: auth,
        params: { id: body.webhook.id, deliveryId: '0'.repeat(24) },
      },
    );
    expect(unknown.status).toBe(404);
  });

  it('send nothing to an inactive endpoint', async () => {
    const { body } = await createWebhook({
      url: 'https://hooks.example.test/paused',
      events: ['parcel.created'],
    });
    await callRoute(webhookAction, `/api/webhooks/${body.webhook.id}`, {
      method: 'PUT',
      headers: auth,
      params: { id: body.webhook.id },
      body: { active: false },
    });
    await createParcel('Paused Recipient');
    await worker.idle();
    expect(await WebhookDelivery.countDocuments({ webhookId: body.webhook.id })).toBe(0);
    expect(bodiesFor('paused')).toEqual([]);
  });

  it('tell an endpoint that wants pickup.missed of a pickup not collected, and not one that wants only pickup.completed', async () => {
    for (const [name, event] of [
      ['missed', 'pickup.missed'],
      ['completed', 'pickup.completed'],
    ])
      expect(
        (await createWebhook({ url: `https://hooks.example.test/${name}`, events: [event] }))
          .status,
      ).toBe(201);
    const pickup = () =>
      insertPickup({
        scope: null,
        date: '2026-06-01',
        window: { from: '09:00', until: '12:00' },
        address: {
          address: '5 Dock Rd',
          city: 'Boston',
          region: '',
          postalCode: '',
          country: 'US',
        },
        depotId: null,
        parcelIds: [],
        parcelCount: 2,
        notes: '',
      });
    const record = async (id: string, body: Record<string, unknown>) => {
      const res = await callRoute(pickupOutcomeAction, `/api/pickups/${id}/outcome`, {
        method: 'POST',
        headers: auth,
        params: { id },
        body,
      });
      expect(res.status).toBe(200);
    };
    const [missed, collected] = [await pickup(), await pickup()];
    await record(missed.id, { outcome: 'not_collected', reason: 'not_ready' });
    await record(collected.id, { outcome: 'collected', collectedCount: 2 });
    await until(async () => bodiesFor('missed').length >= 1 && bodiesFor('completed').length >= 1);
    await worker.idle();
    expect(bodiesFor('missed')).toEqual([
      expect.objectContaining({
        type: 'pickup.missed',
        data: {
          pickup: expect.objectContaining({
            id: missed.id,
            status: 'missed',
            missedReason: 'not_ready',
          }),
        },
      }),
    ]);
    expect(bodiesFor('completed').map((b) => [b.type, b.data.pickup.id])).toEqual([
      ['pickup.completed', collected.id],
    ]);
  });
});
