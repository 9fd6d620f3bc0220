import {
  Binary,
  DBRef,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  type MongoServerError,
  ObjectId,
  Timestamp,
  type Collection,
  type Db,
} from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from './helpers';

let opened: TestDb;
let db: Db;
let engine: boolean;

beforeAll(async () => {
  opened = await openTestDb('parity_driver', { maxPoolSize: 5 });
  ({ db, engine } = opened);
});

afterAll(() => opened.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const collection = (name: string) => db.collection(name) as unknown as Collection<any>;

/** The `_id` of each document the filter finds, in the sort's order (by `_id` unless given). */
const idsOf = async (
  coll: ReturnType<typeof collection>,
  filter: object,
  sort: object = { _id: 1 },
): Promise<unknown[]> =>
  (
    await coll
      .find(filter)
      .sort(sort as never)
      .toArray()
  ).map((d) => d._id);

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

  it('seeds upserts from $eq, an $in of one value and the values of $all', async () => {
    const coll = collection('upsert_seeds');
    const seeded = async (k: string, x: object) => {
      await coll.updateOne({ k, x }, { $set: { y: 1 } }, { upsert: true });
      return coll.findOne({ k }, { projection: { _id: 0 } });
    };
    expect(await seeded('a', { $in: [1] })).toEqual({ k: 'a', x: 1, y: 1 });
    expect(await seeded('b', { $all: [2] })).toEqual({ k: 'b', x: 2, y: 1 });
    expect(await seeded('c', { $in: [1, 2] })).toEqual({ k: 'c', y: 1 });
    expect(await seeded('d', { $eq: 3, $gt: 0 })).toEqual({ k: 'd', x: 3, y: 1 });
    expect(await seeded('e', { $in: [/^a/] })).toEqual({ k: 'e', y: 1 });
    const twice = await rejection(
      coll.updateOne({ k: 'f', x: { $all: [1, 2] } }, { $set: { y: 1 } }, { upsert: true }),
    );
    expect(twice.code).toBe(54);
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

/** The error a promise rejects with; fails the test when it resolves. */
async function rejection(p: Promise<unknown>): Promise<MongoServerError> {
  const outcome = await p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome))
    throw new Error(`expected an error, got ${JSON.stringify(outcome.value)}`);
  return outcome.error as MongoServerError;
}

/**
 * A feature the engine does not implement: against MongoDB the answer is checked, against the
 * engine the request must be refused with CommandNotSupported (115) or NotImplemented (238) and a
 * message naming the feature, never answered without it.
 */
async function mongoAnswerOrRefusal<T>(
  run: () => Promise<T>,
  feature: RegExp,
  check: (value: T) => void | Promise<void>,
): Promise<void> {
  if (engine) {
    const err = await rejection(run());
    expect([115, 238]).toContain(err.code);
    expect(err.codeName).toBe(err.code === 115 ? 'CommandNotSupported' : 'NotImplemented');
    expect(err.message).toMatch(feature);
    return;
  }
  await check(await run());
}

describe('driver parity: answers that must be MongoDB’s', () => {
  it('projects _id alone, $slice, $elemMatch and the positional $', async () => {
    const coll = collection('projections');
    const doc = {
      _id: 1,
      a: 'x',
      arr: [1, 2, 3, 4],
      subs: [
        { k: 1, v: 'a' },
        { k: 2, v: 'b' },
      ],
      nested: { b: [5, 6, 7], c: 1 },
    };
    await coll.insertOne(doc);
    expect(await coll.findOne({ _id: 1 }, { projection: { _id: 1 } })).toEqual({ _id: 1 });
    expect(await coll.find({}, { projection: { _id: 1 } }).toArray()).toEqual([{ _id: 1 }]);
    expect(await coll.findOne({}, { projection: { _id: 0 } })).toEqual({
      a: 'x',
      arr: [1, 2, 3, 4],
      subs: doc.subs,
      nested: doc.nested,
    });
    expect(await coll.findOne({}, { projection: { arr: { $slice: 2 } } })).toEqual({
      ...doc,
      arr: [1, 2],
    });
    expect(await coll.findOne({}, { projection: { a: 1, arr: { $slice: -1 } } })).toEqual({
      _id: 1,
      a: 'x',
      arr: [4],
    });
    expect(await coll.findOne({}, { projection: { _id: 0, arr: { $slice: [1, 2] } } })).toEqual({
      a: 'x',
      arr: [2, 3],
      subs: doc.subs,
      nested: doc.nested,
    });
    expect(
      await coll.findOne({}, { projection: { _id: 0, 'nested.b': { $slice: 1 }, a: 1 } }),
    ).toEqual({ a: 'x', nested: { b: [5] } });
    expect(
      await coll.findOne({}, { projection: { arr: { $elemMatch: { $in: [2, 3] } } } }),
    ).toEqual({ _id: 1, arr: [2] });
    expect(
      await coll.findOne({}, { projection: { _id: 0, subs: { $elemMatch: { k: { $gt: 1 } } } } }),
    ).toEqual({ subs: [{ k: 2, v: 'b' }] });
    expect(await coll.findOne({}, { projection: { arr: { $elemMatch: { $gt: 10 } } } })).toEqual({
      _id: 1,
    });
    expect(await coll.findOne({ arr: { $gte: 3 } }, { projection: { 'arr.$': 1 } })).toEqual({
      _id: 1,
      arr: [3],
    });
    expect(
      await coll.findOne({ 'subs.k': 2 }, { projection: { 'subs.$': 1, a: 1, _id: 0 } }),
    ).toEqual({ a: 'x', subs: [{ k: 2, v: 'b' }] });
    expect(
      (await rejection(coll.findOne({}, { projection: { a: 1, arr: 0 } }))).code,
    ).toBeGreaterThan(0);
  });

  it('projects a document value as the dotted paths inside it', async () => {
    const coll = collection('nested_projections');
    await coll.insertMany([
      { _id: 1, name: 'top', child: { name: 'c', age: 3 } },
      { _id: 2, name: 'no child' },
      { _id: 3, name: 'scalar', child: 5 },
      { _id: 4, name: 'array', child: [1, { name: 'x', age: 1 }, { age: 2 }, [{ name: 'n' }]] },
    ]);
    const project = (projection: object) =>
      coll.find({}, { projection }).sort({ _id: 1 }).toArray();
    const included = await project({ name: 1, child: { name: 1 } });
    expect(included).toEqual([
      { _id: 1, name: 'top', child: { name: 'c' } },
      { _id: 2, name: 'no child' },
      { _id: 3, name: 'scalar' },
      { _id: 4, name: 'array', child: [{ name: 'x' }, {}, [{ name: 'n' }]] },
    ]);
    expect(included.map((d) => Object.keys(d)[0])).toEqual(['_id', '_id', '_id', '_id']);
    expect(await project({ name: 1, child: { name: 1 } })).toEqual(
      await project({ name: 1, 'child.name': 1 }),
    );
    expect(await project({ _id: 0, child: { age: 0 }, name: 0 })).toEqual([
      { child: { name: 'c' } },
      {},
      { child: 5 },
      { child: [1, { name: 'x' }, {}, [{ name: 'n' }]] },
    ]);
    expect(await project({ _id: 0, child: { name: 1, n: '$name' } })).toEqual([
      { child: { name: 'c', n: 'top' } },
      { child: { n: 'no child' } },
      { child: { n: 'scalar' } },
      {
        child: [{ name: 'x', n: 'array' }, { n: 'array' }, [{ name: 'n', n: 'array' }]],
      },
    ]);
    const empty = await rejection(project({ child: {} }));
    expect(empty.code).toBe(51270);
    expect(empty.message).toContain('An empty sub-projection is not a valid value');
    const collision = await rejection(project({ child: { name: 1 }, 'child.name': 1 }));
    expect(collision.code).toBe(31250);
  });

  it('keeps the document’s field order in projections and computes fields through arrays', async () => {
    const coll = collection('projection_order');
    await coll.insertMany([
      { _id: 1, a: 1, arr: [{ x: 1 }, { x: 2 }, 5], s: { t: 1, u: 2 } },
      { _id: 2, s: 3 },
    ]);
    const run = (pipeline: object[]) => coll.aggregate(pipeline).toArray();
    const keys = (docs: object[]) => docs.map((d) => Object.keys(d));
    expect(keys(await run([{ $project: { a: 1, _id: 1 } }]))).toEqual([['_id', 'a'], ['_id']]);
    expect(keys(await run([{ $project: { s: 1, a: 1 } }]))).toEqual([
      ['_id', 'a', 's'],
      ['_id', 's'],
    ]);
    expect(keys(await run([{ $project: { n: '$a', a: 1 } }]))).toEqual([
      ['_id', 'a', 'n'],
      ['_id'],
    ]);
    expect(keys(await coll.find({}, { projection: { s: 1, a: 1, n: '$a' } }).toArray())).toEqual([
      ['_id', 'a', 's', 'n'],
      ['_id', 's'],
    ]);
    expect(await run([{ $addFields: { 'arr.y': '$a', 's.v': 1 } }])).toEqual([
      { _id: 1, a: 1, arr: [{ x: 1, y: 1 }, { x: 2, y: 1 }, { y: 1 }], s: { t: 1, u: 2, v: 1 } },
      { _id: 2, s: { v: 1 }, arr: {} },
    ]);
    expect(await run([{ $project: { 'arr.x': 1, 'arr.z': '$a', 's.u': 1 } }])).toEqual([
      {
        _id: 1,
        arr: [
          { x: 1, z: 1 },
          { x: 2, z: 1 },
        ],
        s: { u: 2 },
      },
      { _id: 2, arr: {} },
    ]);
    expect(await run([{ $unset: ['s.t', 'arr'] }, { $set: { a: '$$REMOVE' } }])).toEqual([
      { _id: 1, s: { u: 2 } },
      { _id: 2, s: 3 },
    ]);
    expect((await rejection(run([{ $project: {} }]))).code).toBe(51272);
  });

  it('pulls with $or, $and and $nor conditions and with operators on values', async () => {
    const coll = collection('pulls');
    await coll.insertOne({
      _id: 1,
      subs: [{ a: 1 }, { a: 2 }, { a: 3 }],
      mixed: [{ a: 1, b: 1 }, { a: 1, b: 2 }, { a: 2, b: 2 }, 5],
      nums: [1, 2, 3, 4, 5],
    });
    await coll.updateOne({ _id: 1 }, { $pull: { subs: { $or: [{ a: 1 }, { a: 2 }] } } } as never);
    await coll.updateOne({ _id: 1 }, { $pull: { mixed: { $and: [{ a: 1 }, { b: 2 }] } } } as never);
    await coll.updateOne({ _id: 1 }, { $pull: { nums: { $gte: 4 } } } as never);
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      subs: [{ a: 3 }],
      mixed: [{ a: 1, b: 1 }, { a: 2, b: 2 }, 5],
      nums: [1, 2, 3],
    });
    await coll.updateOne({ _id: 1 }, {
      $pull: { mixed: { $nor: [{ a: 1 }] }, nums: { $in: [1, 3] } },
    } as never);
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      subs: [{ a: 3 }],
      mixed: [{ a: 1, b: 1 }, 5],
      nums: [2],
    });
    await coll.updateOne({ _id: 1 }, { $pull: { mixed: 5, subs: {} } } as never);
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      subs: [],
      mixed: [{ a: 1, b: 1 }],
      nums: [2],
    });
  });

  it('upserts with array operators on fields that do not exist yet', async () => {
    const coll = collection('array_upserts');
    await coll.updateOne({ k: 'u1' }, { $pull: { tags: 'x' }, $set: { n: 1 } } as never, {
      upsert: true,
    });
    await coll.updateOne({ k: 'u2' }, { $pullAll: { tags: ['x'] } } as never, { upsert: true });
    await coll.updateOne(
      { k: 'u3' },
      {
        $push: { list: { $each: [3, 1, 2], $sort: 1 } },
        $addToSet: { set: { $each: ['b', 'b', 'a'] } },
        $pop: { gone: 1 },
      } as never,
      { upsert: true },
    );
    const docs = await coll
      .find({}, { projection: { _id: 0 } })
      .sort({ k: 1 })
      .toArray();
    expect(docs).toEqual([
      { k: 'u1', n: 1 },
      { k: 'u2' },
      { k: 'u3', list: [1, 2, 3], set: ['b', 'a'] },
    ]);
    const fam = await coll.findOneAndUpdate(
      { k: 'u4' },
      { $pull: { tags: { $in: ['x'] } }, $push: { events: 'e' } } as never,
      { upsert: true, returnDocument: 'after', projection: { _id: 0 } },
    );
    expect(fam).toEqual({ k: 'u4', events: ['e'] });
  });

  it('tells every BSON type apart in $type, by alias and by number', async () => {
    const coll = collection('types_query');
    await coll.insertMany([
      { _id: 'int', v: 1 },
      { _id: 'int32', v: new Int32(7) },
      { _id: 'double', v: 1.5 },
      { _id: 'double-integral', v: new Double(2) },
      { _id: 'long', v: Long.fromNumber(3) },
      { _id: 'decimal', v: Decimal128.fromString('1.5') },
      { _id: 'string', v: 'x' },
      { _id: 'binData', v: new Binary(Buffer.from([1])) },
      { _id: 'objectId', v: new ObjectId() },
      { _id: 'null', v: null },
      { _id: 'array', v: [1, 'x'] },
      { _id: 'bool', v: true },
      { _id: 'date', v: new Date('2026-01-01') },
      { _id: 'regex', v: /x/ },
      { _id: 'object', v: { a: 1 } },
      { _id: 'timestamp', v: new Timestamp({ t: 1, i: 1 }) },
      { _id: 'minKey', v: new MinKey() },
      { _id: 'maxKey', v: new MaxKey() },
      { _id: 'missing' },
    ]);
    const ids = async (type: unknown) =>
      (await coll.find({ v: { $type: type } } as never, { projection: { _id: 1 } }).toArray())
        .map((d) => d._id as string)
        .sort();
    expect(await ids('long')).toEqual(['long']);
    expect(await ids(18)).toEqual(['long']);
    expect(await ids('int')).toEqual(['array', 'int', 'int32']);
    expect(await ids(16)).toEqual(['array', 'int', 'int32']);
    expect(await ids('double')).toEqual(['double', 'double-integral']);
    expect(await ids(1)).toEqual(['double', 'double-integral']);
    expect(await ids('decimal')).toEqual(['decimal']);
    expect(await ids('number')).toEqual([
      'array',
      'decimal',
      'double',
      'double-integral',
      'int',
      'int32',
      'long',
    ]);
    expect(await ids('string')).toEqual(['array', 'string']);
    expect(await ids(2)).toEqual(['array', 'string']);
    expect(await ids('binData')).toEqual(['binData']);
    expect(await ids(5)).toEqual(['binData']);
    expect(await ids('objectId')).toEqual(['objectId']);
    expect(await ids(7)).toEqual(['objectId']);
    expect(await ids('null')).toEqual(['null']);
    expect(await ids('array')).toEqual(['array']);
    expect(await ids('bool')).toEqual(['bool']);
    expect(await ids('date')).toEqual(['date']);
    expect(await ids('regex')).toEqual(['regex']);
    expect(await ids('object')).toEqual(['object']);
    expect(await ids('timestamp')).toEqual(['timestamp']);
    expect(await ids('minKey')).toEqual(['minKey']);
    expect(await ids(-1)).toEqual(['minKey']);
    expect(await ids('maxKey')).toEqual(['maxKey']);
    expect(await ids(127)).toEqual(['maxKey']);
    expect(await ids(['long', 'bool'])).toEqual(['bool', 'long']);
    expect(await ids('undefined')).toEqual([]);
    await expect(ids('nonsense')).rejects.toMatchObject({ code: 2 });
    await expect(ids(99)).rejects.toMatchObject({ code: 2 });
    const raw = await coll
      .find({ _id: { $in: ['int', 'double-integral', 'long'] } }, { promoteValues: false })
      .sort({ _id: 1 })
      .toArray();
    expect(raw.map((d) => (d.v as { _bsontype: string })._bsontype)).toEqual([
      'Double',
      'Int32',
      'Long',
    ]);
    expect(await coll.countDocuments({ v: 2 })).toBe(1);
    expect(await coll.countDocuments({ v: { $gte: 1, $lt: 2 } })).toBe(4);
    await coll.updateOne({ _id: 'double-integral' }, { $inc: { v: 1 } });
    expect(await ids('double')).toEqual(['double', 'double-integral']);
    await coll.updateOne({ _id: 'int' }, { $inc: { v: 0.5 } });
    expect(await ids('double')).toEqual(['double', 'double-integral', 'int']);
    await coll.updateOne({ _id: 'int32' }, { $inc: { v: Long.fromNumber(1) } });
    expect(await ids('long')).toEqual(['int32', 'long']);
  });

  it('orders BinData by length, then subtype, then bytes', async () => {
    const coll = collection('bindata_order');
    const bin = (bytes: number[], subtype = 0) => new Binary(Buffer.from(bytes), subtype);
    await coll.insertMany([
      { _id: 1, b: bin([1, 2, 3]) },
      { _id: 2, b: bin([9]) },
      { _id: 3, b: bin([1, 2, 3], 4) },
      { _id: 4, b: bin([0, 0, 0, 0]) },
      { _id: 5, b: bin([2]) },
    ]);
    const ids = (filter: object, sort?: object) => idsOf(coll, filter, sort);
    expect(await ids({}, { b: 1 })).toEqual([5, 2, 1, 3, 4]);
    expect(await ids({}, { b: -1 })).toEqual([4, 3, 1, 2, 5]);
    expect(await ids({ b: { $gt: bin([5]) } })).toEqual([1, 2, 3, 4]);
    expect(await ids({ b: { $lt: bin([1, 2, 3], 4) } })).toEqual([1, 2, 5]);
    expect(await ids({ b: { $lte: bin([0, 0, 0]) } })).toEqual([2, 5]);
    expect(await ids({ b: bin([1, 2, 3], 4) })).toEqual([3]);
    expect(await ids({ b: { $in: [bin([1, 2, 3]), bin([2], 5)] } })).toEqual([1]);
    const [extremes] = await coll
      .aggregate([{ $group: { _id: null, min: { $min: '$b' }, max: { $max: '$b' } } }])
      .toArray();
    expect(Buffer.from((extremes!.min as Binary).buffer)).toEqual(Buffer.from([2]));
    expect(Buffer.from((extremes!.max as Binary).buffer)).toEqual(Buffer.from([0, 0, 0, 0]));
  });

  it('orders strings by code point, characters beyond U+FFFF after U+FFFD', async () => {
    const coll = collection('string_order');
    await coll.insertMany([
      { _id: 1, s: '😀' },
      { _id: 2, s: '\ufffd' },
      { _id: 3, s: 'a' },
    ]);
    const ids = (filter: object, sort?: object) => idsOf(coll, filter, sort);
    expect(await ids({}, { s: 1 })).toEqual([3, 2, 1]);
    expect(await ids({ s: { $gt: '\ufffd' } })).toEqual([1]);
    const [max] = await coll.aggregate([{ $group: { _id: null, m: { $max: '$s' } } }]).toArray();
    expect(max!.m).toBe('😀');
  });

  it('orders documents field by field: the value’s type, then the name, then the value', async () => {
    const coll = collection('document_order');
    await coll.insertMany([
      { _id: 1, d: { b: 1 } },
      { _id: 2, d: { a: 2 } },
      { _id: 3, d: { a: 'x' } },
      { _id: 4, d: { a: 1, b: 1 } },
    ]);
    const ids = (filter: object, sort?: object) => idsOf(coll, filter, sort);
    expect(await ids({}, { d: 1 })).toEqual([4, 2, 1, 3]);
    expect(await ids({ d: { $gt: { a: 5 } } })).toEqual([1, 3]);
    expect(
      (await coll.aggregate([{ $sort: { d: -1 } }, { $project: { _id: 1 } }]).toArray()).map(
        (d) => d._id,
      ),
    ).toEqual([3, 1, 2, 4]);
  });

  it('keeps DBRefs as the documents they are, and queries reach $ref, $id and $db', async () => {
    const coll = collection('dbrefs');
    const [u1, t1, u2] = [new ObjectId(), new ObjectId(), new ObjectId()];
    await coll.insertMany([
      {
        _id: 1,
        members: [new DBRef('users', u1), new DBRef('teams', t1)],
        m: new DBRef('foo', u1, 'otherdb', { extra: 1 }),
      },
      { _id: 2, members: [new DBRef('users', u2)], m: new DBRef('bar', u2) },
      { _id: 3, file: { $ref: 'fs.files', $id: 7 } },
    ]);
    const ids = (filter: object) => idsOf(coll, filter);
    expect(await ids({ 'members.$id': u1 })).toEqual([1]);
    expect(await ids({ 'members.$ref': 'users' })).toEqual([1, 2]);
    expect(await ids({ members: { $elemMatch: { $ref: 'users', $id: u2 } } })).toEqual([2]);
    expect(await ids({ members: { $elemMatch: { $id: t1 } } })).toEqual([1]);
    expect(await ids({ 'm.$ref': 'foo', 'm.$db': 'otherdb', 'm.extra': 1 })).toEqual([1]);
    expect(await ids({ m: new DBRef('bar', u2) })).toEqual([2]);
    expect(await ids({ 'file.$ref': 'fs.files' })).toEqual([3]);
    expect(await ids({ 'file.$db': { $exists: true } })).toEqual([]);
    expect(await ids({ $or: [{ 'm.$id': u2 }, { 'file.$id': 7 }] })).toEqual([2, 3]);
    expect((await rejection(coll.find({ m: { $ref: 'foo' } }).toArray())).code).toBe(2);
    expect(
      await coll.findOne({ _id: 1 }, { projection: { _id: 0, 'm.$ref': 1, 'm.$id': 1 } }),
    ).toEqual({ m: new DBRef('foo', u1) });
    await coll.updateOne({ _id: 1 }, { $pull: { members: { $ref: 'teams', $id: t1 } } } as never);
    expect((await coll.findOne({ _id: 1 }))!.members).toEqual([new DBRef('users', u1)]);
    const baz = new DBRef('baz', new ObjectId());
    const up = await coll.updateOne({ m: baz }, { $set: { n: 1 } }, { upsert: true });
    expect(await coll.findOne({ _id: up.upsertedId! }, { projection: { _id: 0 } })).toEqual({
      m: baz,
      n: 1,
    });
  });

  it('reads field paths in expressions through documents only, across arrays', async () => {
    const coll = collection('expression_paths');
    await coll.insertOne({
      _id: 1,
      arr: [10, 20],
      docs: [{ a: 1, 0: 'z' }, { a: 2 }, 5, [{ a: 9 }]],
      o: { p: { q: 3 } },
      oid: new ObjectId(),
    });
    expect(
      await coll
        .aggregate([
          {
            $project: {
              x: '$arr.0',
              y: '$docs.0',
              z: '$docs.a',
              u: '$o.p.q',
              w: '$oid.id',
              m: { $map: { input: '$docs', as: 'd', in: '$$d.a' } },
            },
          },
        ])
        .toArray(),
    ).toEqual([{ _id: 1, x: [], y: ['z'], z: [1, 2], u: 3, m: [1, 2, null, [9]] }]);
    expect(await coll.countDocuments({ $expr: { $eq: ['$o.p.q', 3] } })).toBe(1);
    expect(await coll.countDocuments({ $expr: { $eq: ['$arr.0', 10] } })).toBe(0);
  });

  it('compares in expressions by BSON order, arrays as wholes and missing before null', async () => {
    const coll = collection('expression_comparisons');
    await coll.insertMany([
      { _id: 1, a: 1, tags: ['x', 'y'], s: 'b', n: null },
      { _id: 2, a: 'z', tags: 'x', s: 'c' },
      { _id: 3 },
    ]);
    const ids = async (expr: object) =>
      (await coll.find({ $expr: expr }).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await ids({ $eq: ['$tags', 'x'] })).toEqual([2]);
    expect(await ids({ $eq: ['$n', null] })).toEqual([1]);
    expect(await ids({ $ne: ['$n', null] })).toEqual([2, 3]);
    expect(await ids({ $lt: ['$a', 'a'] })).toEqual([1, 3]);
    expect(await ids({ $gt: ['$a', 5] })).toEqual([2]);
    expect(await ids({ $in: ['$a', [1, 'q']] })).toEqual([1]);
    expect(await ids({ $in: ['$n', [null]] })).toEqual([1]);
    expect(
      await coll
        .aggregate([
          { $sort: { _id: 1 } },
          { $project: { c: { $cmp: ['$a', 1] }, m: { $max: ['$a', 0, null] } } },
        ])
        .toArray(),
    ).toEqual([
      { _id: 1, c: 0, m: 1 },
      { _id: 2, c: 1, m: 'z' },
      { _id: 3, c: -1, m: 0 },
    ]);
    expect(
      await coll
        .aggregate([
          {
            $group: {
              _id: null,
              maxS: { $max: '$s' },
              minS: { $min: '$s' },
              maxA: { $max: '$a' },
              minA: { $min: '$a' },
              maxId: { $max: '$_id' },
              none: { $max: '$nothing' },
            },
          },
        ])
        .toArray(),
    ).toEqual([{ _id: null, maxS: 'c', minS: 'b', maxA: 'z', minA: 1, maxId: 3, none: null }]);
    expect((await rejection(ids({ $eq: ['$a'] }))).code).toBe(16020);
  });

  it('matches $all against a single value as well as arrays', async () => {
    const coll = collection('all');
    await coll.insertMany([
      { _id: 1, t: 'x' },
      { _id: 2, t: ['x', 'y'] },
      { _id: 3, t: 'y' },
      { _id: 4, t: [['x']] },
    ]);
    const ids = (filter: object) => idsOf(coll, filter);
    expect(await ids({ t: { $all: ['x'] } })).toEqual([1, 2]);
    expect(await ids({ t: { $all: ['x', 'y'] } })).toEqual([2]);
    expect(await ids({ t: { $all: [] } })).toEqual([]);
    expect(await ids({ t: { $all: [/^y/] } })).toEqual([2, 3]);
    expect(await ids({ t: { $all: [['x']] } })).toEqual([4]);
  });

  it('takes an array filter’s identifier through $or, and refuses one MongoDB would not name', async () => {
    const coll = collection('array_filters');
    await coll.insertOne({ _id: 1, a: [{ x: 1 }, { y: 2 }, { x: 3 }] });
    await coll.updateOne(
      { _id: 1 },
      { $set: { 'a.$[e].hit': true } },
      { arrayFilters: [{ $or: [{ 'e.x': 1 }, { 'e.y': 2 }] }] },
    );
    expect((await coll.findOne({ _id: 1 }))!.a).toEqual([
      { x: 1, hit: true },
      { y: 2, hit: true },
      { x: 3 },
    ]);
    for (const id of ['I', '__proto__', 'constructor_x']) {
      const err = await rejection(
        coll.updateOne(
          { _id: 1 },
          { $set: { [`a.$[${id}].hit`]: false } },
          { arrayFilters: [{ [`${id}.x`]: 1 }] },
        ),
      );
      expect(err.code).toBe(2);
      expect(err.message).toContain('must be an alphanumeric string beginning with a lowercase');
    }
    const two = await rejection(
      coll.updateOne(
        { _id: 1 },
        { $set: { 'a.$[e].hit': false } },
        { arrayFilters: [{ 'e.x': 1, 'f.y': 2 }] },
      ),
    );
    expect(two.code).toBe(9);
  });

  it('refuses updates through arrays and scalars with PathNotViable', async () => {
    const coll = collection('path_conflicts');
    await coll.insertOne({ _id: 1, comments: [{ body: 'a' }], n: 5 });
    const err = await rejection(coll.updateOne({ _id: 1 }, { $set: { 'comments.body': 'x' } }));
    expect(err.code).toBe(28);
    expect(err.message).toContain("Cannot create field 'body' in element {comments: [");
    await expect(coll.updateOne({ _id: 1 }, { $set: { 'n.x': 1 } })).rejects.toMatchObject({
      code: 28,
    });
    await expect(coll.updateOne({ _id: 1 }, { $inc: { 'comments.n': 1 } })).rejects.toMatchObject({
      code: 28,
    });
    expect(await coll.updateOne({ _id: 1 }, { $unset: { 'comments.body': 1 } })).toMatchObject({
      matchedCount: 1,
      modifiedCount: 0,
    });
    await coll.updateOne({ _id: 1 }, { $set: { 'comments.0.body': 'b', 'comments.2.body': 'c' } });
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      comments: [{ body: 'b' }, null, { body: 'c' }],
      n: 5,
    });
  });

  it('lets inserts and upserts create fields starting with $, and refuses updates that write one at the top', async () => {
    const coll = collection('dollar_fields');
    await coll.insertOne({ _id: 1, $x: 1, a: { $y: 2 } } as never);
    const code = async (update: object) =>
      (await rejection(coll.updateOne({ _id: 1 }, update as never))).code;
    expect(await code({ $set: { $z: 1 } })).toBe(52);
    expect(await code({ $set: { '$q.b': 1 } })).toBe(52);
    expect(await code({ $inc: { $x: 1 } })).toBe(52);
    expect(await code({ $rename: { a: '$r' } })).toBe(52);
    expect(await code({ $set: { $id: 1 } })).toBe(55);
    expect(await code({ $set: { $: 1 } })).toBe(2);
    const renameErrors = [
      [{ a: 'a' }, 'The source and target field for $rename must differ'],
      [{ a: 'a.b' }, 'The source and target field for $rename must not be on the same path'],
      [{ 'a.$': 'b' }, 'The source field for $rename may not be dynamic: a.$'],
      [{ a: 'c.$[]' }, 'The destination field for $rename may not be dynamic: c.$[]'],
    ] as const;
    for (const [rename, message] of renameErrors) {
      const err = await rejection(coll.updateOne({ _id: 1 }, { $rename: rename } as never));
      expect(err.code).toBe(2);
      expect(err.message).toContain(message);
    }
    await coll.updateOne({ _id: 1 }, { $set: { 'a.$w': 3, m: { $ref: 'c', $id: 1 } } });
    await coll.updateOne({ _id: 1 }, { $rename: { a: 'b.$r' }, $unset: { $x: 1 } } as never);
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      b: { $r: { $y: 2, $w: 3 } },
      m: new DBRef('c', 1 as never),
    });
    const up = await coll.updateOne({ _id: 2 }, { $set: { phone: 25, $hotel: 320 } } as never, {
      upsert: true,
    });
    expect(up.upsertedCount).toBe(1);
    expect(await coll.findOne({ _id: 2 })).toEqual({ _id: 2, phone: 25, $hotel: 320 });
    const onMatch = await rejection(coll.updateOne({ _id: 2 }, { $set: { $hotel: 321 } } as never));
    expect(onMatch.code).toBe(52);
  });

  it('answers unknown operators and stages with MongoDB’s errors, even on no data', async () => {
    const coll = collection('never_created');
    let err = await rejection(coll.find({ a: { $foo: 1 } }).toArray());
    expect(err).toMatchObject({ code: 2, codeName: 'BadValue' });
    expect(err.message).toContain('unknown operator: $foo');
    err = await rejection(coll.find({ $foo: 1 }).toArray());
    expect(err).toMatchObject({ code: 2, codeName: 'BadValue' });
    expect(err.message).toContain('unknown top level operator: $foo');
    await expect(coll.countDocuments({ a: { $foo: 1 } })).rejects.toMatchObject({ code: 2 });
    await expect(coll.deleteMany({ a: { $foo: 1 } })).rejects.toMatchObject({ code: 2 });
    await expect(coll.updateOne({ a: { $foo: 1 } }, { $set: { b: 1 } })).rejects.toMatchObject({
      code: 2,
    });
    err = await rejection(coll.aggregate([{ $foo: {} }]).toArray());
    expect(err.code).toBe(40324);
    expect(err.message).toContain("Unrecognized pipeline stage name: '$foo'");
    err = await rejection(
      coll.aggregate([{ $match: {} }, { $match: { a: { $foo: 1 } } }]).toArray(),
    );
    expect(err.code).toBe(2);
    expect(await db.listCollections({ name: 'never_created' }).toArray()).toEqual([]);
  });

  it('keeps TTL indexes', async () => {
    const coll = collection('ttl');
    await coll.createIndex({ at: 1 }, { expireAfterSeconds: 3600 });
    await coll.insertOne({ at: new Date() });
    const index = (await coll.listIndexes().toArray()).find((i) => i.name === 'at_1');
    expect(index).toMatchObject({ key: { at: 1 }, expireAfterSeconds: 3600 });
    expect(await coll.countDocuments()).toBe(1);
  });
});

