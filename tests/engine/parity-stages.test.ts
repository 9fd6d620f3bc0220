import { Decimal128, Double, Long, type Db, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from './helpers';

// The pipeline stages that group and join, on the edges where MongoDB 7's documented answer is
// easy to miss: every form of $lookup (localField/foreignField, a pipeline with `let`, both at
// once, nested), $bucket's [lower, upper) bounds and `_id` first, $count with no input, and
// $group's equality of keys.

let opened: TestDb;
let db: Db;

beforeAll(async () => {
  opened = await openTestDb('parity_stages');
  ({ db } = opened);
  await db.collection('orders').insertMany([
    { _id: 1, item: 'a', qty: 2, tags: ['x', 'y'] },
    { _id: 2, item: 'b', qty: 5 },
    { _id: 3, qty: 1 },
  ] as never[]);
  await db
    .collection('items')
    .insertMany([
      { _id: 'a', name: 'A', stock: 10, tag: 'x' },
      { _id: 'b', name: 'B', stock: 1, tag: 'z' },
      { _id: 'n', name: null },
      { _id: 'm' },
    ] as never[]);
});

afterAll(() => opened.close());

const orders = (pipeline: Document[]) =>
  db
    .collection('orders')
    .aggregate([...pipeline, { $sort: { _id: 1 } }])
    .toArray();

describe('$lookup', () => {
  it('joins localField to foreignField, a missing field as null and an array element by element', async () => {
    const joined = await orders([
      { $lookup: { from: 'items', localField: 'item', foreignField: '_id', as: 'found' } },
      { $project: { ids: '$found._id' } },
    ]);
    expect(joined).toEqual([
      { _id: 1, ids: ['a'] },
      { _id: 2, ids: ['b'] },
      { _id: 3, ids: [] },
    ]);
    // A missing local field matches foreign documents where the field is null or missing.
    const byName = await orders([
      { $match: { _id: 3 } },
      { $lookup: { from: 'items', localField: 'item', foreignField: 'name', as: 'found' } },
      { $project: { ids: '$found._id' } },
    ]);
    expect(byName).toEqual([{ _id: 3, ids: ['n', 'm'] }]);
    const byTag = await orders([
      { $match: { _id: 1 } },
      { $lookup: { from: 'items', localField: 'tags', foreignField: 'tag', as: 'found' } },
      { $project: { ids: '$found._id' } },
    ]);
    expect(byTag).toEqual([{ _id: 1, ids: ['a'] }]);
    const nowhere = await orders([
      { $match: { _id: 1 } },
      { $lookup: { from: 'nothing', localField: 'item', foreignField: '_id', as: 'x.found' } },
      { $project: { x: 1 } },
    ]);
    expect(nowhere).toEqual([{ _id: 1, x: { found: [] } }]);
  });

  it('joins first, then runs the pipeline with the let variables, when both are given', async () => {
    const joined = await orders([
      {
        $lookup: {
          from: 'items',
          localField: 'item',
          foreignField: '_id',
          let: { wanted: '$qty' },
          pipeline: [
            { $match: { $expr: { $gt: ['$stock', '$$wanted'] } } },
            { $project: { _id: 0, name: 1 } },
          ],
          as: 'inStock',
        },
      },
      { $project: { inStock: 1 } },
    ]);
    expect(joined).toEqual([
      { _id: 1, inStock: [{ name: 'A' }] },
      { _id: 2, inStock: [] },
      { _id: 3, inStock: [] },
    ]);
  });

  it('matches on let variables through $expr, and nests lookups that see the outer variables', async () => {
    const joined = await orders([
      {
        $lookup: {
          from: 'items',
          let: { item: '$item', qty: '$qty' },
          pipeline: [
            { $match: { $expr: { $eq: ['$_id', '$$item'] } } },
            {
              $lookup: {
                from: 'orders',
                let: { tag: '$tag' },
                pipeline: [
                  {
                    $match: {
                      $expr: {
                        $and: [
                          { $in: ['$$tag', { $ifNull: ['$tags', []] }] },
                          { $eq: ['$qty', '$$qty'] },
                        ],
                      },
                    },
                  },
                  { $project: { _id: 1 } },
                ],
                as: 'sameTag',
              },
            },
            { $project: { sameTag: 1 } },
          ],
          as: 'item',
        },
      },
      { $project: { item: 1 } },
    ]);
    expect(joined).toEqual([
      { _id: 1, item: [{ _id: 'a', sameTag: [{ _id: 1 }] }] },
      { _id: 2, item: [{ _id: 'b', sameTag: [] }] },
      { _id: 3, item: [] },
    ]);
  });
});

describe('$graphLookup', () => {
  it('searches from startWith through the graph, each document once, within maxDepth and the match', async () => {
    const employees = db.collection('employees');
    await employees.insertMany([
      { _id: 1, name: 'Dev' },
      { _id: 2, name: 'Eliot', reportsTo: 'Dev', office: 'NY' },
      { _id: 3, name: 'Ron', reportsTo: 'Eliot', office: 'NY' },
      { _id: 4, name: 'Andrew', reportsTo: 'Eliot', office: 'SF' },
      { _id: 5, name: 'Asya', reportsTo: 'Ron' },
      { _id: 6, name: 'Dan', reportsTo: 'Andrew' },
    ] as never[]);
    const chain = (extra: Document) =>
      employees
        .aggregate([
          { $match: { _id: 5 } },
          {
            $graphLookup: {
              from: 'employees',
              startWith: '$reportsTo',
              connectFromField: 'reportsTo',
              connectToField: 'name',
              as: 'chain',
              depthField: 'depth',
              ...extra,
            },
          },
          { $unwind: '$chain' },
          { $sort: { 'chain.depth': 1 } },
          { $project: { _id: 0, name: '$chain.name', depth: '$chain.depth' } },
        ])
        .toArray();
    expect(await chain({})).toEqual([
      { name: 'Ron', depth: 0 },
      { name: 'Eliot', depth: 1 },
      { name: 'Dev', depth: 2 },
    ]);
    expect(await chain({ maxDepth: 1 })).toEqual([
      { name: 'Ron', depth: 0 },
      { name: 'Eliot', depth: 1 },
    ]);
    // The match limits the documents reached: Dev has no office, so the search stops at Eliot.
    expect(await chain({ restrictSearchWithMatch: { office: 'NY' } })).toEqual([
      { name: 'Ron', depth: 0 },
      { name: 'Eliot', depth: 1 },
    ]);
  });
});

describe('$match later in a pipeline', () => {
  it('evaluates $expr on dotted paths', async () => {
    const found = await orders([
      { $project: { o: { qty: '$qty' } } },
      { $match: { $expr: { $gt: ['$o.qty', 1] } } },
    ]);
    expect(found).toEqual([
      { _id: 1, o: { qty: 2 } },
      { _id: 2, o: { qty: 5 } },
    ]);
  });
});

describe('$bucket, $count and $group', () => {
  beforeAll(async () => {
    await db
      .collection('values')
      .insertMany([{ v: 0 }, { v: 10 }, { v: 19.999 }, { v: 20 }, { v: 35 }, { v: 'x' }, {}]);
  });

  it('$bucket puts each value in [lower, upper), writes _id first, and sorts the default by type', async () => {
    const buckets = await db
      .collection('values')
      .aggregate([
        {
          $bucket: {
            groupBy: '$v',
            boundaries: [0, 10, 20, 30],
            default: 'other',
            output: { n: { $sum: 1 }, values: { $push: '$v' } },
          },
        },
      ])
      .toArray();
    expect(buckets).toEqual([
      { _id: 0, n: 1, values: [0] },
      { _id: 10, n: 2, values: [10, 19.999] },
      { _id: 20, n: 1, values: [20] },
      { _id: 'other', n: 3, values: [35, 'x'] },
    ]);
    for (const b of buckets) expect(Object.keys(b)[0]).toBe('_id');
    await expect(
      db
        .collection('values')
        .aggregate([{ $bucket: { groupBy: '$v', boundaries: [0, 10, 20, 30] } }])
        .toArray(),
    ).rejects.toMatchObject({ code: 40066 });
    await expect(
      db
        .collection('values')
        .aggregate([{ $bucket: { groupBy: '$v', boundaries: [0, 10], default: 5 } }])
        .toArray(),
    ).rejects.toMatchObject({ code: 40199 });
  });

  it('$count emits no document for no input', async () => {
    expect(
      await db
        .collection('values')
        .aggregate([{ $match: { v: 'none' } }, { $count: 'n' }])
        .toArray(),
    ).toEqual([]);
    expect(
      await db
        .collection('values')
        .aggregate([{ $count: 'n' }])
        .toArray(),
    ).toEqual([{ n: 7 }]);
  });

  it('$group holds equal numbers of any type as one key, and a document’s field order as part of it', async () => {
    const coll = db.collection('keys');
    await coll.insertMany([
      { k: 1 },
      { k: 1.0 },
      { k: Decimal128.fromString('1.00') },
      { k: Long.fromNumber(1) },
      { k: { a: 1, b: 2 } },
      { k: { b: 2, a: 1 } },
      { k: null },
      {},
      { k: Decimal128.fromString('0.1') },
      { k: Decimal128.fromString('0.10') },
      // The double 0.1 is not the decimal 0.1.
      { k: 0.1 },
    ]);
    const groups = await coll
      .aggregate([{ $group: { _id: '$k', n: { $sum: 1 } } }, { $sort: { n: -1, _id: 1 } }])
      .toArray();
    expect(groups.map((g) => g.n)).toEqual([4, 2, 2, 1, 1, 1]);
    expect(groups[1]!._id).toBeNull();
    expect(groups[2]!._id).toEqual(Decimal128.fromString('0.1'));
    const distinct = await coll
      .aggregate([
        { $group: { _id: null, k: { $addToSet: '$k' } } },
        { $project: { n: { $size: '$k' } } },
      ])
      .toArray();
    expect(distinct).toEqual([{ _id: null, n: 6 }]);
  });

  it('$group by a document of expressions sums, averages, pushes and collects as MongoDB does', async () => {
    const coll = db.collection('sums');
    await coll.insertMany([
      { g: 'a', v: 1, w: 1 },
      { g: 'a', v: Long.fromNumber(2), w: new Double(1) },
      { g: 'a', v: 2.5, w: Decimal128.fromString('1.00') },
      // Not numbers: no part of a sum or an average; a missing value is neither pushed nor collected.
      { g: 'a', v: 'text' },
      { g: 'a', v: null },
      { g: 'a' },
      { g: 1, v: Decimal128.fromString('0.1') },
      { g: new Double(1), v: Decimal128.fromString('0.2') },
      { g: Long.fromNumber(1), v: 3 },
      { g: 'b', v: 'only text' },
    ]);
    const groups = await coll
      .aggregate([
        {
          $group: {
            _id: { g: '$g', kind: { $literal: 'x' } },
            n: { $sum: 1 },
            total: { $sum: '$v' },
            mean: { $avg: '$v' },
            twice: { $sum: { $multiply: [{ $cond: [{ $isNumber: '$v' }, '$v', 0] }, 2] } },
            values: { $push: '$v' },
            distinct: { $addToSet: '$v' },
            weights: { $addToSet: '$w' },
            first: { $first: '$v' },
          },
        },
      ])
      .toArray();
    const byKey = new Map(groups.map((g) => [String(g._id.g), g]));
    expect(groups).toHaveLength(3);
    const a = byKey.get('a')!;
    expect(a).toMatchObject({ _id: { g: 'a', kind: 'x' }, n: 6, total: 5.5, twice: 11, first: 1 });
    expect(a.mean).toBeCloseTo(5.5 / 3, 15);
    expect(a.values).toEqual([1, 2, 2.5, 'text', null]);
    expect(a.distinct).toHaveLength(5);
    expect(a.distinct).toEqual(expect.arrayContaining([1, 2, 2.5, 'text', null]));
    // 1, 1.0 and 1.00 are one value.
    expect(a.weights).toHaveLength(1);
    // 1, 1.0 and the long 1 are one key; decimals sum in decimal.
    const one = byKey.get('1')!;
    expect(one.n).toBe(3);
    expect(String(one.total)).toBe('3.3');
    expect(one.distinct).toHaveLength(3);
    expect(byKey.get('b')).toMatchObject({ n: 1, total: 0, mean: null, twice: 0 });
  });
});

describe('$bucketAuto and $setWindowFields', () => {
  it('$bucketAuto fills buckets of about equal size, _id first, the last bound the greatest value', async () => {
    const coll = db.collection('auto');
    await coll.insertMany([1, 2, 3, 4, 5].map((v) => ({ v })));
    const buckets = await coll
      .aggregate([{ $bucketAuto: { groupBy: '$v', buckets: 2 } }])
      .toArray();
    expect(buckets).toEqual([
      { _id: { min: 1, max: 4 }, count: 3 },
      { _id: { min: 4, max: 5 }, count: 2 },
    ]);
    expect(Object.keys(buckets[0]!)[0]).toBe('_id');
  });

  it('$setWindowFields ranks and sums over a sorted window, and knows only MongoDB 7’s functions', async () => {
    const coll = db.collection('window');
    await coll.insertMany([1, 2, 3].map((v) => ({ v })));
    const out = await coll
      .aggregate([
        {
          $setWindowFields: {
            sortBy: { v: -1 },
            output: {
              rank: { $rank: {} },
              running: { $sum: '$v', window: { documents: ['unbounded', 'current'] } },
            },
          },
        },
        { $project: { _id: 0 } },
      ])
      .toArray();
    expect(out).toEqual([
      { v: 3, rank: 1, running: 3 },
      { v: 2, rank: 2, running: 5 },
      { v: 1, rank: 3, running: 6 },
    ]);
    await expect(
      coll
        .aggregate([
          {
            $setWindowFields: {
              sortBy: { v: 1 },
              output: { m: { $minMaxScaler: { input: '$v' } } },
            },
          },
        ])
        .toArray(),
    ).rejects.toMatchObject({ code: 9 });
  });
});
