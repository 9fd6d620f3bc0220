import { MongoClient, ObjectId, type Collection as Coll, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Collection } from '../../embedded-mongo/collection';
import { startTarget, uniqueDbName, type Target } from './helpers';

// Range filters ($gt, $gte, $lt, $lte) are looked up through an index on their field: each query
// runs on an indexed and an unindexed copy of the same documents and must give the same answer,
// in the same order, through writes made after a lookup.
let target: Target;
let client: MongoClient;
let indexed: Coll<{ _id: number } & Document>;
let plain: Coll<{ _id: number } & Document>;

const day = (n: number) => new Date(Date.UTC(2030, 0, n));
const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));

function docs(): Array<{ _id: number } & Document> {
  const values: unknown[] = [day(1), day(2), day(2), day(3), 1, 2.5, 3, 'a', 'b', true, null];
  return Array.from({ length: 40 }, (_, i) => ({
    _id: i,
    ...(i % 13 === 12 ? {} : { at: values[i % values.length] }),
    n: (i * 7) % 10,
    s: ['x', 'y'][i % 2],
    k: day(i % 5),
    ...(i % 3 === 0 ? { tags: [day(i % 4), i] } : { tags: day(i % 6) }),
    events: [
      { status: i % 2 ? 'ok' : 'failed', at: day(i % 7) },
      { status: 'ok', at: day((i % 7) + 3) },
    ],
    id: oid(i),
  }));
}

beforeAll(async () => {
  target = await startTarget();
  client = await MongoClient.connect(target.uri);
  const db = client.db(uniqueDbName('ranges'));
  indexed = db.collection<{ _id: number } & Document>('indexed');
  plain = db.collection<{ _id: number } & Document>('plain');
  await indexed.insertMany(docs());
  await plain.insertMany(docs());
  await indexed.createIndex({ at: 1 });
  await indexed.createIndex({ n: -1 });
  await indexed.createIndex({ k: 1, s: 1 });
  await indexed.createIndex({ tags: 1 });
  await indexed.createIndex({ 'events.at': -1 });
  await indexed.createIndex({ id: 1 }, { sparse: true });
});

afterAll(async () => {
  await client?.close();
  await target?.stop();
});

const queries: Document[] = [
  { at: { $gte: day(2) } },
  { at: { $gt: day(1), $lt: day(3) } },
  { at: { $gte: day(2), $lte: day(2) } },
  { at: { $lt: 3 } },
  { at: { $gt: 1, $lte: 3 } },
  { at: { $gte: 'a' } },
  { at: { $lt: true } },
  { at: { $gte: day(1), $lt: 5 } },
  { at: { $gte: null } },
  { at: { $lt: null } },
  { at: { $gt: 0, $ne: 3 } },
  { n: { $gt: 2, $lt: 7 } },
  { n: { $gte: 5 } },
  { n: { $lte: 4, $lt: 2 } },
  { k: { $gte: day(2), $lt: day(4) } },
  { k: { $gte: day(2) }, s: 'x' },
  { tags: { $gte: day(1), $lt: day(2) } },
  { tags: { $gt: 10 } },
  { events: { $elemMatch: { status: 'failed', at: { $gte: day(3), $lt: day(5) } } } },
  { 'events.at': { $gte: day(8) } },
  { id: { $gt: oid(30) } },
  { $or: [{ at: { $gte: day(3) } }, { n: { $lt: 1 } }] },
  { $or: [{ at: { $gte: day(3) } }, { s: 'x' }] },
  { $and: [{ s: 'y' }, { n: { $gte: 6 } }] },
];

async function same(query: Document): Promise<void> {
  const expected = await plain.find(query).toArray();
  expect(await indexed.find(query).toArray(), JSON.stringify(query)).toEqual(expected);
  expect(await indexed.countDocuments(query)).toBe(expected.length);
}

describe('range filters over an index', () => {
  it('give the same documents as without the index, across types, nulls and arrays', async () => {
    for (const query of queries) await same(query);
    const pipeline = [{ $match: queries[1]! }, { $project: { at: 1 } }];
    expect(await indexed.aggregate(pipeline).toArray()).toEqual(
      await plain.aggregate(pipeline).toArray(),
    );
  });

  it('stay right through inserts, updates and deletes made after a lookup', async () => {
    for (const coll of [indexed, plain]) {
      await coll.insertOne({ _id: 100, at: day(2), n: 9, k: day(3), s: 'x', tags: [day(1)] });
      // An element whose time is an array: each bound may hold for another of its values.
      await coll.insertOne({ _id: 101, events: [{ status: 'failed', at: [day(1), day(9)] }] });
      await coll.updateMany({ n: 3 }, { $set: { at: day(5), n: 1 } });
      await coll.updateOne({ _id: 1 }, { $unset: { at: '' } });
      await coll.deleteMany({ at: 'a' });
    }
    for (const query of queries) await same(query);
  });

  it('read only the documents in the range', () => {
    const coll = new Collection('db', 'c');
    for (let i = 0; i < 100; i++)
      coll.insert({
        _id: i,
        at: day(i % 50),
        n: i,
        events: [{ at: day(i % 50) }, { at: day(60) }],
      });
    coll.addIndex({ v: 2, key: { at: -1, n: 1 }, name: 'at_-1_n_1' }, true);
    coll.addIndex({ v: 2, key: { 'events.at': 1 }, name: 'events.at_1' }, true);
    const read = (filter: Document) => [...coll.candidates(filter)].map((d) => d._id);
    expect(read({ at: { $gte: day(48) } })).toEqual([48, 49, 98, 99]);
    expect(read({ at: { $gt: day(1), $lte: day(2) } })).toEqual([2, 52]);
    expect(read({ $or: [{ at: { $lt: day(1) } }, { _id: 7 }] })).toEqual([0, 7, 50]);
    expect(read({ at: { $gte: 5 } })).toEqual([]);
    expect(read({ events: { $elemMatch: { at: { $gte: day(48), $lt: day(50) } } } })).toEqual([
      48, 49, 98, 99,
    ]);
    expect(read({ n: { $gte: 98 } })).toHaveLength(100);
  });
});
