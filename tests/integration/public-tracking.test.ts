import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertWithTrackingNumber, Parcel } from '~/models/parcel.server';
import {
  loader as trackApi,
  action as trackApiAction,
} from '~/routes/api.tracking.track.$trackingNumber';
import { loader as trackPage } from '~/routes/_public.track';
import { connectDb, disconnectDb } from '~/services/db.server';
import { env } from '~/services/env.server';
import { callRoute, uniqueAddress } from '../support/api';

let trackingNumber = '';

beforeAll(async () => {
  await connectDb();
  const parcel = await insertWithTrackingNumber((tn) =>
    Parcel.create({
      trackingNumber: tn,
      sender: {
        name: 'Acme Corp',
        email: 'ship@acme.example',
        phone: '555-0100',
        address: '1 Main St, Springfield',
      },
      recipient: {
        name: 'Jane Roe',
        email: 'jane@example.com',
        phone: '555-0199',
        address: '9 Elm St, Shelbyville',
      },
      serviceType: 'Express',
      status: 'In Transit',
      cost: 25.99,
      estimatedDelivery: new Date('2030-01-05T12:00:00Z'),
      events: [
        {
          status: 'Package Picked Up',
          location: 'Springfield',
          description: 'Picked up',
          timestamp: new Date('2030-01-01T10:00:00Z'),
        },
        {
          status: 'In Transit',
          location: 'Capital City',
          description: 'On the way',
          timestamp: new Date('2030-01-02T10:00:00Z'),
        },
      ],
    }),
  );
  trackingNumber = parcel.trackingNumber;
});

afterAll(async () => {
  await disconnectDb();
});

describe('GET /api/tracking/track/:trackingNumber', () => {
  it('returns the public result with events newest first, and a CORS header', async () => {
    const res = await callRoute(trackApi, `/api/tracking/track/${trackingNumber}`, {
      params: { trackingNumber },
      clientAddress: uniqueAddress(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body).toEqual({
      parcel: {
        trackingNumber,
        status: 'In Transit',
        recipient: { name: 'Jane Roe', address: '9 Elm St, Shelbyville' },
        sender: { address: '1 Main St, Springfield' },
        serviceType: 'Express',
        estimatedDelivery: '2030-01-05T12:00:00.000Z',
      },
      events: [
        expect.objectContaining({
          status: 'In Transit',
          location: 'Capital City',
          timestamp: '2030-01-02T10:00:00.000Z',
        }),
        expect.objectContaining({ status: 'Package Picked Up', description: 'Picked up' }),
      ],
    });
    expect(typeof body.events[0].id).toBe('string');
    // Nothing private leaks to the public endpoint.
    expect(JSON.stringify(body)).not.toMatch(/jane@example\.com|555-0199|25\.99/);
  });

  it('ignores letter case and surrounding spaces', async () => {
    const typed = `  ${trackingNumber.toLowerCase()} `;
    const res = await callRoute(trackApi, `/api/tracking/track/${encodeURIComponent(typed)}`, {
      params: { trackingNumber: typed },
      clientAddress: uniqueAddress(),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).parcel.trackingNumber).toBe(trackingNumber);
  });

  it('answers 404 with the error field for an unknown number', async () => {
    const res = await callRoute(trackApi, '/api/tracking/track/ZZZ000000000', {
      params: { trackingNumber: 'ZZZ000000000' },
      clientAddress: uniqueAddress(),
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body.error).toBe('Tracking number not found');
    expect(body.message).toContain('Tracking number not found');
  });

  it('answers 400 for a malformed number', async () => {
    for (const bad of ['abc', '12345', 'ABCD123456789', "'; DROP", '{"$gt":""}']) {
      const res = await callRoute(trackApi, `/api/tracking/track/${encodeURIComponent(bad)}`, {
        params: { trackingNumber: bad },
        clientAddress: uniqueAddress(),
      });
      expect(res.status, bad).toBe(400);
      expect((await res.json()).details.trackingNumber).toBeDefined();
    }
  });

  it('limits lookups per client address with 429 and Retry-After', async () => {
    const address = uniqueAddress();
    const statuses: number[] = [];
    for (let i = 0; i < env.RATE_LIMIT_TRACKING_PER_MINUTE + 1; i++) {
      const res = await callRoute(trackApi, '/api/tracking/track/ZZZ000000001', {
        params: { trackingNumber: 'ZZZ000000001' },
        clientAddress: address,
      });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(res.headers.get('access-control-allow-origin')).toBe('*');
        expect((await res.json()).error).toMatch(/Too many/);
      }
    }
    expect(statuses.slice(0, -1).every((s) => s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    // Another address is unaffected.
    const other = await callRoute(trackApi, `/api/tracking/track/${trackingNumber}`, {
      params: { trackingNumber },
      clientAddress: uniqueAddress(),
    });
    expect(other.status).toBe(200);
  });

  it('answers a CORS preflight and refuses other methods', async () => {
    const preflight = await callRoute(trackApiAction, `/api/tracking/track/${trackingNumber}`, {
      method: 'OPTIONS',
      params: { trackingNumber },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    const post = await callRoute(trackApiAction, `/api/tracking/track/${trackingNumber}`, {
      method: 'POST',
      params: { trackingNumber },
      body: {},
    });
    expect(post.status).toBe(405);
  });
});

describe('/track page loader', () => {
  it('renders nothing to look up without a number', async () => {
    const res = await callRoute(trackPage, '/track');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ number: '', result: null, error: null });
  });

  it('asks for a number when the box was empty, without a lookup', async () => {
    const address = uniqueAddress();
    const res = await callRoute(trackPage, '/track?number=%20%20', { clientAddress: address });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('Please enter a tracking number');
  });

  it('finds a parcel and says when a number is unknown', async () => {
    const found = await callRoute(trackPage, `/track?number=${trackingNumber.toLowerCase()}`, {
      clientAddress: uniqueAddress(),
    });
    expect(found.status).toBe(200);
    expect((await found.json()).result.parcel.trackingNumber).toBe(trackingNumber);
    const missing = await callRoute(trackPage, '/track?number=QQQ111111111', {
      clientAddress: uniqueAddress(),
    });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe('Tracking number not found');
  });

  it('shares the per-address limit with the API and says so on the page', async () => {
    const address = uniqueAddress();
    let last: Response | undefined;
    for (let i = 0; i < env.RATE_LIMIT_TRACKING_PER_MINUTE + 1; i++) {
      last = await callRoute(trackPage, '/track?number=QQQ111111112', { clientAddress: address });
    }
    expect(last!.status).toBe(429);
    expect(last!.headers.get('retry-after')).toBeTruthy();
    expect((await last!.json()).error).toMatch(/Too many tracking requests/);
  });
});

describe('/track with a malformed number', () => {
  it('explains what a tracking number looks like', async () => {
    for (const typed of ['abc', '12345', 'ABCD123456789', 'SWX12345678']) {
      const res = await callRoute(trackPage, `/track?number=${encodeURIComponent(typed)}`, {
        clientAddress: uniqueAddress(),
      });
      expect(res.status, typed).toBe(400);
      expect((await res.json()).error).toBe(
        'Tracking numbers are three letters and nine digits, like ABC123456789',
      );
    }
  });
});
