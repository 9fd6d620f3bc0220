import { EMPTY_CONTACT } from '~/schemas/parcel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createParcel } from '~/services/parcels.server';
import { action as splatAction, loader as splatLoader } from '~/routes/api.$';
import { action as loginAction } from '~/routes/api.auth.login';
import { action as healthAction } from '~/routes/api.health';
import { loader as notificationsLoader } from '~/routes/api.notifications';
import { action as parcelAction, loader as parcelLoader } from '~/routes/api.parcels.$id';
import { loader as parcelsLoader } from '~/routes/api.parcels';
import { loader as receiptsLoader } from '~/routes/api.receipts';
import { action as batchApi } from '~/routes/api.tracking.track';
import {
  action as trackApiAction,
  loader as trackApi,
} from '~/routes/api.tracking.track.$trackingNumber';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { trackingLimiter } from '~/services/public-tracking.server';
import { callRoute, uniqueAddress } from '../support/api';
import { createUser, parcelInput } from '../support/factories';
import { apiError } from '../support/api-error';

let auth: Record<string, string>;

beforeAll(async () => {
  await connectDb();
  ({ auth } = await createUser('staff', { username: 'conventions', name: 'Conventions' }));
});

afterAll(async () => {
  await disconnectDb();
});

const newParcel = () =>
  createParcel(
    parcelInput({
      sender: { ...EMPTY_CONTACT, name: 'A' },
      recipient: { ...EMPTY_CONTACT, name: 'Bo Recipient', address: '5 Pine Rd' },
      dimensions: { length: 1, width: 1, height: 1 },
      estimatedDelivery: new Date('2031-01-01T00:00:00Z'),
    }),
  );

describe('JSON everywhere under /api', () => {
  it('answers an unknown path with the JSON 404, whatever the method', async () => {
    for (const [handler, method] of [
      [splatLoader, 'GET'],
      [splatAction, 'POST'],
      [splatAction, 'DELETE'],
    ] as const) {
      const res = await callRoute(handler, '/api/nope', { method });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const body = await res.json();
      expect(body).toEqual({
        error: 'No API endpoint at /api/nope',
        message: body.error,
        code: 'not_found',
      });
    }
  });

  it('answers a known path with the wrong method 405 naming the methods it takes', async () => {
    const health = await callRoute(healthAction, '/api/health', { method: 'POST' });
    expect(health.status).toBe(405);
    expect(health.headers.get('allow')).toBe('GET');
    expect(await health.json()).toEqual(apiError('Method not allowed', 'method_not_allowed'));
    const parcel = await callRoute(parcelAction, '/api/parcels/x', {
      method: 'PATCH',
      headers: auth,
      params: { id: '0'.repeat(24) },
    });
    expect(parcel.status).toBe(405);
    expect(parcel.headers.get('allow')).toBe('GET, PUT, DELETE');
  });
});

