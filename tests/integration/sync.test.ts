import { beforeAll, describe, expect, it } from 'vitest';
import { withChange } from '~/lib/changes.server';
import { connectDb } from '~/lib/db.server';
import { Parcel } from '~/models/parcel.server';
import { loader as parcelsLoader } from '~/routes/api.parcels';
import { action as importAction } from '~/routes/api.parcels.import';
import { loader as eventsLoader } from '~/routes/api.tracking.$parcelId.events';
import { loader as notificationsLoader } from '~/routes/api.notifications';
import { loader as receiptsLoader } from '~/routes/api.receipts';
import { markNotificationFailed } from '~/models/notification.server';
import { createNotification, deleteNotification } from '~/services/notifications.server';
import { createParcel, deleteParcel, updateParcel } from '~/services/parcels.server';
import { deleteReceipt, generateReceipt } from '~/services/receipts.server';
import { addEvent, deleteEvent, updateEvent } from '~/services/tracking-events.server';
import { callRoute } from '../support/api';
import { createUsers, type TestUser } from '../support/factories';

/**
 * A client that keeps a copy of a list by following nextCursor, while others write: it must end
 * with exactly what is stored, having been handed each change once, deletions included.
 */

let staff: TestUser;
let viewer: TestUser;

beforeAll(async () => {
  await connectDb();
  ({ staff, viewer } = await createUsers(['staff', 'viewer'], 'sync'));
});

type Item = { id: string; deleted?: true; updatedAt?: string; weight?: number };
type Page = { items: Item[]; nextCursor: string; hasMore: boolean };

const START = '2000-01-01T00:00:00Z';

/** One page of a sync of `list` (its key in the answer), from `position` on. */
async function page(
  loader: unknown,
  path: string,
  key: string,
  position: { cursor?: string; limit?: number; params?: Record<string, string> } = {},
): Promise<Page> {
  const query = new URLSearchParams({ limit: String(position.limit ?? 100) });
  if (position.cursor) query.set('cursor', position.cursor);
  else query.set('updatedSince', START);
  const res = await callRoute(loader, `${path}?${query}`, {
    token: viewer.token,
    params: position.params,
  });
  expect(res.status).toBe(200);
  const body = await res.json();
  return { items: body[key], nextCursor: body.nextCursor, hasMore: body.hasMore };
}

/** A copy kept by a sync client, which counts what it was handed twice. */
class SyncClient {
  copy = new Map<string, Item>();
  seen = new Set<string>();
  repeats: string[] = [];
  cursor: string | undefined;

  constructor(
    private loader: unknown,
    private path: string,
    private key: string,
    private params?: Record<string, string>,
  ) {}

  /** One page: applies it to the copy; true when more are ready. */
  async step(limit = 100): Promise<boolean> {
    const got = await page(this.loader, this.path, this.key, {
      cursor: this.cursor,
      limit,
      params: this.params,
    });
    for (const item of got.items) {
      const change = JSON.stringify(item);
      if (this.seen.has(change)) this.repeats.push(change);
      this.seen.add(change);
      if (item.deleted) this.copy.delete(item.id);
      else this.copy.set(item.id, item);
    }
    this.cursor = got.nextCursor;
    return got.hasMore;
  }

  /** Pages until nothing more is ready. */
  async catchUp(limit = 100) {
    while (await this.step(limit));
  }
}

const parcelInput = (name: string) =>
  ({
    sender: { name: `${name} Sender`, email: '', phone: '', address: '1 Dock Rd' },
    recipient: { name, email: '', phone: '', address: '2 High St' },
    destinations: [],
    weight: 1,
  }) as never;

function csvOf(rows: number, prefix: string) {
  const lines = ['recipientName,recipientAddress,weight'];
  for (let i = 0; i < rows; i++) lines.push(`${prefix} ${i},${i} Import Way,${(i % 7) + 1}`);
  return `${lines.join('\n')}\n`;
}

/** Imports `count` parcels named after `name` through the API, as the staff user. */
async function importCsv(count: number, name: string) {
  const res = await callRoute(importAction, '/api/parcels/import', {
    method: 'POST',
    token: staff.token,
    headers: { 'Content-Type': 'text/csv' },
    body: csvOf(count, name),
  });
  expect(res.status).toBe(200);
}

