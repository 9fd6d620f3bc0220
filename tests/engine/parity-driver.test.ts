import {
  Binary,
  Double,
  Int32,
  Long,
  MongoClient,
  type MongoServerError,
  ObjectId,
  type Collection,
  type Db,
} from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTarget, uniqueDbName, type Target } from './helpers';

let target: Target;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  target = await startTarget();
  client = await MongoClient.connect(target.uri, { maxPoolSize: 5 });
  db = client.db(uniqueDbName('parity_driver'));
});

afterAll(async () => {
  await db?.dropDatabase().catch(() => {});
  await client?.close();
  await target?.stop();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const collection = (name: string) => db.collection(name) as unknown as Collection<any>;

describe('driver parity', () => {
  it('round-trips BSON types', async () => {
    const coll = collection('types');
    const id = new ObjectId();
    const doc = {
      _id: id,
      date: new Date('2026-03-04T05:06:07.089Z'),
      int: 7,
      double: 1.5,
      long: Long.fromString('9007199254740993'),
      bin: new Binary(Buffer.from([1, 2, 3])),
      re: /ab+c/i,
      nil: null,
      nested: { a: { b: [1, 'two', { three: 3 }] } },
    };
    await coll.insertOne(doc);
    const raw = await coll.findOne({ _id: id }, { promoteValues: false, promoteLongs: false });
    expect(raw!._id).toEqual(id);
    expect(raw!.date).toEqual(doc.date);
    expect(raw!.int).toBeInstanceOf(Int32);
    expect(raw!.double).toBeInstanceOf(Double);
    expect((raw!.double as Double).value).toBe(1.5);
    expect([...(raw!.bin as Binary).buffer]).toEqual([1, 2, 3]);
    expect(raw!.long).toBeInstanceOf(Long);
    expect((raw!.long as Long).toString()).toBe('9007199254740993');
    expect(raw!.re).toBeInstanceOf(RegExp);
    expect((raw!.re as RegExp).source).toBe('ab+c');
    expect(raw!.nil).toBeNull();
    const plain = await coll.findOne({ _id: id });
    expect(plain!.nested).toEqual({ a: { b: [1, 'two', { three: 3 }] } });
    expect(await coll.countDocuments({ re: { $type: 'regex' } })).toBe(1);
    expect(await coll.countDocuments({ date: { $gt: new Date('2026-01-01') } })).toBe(1);
    await coll.updateOne({ _id: id }, { $inc: { long: 2 } });
    const incremented = await coll.findOne({ _id: id }, { promoteLongs: false });
    expect((incremented!.long as Long).toString()).toBe('9007199254740995');
  });

  it('matches ObjectIds in filters, $in and embedded paths', async () => {
    const coll = collection('ids');
    const ids = [new ObjectId(), new ObjectId(), new ObjectId()];
    const eventId = new ObjectId();
    await coll.insertMany(
      ids.map((_id, i) => ({
        _id,
        i,
        events: [{ _id: i === 1 ? eventId : new ObjectId(), s: 'x' }],
      })),
    );
    expect((await coll.findOne({ _id: ids[2] }))!.i).toBe(2);
    expect((await coll.findOne({ _id: new ObjectId(ids[2]!.toHexString()) }))!.i).toBe(2);
    expect((await coll.findOne({ 'events._id': eventId }))!.i).toBe(1);
    expect((await coll.find({ _id: { $in: [ids[0], ids[2]] } }).toArray()).map((d) => d.i)).toEqual(
      [0, 2],
    );
    expect(
      (
        await coll
          .find({ _id: { $nin: [ids[0]] } })
          .sort({ _id: -1 })
          .toArray()
      ).map((d) => d.i),
    ).toEqual([2, 1]);
  });

  it('returns insertion order for $natural and pages through cursors', async () => {
    const coll = collection('natural');
    await coll.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: 1000 - i, i })));
    const forward = await coll.find({}).sort({ $natural: 1 }).toArray();
    expect(forward.map((d) => d.i)).toEqual(Array.from({ length: 250 }, (_, i) => i));
    const backward = await coll
      .find({}, { batchSize: 7 })
      .sort({ $natural: -1 })
      .limit(20)
      .toArray();
    expect(backward[0]!.i).toBe(249);
    expect(backward).toHaveLength(20);
    const projected = await coll
      .find({ i: { $lt: 3 } }, { projection: { _id: 0, i: 1 } })
      .toArray();
    expect(projected).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
  });

  it('implements update operators like MongoDB', async () => {
    const coll = collection('updates');
    const a = new ObjectId();
    const b = new ObjectId();
    await coll.insertOne({
      _id: 'p1',
      events: [
        { _id: a, status: 'new', n: 1 },
        { _id: b, status: 'new', n: 2 },
      ],
      tags: ['x'],
    });
    await coll.updateOne(
      { _id: 'p1', 'events._id': b, 'events.status': 'new' },
      { $set: { 'events.$.status': 'done' } },
    );
    await coll.updateOne(
      { _id: 'p1', events: { $elemMatch: { _id: a } } },
      { $inc: { 'events.$.n': 10 } },
    );
    await coll.updateOne(
      { _id: 'p1' },
      { $set: { 'events.$[ev].seen': true } },
      { arrayFilters: [{ 'ev.n': { $gte: 2 } }] },
    );
    await coll.updateOne({ _id: 'p1' }, {
      $inc: { 'stats.views': 1, total: 5 },
      $push: { tags: { $each: ['a', 'b'], $position: 0 } },
    } as never);
    const doc = await coll.findOne({ _id: 'p1' });
    expect(doc).toEqual({
      _id: 'p1',
      events: [
        { _id: a, status: 'new', n: 11, seen: true },
        { _id: b, status: 'done', n: 2, seen: true },
      ],
      tags: ['a', 'b', 'x'],
      stats: { views: 1 },
      total: 5,
    });
    await coll.updateOne({ _id: 'p1' }, {
      $pull: { events: { _id: a } },
      $addToSet: { tags: 'x' },
    } as never);
    expect((await coll.findOne({ _id: 'p1' }))!.events).toHaveLength(1);
    await expect(coll.updateOne({ _id: 'p1' }, { $set: { _id: 'p2' } })).rejects.toMatchObject({
      code: 66,
    });
    await expect(
      coll.updateOne({ _id: 'p1' }, { $bogus: { a: 1 } } as never),
    ).rejects.toMatchObject({ code: 9 });
    await expect(
      coll.updateOne({ _id: 'p1' }, { $set: { 'events.$.status': 'x' } }),
    ).rejects.toMatchObject({ code: 2 });
    const res = await coll.updateOne({ _id: 'p1' }, { $set: { total: 5 } });
    expect(res).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
  });

  it('builds upserts from filter equalities including _id and dotted paths', async () => {
    const coll = collection('upserts');
    const r1 = await coll.updateOne(
      { _id: 'k1', 'a.b': 2, c: { $eq: 3 }, d: { $gt: 1 } },
      { $set: { e: 4 } },
      { upsert: true },
    );
    expect(r1.upsertedId).toBe('k1');
    expect(await coll.findOne({ _id: 'k1' })).toEqual({ _id: 'k1', a: { b: 2 }, c: 3, e: 4 });
    const r2 = await coll.updateOne(
      { code: 'Z' },
      { $setOnInsert: { created: true }, $inc: { n: 1 } },
      { upsert: true },
    );
    expect(r2.upsertedId).toBeInstanceOf(ObjectId);
    const z = await coll.findOne({ code: 'Z' });
    expect(Object.keys(z!)[0]).toBe('_id');
    expect(z).toMatchObject({ code: 'Z', created: true, n: 1 });
    const fam = await coll.findOneAndUpdate(
      { code: 'Y' },
      { $set: { v: 1 } },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
    expect(fam.lastErrorObject).toMatchObject({ n: 1, updatedExisting: false });
    expect(fam.lastErrorObject!.upserted).toBeInstanceOf(ObjectId);
    expect(fam.value).toMatchObject({ code: 'Y', v: 1 });
    const replaced = await coll.findOneAndReplace(
      { code: 'Y' },
      { code: 'Y', v: 2 },
      { returnDocument: 'before', projection: { v: 1, _id: 0 } },
    );
    expect(replaced).toEqual({ v: 1 });
    const removed = await coll.findOneAndDelete({ code: 'Y' });
    expect(removed).toMatchObject({ v: 2 });
  });

  it('finds by a unique key together with other conditions and returns copies', async () => {
    const coll = collection('unique_lookup');
    await coll.createIndex({ code: 1 }, { unique: true });
    await coll.insertMany([
      { code: 'A1', status: 'open', tags: ['x', 'y'], meta: { k: 1 } },
      { code: 'B2', status: 'closed', tags: [], meta: { k: 2 } },
      { status: 'draft' },
    ]);
    expect(await coll.findOne({ code: 'A1', status: 'closed' })).toBeNull();
    expect(await coll.findOne({ code: 'A1', tags: 'z' })).toBeNull();
    expect(await coll.findOne({ code: 'A1', 'meta.k': 2 })).toBeNull();
    expect((await coll.findOne({ code: 'A1', status: 'open', tags: 'y', 'meta.k': 1 }))?.code).toBe(
      'A1',
    );
    expect((await coll.findOne({ code: { $eq: 'B2' } }))?.status).toBe('closed');
    expect((await coll.findOne({ code: null }))?.status).toBe('draft');
    expect(await coll.findOne({ code: 'C3' })).toBeNull();
    expect(await coll.findOne({ code: 'A1' }, { projection: { _id: 0, status: 1 } })).toEqual({
      status: 'open',
    });
    const first = await coll.findOne({ code: 'A1' });
    first!.status = 'changed';
    (first!.tags as string[]).push('changed');
    (first!.meta as { k: number }).k = 99;
    const again = await coll.findOne({ code: 'A1' }, { projection: { _id: 0 } });
    expect(again).toEqual({ code: 'A1', status: 'open', tags: ['x', 'y'], meta: { k: 1 } });
    expect(
      await coll
        .find({ code: { $in: ['B2', 'A1'] } }, { projection: { _id: 0, code: 1 } })
        .toArray(),
    ).toEqual([{ code: 'A1' }, { code: 'B2' }]);
  });

  it('enforces unique indexes with MongoDB error shapes', async () => {
    const coll = collection('uniq');
    await coll.createIndex({ trackingNumber: 1 }, { unique: true });
    await coll.createIndex({ email: 1 }, { unique: true, sparse: true });
    await coll.insertMany([{ trackingNumber: 'T1' }, { trackingNumber: 'T2' }]);
    const err = (await coll
      .insertOne({ trackingNumber: 'T1' })
      .catch((e: unknown) => e)) as MongoServerError;
    expect(err.code).toBe(11000);
    expect(err.errorResponse).toMatchObject({
      keyPattern: { trackingNumber: 1 },
      keyValue: { trackingNumber: 'T1' },
    });
    const bulk = (await coll
      .insertMany([{ trackingNumber: 'T3' }, { trackingNumber: 'T3' }, { trackingNumber: 'T4' }], {
        ordered: false,
      })
      .catch((e: unknown) => e)) as {
      writeErrors: Array<{ index: number; code: number }>;
      insertedCount: number;
    };
    expect(bulk.insertedCount).toBe(3 - 1);
    expect(
      Array.isArray(bulk.writeErrors)
        ? bulk.writeErrors[0]!.index
        : (bulk.writeErrors as unknown as { index: number }).index,
    ).toBe(1);
    await expect(
      coll.updateOne({ trackingNumber: 'T2' }, { $set: { trackingNumber: 'T1' } }),
    ).rejects.toMatchObject({ code: 11000 });
    await expect(
      coll.updateOne({ trackingNumber: 'T1' }, { $set: { x: 1 } }, { upsert: true }),
    ).resolves.toMatchObject({ matchedCount: 1 });
    await expect(
      coll.updateOne({ nope: 1 }, { $set: { trackingNumber: 'T2' } }, { upsert: true }),
    ).rejects.toMatchObject({ code: 11000 });
    const dupId = await coll
      .insertOne({ _id: (await coll.findOne({ trackingNumber: 'T1' }))!._id, trackingNumber: 'T9' })
      .catch((e: MongoServerError) => e);
    expect(dupId).toMatchObject({ code: 11000 });
    expect(String((dupId as Error).message)).toContain('index: _id_ dup key: { _id: ObjectId(');
    await coll.insertMany([{ trackingNumber: 'S1' }, { trackingNumber: 'S2' }]);
    await expect(
      coll.insertMany([
        { trackingNumber: 'S3', email: 'a@x' },
        { trackingNumber: 'S4', email: 'a@x' },
      ]),
    ).rejects.toMatchObject({ code: 11000 });
    await expect(coll.createIndex({ group: 1 }, { unique: true })).rejects.toMatchObject({
      code: 11000,
    });
    const indexes = await coll.listIndexes().toArray();
    expect(indexes.map((i) => i.name)).toEqual(['_id_', 'trackingNumber_1', 'email_1']);
    expect(indexes[1]).toEqual({
      v: 2,
      key: { trackingNumber: 1 },
      name: 'trackingNumber_1',
      unique: true,
    });
    await coll.dropIndex('email_1');
    expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual([
      '_id_',
      'trackingNumber_1',
    ]);
  });

  it('answers count, distinct, aggregate, listCollections, drop and deleteMany', async () => {
    const coll = collection('misc');
    await coll.insertMany([
      { city: 'Accra', n: 1, at: new Date('2026-01-02') },
      { city: 'Kumasi', n: 2, at: new Date('2026-01-01') },
      { city: 'Accra', n: 3, at: new Date('2026-01-03') },
    ]);
    expect(await coll.estimatedDocumentCount()).toBe(3);
    expect(await coll.countDocuments({ city: 'Accra' }, { limit: 1 })).toBe(1);
    expect(await coll.distinct('city')).toEqual(['Accra', 'Kumasi']);
    expect((await coll.find().sort({ at: -1 }).toArray()).map((d) => d.n)).toEqual([3, 1, 2]);
    const grouped = await coll
      .aggregate([{ $group: { _id: '$city', total: { $sum: '$n' } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(grouped).toEqual([
      { _id: 'Accra', total: 4 },
      { _id: 'Kumasi', total: 2 },
    ]);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
    expect(names).toContain('misc');
    expect((await coll.deleteMany({ city: 'Accra' })).deletedCount).toBe(2);
    expect((await coll.deleteOne({})).deletedCount).toBe(1);
    expect(await coll.drop()).toBe(true);
    expect((await db.listCollections({ name: 'misc' }).toArray()).length).toBe(0);
  });
});
