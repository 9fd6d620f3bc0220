import { deserialize, serialize } from 'bson';
import fc from 'fast-check';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongoHere, type EmbeddedMongo } from '../../embedded-mongo';
import { isEngine, startTarget, type Target, tearDown, uniqueDbName } from './helpers';

// A name a plain object inherits, or otherwise special to JavaScript, must behave as any other
// field name. Each scenario runs twice: once with these names, once with each of them renamed to an
// ordinary name that sorts the same way (`constructor` → `constructor_`). Every answer of the first
// run, renamed, must be the answer of the second; and after every step the prototypes of the
// process running the engine must be untouched. The engine runs in this process for that check;
// with MONGODB_URI set to a MongoDB, the scenarios run there.

const SPECIAL = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'isPrototypeOf',
];

type World = 'special' | 'plain';
const nameIn = (world: World, name: string): string =>
  world === 'plain' && SPECIAL.includes(name) ? name + '_' : name;
const pathIn = (world: World, path: string[]): string =>
  path.map((p) => nameIn(world, p)).join('.');

/** Field names: mostly the special ones. */
const name = fc.oneof(
  { arbitrary: fc.constantFrom(...SPECIAL), weight: 3 },
  fc.constantFrom('a', 'b', '0'),
);

/** A value; documents are lists of fields so that their names can be rendered in either world. */
type Value = null | boolean | number | string | Value[] | { fields: Array<[string, Value]> };

/** An object with these own fields, `__proto__` included. */
function own(fields: Array<[string, unknown]>): Document {
  const out: Document = {};
  for (const [k, v] of fields)
    Object.defineProperty(out, k, {
      value: v,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return out;
}

function render(world: World, v: Value): unknown {
  if (Array.isArray(v)) return v.map((x) => render(world, x));
  if (v !== null && typeof v === 'object')
    return own(v.fields.map(([k, x]) => [nameIn(world, k), render(world, x)]));
  return v;
}

// Few values, so that filters and documents meet.
const scalar = fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constantFrom('v', true, null));
const { value } = fc.letrec<{ value: Value; doc: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 3 }),
    tie('doc'),
  ),
  doc: fc
    .uniqueArray(fc.tuple(name, tie('value')), { maxLength: 3, selector: ([k]) => k })
    .map((fields) => ({ fields })),
}));
const path = fc.array(
  fc.oneof({ arbitrary: name, weight: 4 }, fc.constantFrom('0', '1', '$x', '$id')),
  { minLength: 1, maxLength: 3 },
);
const int = fc.integer({ min: -3, max: 3 });

type Update = [operator: string, path: string[], arg: unknown];
const update: fc.Arbitrary<Update> = fc.oneof(
  fc.tuple(
    fc.constantFrom('$set', '$setOnInsert', '$min', '$max', '$push', '$addToSet', '$pull'),
    path,
    value,
  ),
  fc.tuple(fc.constantFrom('$inc', '$mul'), path, int),
  fc.tuple(fc.constant('$unset'), path, fc.constant('')),
  fc.tuple(fc.constant('$rename'), path, path),
  fc.tuple(fc.constant('$pop'), path, fc.constantFrom(1, -1)),
  fc.tuple(fc.constant('$pullAll'), path, fc.array(value, { maxLength: 2 })),
  fc.tuple(
    fc.constant('$push'),
    path,
    fc.array(value, { maxLength: 2 }).map((each) => ({ each })),
  ),
  fc.tuple(fc.constant('$currentDate'), path, fc.constant(true)),
  fc.tuple(fc.constant('$bit'), path, fc.record({ and: int })),
);

function renderUpdate(world: World, entries: Update[]): Document {
  const out: Document = {};
  for (const [operator, p, arg] of entries) {
    let rendered: unknown;
    if (operator === '$rename') rendered = pathIn(world, arg as string[]);
    else if (operator === '$push' && arg && typeof arg === 'object' && 'each' in arg)
      rendered = { $each: render(world, (arg as { each: Value[] }).each) };
    else if (operator === '$pullAll') rendered = render(world, arg as Value[]);
    else if (operator === '$bit') rendered = arg;
    else rendered = render(world, arg as Value);
    out[operator] = own([...Object.entries(out[operator] ?? {}), [pathIn(world, p), rendered]]);
  }
  return out;
}