describe('a sync that follows nextCursor', () => {
  it('sees every change once, deletions included, while writers run and an import writes 150 parcels in one instant', async () => {
    const hot = await createParcel(parcelInput('Hot Parcel'));
    const parcels = new SyncClient(parcelsLoader, '/api/parcels', 'parcels');
    const events = new SyncClient(eventsLoader, `/api/tracking/${hot.id}/events`, 'events', {
      parcelId: hot.id,
    });
    let writing = true;

    const creator = async () => {
      for (let i = 0; i < 30; i++) {
        const parcel = await createParcel(parcelInput(`Writer ${i}`));
        await updateParcel(parcel.id, { weight: 10 + i } as never);
        if (i % 3 === 0) await deleteParcel(parcel.id);
      }
    };
    const editor = async () => {
      const ids: string[] = [];
      for (let i = 0; i < 20; i++) {
        const event = await addEvent(hot.id, {
          status: 'In Transit',
          location: `Hub ${i}`,
          description: '',
        });
        ids.push(event!.id);
        if (i % 2 === 1) await updateEvent(ids[i - 1]!, { description: `Sorted ${i}` });
        if (i % 4 === 3) await deleteEvent(ids[i - 3]!);
        await updateParcel(hot.id, { weight: 100 + i } as never);
      }
    };
    const importer = async () => {
      await importCsv(150, 'Imported');
    };
    const reader = async () => {
      // Small pages, so the client is often between two writes.
      while (writing) {
        await parcels.step(25);
        await events.step(5);
      }
    };

    const readerDone = reader();
    await Promise.all([creator(), editor(), importer()]);
    writing = false;
    await readerDone;
    await parcels.catchUp(25);
    await events.catchUp(5);

    const stored = await Parcel.find({}, { updatedAt: 1, weight: 1 }).lean();
    expect(parcels.copy.size).toBe(stored.length);
    for (const doc of stored) {
      const copy = parcels.copy.get(String(doc._id));
      expect(copy, `parcel ${doc._id} is missing`).toBeDefined();
      expect(copy!.updatedAt).toBe(doc.updatedAt!.toISOString());
      expect(copy!.weight).toBe(doc.weight);
    }
    expect(parcels.repeats).toEqual([]);

    const storedEvents = (await Parcel.findById(hot.id, { events: 1 }).lean())!.events;
    expect([...events.copy.keys()].sort()).toEqual(storedEvents.map((e) => String(e._id)).sort());
    for (const event of storedEvents)
      expect(events.copy.get(String(event._id))!.updatedAt).toBe(
        (event.updatedAt ?? event.createdAt)!.toISOString(),
      );
    expect(events.repeats).toEqual([]);

    // Caught up, a sync asked again gets nothing until something changes.
    expect(
      (await page(parcelsLoader, '/api/parcels', 'parcels', { cursor: parcels.cursor })).items,
    ).toEqual([]);
  });

  it('never passes a change still being written: what committed after it waits for it', async () => {
    const a = await createParcel(parcelInput('Slow Writer'));
    const b = await createParcel(parcelInput('Fast Writer'));
    const client = new SyncClient(parcelsLoader, '/api/parcels', 'parcels');
    await client.catchUp();

    // A's change takes its number first and is still being written when B's commits.
    let finish: () => void = () => {};
    const held = new Promise<void>((resolve) => (finish = resolve));
    const slow = withChange(async (changeSeq) => {
      await held;
      await Parcel.updateOne({ _id: a.id }, { $set: { weight: 7, changeSeq } });
    });
    await updateParcel(b.id, { weight: 8 } as never);
    await client.catchUp();
    expect(client.copy.get(b.id)!.weight).toBe(1);

    finish();
    await slow;
    await client.catchUp();
    expect(client.copy.get(a.id)!.weight).toBe(7);
    expect(client.copy.get(b.id)!.weight).toBe(8);
  });

  it('pages through many changes of one instant, and page numbers still serve people', async () => {
    const before = new Date().toISOString();
    await importCsv(150, 'Same Instant');
    const list = (query: string) =>
      callRoute(parcelsLoader, `/api/parcels?${query}`, { token: viewer.token }).then((r) =>
        r.json(),
      );
    const since = `updatedSince=${encodeURIComponent(before)}&limit=100`;
    const first = await list(since);
    expect(first.parcels).toHaveLength(100);
    expect(first.pagination).toMatchObject({ totalItems: 150, totalPages: 2, currentPage: 1 });
    expect(first.hasMore).toBe(true);
    const next = await list(`cursor=${first.nextCursor}&limit=100`);
    expect(next.parcels).toHaveLength(50);
    expect(next.hasMore).toBe(false);
    const both = [...first.parcels, ...next.parcels].map((p: Item) => p.id);
    expect(new Set(both).size).toBe(150);
    // The same by page numbers, for people.
    const second = await list(`${since}&page=2`);
    expect(second.parcels.map((p: Item) => p.id)).toEqual(next.parcels.map((p: Item) => p.id));
  });

  it('lists deleted notifications and receipts too, and refuses a cursor it did not give', async () => {
    const parcel = await createParcel(parcelInput('Paper Trail'));
    const notifications = new SyncClient(
      notificationsLoader,
      '/api/notifications',
      'notifications',
    );
    const receipts = new SyncClient(receiptsLoader, '/api/receipts', 'receipts');
    const notification = await createNotification({
      type: 'Custom',
      recipient: 'ada@example.com',
      title: 'Hello',
      message: 'About your parcel',
      trackingNumber: parcel.trackingNumber,
    });
    const receipt = (await generateReceipt(parcel.id))!;
    await notifications.catchUp();
    await receipts.catchUp();
    expect(notifications.copy.has(notification.id)).toBe(true);
    expect(receipts.copy.has(receipt.id)).toBe(true);

    await markNotificationFailed(notification.id, 'Mailbox full');
    await deleteNotification(notification.id);
    await deleteReceipt(receipt.id);
    const deletions = (client: SyncClient) =>
      [...client.seen].filter((c) => c.includes('"deleted":true'));
    await notifications.catchUp();
    await receipts.catchUp();
    expect(notifications.copy.has(notification.id)).toBe(false);
    expect(receipts.copy.has(receipt.id)).toBe(false);
    expect(deletions(notifications).map((c) => JSON.parse(c))).toEqual([
      { id: notification.id, _id: notification.id, deleted: true, deletedAt: expect.any(String) },
    ]);
    expect(deletions(receipts)).toHaveLength(1);

    const parcelsCursor = (await page(parcelsLoader, '/api/parcels', 'parcels')).nextCursor;
    for (const cursor of ['not-a-cursor', parcelsCursor, 'eyJsIjoicGFyY2VscyJ9']) {
      const res = await callRoute(notificationsLoader, `/api/notifications?cursor=${cursor}`, {
        token: viewer.token,
      });
      expect(res.status).toBe(400);
      expect((await res.json()).details).toEqual({
        cursor: ['cursor must be the nextCursor of an earlier answer of this list'],
      });
    }
  });
});
