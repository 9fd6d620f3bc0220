import { beforeAll, describe, expect, it } from 'vitest';
import { loader } from '~/routes/dashboard.parcels.options';
import { connectDb } from '~/lib/db.server';
import { callRoute } from '../support/api';
import { createParcelSeries, createUser } from '../support/factories';

const OLDEST = 'OPT000000000';
let viewer = '';

type Options = {
  parcels: Array<{
    id: string;
    trackingNumber: string;
    senderName: string;
    recipientName: string;
    status: string;
  }>;
  truncated: boolean;
};

async function options(query: string, cookie: string | null = viewer) {
  return callRoute(loader, `/dashboard/parcels/options${query}`, {
    headers: cookie ? { Cookie: cookie } : {},
  });
}

async function found(query: string): Promise<Options> {
  const res = await options(query);
  expect(res.status).toBe(200);
  return res.json();
}

beforeAll(async () => {
  await connectDb();
  ({ cookie: viewer } = await createUser('viewer', { username: 'options-viewer' }));
  await createParcelSeries(120, {
    prefix: 'OPS',
    street: 'Option St',
    oldest: {
      trackingNumber: OLDEST,
      sender: 'Odile Oldest',
      recipient: 'Ursula Underneath',
      status: 'In Transit',
    },
  });
});

describe('GET /dashboard/parcels/options', () => {
  it('offers the newest 20 without a search, and says there are more', async () => {
    const res = await options('');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const body = (await res.json()) as Options;
    expect(body.truncated).toBe(true);
    expect(body.parcels.map((p) => p.trackingNumber)).toEqual(
      Array.from({ length: 20 }, (_, i) => `OPS${String(119 - i).padStart(9, '0')}`),
    );
  });

  it('finds a parcel older than the newest 100 by tracking number, sender or recipient', async () => {
    for (const search of ['opt0000', 'odile oldest', 'Underneath', '  URSULA  ']) {
      const body = await found(`?${new URLSearchParams({ search })}`);
      expect(body.truncated).toBe(false);
      expect(body.parcels).toHaveLength(1);
      expect(body.parcels[0]).toMatchObject({
        trackingNumber: OLDEST,
        senderName: 'Odile Oldest',
        recipientName: 'Ursula Underneath',
        status: 'In Transit',
      });
    }
    const many = await found('?search=Recipient%201');
    // Recipient 1, 10–19 and 100–119: more than 20, the newest first.
    expect(many.truncated).toBe(true);
    expect(many.parcels[0]!.recipientName).toBe('Recipient 119');
  });

  it('takes what is typed literally, and answers hostile input without a server error', async () => {
    expect((await found('?search=.*')).parcels).toEqual([]);
    expect((await found('?search=%00')).parcels).toEqual([]);
    expect((await found(`?search=${encodeURIComponent('a\u0000(b')}`)).parcels).toEqual([]);

    const long = await options(`?search=${'x'.repeat(100_000)}`);
    expect(long.status).toBe(400);
    expect(await long.json()).toMatchObject({
      error: 'Validation failed',
      details: { search: ['Search must be at most 100 characters'] },
    });
    const repeated = await options('?search=Odile&search=Ursula');
    expect(repeated.status).toBeLessThan(500);
  });

  it('needs a signed-in user', async () => {
    const res = await options('?search=Odile', null);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/management\/access\?redirectTo=/);
  });
});