describe('ETags on single resources', () => {
  it('answers a parcel with an ETag, 304 while unchanged, a new one after a change', async () => {
    const parcel = await newParcel();
    const params = { id: parcel.id };
    const first = await callRoute(parcelLoader, `/api/parcels/${parcel.id}`, {
      headers: auth,
      params,
    });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/".+"$/);
    expect((await first.json()).parcel.trackingNumber).toBe(parcel.trackingNumber);

    const unchanged = await callRoute(parcelLoader, `/api/parcels/${parcel.id}`, {
      headers: { ...auth, 'If-None-Match': etag! },
      params,
    });
    expect(unchanged.status).toBe(304);
    expect(await unchanged.text()).toBe('');

    const put = await callRoute(parcelAction, `/api/parcels/${parcel.id}`, {
      method: 'PUT',
      headers: auth,
      params,
      body: { weight: 7 },
    });
    expect(put.status).toBe(200);
    const changed = await callRoute(parcelLoader, `/api/parcels/${parcel.id}`, {
      headers: { ...auth, 'If-None-Match': etag! },
      params,
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect((await changed.json()).parcel.weight).toBe(7);
  });
});

describe('rate limits on the public tracking API', () => {
  it('sends the RateLimit headers on every answer and Retry-After on 429', async () => {
    const address = uniqueAddress();
    const lookup = (number: string) =>
      callRoute(trackApi, `/api/tracking/track/${number}`, {
        params: { trackingNumber: number },
        clientAddress: address,
      });
    const parcel = await newParcel();
    const found = await lookup(parcel.trackingNumber);
    expect(found.status).toBe(200);
    const limit = env.RATE_LIMIT_TRACKING_PER_MINUTE;
    expect(found.headers.get('ratelimit-limit')).toBe(String(limit));
    expect(found.headers.get('ratelimit-remaining')).toBe(String(limit - 1));
    expect(Number(found.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(found.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Remaining/);

    const missing = await lookup('ZZZ000000001');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ratelimit-remaining')).toBe(String(limit - 2));
    const malformed = await lookup('nope');
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('ratelimit-remaining')).toBe(String(limit - 3));

    const batch = await callRoute(batchApi, '/api/tracking/track', {
      method: 'POST',
      body: { trackingNumbers: [parcel.trackingNumber, 'ZZZ000000002'] },
      clientAddress: address,
    });
    expect(batch.status).toBe(200);
    expect(batch.headers.get('ratelimit-remaining')).toBe(String(limit - 5));
    const badBatch = await callRoute(batchApi, '/api/tracking/track', {
      method: 'POST',
      body: { trackingNumbers: 'x' },
      clientAddress: address,
    });
    expect(badBatch.status).toBe(400);
    expect(badBatch.headers.get('ratelimit-remaining')).toBe(String(limit - 5));

    await trackingLimiter.hit(address, limit - 5);
    const refused = await lookup(parcel.trackingNumber);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('sends the RateLimit headers on every sign-in answer, counting failures', async () => {
    const address = uniqueAddress();
    const login = (password: string) =>
      callRoute(loginAction, '/api/auth/login', {
        method: 'POST',
        body: { username: 'conventions', password },
        clientAddress: address,
      });
    const max = env.LOGIN_MAX_FAILURES;
    const wrong = await login('not-the-password');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('ratelimit-limit')).toBe(String(max));
    expect(wrong.headers.get('ratelimit-remaining')).toBe(String(max - 1));
    expect(wrong.headers.get('retry-after')).toBeNull();
    const right = await login('conventions-password');
    expect(right.status).toBe(200);
    expect(right.headers.get('ratelimit-remaining')).toBe(String(max));
    const bad = await callRoute(loginAction, '/api/auth/login', {
      method: 'POST',
      body: {},
      clientAddress: address,
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('ratelimit-limit')).toBe(String(max * 20));
  });

  it('answers a preflight 204 without using any of the budget', async () => {
    const address = uniqueAddress();
    for (const handler of [trackApi, trackApiAction]) {
      const preflight = await callRoute(handler, '/api/tracking/track/SWX123456789', {
        method: 'OPTIONS',
        params: { trackingNumber: 'SWX123456789' },
        headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET' },
        clientAddress: address,
      });
      expect(preflight.status).toBe(204);
      expect(await preflight.text()).toBe('');
    }
    expect((await trackingLimiter.peek(address)).remaining).toBe(
      env.RATE_LIMIT_TRACKING_PER_MINUTE,
    );
  });
});

describe('contract details', () => {
  it('reports totalPages 0 for an empty list of parcels, notifications and receipts', async () => {
    const query = '?status=Delivered&limit=5';
    const parcels = await callRoute(parcelsLoader, `/api/parcels${query}`, { headers: auth });
    expect((await parcels.json()).pagination).toEqual({
      totalItems: 0,
      currentPage: 1,
      totalPages: 0,
      limit: 5,
    });
    const notifications = await callRoute(notificationsLoader, '/api/notifications?limit=5', {
      headers: auth,
    });
    expect((await notifications.json()).pagination).toEqual({
      totalItems: 0,
      currentPage: 1,
      totalPages: 0,
      limit: 5,
    });
    const receipts = await callRoute(receiptsLoader, '/api/receipts?limit=5', { headers: auth });
    expect((await receipts.json()).pagination).toEqual({
      totalItems: 0,
      currentPage: 1,
      totalPages: 0,
      limit: 5,
    });
  });

  it('gives the tracking 404 the same error and message', async () => {
    const res = await callRoute(trackApi, '/api/tracking/track/ZZZ000000009', {
      params: { trackingNumber: 'zzz000000009' },
      clientAddress: uniqueAddress(),
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(
      apiError('Tracking number not found', 'tracking_number_mistyped', {
        trackingNumber: 'ZZZ000000009',
      }),
    );
  });

  it('answers a bad enum in a query 400 with a message for that field', async () => {
    const parcels = await callRoute(parcelsLoader, '/api/parcels?status=bogus', { headers: auth });
    expect(parcels.status).toBe(400);
    const body = await parcels.json();
    expect(body.error).toBe('Validation failed');
    expect(body.details).toEqual({ status: [expect.stringMatching(/^Status must be one of: /)] });
    expect(body.details.status[0]).not.toMatch(/Invalid input/);
    // An empty filter still means "all".
    const all = await callRoute(parcelsLoader, '/api/parcels?status=', { headers: auth });
    expect(all.status).toBe(200);
    for (const [loader, path] of [
      [notificationsLoader, '/api/notifications?status=bogus'],
      [notificationsLoader, '/api/notifications?type=bogus'],
      [receiptsLoader, '/api/receipts?status=bogus'],
    ] as const) {
      const res = await callRoute(loader, path, { headers: auth });
      expect(res.status).toBe(400);
      const details = (await res.json()).details;
      const field = path.includes('type=') ? 'type' : 'status';
      expect(details[field][0]).toMatch(/must be one of: /);
    }
  });
});