type Condition = (world: World) => unknown;
const condition: fc.Arbitrary<Condition> = fc.oneof(
  value.map((v) => (w: World) => render(w, v)),
  fc.boolean().map((b) => () => ({ $exists: b })),
  fc
    .tuple(fc.constantFrom('$eq', '$ne', '$gt', '$gte', '$lt', '$lte'), value)
    .map(([op, v]) => (w: World) => ({ [op]: render(w, v) })),
  fc
    .tuple(fc.constantFrom('$in', '$nin', '$all'), fc.array(value, { maxLength: 2 }))
    .map(([op, vs]) => (w: World) => ({ [op]: render(w, vs) })),
  fc.constantFrom('number', 'object', 'array', 'string', 'null').map((t) => () => ({ $type: t })),
  fc.integer({ min: 0, max: 2 }).map((n) => () => ({ $size: n })),
  fc.tuple(path, value).map(([p, v]) => (w: World) => ({
    $elemMatch: own([[pathIn(w, p), render(w, v)]]),
  })),
  value.map((v) => (w: World) => ({ $not: { $eq: render(w, v) } })),
  fc.constantFrom({ $regex: '^v' }, { $mod: [2, 0] }, { $bitsAllSet: 1 }).map((c) => () => c),
);
const filter: fc.Arbitrary<(world: World) => Document> = fc.oneof(
  fc.tuple(path, condition).map(
    ([p, c]) =>
      (w: World) =>
        own([[pathIn(w, p), c(w)]]),
  ),
  fc.tuple(path, value).map(([p, v]) => (w: World) => ({
    $expr: { $eq: ['$' + pathIn(w, p), { $literal: render(w, v) }] },
  })),
  fc
    .tuple(
      fc.constantFrom('$or', '$and', '$nor'),
      fc.array(fc.tuple(path, condition), { minLength: 1, maxLength: 2 }),
    )
    .map(([op, subs]) => (w: World) => ({
      [op]: subs.map(([p, c]) => own([[pathIn(w, p), c(w)]])),
    })),
);

function projectionFor(w: World, p: string[], how: string): Document {
  switch (how) {
    case 'elemMatch':
      return own([
        [
          nameIn(w, p[0]!),
          { $elemMatch: own([[pathIn(w, p.slice(1).length ? p.slice(1) : p), { $exists: true }]]) },
        ],
      ]);
    case 'positional':
      return own([[pathIn(w, p) + '.$', 1]]);
    case 'nested':
      return own([[nameIn(w, p[0]!), p.length > 1 ? own([[pathIn(w, p.slice(1)), 1]]) : 1]]);
    case 'slice':
      return own([[pathIn(w, p), { $slice: 1 }]]);
    case 'computed':
      return { _id: 0, out: '$' + pathIn(w, p) };
    default:
      return own([[pathIn(w, p), how === 'include' ? 1 : 0]]);
  }
}

