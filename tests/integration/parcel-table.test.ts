import { beforeAll, describe, expect, it } from 'vitest';
import { Parcel, type SerializedParcel } from '~/models/parcel.server';
import { type ParcelPagination } from '~/models/parcel-reads.server';
import { loader as apiListLoader } from '~/routes/api.parcels';
import { loader as listLoader } from '~/routes/dashboard.parcels';
import { connectDb } from '~/lib/db.server';
import { createUser } from '../support/factories';

const context = { clientAddress: '10.1.2.3' };
let cookie = '';
let token = '';
const TAG = 'TBL';

type ListData = {
  parcels: SerializedParcel[];
  pagination: ParcelPagination;
  sort: string;
  order: string;
  limit: number;
  canEdit: boolean;
};

beforeAll(async () => {
  await connectDb();
  ({ cookie, token } = await createUser('staff', { username: 'table-staff' }));
  // 120 parcels: recipients Recipient 000..119, cities cycling through five, created a minute apart.
  const cities = ['Austin', 'Boston', 'Chicago', 'Denver', 'El Paso'];
  const start = Date.UTC(2025, 0, 1);
  await Parcel.insertMany(
    Array.from({ length: 120 }, (_, i) => ({
      trackingNumber: `${TAG}${String(i).padStart(9, '0')}`,
      sender: { name: `Table Sender ${i}` },
      recipient: { name: `Table Recipient ${String(i).padStart(3, '0')}`, address: `${i} Row St` },
      destinations: [{ name: 'Stop', address: `${i} Row St`, city: cities[i % 5] }],
      serviceType: i % 2 ? 'Express' : 'Standard',
      createdAt: new Date(start + i * 60_000),
      estimatedDelivery: new Date(start + (120 - i) * 86_400_000),
    })),
  );
});

async function page(query: string) {
  const res = await listLoader({
    request: new Request(`http://localhost/dashboard/parcels${query}`, {
      headers: { Cookie: cookie },
    }),
    params: {},
    context,
  } as never).catch((thrown: unknown) => thrown as Response);
  return res as Response;
}

async function data(query: string): Promise<ListData> {
  const res = await page(query);
  expect(res.status).toBe(200);
  return res.json();
}

const numbers = (d: ListData) => d.parcels.map((p) => p.trackingNumber);

describe('the parcel table', () => {
  it('shows 50 rows by default, newest first, and 25 or 100 when asked', async () => {
    const first = await data(`?search=${TAG}`);
    expect(first.parcels).toHaveLength(50);
    expect(first.limit).toBe(50);
    expect(first.pagination).toEqual({ totalItems: 120, currentPage: 1, totalPages: 3, limit: 50 });
    expect(numbers(first)[0]).toBe(`${TAG}000000119`);
    expect(first.sort).toBe('createdAt');
    expect(first.order).toBe('desc');

    expect((await data(`?search=${TAG}&limit=25`)).parcels).toHaveLength(25);
    const hundred = await data(`?search=${TAG}&limit=100&page=2`);
    expect(hundred.parcels).toHaveLength(20);
    expect(numbers(hundred).at(-1)).toBe(`${TAG}000000000`);
    // Anything else is the default.
    expect((await data(`?search=${TAG}&limit=7`)).limit).toBe(50);
    expect((await data(`?search=${TAG}&limit=1000`)).limit).toBe(50);
  });

  it('sorts by a column through the URL, both ways, with stable pages', async () => {
    const up = await data(`?search=${TAG}&sort=recipient&order=asc&limit=25`);
    expect(up.parcels[0]!.recipient.name).toBe('Table Recipient 000');
    expect(up.parcels[24]!.recipient.name).toBe('Table Recipient 024');
    const down = await data(`?search=${TAG}&sort=recipient&order=desc&limit=25&page=2`);
    expect(down.parcels[0]!.recipient.name).toBe('Table Recipient 094');

    const byCity = await data(`?search=${TAG}&sort=city&limit=100`);
    expect(byCity.order).toBe('asc');
    const cities = byCity.parcels.map((p) => p.destinations[0]!.city);
    expect(cities.slice(0, 24).every((c) => c === 'Austin')).toBe(true);
    expect(cities).toEqual([...cities].sort());

    const byEta = await data(`?search=${TAG}&sort=estimatedDelivery&order=asc`);
    expect(numbers(byEta)[0]).toBe(`${TAG}000000119`);

    const byService = await data(`?search=${TAG}&sort=service&order=desc&limit=100`);
    expect(byService.parcels.slice(0, 60).every((p) => p.serviceType === 'Standard')).toBe(true);

    // An unknown column or order falls back to newest first.
    const bad = await data(`?search=${TAG}&sort=password&order=sideways`);
    expect(bad.sort).toBe('createdAt');
    expect(numbers(bad)[0]).toBe(`${TAG}000000119`);
  });

  it('sends a page past the end to the last page, keeping the filters', async () => {
    const res = await page(`?search=${TAG}&sort=recipient&page=99`);
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe(
      `/dashboard/parcels?search=${TAG}&sort=recipient&page=3`,
    );
    const fewer = await page(`?search=${TAG}&limit=100&page=3`);
    expect(fewer.headers.get('Location')).toBe(`/dashboard/parcels?search=${TAG}&limit=100&page=2`);
    // Nothing matches: page 1, where the empty state is.
    const none = await page('?search=no-such-parcel-anywhere&page=4');
    expect(none.headers.get('Location')).toBe('/dashboard/parcels?search=no-such-parcel-anywhere');
    const last = await data(`?search=${TAG}&page=3`);
    expect(last.parcels).toHaveLength(20);
  });

  it('the API sorts the same way and keeps its limit rules', async () => {
    const res = await apiListLoader({
      request: new Request(
        `http://localhost/api/parcels?search=${TAG}&sort=recipient&order=desc&limit=3`,
        { headers: { Authorization: `Bearer ${token}` } },
      ),
      params: {},
      context,
    } as never);
    const body = (await res.json()) as ListData;
    expect(body.parcels.map((p) => p.recipient.name)).toEqual([
      'Table Recipient 119',
      'Table Recipient 118',
      'Table Recipient 117',
    ]);
    const bad = await apiListLoader({
      request: new Request(`http://localhost/api/parcels?sort=password&limit=101`, {
        headers: { Authorization: `Bearer ${token}` },
      }),
      params: {},
      context,
    } as never);
    expect(bad.status).toBe(400);
    const error = (await bad.json()) as { details: Record<string, string[]> };
    expect(Object.keys(error.details).sort()).toEqual(['limit', 'sort']);
  });
});