/** A document from JSON, where `__proto__` is a key like any other. */
const fromJson = (text: string) => JSON.parse(text) as Record<string, unknown>;

describe('driver parity: names every JavaScript object inherits are ordinary field names', () => {
  it('updates create and change such fields, and nothing else matches afterwards', async () => {
    const coll = collection('inherited_updates');
    await coll.insertMany([
      { _id: 1, hello: 'world', n: 1 },
      { _id: 2, n: 2 },
    ]);
    await coll.updateOne({ _id: 1 }, { $rename: { hello: '__proto__.polluted' } });
    await coll.updateOne({ _id: 1 }, { $set: { 'constructor.x': 1 } });
    await coll.updateOne({ _id: 1 }, { $inc: { valueOf: 1 } });
    await coll.updateOne({ _id: 1 }, { $set: { path1: fromJson('{"__proto__": "abcd"}') } });
    await coll.updateOne({ _id: 1 }, {
      $push: { hasOwnProperty: 'a' },
      $min: { toString: 5 },
      $max: { isPrototypeOf: 'b' },
      $mul: { propertyIsEnumerable: 2 },
    } as never);
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      n: 1,
      ['__proto__']: { polluted: 'world' },
      constructor: { x: 1 },
      valueOf: 1,
      path1: fromJson('{"__proto__": "abcd"}'),
      hasOwnProperty: ['a'],
      toString: 5,
      isPrototypeOf: 'b',
      propertyIsEnumerable: 0,
    });
    expect(await coll.findOne({ _id: 2 })).toEqual({ _id: 2, n: 2 });
    await coll.insertOne({ _id: 3 });
    expect(await coll.countDocuments({ polluted: 'world' })).toBe(0);
    expect(await coll.countDocuments({ '__proto__.polluted': 'world' })).toBe(1);
    await coll.updateOne({ _id: 1 }, {
      $unset: { '__proto__.polluted': 1 },
      $rename: { constructor: 'toLocaleString' },
      $pop: { hasOwnProperty: 1 },
    } as never);
    expect(await coll.findOne({ _id: 1 }, { projection: { _id: 0, n: 0, path1: 0 } })).toEqual({
      ['__proto__']: {},
      valueOf: 1,
      hasOwnProperty: [],
      toString: 5,
      isPrototypeOf: 'b',
      propertyIsEnumerable: 0,
      toLocaleString: { x: 1 },
    });
  });

  it('queries, projections, sorts, distinct and indexes see only the fields documents have', async () => {
    const coll = collection('inherited_reads');
    await coll.insertMany([
      { _id: 1, constructor: { x: 2 }, valueOf: 'b' },
      { _id: 2, constructor: 'plain', toString: 'a' },
      { _id: 3 },
    ]);
    const ids = (filter: object, sort?: object) => idsOf(coll, filter, sort);
    expect(await ids({ constructor: { $exists: true } })).toEqual([1, 2]);
    expect(await ids({ constructor: { $exists: false } })).toEqual([3]);
    expect(await ids({ toString: { $exists: true } })).toEqual([2]);
    expect(await ids({ hasOwnProperty: null })).toEqual([1, 2, 3]);
    expect(await ids({ 'constructor.x': { $gt: 1 } })).toEqual([1]);
    expect(await ids({ 'constructor.name': { $exists: true } })).toEqual([]);
    expect(await ids({ valueOf: { $type: 'string' } })).toEqual([1]);
    expect(await ids({ $or: [{ toString: 'a' }, { valueOf: 'b' }] })).toEqual([1, 2]);
    expect(await ids({}, { valueOf: -1, _id: 1 })).toEqual([1, 2, 3]);
    expect(await ids({}, { 'constructor.x': 1, _id: 1 })).toEqual([2, 3, 1]);
    expect(await coll.find({}, { projection: { _id: 0, constructor: 1 } }).toArray()).toEqual([
      { constructor: { x: 2 } },
      { constructor: 'plain' },
      {},
    ] as unknown[]);
    expect(
      await coll.find({}, { projection: { _id: 1, 'constructor.name': 1 } }).toArray(),
    ).toEqual([{ _id: 1, constructor: {} }, { _id: 2 }, { _id: 3 }]);
    expect(await coll.distinct('constructor')).toEqual(['plain', { x: 2 }]);
    expect(await coll.distinct('toString.length')).toEqual([]);
    const err = await rejection(coll.find({ valueOf: { $type: 'constructor' } }).toArray());
    expect(err.code).toBe(2);
    expect(err.message).toContain('Unknown type name alias: constructor');

    await coll.createIndex({ constructor: 1 });
    await coll.createIndex({ hasOwnProperty: 1 }, { unique: true, sparse: true });
    expect(await ids({})).toEqual([1, 2, 3]);
    expect(await ids({ constructor: 'plain' })).toEqual([2]);
    expect(await ids({ constructor: null })).toEqual([3]);
    await coll.insertOne({ _id: 4, hasOwnProperty: 'h' });
    const dup = await rejection(coll.insertOne({ _id: 5, hasOwnProperty: 'h' }));
    expect(dup).toMatchObject({
      code: 11000,
      keyPattern: { hasOwnProperty: 1 },
      keyValue: { hasOwnProperty: 'h' },
    });
    await coll.insertOne({ _id: 6 });
    expect(await ids({ hasOwnProperty: 'h' })).toEqual([4]);
  });

  it('aggregations, expressions and pipeline updates read and write such fields as MongoDB does', async () => {
    const coll = collection('inherited_pipelines');
    const other = collection('inherited_pipelines_other');
    await coll.insertMany([
      { _id: 1, constructor: 'k1', o: fromJson('{"__proto__": {"x": 1}, "toString": 2}') },
      { _id: 2, n: 1 },
    ]);
    await other.insertOne({ _id: 10, constructor: 'k1', v: 'joined' });
    const run = (pipeline: object[]) => coll.aggregate(pipeline).toArray();
    expect(
      await run([
        { $group: { _id: '$constructor', toString: { $sum: 1 } } },
        { $sort: { _id: 1 } },
      ]),
    ).toEqual([
      { _id: null, toString: 1 },
      { _id: 'k1', toString: 1 },
    ]);
    expect(await run([{ $project: { constructor: 1 } }])).toEqual([
      { _id: 1, constructor: 'k1' },
      { _id: 2 },
    ] as unknown[]);
    expect(
      await run([{ $match: { _id: 2 } }, { $addFields: { '__proto__.x': 1, valueOf: '$n' } }]),
    ).toEqual([{ _id: 2, n: 1, ['__proto__']: { x: 1 }, valueOf: 1 }]);
    expect(await run([{ $unset: ['constructor', 'o.__proto__'] }, { $match: { _id: 1 } }])).toEqual(
      [{ _id: 1, o: { toString: 2 } }],
    );
    expect(await run([{ $count: 'constructor' }])).toEqual([{ constructor: 2 }]);
    expect(
      await run([
        { $match: { _id: 1 } },
        {
          $project: {
            _id: 0,
            keys: { $map: { input: { $objectToArray: '$o' }, in: '$$this.k' } },
            back: {
              $arrayToObject: [
                [
                  ['__proto__', 5],
                  ['constructor', '$constructor'],
                ],
              ],
            },
            x: '$o.__proto__.x',
          },
        },
      ]),
    ).toEqual([
      {
        keys: ['__proto__', 'toString'],
        back: fromJson('{"__proto__": 5, "constructor": "k1"}'),
        x: 1,
      },
    ]);
    expect(
      await run([
        { $match: { _id: 1 } },
        {
          $lookup: {
            from: other.collectionName,
            localField: 'constructor',
            foreignField: 'constructor',
            as: 'joined',
          },
        },
        { $project: { v: '$joined.v' } },
      ]),
    ).toEqual([{ _id: 1, v: ['joined'] }]);
    expect(await coll.countDocuments({ $expr: { $eq: ['$constructor', 'k1'] } })).toBe(1);
    expect(await coll.countDocuments({ $expr: { $eq: [{ $type: '$toString' }, 'missing'] } })).toBe(
      2,
    );
    expect(
      await coll.findOne({ _id: 1 }, { projection: { _id: 0, x: '$o.toString', y: '$valueOf' } }),
    ).toEqual({ x: 2 });
    await coll.updateOne({ _id: 2 }, [{ $set: { 's.__proto__.p': 1, hasOwnProperty: '$n' } }]);
    expect(await coll.findOne({ _id: 2 })).toEqual({
      _id: 2,
      n: 1,
      s: { ['__proto__']: { p: 1 } },
      hasOwnProperty: 1,
    });
    expect(await coll.countDocuments({ p: 1 })).toBe(0);
    expect(await coll.countDocuments({ x: 1 })).toBe(0);
    await expect(run([{ $project: { x: '$$toString' } }])).rejects.toThrow(/undefined variable/);
  });

  it('upserts take such fields from the filter, and refuse paths that overlap', async () => {
    const coll = collection('inherited_upserts');
    const res = await coll.updateOne(
      { '__proto__.x': 1, constructor: 'c' },
      { $set: { y: 1 } },
      { upsert: true },
    );
    const doc = await coll.findOne({ _id: res.upsertedId! }, { projection: { _id: 0 } });
    expect(doc).toEqual({ ['__proto__']: { x: 1 }, constructor: 'c', y: 1 });
    expect(await coll.countDocuments({ x: 1 })).toBe(0);
    const overlap = await rejection(
      coll.updateOne({ a: 1, 'a.b': 2 }, { $set: { y: 1 } }, { upsert: true }),
    );
    expect(overlap.code).toBe(54);
    expect(overlap.message).toContain('cannot infer query fields to set, both paths');
    const twice = await rejection(
      coll.updateOne({ a: 1, $and: [{ a: 2 }] }, { $set: { y: 1 } }, { upsert: true }),
    );
    expect(twice.code).toBe(54);
    expect(twice.message).toContain("cannot infer query fields to set, path 'a' is matched twice");
  });
});