/** One step, run in each world; its answer is compared across them. */
type Coll = Collection<{ _id: number } & Document>;
type Step = (coll: Coll, world: World) => Promise<unknown>;
const ids = (docs: Document[]) => docs.map((d) => d._id as unknown);
const step: fc.Arbitrary<{ label: string; run: Step; set?: [string[], Value] }> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.array(update, { minLength: 1, maxLength: 2 }), fc.constantFrom(1, 2))
      .map(([entries, id]) => ({
        label: `update ${JSON.stringify(entries)}`,
        run: async (coll: Coll, w: World) => {
          const r = await coll.updateOne({ _id: id }, renderUpdate(w, entries));
          return [r.matchedCount, r.modifiedCount];
        },
        set:
          entries.length === 1 && entries[0]![0] === '$set' && id === 1
            ? ([entries[0]![1], entries[0]![2] as Value] as [string[], Value])
            : undefined,
      })),
  },
  fc.tuple(path, value).map(([p, v]) => ({
    label: `pipeline $set ${p.join('.')}`,
    run: async (coll: Coll, w: World) =>
      (
        await coll.updateOne({ _id: 2 }, [
          { $set: own([[pathIn(w, p), { $literal: render(w, v) }]]) },
        ])
      ).modifiedCount,
  })),
  filter.map((f) => ({
    label: 'find',
    run: async (coll: Coll, w: World) => ids(await coll.find(f(w)).sort({ _id: 1 }).toArray()),
  })),
  fc
    .tuple(
      path,
      fc.constantFrom(
        'include',
        'exclude',
        'nested',
        'slice',
        'computed',
        'elemMatch',
        'positional',
      ),
    )
    .map(([p, how]) => ({
      label: `projection ${how} ${p.join('.')}`,
      run: (coll: Coll, w: World) =>
        coll
          .find(how === 'positional' ? own([[pathIn(w, p), { $exists: true }]]) : {}, {
            projection: projectionFor(w, p, how),
          })
          .sort({ _id: 1 })
          .toArray(),
    })),
  fc.tuple(path, fc.constantFrom(1, -1)).map(([p, dir]) => ({
    label: `sort ${p.join('.')}`,
    run: async (coll: Coll, w: World) =>
      ids(
        await coll
          .find({}, { projection: { _id: 1 } })
          .sort(
            own([
              [pathIn(w, p), dir],
              ['_id', 1],
            ]),
          )
          .toArray(),
      ),
  })),
  path.map((p) => ({
    label: `distinct ${p.join('.')}`,
    run: (coll: Coll, w: World) => coll.distinct(pathIn(w, p)),
  })),
  fc.tuple(path, path).map(([p, q]) => ({
    label: `aggregate ${p.join('.')}`,
    run: (coll: Coll, w: World) =>
      coll
        .aggregate([
          { $addFields: own([[pathIn(w, q), '$' + pathIn(w, p)]]) },
          { $group: { _id: '$' + pathIn(w, p), n: { $sum: 1 }, q: { $push: '$' + pathIn(w, q) } } },
          { $sort: { _id: 1 } },
        ])
        .toArray(),
  })),
  fc.tuple(path, fc.boolean()).map(([p, unique]) => ({
    label: `index ${p.join('.')}`,
    run: async (coll: Coll, w: World) => {
      await coll.createIndex(own([[pathIn(w, p), 1]]), {
        unique,
        name: `${pathIn('plain', p)}${unique ? ' unique' : ''}`,
      });
      return ids(
        await coll
          .find(own([[pathIn(w, p), null]]))
          .sort({ _id: 1 })
          .toArray(),
      );
    },
  })),
  fc.tuple(path, value, path, value).map(([p, v, q, x]) => ({
    label: `upsert ${p.join('.')} ${q.join('.')}`,
    run: async (coll: Coll, w: World) =>
      (
        await coll.updateOne(
          own([
            ['_id', 3],
            [pathIn(w, p), render(w, v)],
          ]),
          {
            $set: own([[pathIn(w, q), render(w, x)]]),
          },
          { upsert: true },
        )
      ).upsertedCount,
  })),
);

const document = fc
  .uniqueArray(fc.tuple(name, value), { minLength: 2, maxLength: 5, selector: ([k]) => k })
  .map((fields) => ({ fields }));
const scenario = fc.record({
  docs: fc.tuple(document, document),
  steps: fc.array(step, { minLength: 1, maxLength: 8 }),
});

/** A value as BSON gives it back, with its number types. */
function roundTrip(v: unknown): unknown {
  return deserialize(serialize({ v }), READ).v;
}

/** A value as text, names as in the plain world; dates are the same text (`$currentDate` differs by a moment). */
function canonical(v: unknown, world: World): string {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return '[' + v.map((x) => canonical(x, world)).join(',') + ']';
  if (v instanceof Date) return 'date';
  if (typeof v !== 'object') return JSON.stringify(v);
  const type = (v as { _bsontype?: string })._bsontype;
  if (type === 'Timestamp') return 'timestamp';
  if (type) return `${type}(${String(v)})`;
  return (
    '{' +
    Object.keys(v)
      .map(
        (k) =>
          JSON.stringify(world === 'special' ? nameIn('plain', k) : k) +
          ':' +
          canonical((v as Document)[k], world),
      )
      .join(',') +
    '}'
  );
}

/** What a step answered: its result as text, or the error code the server gave. */
async function outcome(run: () => Promise<unknown>, world: World): Promise<string> {
  try {
    return 'ok ' + canonical(await run(), world);
  } catch (err) {
    const { code, name } = err as { code?: unknown; name?: string };
    return code === undefined ? `client ${name}` : `error ${Number(code)}`;
  }
}

