import { MongoClient, ObjectId, type Collection, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTarget, uniqueDbName, type Target } from './helpers';

// Filters, projections, counts and sorts the product sends most are answered without mingo;
// these cases pin down that the shortcuts give MongoDB's answers.
let target: Target;
let client: MongoClient;
let coll: Collection<{ _id: number } & Document>;

const day = (n: number) => new Date(Date.UTC(2030, 0, n));
const parcel = (
  _id: number,
  tn: string,
  sender: string,
  recipient: string,
  status: string,
  createdAt: Date,
  tags?: string[],
) => ({
  _id,
  tn,
  sender: { name: sender },
  recipient: { name: recipient },
  status,
  createdAt,
  ...(tags ? { tags } : {}),
});

beforeAll(async () => {
  target = await startTarget();
  client = await MongoClient.connect(target.uri);
  coll = client.db(uniqueDbName('fast')).collection<{ _id: number } & Document>('parcels');
  await coll.insertMany([
    parcel(1, 'ABC000000001', 'Olivia Stone', 'Liam Hart', 'Pending', day(3), ['fragile']),
    parcel(2, 'ABC000000002', 'Noah Reed', 'olivia west', 'Delivered', day(5), ['Olivia']),
    parcel(3, 'XYZ000000003', 'Emma Cole', 'Ava Lee', 'Pending', day(5), []),
    parcel(4, 'XYZ000000004', 'Mia (Ltd.)', 'Lucas Kim', 'Pending', day(1)),
  ]);
});

afterAll(async () => {
  await client?.close();
  await target?.stop();
});

const ids = (docs: Document[]) => docs.map((d) => d._id);

describe('regex and $or filters', () => {
  it('matches case-insensitive regexes across fields, with a status filter beside them', async () => {
    const re = /olivia/i;
    const or = [{ tn: re }, { 'sender.name': re }, { 'recipient.name': re }];
    expect(ids(await coll.find({ $or: or }).sort({ _id: 1 }).toArray())).toEqual([1, 2]);
    expect(ids(await coll.find({ $or: or, status: 'Pending' }).toArray())).toEqual([1]);
    expect(await coll.countDocuments({ $or: or })).toBe(2);
  });

  it('accepts $regex with $options, and matches string elements of arrays', async () => {
    expect(
      ids(
        await coll
          .find({ tn: { $regex: '^xyz', $options: 'i' } })
          .sort({ _id: 1 })
          .toArray(),
      ),
    ).toEqual([3, 4]);
    expect(ids(await coll.find({ tags: /^oliv/i }).toArray())).toEqual([2]);
    expect(ids(await coll.find({ 'sender.name': /\(Ltd\.\)/ }).toArray())).toEqual([4]);
    expect(await coll.countDocuments({ tn: { $regex: 'nothing' } })).toBe(0);
  });
});

describe('values at a path', () => {
  it('matches a plain value, an array, a missing field and null at the same path as MongoDB', async () => {
    const shapes = client.db(uniqueDbName('shapes')).collection<{ _id: number } & Document>('s');
    await shapes.insertMany([
      { _id: 1, a: { b: 'Olivia' } },
      { _id: 2, a: { b: ['x', 'olivia'] } },
      { _id: 3, a: [{ b: 'OLIVIA' }, { b: 'y' }] },
      { _id: 4, a: {} },
      { _id: 5, a: { b: null } },
      { _id: 6, a: 'Olivia' },
      { _id: 7, a: { b: 7 } },
      { _id: 8, a: [{ b: 7 }] },
      { _id: 9 },
    ]);
    const found = async (filter: Document) =>
      ids(await shapes.find(filter).sort({ _id: 1 }).toArray());
    expect(await found({ 'a.b': /olivia/i })).toEqual([1, 2, 3]);
    expect(await found({ 'a.b': 'olivia' })).toEqual([2]);
    expect(await found({ 'a.b': 7 })).toEqual([7, 8]);
    expect(await found({ 'a.b': null })).toEqual([4, 5, 6, 9]);
    expect(await found({ a: /olivia/i })).toEqual([6]);
    expect(await found({ $or: [{ a: 'Olivia' }, { 'a.b': 7 }] })).toEqual([6, 7, 8]);
  });
});

