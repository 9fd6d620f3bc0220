import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookDelivery } from '~/models/webhook.server';
import { action as parcelsAction } from '~/routes/api.parcels';
import { action as webhooksAction } from '~/routes/api.webhooks';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { startJobWorker, type JobWorker } from '~/services/jobs.server';
import { callRoute } from '../support/api';
import { until } from '../support/jobs';
import { createUser } from '../support/factories';

/** A real receiver on 127.0.0.1: answers 503 to its first `failures` requests, then 204. */
type Seen = { headers: http.IncomingHttpHeaders; body: string };
const seen: Seen[] = [];
let failures = 2;
const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    seen.push({ headers: req.headers, body });
    if (failures > 0) {
      failures -= 1;
      res.writeHead(503, { 'Content-Type': 'text/plain' }).end('busy, try later');
    } else res.writeHead(204).end();
  });
});

let url: string;
let auth: Record<string, string>;
let worker: JobWorker;
const saved = { allow: env.WEBHOOKS_ALLOW_PRIVATE, delays: env.WEBHOOK_RETRY_DELAYS };

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  env.WEBHOOKS_ALLOW_PRIVATE = 'true';
  env.WEBHOOK_RETRY_DELAYS = [0.05, 0.05, 0.05];
  ({ auth } = await createUser('admin', { username: 'http-hooks' }));
  worker = startJobWorker({ pollMs: 20 });
});

afterAll(async () => {
  await worker.stop();
  await new Promise((resolve) => server.close(resolve));
  Object.assign(env, { WEBHOOKS_ALLOW_PRIVATE: saved.allow, WEBHOOK_RETRY_DELAYS: saved.delays });
  await disconnectDb();
});

describe('a webhook to a real HTTP server', () => {
  it('is delivered on the third attempt, signed, after two 503s', async () => {
    const created = await callRoute(webhooksAction, '/api/webhooks', {
      method: 'POST',
      headers: auth,
      body: { url, events: ['parcel.created'], description: 'Local receiver' },
    });
    expect(created.status).toBe(201);
    const { webhook, secret } = await created.json();
    const parcel = await callRoute(parcelsAction, '/api/parcels', {
      method: 'POST',
      headers: auth,
      body: { recipient: { name: 'Real Receiver', address: '127 Loop Rd' } },
    });
    const { parcel: made } = await parcel.json();

    const delivery = await until(async () => {
      const d = await WebhookDelivery.findOne({ webhookId: webhook.id }).lean();
      return d?.status === 'succeeded' ? d : null;
    });
    expect(delivery.attempts.map((a) => a.statusCode)).toEqual([503, 503, 204]);
    expect(delivery.attempts[0]!.response).toBe('busy, try later');
    expect(seen).toHaveLength(3);
    const verifier = new Verifier(secret);
    for (const request of seen) {
      const headers = request.headers as Record<string, string>;
      expect(verifier.verify(request.body, headers)).toMatchObject({
        type: 'parcel.created',
        data: { parcel: { id: made.id, trackingNumber: made.trackingNumber } },
      });
    }
  });

  it('is not sent to a private address once private addresses are refused', async () => {
    const created = await callRoute(webhooksAction, '/api/webhooks', {
      method: 'POST',
      headers: auth,
      body: { url, events: ['parcel.created'] },
    });
    const { webhook } = await created.json();
    env.WEBHOOKS_ALLOW_PRIVATE = 'false';
    const before = seen.length;
    try {
      await callRoute(parcelsAction, '/api/parcels', {
        method: 'POST',
        headers: auth,
        body: { recipient: { name: 'Refused', address: '10 Private Way' } },
      });
      const delivery = await until(async () => {
        const d = await WebhookDelivery.findOne({ webhookId: webhook.id }).lean();
        return d?.status === 'failed' ? d : null;
      });
      expect(delivery.attempts).toHaveLength(4);
      for (const attempt of delivery.attempts) {
        expect(attempt.statusCode).toBeNull();
        expect(attempt.error).toMatch(/public address/);
      }
      // The other endpoint's delivery of the same event was refused too.
      await worker.idle();
      expect(seen.length).toBe(before);
    } finally {
      env.WEBHOOKS_ALLOW_PRIVATE = 'true';
    }
  });
});
