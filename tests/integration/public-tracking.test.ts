import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertWithTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { Parcel } from '~/models/parcel.server';
import {
  loader as trackApi,
  action as trackApiAction,
} from '~/routes/api.tracking.track.$trackingNumber';
import { loader as batchApiLoader, action as batchApi } from '~/routes/api.tracking.track';
import { loader as trackPage } from '~/routes/_public.track';
import { trackingLimiter } from '~/services/public-tracking.server';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { callRoute, uniqueAddress } from '../support/api';

let trackingNumber = '';
let secondNumber = '';

beforeAll(async () => {
  await connectDb();
  const second = await insertWithTrackingNumber((tn) =>
    Parcel.create({
      trackingNumber: tn,
      recipient: { name: 'Sam Poe', address: '3 Oak Ave, Ogdenville' },
      serviceType: 'Standard',
      status: 'Pending',
      estimatedDelivery: new Date('2030-02-01T12:00:00Z'),
    }),
  );
  secondNumber = second.trackingNumber;
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
          timeZone: 'America/Chicago',
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
        // The street is never public: the town is (a directory gives a street's postcode).
        recipient: { name: 'Jane Roe', address: 'Shelbyville' },
        sender: { address: '1 Main St, Springfield' },
        serviceType: 'Express',
        estimatedDelivery: '2030-01-05T12:00:00.000Z',
        // Express's rule: by noon in the recipient's zone (here the company's) on the estimated day.
        deliveryWindow: { from: null, until: '2030-01-05T17:00:00.000Z' },
        actualDelivery: null,
        updatedAt: expect.any(String),
        timeZone: 'America/New_York',
        requestedDate: null,
        holdAtDepot: false,
      },
      events: [
        expect.objectContaining({
          status: 'In Transit',
          location: 'Capital City',
          timestamp: '2030-01-02T10:00:00.000Z',
          timeZone: 'America/Chicago',
        }),
        // Stored without a zone: the company's.
        expect.objectContaining({
          status: 'Package Picked Up',
          description: 'Picked up',
          timeZone: 'America/New_York',
        }),
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
    expect(await res.json()).toEqual({
      number: '',
      result: null,
      glance: null,
      summaries: null,
      error: null,
      hint: null,
      subscribed: null,
      days: [],
      preferencesSaved: false,
      savedPreferences: null,
      proofAccess: null,
      deliveries: [],
    });
    // The empty page is the layout's public page; a lookup is private.
    expect(res.headers.get('cache-control')).toBeNull();
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
    expect(found.headers.get('cache-control')).toBe('private, no-cache');
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

describe('/track with several numbers', () => {
  it('summarises each number once, in the order given, found or not', async () => {
    const typed = `${trackingNumber.toLowerCase()}, ZZZ000000009\n${secondNumber} ${trackingNumber},abc`;
    const res = await callRoute(trackPage, `/track?number=${encodeURIComponent(typed)}`, {
      clientAddress: uniqueAddress(),
    });
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data.result).toBeNull();
    expect(data.number).toBe(
      `${trackingNumber.toLowerCase()}, ZZZ000000009, ${secondNumber} ${trackingNumber},abc`,
    );
    expect(data.summaries).toEqual([
      {
        trackingNumber,
        found: true,
        status: 'In Transit',
        headline: 'Arriving Saturday, 5 January, by 12 pm EST',
        latestEvent: expect.objectContaining({
          status: 'In Transit',
          location: 'Capital City',
          timestamp: '2030-01-02T10:00:00.000Z',
        }),
      },
      {
        trackingNumber: 'ZZZ000000009',
        found: false,
        error: 'Tracking number not found',
        hint: 'Please check the digits of ZZZ 00000000 9: the last digit, 9, does not match the eight before it, so one of these nine digits is probably mistyped.',
      },
      {
        trackingNumber: secondNumber,
        found: true,
        status: 'Pending',
        headline: 'Arriving Friday, 1 February, by 6 pm EST',
        latestEvent: null,
      },
      {
        trackingNumber: 'ABC',
        found: false,
        error: 'Tracking numbers are three letters and nine digits, like ABC123456789',
        hint: null,
      },
    ]);
  });

  it('takes repeated number parameters as one list', async () => {
    const res = await callRoute(
      trackPage,
      `/track?number=${trackingNumber}&number=${secondNumber}`,
      { clientAddress: uniqueAddress() },
    );
    expect((await res.json()).summaries).toHaveLength(2);
  });

  it('refuses more than 30 numbers with a clear message, looking none up', async () => {
    const numbers = Array.from({ length: 31 }, (_, i) => `QQQ${String(i).padStart(9, '0')}`);
    const address = uniqueAddress();
    const res = await callRoute(trackPage, `/track?number=${numbers.join(',')}`, {
      clientAddress: address,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(
      'You can track up to 30 numbers at once, and 31 were entered. Please track them in smaller groups.',
    );
    expect((await trackingLimiter.peek(address)).remaining).toBe(
      env.RATE_LIMIT_TRACKING_PER_MINUTE,
    );
    // Thirty, even with duplicates on top, are fine.
    const thirty = [...numbers.slice(0, 30), numbers[0]!].join(' ');
    const ok = await callRoute(trackPage, `/track?number=${encodeURIComponent(thirty)}`, {
      clientAddress: uniqueAddress(),
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).summaries).toHaveLength(30);
  });

  it('counts every number against the per-address limit', async () => {
    const address = uniqueAddress();
    await callRoute(trackPage, `/track?number=${trackingNumber},${secondNumber},ZZZ000000008`, {
      clientAddress: address,
    });
    expect((await trackingLimiter.peek(address)).remaining).toBe(
      env.RATE_LIMIT_TRACKING_PER_MINUTE - 3,
    );
  });
});

describe('POST /api/tracking/track', () => {
  const post = (body: unknown, clientAddress = uniqueAddress()) =>
    callRoute(batchApi, '/api/tracking/track', { method: 'POST', body, clientAddress });

  it('answers each number, found or not, in the order given, duplicates once', async () => {
    const res = await post({
      trackingNumbers: [
        trackingNumber,
        'ZZZ000000007',
        ` ${secondNumber.toLowerCase()} `,
        trackingNumber.toLowerCase(),
        'nope',
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = await res.json();
    expect(body.results).toHaveLength(4);
    const [first, missing, second, malformed] = body.results;
    expect(first).toEqual({
      trackingNumber,
      found: true,
      parcel: expect.objectContaining({ trackingNumber, status: 'In Transit' }),
      events: [
        expect.objectContaining({ status: 'In Transit' }),
        expect.objectContaining({ status: 'Package Picked Up' }),
      ],
    });
    expect(missing).toEqual({
      trackingNumber: 'ZZZ000000007',
      found: false,
      error: 'Tracking number not found',
      message: 'Tracking number not found: ZZZ000000007',
      code: 'tracking_number_mistyped',
    });
    expect(second).toMatchObject({ trackingNumber: secondNumber, found: true, events: [] });
    expect(malformed).toMatchObject({
      trackingNumber: 'NOPE',
      found: false,
      error: 'Tracking number not found',
      message: 'Tracking numbers are three letters and nine digits, like ABC123456789',
    });
    // The single lookup's answer for the same number is the same.
    const single = await callRoute(trackApi, `/api/tracking/track/${trackingNumber}`, {
      params: { trackingNumber },
      clientAddress: uniqueAddress(),
    });
    const { parcel, events } = await single.json();
    expect({ parcel: first.parcel, events: first.events }).toEqual({ parcel, events });
    expect(JSON.stringify(body)).not.toMatch(/jane@example\.com|555-0199|25\.99/);
  });

  it('answers 400 for an empty, missing or oversized list', async () => {
    const tooMany = Array.from({ length: 31 }, (_, i) => `QQQ${String(i).padStart(9, '0')}`);
    for (const body of [
      { trackingNumbers: [] },
      { trackingNumbers: ['  '] },
      {},
      { trackingNumbers: 'SWX123456789' },
      { trackingNumbers: tooMany },
    ]) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect((await res.json()).details.trackingNumbers).toBeDefined();
    }
    const notJson = await callRoute(batchApi, '/api/tracking/track', {
      method: 'POST',
      body: 'trackingNumbers=SWX123456789',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(notJson.status).toBe(415);
  });

  it('counts each number against the tracking limit, with 429 past it', async () => {
    const address = uniqueAddress();
    const numbers = Array.from({ length: 30 }, (_, i) => `QQQ${String(i).padStart(9, '0')}`);
    const rounds = Math.ceil(env.RATE_LIMIT_TRACKING_PER_MINUTE / 30);
    const statuses: number[] = [];
    for (let i = 0; i < rounds + 1; i++)
      statuses.push((await post({ trackingNumbers: numbers }, address)).status);
    expect(statuses.at(-1)).toBe(429);
    const refused = await post({ trackingNumbers: [trackingNumber] }, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The single lookup shares the budget.
    const single = await callRoute(trackApi, `/api/tracking/track/${trackingNumber}`, {
      params: { trackingNumber },
      clientAddress: address,
    });
    expect(single.status).toBe(429);
  });

  it('answers a CORS preflight and refuses GET', async () => {
    const preflight = await callRoute(batchApiLoader, '/api/tracking/track', {
      method: 'OPTIONS',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Content-Type');
    const get = await callRoute(batchApiLoader, '/api/tracking/track');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('revalidating a tracking result', () => {
  it('sends an ETag with private, no-cache and answers 304 to it while unchanged', async () => {
    const url = `/api/tracking/track/${trackingNumber}`;
    const call = (headers?: HeadersInit) =>
      callRoute(trackApi, url, {
        params: { trackingNumber },
        clientAddress: uniqueAddress(),
        headers,
      });
    const first = await call();
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(first.headers.get('access-control-expose-headers')).toContain('ETag');

    const again = await call({ 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);

    // A new event changes the answer: a full 200 with a new ETag.
    await Parcel.updateOne(
      { trackingNumber },
      {
        $push: {
          events: {
            status: 'Out for Delivery',
            location: 'Shelbyville',
            timestamp: new Date('2030-01-03T08:00:00Z'),
          },
        },
      },
    );
    const changed = await call({ 'If-None-Match': etag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect((await changed.json()).events[0].status).toBe('Out for Delivery');
  });
});