describe('counts', () => {
  it('counts all, with a filter, and with skip and limit', async () => {
    expect(await coll.countDocuments({})).toBe(4);
    expect(await coll.countDocuments({ status: 'Pending' })).toBe(3);
    expect(await coll.countDocuments({}, { skip: 1, limit: 2 })).toBe(2);
    expect(await coll.countDocuments({}, { skip: 10 })).toBe(0);
    expect(await coll.countDocuments({ status: 'Lost' })).toBe(0);
  });

  it('still runs other group pipelines in full', async () => {
    const byStatus = await coll
      .aggregate([
        { $match: {} },
        { $group: { _id: '$status', n: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(byStatus).toEqual([
      { _id: 'Delivered', n: 1 },
      { _id: 'Pending', n: 3 },
    ]);
  });
});

describe('sorting', () => {
  it('sorts by date descending with ties broken by the next key', async () => {
    const docs = await coll.find({}).sort({ createdAt: -1, _id: -1 }).toArray();
    expect(ids(docs)).toEqual([3, 2, 1, 4]);
    const asc = await coll.find({}).sort({ createdAt: 1, _id: 1 }).limit(2).toArray();
    expect(ids(asc)).toEqual([4, 1]);
  });

  it('returns the same first page with a limit as a full sort does', async () => {
    const many = client.db(uniqueDbName('topk')).collection('m');
    await many.insertMany(
      Array.from({ length: 500 }, (_, i) => ({
        i,
        at: day(((i * 37) % 28) + 1),
        n: (i * 7919) % 101,
      })),
    );
    const full = await many
      .find({}, { projection: { _id: 0 } })
      .sort({ at: -1, n: 1, i: 1 })
      .toArray();
    // Unfiltered reads slice the collection's kept order; filtered ones select the top k.
    // A page of everything, and of a filter every document passes.
    for (const filter of [{}, { i: { $gte: 0 } }]) {
      const page = await many
        .find(filter, { projection: { _id: 0 } })
        .sort({ at: -1, n: 1, i: 1 })
        .skip(20)
        .limit(30)
        .toArray();
      expect(page, JSON.stringify(filter)).toEqual(full.slice(20, 50));
    }
    const first = await many
      .find({ i: { $lt: 1000 } })
      .sort({ n: -1 })
      .limit(5)
      .toArray();
    expect(first.map((d) => d.n)).toEqual(
      full
        .map((d) => d.n)
        .sort((a, b) => b - a)
        .slice(0, 5),
    );
  });

  it('sees every write in the next sorted read', async () => {
    const list = client.db(uniqueDbName('sorted')).collection<{ _id: number; at: Date }>('l');
    await list.insertMany([1, 2, 3].map((i) => ({ _id: i, at: day(i) })));
    const newest = async () => ids(await list.find({}).sort({ at: -1 }).limit(2).toArray());
    expect(await newest()).toEqual([3, 2]);
    await list.insertOne({ _id: 4, at: day(9) });
    expect(await newest()).toEqual([4, 3]);
    await list.updateOne({ _id: 1 }, { $set: { at: day(20) } });
    expect(await newest()).toEqual([1, 4]);
    await list.deleteOne({ _id: 1 });
    expect(await newest()).toEqual([4, 3]);
    await list.replaceOne({ _id: 2 }, { at: day(30) });
    expect(await newest()).toEqual([2, 4]);
    await list.deleteMany({});
    expect(await newest()).toEqual([]);
  });

  it('counts and finds with a filter see every write', async () => {
    const list = client
      .db(uniqueDbName('filtered'))
      .collection<{ _id: number; name: string; at: Date }>('l');
    await list.insertMany(
      [1, 2, 3].map((i) => ({ _id: i, name: i === 2 ? 'Other' : `Olivia ${i}`, at: day(i) })),
    );
    const filter = { name: /olivia/i };
    const look = async () => ({
      n: await list.countDocuments(filter),
      ids: ids(await list.find(filter).sort({ at: -1 }).toArray()),
      natural: ids(await list.find(filter).sort({ $natural: -1 }).toArray()),
    });
    expect(await look()).toEqual({ n: 2, ids: [3, 1], natural: [3, 1] });
    expect(await look()).toEqual({ n: 2, ids: [3, 1], natural: [3, 1] });
    await list.insertOne({ _id: 4, name: 'OLIVIA 4', at: day(0) });
    expect(await look()).toEqual({ n: 3, ids: [3, 1, 4], natural: [4, 3, 1] });
    await list.updateOne({ _id: 3 }, { $set: { name: 'Someone' } });
    expect(await look()).toEqual({ n: 2, ids: [1, 4], natural: [4, 1] });
    await list.deleteOne({ _id: 1 });
    expect(await look()).toEqual({ n: 1, ids: [4], natural: [4] });
  });

  it('orders mixed types the way MongoDB does', async () => {
    const mixed = client.db(uniqueDbName('mixed')).collection('m');
    const oid = new ObjectId();
    await mixed.insertMany([
      { v: 'b' },
      { v: 2 },
      { v: null },
      { v: oid },
      { v: day(1) },
      { v: 1 },
      { v: 'a' },
    ]);
    const docs = await mixed
      .find({}, { projection: { _id: 0 } })
      .sort({ v: 1 })
      .toArray();
    expect(docs.map((d) => d.v)).toEqual([null, 1, 2, 'a', 'b', oid, day(1)]);
  });
});

describe('projections', () => {
  it('excludes and includes top-level fields, with or without _id', async () => {
    const excluded = await coll.findOne({ _id: 1 }, { projection: { sender: 0, recipient: 0 } });
    expect(excluded).toEqual({
      _id: 1,
      tn: 'ABC000000001',
      status: 'Pending',
      createdAt: day(3),
      tags: ['fragile'],
    });
    const included = await coll.findOne({ _id: 2 }, { projection: { status: 1, tn: 1 } });
    expect(included).toEqual({ _id: 2, tn: 'ABC000000002', status: 'Delivered' });
    const noId = await coll.findOne({ _id: 2 }, { projection: { status: 1, _id: 0 } });
    expect(noId).toEqual({ status: 'Delivered' });
    const nested = await coll.findOne({ _id: 2 }, { projection: { 'sender.name': 1 } });
    expect(nested).toEqual({ _id: 2, sender: { name: 'Noah Reed' } });
  });

  it('includes dotted paths inside subdocuments and arrays of subdocuments', async () => {
    const shapes = client.db(uniqueDbName('fast')).collection<{ _id: number } & Document>('shapes');
    await shapes.insertMany([
      {
        _id: 1,
        tn: 'A',
        r: { name: 'Ann', phone: '1', address: 'Main St' },
        ev: [{ s: 'x', at: day(1), n: 1 }, 7, { n: 2 }, [{ s: 'y', n: 3 }]],
      },
      { _id: 2, r: 'not a document', ev: 'none' },
      { _id: 3, tn: 'C', r: { phone: '3' } },
    ]);
    const projection = { tn: 1, 'r.name': 1, 'r.address': 1, 'ev.s': 1, 'ev.at': 1 };
    expect(await shapes.find({}, { projection }).sort({ _id: 1 }).toArray()).toEqual([
      {
        _id: 1,
        tn: 'A',
        r: { name: 'Ann', address: 'Main St' },
        ev: [{ s: 'x', at: day(1) }, {}, [{ s: 'y' }]],
      },
      { _id: 2 },
      { _id: 3, tn: 'C', r: {} },
    ]);
    expect(
      await shapes.findOne({ _id: 1 }, { projection: { _id: 0, 'r.name': 1, 'r.phone': 1 } }),
    ).toEqual({ r: { name: 'Ann', phone: '1' } });
    // Field order follows the stored document, not the projection.
    expect(
      Object.keys(
        (await shapes.findOne({ _id: 1 }, { projection: { 'r.address': 1, 'r.name': 1 } }))!.r,
      ),
    ).toEqual(['name', 'address']);
  });

  it('never hands out the stored document itself', async () => {
    const first = await coll.find({ _id: 3 }, { projection: { tags: 0 } }).toArray();
    first[0]!.status = 'Changed';
    expect((await coll.findOne({ _id: 3 }))!.status).toBe('Pending');
  });
});