/** The own value at a path, through documents and arrays. */
function at(doc: unknown, p: string[]): unknown {
  let v = doc;
  for (const part of p) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, part)) return undefined;
    v = (v as Document)[part];
  }
  return v;
}

function prototypes(): unknown[] {
  return [Object.prototype, Array.prototype].map((proto) => [
    Object.getPrototypeOf(proto),
    Object.getOwnPropertyNames(proto).map((name) => [
      name,
      Object.getOwnPropertyDescriptor(proto, name),
    ]),
  ]);
}

const READ = { promoteValues: false, promoteLongs: false, fieldsAsRaw: Object.create(null) };

let target: Target;
let local: EmbeddedMongo | null = null;
let client: MongoClient;
let dbName: string;

beforeAll(async () => {
  target = await startTarget();
  const probe = await MongoClient.connect(target.uri);
  const engine = await isEngine(probe.db('admin'));
  await probe.close();
  if (engine) local = await startEmbeddedMongoHere();
  // Read every value with its BSON type; and without the driver's `fieldsAsRaw` default, an
  // object that has every inherited name, so that it reads an array of documents under one of
  // them as documents, not as raw bytes.
  client = await MongoClient.connect(local ? local.uri : target.uri, READ);
  dbName = uniqueDbName('inherited_names');
});

afterAll(() => tearDown(client?.db(dbName), client, local, target));

describe('names every object inherits', () => {
  it('behave as ordinary field names in every operator, and reach no prototype', async () => {
    const before = prototypes();
    const db = client.db(dbName);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ docs, steps }) => {
        n++;
        const colls: Record<World, Coll> = {
          special: db.collection(`s${n}`),
          plain: db.collection(`p${n}`),
        };
        for (const world of ['special', 'plain'] as const) {
          const sent = docs.map((d, i) =>
            own([['_id', i + 1], ...Object.entries(render(world, d) as Document)]),
          );
          await colls[world].insertMany(sent as never[]);
          const stored = await colls[world].find({}).sort({ _id: 1 }).toArray();
          expect(canonical(stored, world)).toBe(canonical(roundTrip(sent), world));
        }
        for (const { label, run, set } of steps) {
          const special = await outcome(() => run(colls.special, 'special'), 'special');
          const plain = await outcome(() => run(colls.plain, 'plain'), 'plain');
          expect(special, label).toBe(plain);
          expect(prototypes(), label).toEqual(before);
          const [a, b] = await Promise.all(
            (['special', 'plain'] as const).map(async (w) =>
              canonical(await colls[w].find({}).sort({ _id: 1 }).toArray(), w),
            ),
          );
          expect(a, label).toBe(b);
          if (set && special.startsWith('ok')) {
            const doc = await colls.special.findOne({ _id: 1 });
            expect(canonical(at(doc, set[0]), 'special'), label).toBe(
              canonical(roundTrip(render('special', set[1])), 'special'),
            );
          }
        }
      }),
      { seed: 0x5eed, numRuns: 100 },
    );
  });

  it('reach the driver as the plain BSON of the document; reading them as raw bytes is bson’s', async () => {
    // The driver decodes with `fieldsAsRaw: {}`, and bson looks an array's name up in that object
    // with inherited properties: `constructor`, `toString`, … name something there, so an array of
    // documents under such a name comes out as raw BSON. A MongoDB answers the same bytes.
    const plain = await MongoClient.connect(local ? local.uri : target.uri);
    try {
      const coll = plain.db(dbName).collection<Document>('raw_reads');
      const sent = { _id: 1, constructor: [{ a: 1 }], toString: [{ b: 2 }], list: [{ c: 3 }] };
      await coll.insertOne(sent as never);
      const [bytes] = (await coll.find({}, { raw: true }).toArray()) as unknown as Uint8Array[];
      expect(deserialize(bytes!)).toEqual(sent);
      const decoded = await coll.findOne({ _id: 1 as never });
      expect(decoded).toEqual(deserialize(bytes!, { fieldsAsRaw: {} }));
      expect(decoded!.list).toEqual([{ c: 3 }]);
      expect(Buffer.isBuffer((decoded!['constructor'] as unknown as unknown[])[0])).toBe(true);
    } finally {
      await plain.close();
    }
  });
});