describe('driver parity: what the engine does not implement is refused, never ignored', () => {
  it('collation', async () => {
    const coll = collection('collation');
    await coll.insertMany([{ name: 'a' }, { name: 'A' }, { name: 'b' }]);
    await mongoAnswerOrRefusal(
      () => coll.find({ name: 'a' }, { collation: { locale: 'en', strength: 2 } }).toArray(),
      /collation/i,
      (docs) => expect(docs.map((d) => d.name).sort()).toEqual(['A', 'a']),
    );
    await mongoAnswerOrRefusal(
      () => coll.countDocuments({ name: 'b' }, { collation: { locale: 'en', strength: 1 } }),
      /collation/i,
      (n) => expect(n).toBe(1),
    );
    const simple = await coll.find({ name: 'a' }, { collation: { locale: 'simple' } }).toArray();
    expect(simple.map((d) => d.name)).toEqual(['a']);
  });

  it('$jsonSchema validators and the $jsonSchema query operator', async () => {
    await mongoAnswerOrRefusal(
      () =>
        db.createCollection('validated', {
          validator: { $jsonSchema: { bsonType: 'object', required: ['name'] } },
        }),
      /validation|validator|jsonSchema/i,
      async (coll) => {
        await expect(coll.insertOne({ other: 1 })).rejects.toMatchObject({ code: 121 });
        await coll.insertOne({ name: 'ok' });
      },
    );
    const coll = collection('schema_query');
    await coll.insertMany([{ name: 'x' }, { other: 1 }]);
    await mongoAnswerOrRefusal(
      () => coll.find({ $jsonSchema: { required: ['name'] } }).toArray(),
      /jsonSchema/,
      (docs) => expect(docs.map((d) => d.name)).toEqual(['x']),
    );
  });

  it('hint, explain, $where, geo queries, text indexes and $out', async () => {
    const coll = collection('unimplemented');
    await coll.insertMany([
      { n: 1, loc: { type: 'Point', coordinates: [0, 0] }, text: 'red fox' },
      { n: 2, loc: { type: 'Point', coordinates: [50, 50] }, text: 'blue whale' },
    ]);
    await mongoAnswerOrRefusal(
      () => coll.find({}).hint({ _id: 1 }).toArray(),
      /hint/,
      (docs) => expect(docs).toHaveLength(2),
    );
    await mongoAnswerOrRefusal(
      () => coll.find({ n: 1 }).explain(),
      /explain/,
      (plan) => expect(plan).toHaveProperty('queryPlanner'),
    );
    await mongoAnswerOrRefusal(
      () => coll.find({ $where: 'this.n === 2' }).toArray(),
      /\$where/,
      (docs) => expect(docs.map((d) => d.n)).toEqual([2]),
    );
    await mongoAnswerOrRefusal(
      () =>
        coll
          .find({ loc: { $geoWithin: { $centerSphere: [[0, 0], 0.01] } } })
          .project({ _id: 0, n: 1 })
          .toArray(),
      /geoWithin/,
      (docs) => expect(docs).toEqual([{ n: 1 }]),
    );
    await mongoAnswerOrRefusal(
      () => coll.createIndex({ text: 'text' }),
      /[Tt]ext index/,
      async (name) => {
        expect(name).toBe('text_text');
        const found = await coll.find({ $text: { $search: 'fox' } }).toArray();
        expect(found.map((d) => d.n)).toEqual([1]);
      },
    );
    await mongoAnswerOrRefusal(
      () => coll.aggregate([{ $match: { n: 1 } }, { $out: 'unimplemented_out' }]).toArray(),
      /\$out/,
      async () => expect(await collection('unimplemented_out').countDocuments()).toBe(1),
    );
    await mongoAnswerOrRefusal(
      () => coll.createIndex({ loc: '2dsphere' }),
      /2dsphere/,
      (name) => expect(name).toBe('loc_2dsphere'),
    );
  });

  it('transactions get the standalone server’s answer', async () => {
    const session = opened.client.startSession();
    try {
      const outcome = await session
        .withTransaction(async () => {
          await collection('txn').insertOne({ n: 1 }, { session });
        })
        .then(
          () => null,
          (err: MongoServerError) => err,
        );
      // The driver reports IllegalOperation (20) from a standalone server as a retryable-writes
      // error; a replica set runs the transaction.
      const standalone = /retryable writes|Transaction numbers are only allowed/;
      if (engine) expect(outcome?.message).toMatch(standalone);
      else if (outcome) expect(outcome.message).toMatch(standalone);
    } finally {
      await session.endSession();
    }
  });
});
