import { beforeAll, describe, expect, it } from 'vitest';
import { loader as notificationLoader } from '~/routes/dashboard.notifications.new';
import { loader as receiptLoader } from '~/routes/dashboard.receipts.new';
import { loader as trackingLoader } from '~/routes/dashboard.tracking';
import { connectDb } from '~/lib/db.server';
import { createParcelSeries, createUser } from '../support/factories';

let cookie = '';
const OLDEST = 'OLD000000000';

beforeAll(async () => {
  await connectDb();
  ({ cookie } = await createUser('staff', { username: 'picker' }));
  await createParcelSeries(110, {
    prefix: 'PCK',
    street: 'Pick St',
    oldest: { trackingNumber: OLDEST, sender: 'Olive Oldest', recipient: 'Demo Recipient' },
  });
});

type PickerData = {
  parcels: Array<{ id: string; trackingNumber: string }>;
  picker: { search: string; shown: number; truncated: boolean };
  values: { parcelId: string };
};

async function load(loader: unknown, path: string): Promise<PickerData> {
  const res = await (loader as (args: unknown) => Promise<Response>)({
    request: new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe('parcel pickers search every parcel on the server', () => {
  it('Send Notification: the newest 50 without a search, says there are more, and finds the oldest', async () => {
    const first = await load(notificationLoader, '/dashboard/notifications/new');
    expect(first.parcels).toHaveLength(50);
    expect(first.picker).toEqual({ search: '', shown: 50, truncated: true });
    expect(first.parcels.map((p) => p.trackingNumber)).not.toContain(OLDEST);

    for (const search of ['old000', 'olive oldest', 'Demo Recipient']) {
      const found = await load(
        notificationLoader,
        `/dashboard/notifications/new?${new URLSearchParams({ parcelSearch: search })}`,
      );
      expect(found.parcels.map((p) => p.trackingNumber)).toEqual([OLDEST]);
      expect(found.picker).toEqual({ search, shown: 1, truncated: false });
    }
    const none = await load(notificationLoader, '/dashboard/notifications/new?parcelSearch=zzz(');
    expect(none.parcels).toEqual([]);
  });

  it('Generate Receipt: the newest 100, and the oldest by search, kept chosen while searching', async () => {
    const first = await load(receiptLoader, '/dashboard/receipts/new');
    expect(first.parcels).toHaveLength(100);
    expect(first.picker.truncated).toBe(true);
    const found = await load(receiptLoader, '/dashboard/receipts/new?parcelSearch=Olive');
    expect(found.parcels.map((p) => p.trackingNumber)).toEqual([OLDEST]);

    const chosen = found.parcels[0]!.id;
    const other = await load(
      receiptLoader,
      `/dashboard/receipts/new?parcelSearch=PCK000000109&parcelId=${chosen}`,
    );
    expect(other.values.parcelId).toBe(chosen);
    expect(other.parcels.map((p) => p.trackingNumber).sort()).toEqual([OLDEST, 'PCK000000109']);
  });

  it('Tracking: says when the list stops at 100 and finds the oldest by search', async () => {
    const first = (await load(trackingLoader, '/dashboard/tracking')) as unknown as {
      parcels: unknown[];
      truncated: boolean;
    };
    expect(first.parcels).toHaveLength(100);
    expect(first.truncated).toBe(true);
    const found = (await load(trackingLoader, '/dashboard/tracking?search=Olive')) as unknown as {
      parcels: Array<{ trackingNumber: string }>;
      truncated: boolean;
    };
    expect(found.parcels.map((p) => p.trackingNumber)).toEqual([OLDEST]);
    expect(found.truncated).toBe(false);
  });
});
