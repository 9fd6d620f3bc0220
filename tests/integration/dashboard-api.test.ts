import { beforeAll, describe, expect, it } from 'vitest';
import { getDashboardStats, monthBounds, monthChange } from '~/models/dashboard.server';
import { Parcel } from '~/models/parcel.server';
import { loader as recentParcelsApi } from '~/routes/api.dashboard.recent-parcels';
import { loader as recentTrackingApi } from '~/routes/api.dashboard.recent-tracking';
import { loader as statsApi } from '~/routes/api.dashboard.stats';
import { loader as overviewLoader } from '~/routes/dashboard._index';
import { action as loginPageAction } from '~/routes/management.access';
import type { ParcelStatus } from '~/schemas/constants';
import { connectDb } from '~/lib/db.server';
import { createUser } from '../support/factories';

const PASSWORD = 'dashboard-password';
let token = '';

async function get(
  handler: unknown,
  url: string,
  headers: Record<string, string> = { authorization: `Bearer ${token}` },
) {
  try {
    return await (handler as (args: unknown) => Promise<Response>)({
      request: new Request(new URL(url, 'http://localhost'), { headers }),
      params: {},
      context: { clientAddress: '10.9.9.9' },
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const HOUR = 60 * 60 * 1000;
const now = new Date();
const { thisMonthStart, lastMonthStart } = monthBounds(now);
const at = (base: Date, hours: number) => new Date(base.getTime() + hours * HOUR);

type Seed = {
  key: string;
  status: ParcelStatus;
  cost: number;
  createdAt: Date;
  events?: Array<{ status: string; ago: number; location?: string }>;
};

// Three parcels this month, two last month, two older.
const seeds: Seed[] = [
  {
    key: 'A',
    status: 'Pending',
    cost: 10,
    createdAt: at(thisMonthStart, 3),
    events: [{ status: 'In Transit', ago: 1 * HOUR, location: 'Denver, CO' }],
  },
  {
    key: 'B',
    status: 'Delivered',
    cost: 20,
    createdAt: at(thisMonthStart, 2),
    events: [
      { status: 'Delivered', ago: 10 * 60 * 1000, location: 'Austin, TX' },
      { status: 'Out for Delivery', ago: 5 * HOUR },
    ],
  },
  {
    key: 'C',
    status: 'In Transit',
    cost: 30.5,
    createdAt: at(thisMonthStart, 1),
    events: [{ status: 'Departed Facility', ago: 48 * HOUR }],
  },
  {
    key: 'D',
    status: 'Delivered',
    cost: 40,
    createdAt: at(lastMonthStart, 26),
    events: [{ status: 'Delivered', ago: 20 * 24 * HOUR }],
  },
  { key: 'E', status: 'Failed', cost: 5, createdAt: at(lastMonthStart, 25) },
  { key: 'F', status: 'Returned', cost: 100, createdAt: at(lastMonthStart, -240) },
  { key: 'G', status: 'Out for Delivery', cost: 1.25, createdAt: at(lastMonthStart, -241) },
];
const trackingNumbers: Record<string, string> = {};
const ids: Record<string, string> = {};

describe('dashboard API', () => {
  beforeAll(async () => {
    await connectDb();
    ({ token } = await createUser('staff', { username: 'dash', password: PASSWORD }));
  });

  it('reports zeros and no changes on an empty database', async () => {
    const res = await get(statsApi, '/api/dashboard/stats');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      totalParcels: 0,
      activeParcels: 0,
      deliveredParcels: 0,
      totalRevenue: 0,
    });
    expect(body.changes.totalParcels).toEqual({
      thisMonth: 0,
      lastMonth: 0,
      percent: null,
      label: '—',
    });
    const events = await get(recentTrackingApi, '/api/dashboard/recent-tracking');
    expect(await events.json()).toEqual({ events: [] });
  });

  it('seeds parcels', async () => {
    for (const [i, seed] of seeds.entries()) {
      const trackingNumber = `DSH${String(100000000 + i)}`;
      const doc = await Parcel.create({
        trackingNumber,
        status: seed.status,
        cost: seed.cost,
        recipient: { name: `Recipient ${seed.key}` },
        events: (seed.events ?? []).map((e) => ({
          status: e.status,
          location: e.location ?? '',
          description: `${e.status} (${seed.key})`,
          timestamp: new Date(now.getTime() - e.ago),
        })),
      });
      // createdAt is immutable through mongoose; set the test's dates directly.
      await Parcel.collection.updateOne({ _id: doc._id }, { $set: { createdAt: seed.createdAt } });
      trackingNumbers[seed.key] = trackingNumber;
      ids[seed.key] = String(doc._id);
    }
    expect(await Parcel.countDocuments()).toBe(seeds.length);
  });

  /** A figure's change against last month, as the stats answer it. */
  const change = (thisMonth: number, lastMonth: number, percent: number | null, label: string) => ({
    thisMonth,
    lastMonth,
    percent,
    label,
  });

  it('computes the figures and their change against last month', async () => {
    const res = await get(statsApi, '/api/dashboard/stats');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.totalParcels).toBe(7);
    expect(body.activeParcels).toBe(3); // A (Pending), C (In Transit), G (Out for Delivery)
    expect(body.deliveredParcels).toBe(2);
    expect(body.totalRevenue).toBe(206.75);
    expect(body.changes).toEqual({
      totalParcels: change(3, 2, 50, '+50%'),
      activeParcels: change(2, 0, null, 'New'),
      deliveredParcels: change(1, 1, 0, '0%'),
      totalRevenue: change(60.5, 45, 34, '+34%'),
    });
  });

  it('compares calendar months: a month later this month becomes last month', async () => {
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15));
    const stats = await getDashboardStats({ now: nextMonth });
    expect(stats.totalParcels).toBe(7);
    expect(stats.changes.totalParcels).toEqual(change(0, 3, -100, '-100%'));
    expect(stats.changes.deliveredParcels.label).toBe('-100%');
  });

  it('lists recent parcels newest first with a default of 5 and a limit', async () => {
    const res = await get(recentParcelsApi, '/api/dashboard/recent-parcels');
    expect(res.status).toBe(200);
    const { parcels } = await res.json();
    expect(parcels.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual(
      ['A', 'B', 'C', 'D', 'E'].map((k) => trackingNumbers[k]),
    );
    expect(parcels[0]).toMatchObject({ id: ids.A, _id: ids.A, status: 'Pending', cost: 10 });
    expect(parcels[0].createdAt).toBe(seeds[0]!.createdAt.toISOString());

    const two = await (await get(recentParcelsApi, '/api/dashboard/recent-parcels?limit=2')).json();
    expect(two.parcels).toHaveLength(2);
    const all = await (
      await get(recentParcelsApi, '/api/dashboard/recent-parcels?limit=100')
    ).json();
    expect(all.parcels).toHaveLength(7);
  });

  it('lists the newest tracking events across parcels', async () => {
    const res = await get(recentTrackingApi, '/api/dashboard/recent-tracking');
    expect(res.status).toBe(200);
    const { events } = await res.json();
    expect(
      events.map((e: { status: string; trackingNumber: string }) => [e.status, e.trackingNumber]),
    ).toEqual([
      ['Delivered', trackingNumbers.B],
      ['In Transit', trackingNumbers.A],
      ['Out for Delivery', trackingNumbers.B],
      ['Departed Facility', trackingNumbers.C],
      ['Delivered', trackingNumbers.D],
    ]);
    expect(events[0]).toMatchObject({
      status: 'Delivered',
      location: 'Austin, TX',
      description: 'Delivered (B)',
      parcelId: ids.B,
      trackingNumber: trackingNumbers.B,
    });
    expect(events[0].id).toMatch(/^[a-f\d]{24}$/);
    expect(events[0].id).toBe(events[0]._id);
    expect(new Date(events[0].timestamp).getTime()).toBe(now.getTime() - 10 * 60 * 1000);

    const limited = await (
      await get(recentTrackingApi, '/api/dashboard/recent-tracking?limit=2')
    ).json();
    expect(limited.events.map((e: { status: string }) => e.status)).toEqual([
      'Delivered',
      'In Transit',
    ]);
  });

  it('refuses requests without a valid token', async () => {
    for (const handler of [statsApi, recentParcelsApi, recentTrackingApi]) {
      const none = await get(handler, '/api/dashboard/x', {});
      expect(none.status).toBe(401);
      expect((await none.json()).error).toBeTruthy();
      const bad = await get(handler, '/api/dashboard/x', { authorization: 'Bearer nope' });
      expect(bad.status).toBe(401);
    }
  });

  it("refuses a courier the office's figures (403), as the Overview page does", async () => {
    const { token: courier } = await createUser('courier', { username: 'dash-courier' });
    const refused = await get(statsApi, '/api/dashboard/stats', {
      authorization: `Bearer ${courier}`,
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'forbidden' });
  });

  it('refuses a bad limit with 400', async () => {
    for (const limit of ['0', '-1', '101', 'abc', '2.5', '']) {
      for (const [handler, path] of [
        [recentParcelsApi, 'recent-parcels'],
        [recentTrackingApi, 'recent-tracking'],
      ] as const) {
        const res = await get(handler, `/api/dashboard/${path}?limit=${limit}`);
        expect(res.status, `${path} limit=${limit}`).toBe(400);
        const body = await res.json();
        expect(body.error).toBe('Validation failed');
        expect(body.details.limit).toBeDefined();
      }
    }
  });

  it('feeds the Overview page with the same figures and the five newest events', async () => {
    const login = await loginPageAction({
      request: new Request('http://localhost/management/access', {
        method: 'POST',
        body: new URLSearchParams({ username: 'dash', password: PASSWORD }),
      }),
      params: {},
      context: { clientAddress: '10.9.9.8' },
    } as never);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const res = await get(overviewLoader, '/dashboard', { cookie });
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data.stats).toMatchObject({
      totalParcels: 7,
      activeParcels: 3,
      deliveredParcels: 2,
      totalRevenue: 206.75,
    });
    expect(data.stats.changes.totalParcels.label).toBe('+50%');
    expect(data.activity).toHaveLength(5);
    expect(data.activity[0].trackingNumber).toBe(trackingNumbers.B);

    const signedOut = await get(overviewLoader, '/dashboard', {});
    expect(signedOut.status).toBe(302);
  });
});

describe('monthChange and monthBounds', () => {
  it('gives signed whole percentages, New without a base, and — when both are zero', () => {
    expect(monthChange(3, 4).label).toBe('-25%');
    expect(monthChange(5, 4).label).toBe('+25%');
    expect(monthChange(1, 3)).toEqual({ thisMonth: 1, lastMonth: 3, percent: -67, label: '-67%' });
    expect(monthChange(1000, 1001).label).toBe('0%');
    expect(monthChange(2, 0).label).toBe('New');
    expect(monthChange(0, 0).label).toBe('—');
  });

  it('uses UTC calendar months, across a year boundary', () => {
    const { thisMonthStart: start, lastMonthStart: previous } = monthBounds(
      new Date('2025-01-15T10:00:00Z'),
    );
    expect(start.toISOString()).toBe('2025-01-01T00:00:00.000Z');
    expect(previous.toISOString()).toBe('2024-12-01T00:00:00.000Z');
  });
});
