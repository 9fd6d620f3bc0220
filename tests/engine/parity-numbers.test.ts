import { Decimal128, Double, Int32, Long, type Collection, type Db, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from './helpers';

// Int64 beyond 2^53 and Decimal128, exactly as MongoDB 7 keeps, compares and computes them: no
// value goes through a double on the way, Decimal128 arithmetic is IEEE decimal128 (34 digits,
// ties to even, trailing zeros kept) and doubles widen to Decimal128 with 15 digits. The expected
// answers are MongoDB's documented ones (and its own jstests/decimal cases).

let opened: TestDb;
let db: Db;

beforeAll(async () => {
  opened = await openTestDb('parity_numbers');
  ({ db } = opened);
});

afterAll(() => opened.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const collection = (name: string) => db.collection(name) as unknown as Collection<any>;

const TWO_53 = '9007199254740992';
const long = (s: string) => Long.fromString(s);
const dec = (s: string) => Decimal128.fromString(s);
const raw = { promoteValues: false, promoteLongs: false } as const;

/** The values an expression takes in $project for the one document, as stored BSON types. */
async function evaluate(coll: Collection, expr: unknown): Promise<unknown> {
  const [out] = await coll.aggregate([{ $project: { _id: 0, r: expr } }], raw).toArray();
  return out!.r;
}

/** The code of the error the expression fails with, or null when it does not fail. */
async function failureCode(coll: Collection, expr: unknown): Promise<number | null> {
  return evaluate(coll, expr).then(
    () => null,
    (err: { code: unknown }) => Number(err.code),
  );
}

/** A Decimal128 or Long as its text, so that `1.50` and `1.5` stay apart. */
const text = (v: unknown): string =>
  v instanceof Decimal128 || v instanceof Long ? `${v._bsontype}(${v.toString()})` : String(v);

describe('Int64 beyond 2^53', () => {
  it('tells neighbouring longs apart in _id, unique indexes, equality, ranges and sorts', async () => {
    const coll = collection('longs');
    await coll.createIndex({ v: 1 }, { unique: true });
    await coll.insertMany([
      { _id: long('9007199254740993'), v: long('9007199254740993') },
      { _id: long(TWO_53), v: long(TWO_53) },
      { _id: long('9007199254740994'), v: long('9007199254740994') },
    ]);
    const ids = async (filter: Document, sort: Document = { v: 1 }) =>
      (await coll.find(filter, raw).sort(sort).toArray()).map((d) => (d._id as Long).toString());
    expect(await ids({ v: long('9007199254740993') })).toEqual(['9007199254740993']);
    expect(await ids({ _id: long('9007199254740993') })).toEqual(['9007199254740993']);
    // The double 2^53 equals the long 2^53 only.
    expect(await ids({ v: 9007199254740992 })).toEqual([TWO_53]);
    expect(await ids({ v: { $gt: long(TWO_53) } })).toEqual([
      '9007199254740993',
      '9007199254740994',
    ]);
    expect(await ids({ v: { $lte: long('9007199254740993') } }, { v: -1 })).toEqual([
      '9007199254740993',
      TWO_53,
    ]);
    expect(await ids({})).toEqual([TWO_53, '9007199254740993', '9007199254740994']);
    await expect(coll.insertOne({ v: long('9007199254740993') })).rejects.toMatchObject({
      code: 11000,
    });
  });

  it('adds with $inc and $mul without rounding, and refuses to overflow 64 bits', async () => {
    const coll = collection('inc');
    await coll.insertMany([
      { _id: 1, v: long(TWO_53), i: 2147483647 },
      { _id: 2, v: long('9223372036854775807') },
    ]);
    await coll.updateOne({ _id: 1 }, { $inc: { v: long('1'), i: 1 } });
    const one = await coll.findOne({ _id: 1 }, raw);
    expect(text(one!.v)).toBe('Long(9007199254740993)');
    // An int that outgrows 32 bits becomes a long.
    expect(text(one!.i)).toBe('Long(2147483648)');
    await coll.updateOne({ _id: 1 }, { $mul: { v: long('3') } });
    expect(text((await coll.findOne({ _id: 1 }, raw))!.v)).toBe('Long(27021597764222979)');
    await expect(coll.updateOne({ _id: 2 }, { $inc: { v: 1 } })).rejects.toMatchObject({
      code: 2,
      message:
        'Failed to apply $inc operations to current value ((NumberLong)9223372036854775807) for document {_id: 2}',
    });
  });

  it('sums and computes longs exactly in aggregation', async () => {
    const coll = collection('sums');
    await coll.insertMany([
      { g: 1, v: long('9007199254740993') },
      { g: 1, v: long('9007199254740993') },
      { g: 1, v: 1 },
    ]);
    const [sum] = await coll
      .aggregate([{ $group: { _id: '$g', s: { $sum: '$v' }, a: { $avg: '$v' } } }], raw)
      .toArray();
    expect(text(sum!.s)).toBe('Long(18014398509481987)');
    // Neighbouring longs are three groups.
    await coll.insertOne({ g: 2, v: long('9007199254740992') });
    const groups = await coll
      .aggregate([{ $match: { g: { $exists: true } } }, { $group: { _id: '$v' } }])
      .toArray();
    expect(groups.length).toBe(3);
    await coll.deleteMany({ g: 2 });
    expect(await evaluate(coll, { $add: ['$v', long('1')] })).toEqual(long('9007199254740994'));
    expect(text(await evaluate(coll, { $subtract: ['$v', 1] }))).toBe('Long(9007199254740992)');
    expect(text(await evaluate(coll, { $multiply: ['$v', 2] }))).toBe('Long(18014398509481986)');
    // A long sum past 64 bits becomes a double, as in MongoDB.
    expect(
      await evaluate(coll, { $add: [long('9223372036854775807'), long('9223372036854775807')] }),
    ).toEqual(new Double(2 ** 64));
  });
});

describe('Decimal128', () => {
  it('computes exactly, keeping trailing zeros as IEEE decimal128 does', async () => {
    const coll = collection('dec');
    await coll.insertOne({ a: dec('1.50'), b: dec('1.5'), c: dec('1.10'), d: dec('1') });
    const cases: Array<[unknown, string]> = [
      [{ $add: ['$a', '$b'] }, 'Decimal128(3.00)'],
      [{ $add: ['$a', 1] }, 'Decimal128(2.50)'],
      [{ $add: [dec('0.1'), dec('0.2')] }, 'Decimal128(0.3)'],
      [{ $subtract: ['$d', dec('1.00')] }, 'Decimal128(0.00)'],
      [{ $multiply: ['$c', 3] }, 'Decimal128(3.30)'],
      [{ $divide: ['$d', 3] }, 'Decimal128(0.3333333333333333333333333333333333)'],
      [{ $divide: [dec('10'), 4] }, 'Decimal128(2.5)'],
      [{ $divide: [dec('2'), dec('3')] }, 'Decimal128(0.6666666666666666666666666666666667)'],
      // A double widens with 15 significant digits.
      [{ $add: ['$d', 0.5] }, 'Decimal128(1.500000000000000)'],
      [{ $sum: [dec('0.1'), dec('0.2'), dec('0.3')] }, 'Decimal128(0.6)'],
      [{ $avg: [dec('0.1'), dec('0.2'), dec('0.3')] }, 'Decimal128(0.2)'],
      [{ $round: [dec('2.345'), 2] }, 'Decimal128(2.34)'],
      [{ $trunc: [dec('12.345'), 1] }, 'Decimal128(12.3)'],
    ];
    for (const [expr, expected] of cases)
      expect(text(await evaluate(coll, expr)), JSON.stringify(expr)).toBe(expected);
    expect(await failureCode(coll, { $divide: ['$a', dec('0')] })).toBe(2);
  });

  it('sums Decimal128 in $group without a double on the way', async () => {
    const coll = collection('ledger');
    const amounts = ['0.10', '0.20', '0.30', '1234567890123456789.01', '-0.01'];
    await coll.insertMany(amounts.map((amount) => ({ account: 'a', amount: dec(amount) })));
    const [total] = await coll
      .aggregate([{ $group: { _id: '$account', total: { $sum: '$amount' } } }], raw)
      .toArray();
    expect(text(total!.total)).toBe('Decimal128(1234567890123456789.60)');
    expect(await evaluate(coll, { $eq: [dec('1.0'), 1] })).toBe(true);
    expect(await evaluate(coll, { $lt: [dec('0.1'), 0.1] })).toBe(true);
  });

  it('adds and multiplies Decimal128 with $inc and $mul, a double widened to 15 digits', async () => {
    const coll = collection('balance');
    await coll.insertOne({ _id: 'balance', v: dec('0') });
    for (let i = 0; i < 3; i++)
      await coll.updateOne({ _id: 'balance' }, { $inc: { v: dec('0.1') } });
    expect(text((await coll.findOne({ _id: 'balance' }, raw))!.v)).toBe('Decimal128(0.3)');
    await coll.updateOne({ _id: 'balance' }, { $inc: { v: 0.1 } });
    expect(text((await coll.findOne({ _id: 'balance' }, raw))!.v)).toBe(
      'Decimal128(0.400000000000000)',
    );
    await coll.updateOne({ _id: 'balance' }, { $mul: { v: 2 } });
    expect(text((await coll.findOne({ _id: 'balance' }, raw))!.v)).toBe(
      'Decimal128(0.800000000000000)',
    );
  });

  it('compares 0.10 and 0.1 as one number, and Decimal128 0.1 apart from the double 0.1', async () => {
    const coll = collection('compare');
    await coll.insertMany([
      { _id: 'd0.1', v: dec('0.1') },
      { _id: 'd0.10', v: dec('0.10') },
      { _id: 'f0.1', v: 0.1 },
      { _id: 'd0.3', v: dec('0.3') },
      { _id: 'f0.3', v: 0.3 },
      { _id: 'dNaN', v: dec('NaN') },
      { _id: 'fNaN', v: NaN },
    ]);
    const ids = async (filter: Document) =>
      (await coll.find(filter).sort({ _id: 1 }).toArray()).map((d) => d._id);
    expect(await ids({ v: dec('0.1') })).toEqual(['d0.1', 'd0.10']);
    expect(await ids({ v: 0.1 })).toEqual(['f0.1']);
    // The double 0.3 is 0.29999999999999998889…, below the decimal 0.3 (jstests/decimal).
    expect(await ids({ v: { $lt: dec('0.3'), $gt: dec('0.2') } })).toEqual(['f0.3']);
    expect(await ids({ v: { $gt: 0.3, $lt: 1 } })).toEqual(['d0.3']);
    expect(await ids({ v: NaN })).toEqual(['dNaN', 'fNaN']);
    // The double 0.1 is 0.1000000000000000055…, above the decimal 0.1.
    const sorted = await coll
      .find({ _id: { $in: ['d0.1', 'f0.1'] } })
      .sort({ v: 1, _id: 1 })
      .toArray();
    expect(sorted.map((d) => d._id)).toEqual(['d0.1', 'f0.1']);
  });

  it('treats equal decimals as one key in unique indexes', async () => {
    const coll = collection('uniqueDecimal');
    await coll.createIndex({ price: 1 }, { unique: true });
    await coll.insertMany([{ price: dec('1.0') }, { price: 0.1 }, { price: dec('0.1') }]);
    await expect(coll.insertOne({ price: dec('1.00') })).rejects.toMatchObject({ code: 11000 });
    await expect(coll.insertOne({ price: new Int32(1) })).rejects.toMatchObject({ code: 11000 });
  });
});

describe('conversions', () => {
  it('refuse values beyond the target type with ConversionFailure (241), or take onError', async () => {
    const coll = collection('convert');
    await coll.insertOne({ big: long('9223372036854775807'), d: dec('1e30'), s: '1.5' });
    for (const expr of [
      { $toInt: 3e9 },
      { $toInt: '$big' },
      { $toLong: '$d' },
      { $toInt: NaN },
      { $convert: { input: 2147483648, to: 'int' } },
      { $toInt: '$s' },
      { $toLong: '99999999999999999999' },
    ])
      expect(await failureCode(coll, expr), JSON.stringify(expr)).toBe(241);
    expect(await evaluate(coll, { $convert: { input: 3e9, to: 'int', onError: 'too big' } })).toBe(
      'too big',
    );
    expect(await evaluate(coll, { $convert: { input: null, to: 'int', onNull: 0 } })).toEqual(
      new Int32(0),
    );
    expect(text(await evaluate(coll, { $toLong: '9223372036854775807' }))).toBe(
      'Long(9223372036854775807)',
    );
    expect(await evaluate(coll, { $toInt: dec('-7.9') })).toEqual(new Int32(-7));
    expect(await evaluate(coll, { $toBool: dec('0.00') })).toBe(false);
    expect(text(await evaluate(coll, { $toDecimal: 2.5 }))).toBe('Decimal128(2.50000000000000)');
    expect(text(await evaluate(coll, { $toDecimal: '0.10' }))).toBe('Decimal128(0.10)');
  });
});
