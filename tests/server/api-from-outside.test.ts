import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as Verifier } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealServer, type RealServer } from '../support/real-server';

/**
 * What an integrator sees from outside, against the production build served over HTTP with its
 * job worker: keys and their scopes, signed webhooks to a receiver on 127.0.0.1 that fails twice,
 * idempotent creates, and the JSON conventions. The dashboard's screens for keys and webhooks are
 * checked in a browser (tests/e2e/integrators.spec.ts).
 */

let server: RealServer;

beforeAll(async () => {
  server = await startRealServer({
    worker: true,
    env: {
      // The receiver runs on 127.0.0.1 and fails on purpose: quick retries, looked for often.
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_DELAYS: '0.2,0.2,0.2',
      JOBS_POLL_MS: '50',
    },
  });
});

afterAll(async () => {
  await server?.close();
});

type Seen = { headers: Record<string, string>; body: string; status: number };

/** A receiver that fails the first two attempts of every message. */
async function startReceiver() {
  const seen: Seen[] = [];
  const tries = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      tries.set(id, (tries.get(id) ?? 0) + 1);
      const status = tries.get(id)! <= 2 ? 500 : 200;
      seen.push({ headers: req.headers as Record<string, string>, body, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    seen,
    url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`,
    close: () => new Promise((resolve) => receiver.close(resolve)),
  };
}

describe('the API from outside', () => {
  it('keys with scopes, signed webhooks that retry, idempotent creates, JSON conventions', async () => {
    const admin = { Authorization: `Bearer ${await server.apiToken()}` };
    const post = (pathname: string, headers: Record<string, string>, json: unknown) =>
      server.request(pathname, { method: 'POST', headers, json });
    const makeKey = async (scopes: string[]) => {
      const res = await post('/api/api-keys', admin, { name: `outside ${scopes}`, scopes });
      expect(res.status).toBe(201);
      return { Authorization: `Bearer ${((await res.json()) as { key: string }).key}` };
    };
    const writer = await makeKey(['read', 'write']);
    let trackingNumber = '';
    const reader = await makeKey(['read']);

    const receiver = await startReceiver();
    const { seen } = receiver;
    try {
      const hook = await post('/api/webhooks', admin, {
        url: receiver.url,
        events: ['parcel.created', 'tracking_event.created'],
      });
      expect(hook.status).toBe(201);
      const { webhook, secret } = (await hook.json()) as {
        webhook: { id: string };
        secret: string;
      };

      const created = await post('/api/parcels', writer, {
        recipient: { name: 'Outside In', address: '9 Edge Rd' },
      });
      expect(created.status).toBe(201);
      const { parcel } = (await created.json()) as {
        parcel: { id: string; trackingNumber: string };
      };
      trackingNumber = parcel.trackingNumber;
      const refused = await post('/api/parcels', reader, {
        recipient: { name: 'Read Only', address: '0 Nope' },
      });
      expect(refused.status).toBe(403);
      expect((await server.request(`/api/parcels/${parcel.id}`, { headers: reader })).status).toBe(
        200,
      );
      const event = await post(`/api/tracking/${parcel.id}/events`, writer, {
        status: 'In Transit',
        location: 'Hub',
      });
      expect(event.status).toBe(201);

      const verifier = new Verifier(secret);
      // Only this parcel's events, as an endpoint that hears of every parcel would pick them.
      const ours = (s: { body: string }) => s.body.includes(parcel.trackingNumber);
      await expect
        .poll(
          () =>
            seen
              .filter((s) => s.status === 200 && ours(s))
              .map((s) => (verifier.verify(s.body, s.headers) as { type: string }).type)
              .sort(),
          { timeout: 20_000 },
        )
        .toEqual(['parcel.created', 'tracking_event.created']);
      // Each event failed twice and arrived on the third attempt, as one message.
      const ourIds = new Set(seen.filter(ours).map((s) => s.headers['webhook-id']));
      expect(ourIds.size).toBe(2);
      for (const id of ourIds)
        expect(seen.filter((s) => s.headers['webhook-id'] === id).map((s) => s.status)).toEqual([
          500, 500, 200,
        ]);
      const deliveries = await server.request(`/api/webhooks/${webhook.id}/deliveries`, {
        headers: admin,
      });
      const { deliveries: list } = (await deliveries.json()) as {
        deliveries: Array<{ messageId: string; status: string }>;
      };
      const ourDeliveries = list.filter((d) => ourIds.has(d.messageId));
      expect(ourDeliveries).toHaveLength(2);
      expect(ourDeliveries.every((d) => d.status === 'succeeded')).toBe(true);
    } finally {
      await receiver.close();
    }

    // Thirty concurrent creates with one key make one parcel; another body gets 422.
    const key = 'idem-thirty-at-once';
    const name = 'Idem Thirty';
    const body = { recipient: { name, address: '30 Times Sq' } };
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        post('/api/parcels', { ...writer, 'Idempotency-Key': key }, body),
      ),
    );
    expect(answers.every((a) => [201, 409].includes(a.status))).toBe(true);
    const search = await server.request(`/api/parcels?search=${encodeURIComponent(name)}`, {
      headers: writer,
    });
    expect(
      ((await search.json()) as { pagination: { totalItems: number } }).pagination.totalItems,
    ).toBe(1);
    const other = await post(
      '/api/parcels',
      { ...writer, 'Idempotency-Key': key },
      { recipient: { name: 'Different', address: '1 Other St' } },
    );
    expect(other.status).toBe(422);

    // JSON everywhere, request ids, rate-limit headers, the document.
    const nope = await server.request('/api/nope');
    expect(nope.status).toBe(404);
    expect(await nope.json()).toMatchObject({
      error: expect.any(String),
      message: expect.any(String),
    });
    expect(nope.headers.get('x-request-id')).toBeTruthy();
    const echoed = await server.request('/api/health', {
      headers: { 'X-Request-Id': 'trace-123' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const wrong = await server.request('/api/health', { method: 'PATCH' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    const track = await server.request(`/api/tracking/track/${trackingNumber}`);
    expect(track.headers.get('ratelimit-limit')).toBeTruthy();
    expect(track.headers.get('ratelimit-remaining')).toBeTruthy();
    expect(track.headers.get('ratelimit-reset')).toBeTruthy();
    const again = await server.request(`/api/tracking/track/${trackingNumber}`, {
      headers: { 'If-None-Match': track.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    const openapi = (await (await server.request('/api/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    };
    expect(openapi.openapi).toBe('3.1.0');
    expect(openapi.paths['/api/parcels']!.post).toBeTruthy();
    const docs = await server.request('/api/docs');
    expect(await docs.text()).toContain('/api/webhooks/{id}/deliveries');
  });

  it('keeps keys without the admin scope out of users and keys; Settings offers the scope', async () => {
    const admin = { Authorization: `Bearer ${await server.apiToken()}` };
    const made = await server.request('/api/api-keys', {
      method: 'POST',
      headers: admin,
      json: { name: 'outside writer', scopes: ['read', 'write'] },
    });
    const writer = { Authorization: `Bearer ${((await made.json()) as { key: string }).key}` };
    const newAdmin = await server.request('/api/users', {
      method: 'POST',
      headers: writer,
      json: { username: 'made-from-outside', role: 'admin', password: 'outside-password' },
    });
    expect(newAdmin.status).toBe(403);
    expect(((await newAdmin.json()) as { error: string }).error).toMatch(/admin scope/);
    const newKey = await server.request('/api/api-keys', {
      method: 'POST',
      headers: writer,
      json: { name: 'escalated', scopes: ['read', 'write', 'admin'] },
    });
    expect(newKey.status).toBe(403);

    const { document } = await server.page('/dashboard/settings/api-keys', {
      headers: { cookie: await server.signInCookie() },
    });
    const offered = [...document.querySelectorAll('input[type="checkbox"][name="scopes"]')].map(
      (box) => box.getAttribute('value'),
    );
    expect(offered).toEqual(['read', 'write', 'admin']);
  });
});
