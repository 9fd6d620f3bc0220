import {
  Binary,
  Decimal128,
  Long,
  type MongoServerError,
  ObjectId,
  Timestamp,
  type Db,
} from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from './helpers';

// Aggregation expressions on edges where a JavaScript library's answer would differ from
// MongoDB 7's: null and missing arguments, arguments of the wrong type, bytes versus code points,
// rounding ties, date formats. The expected answers are MongoDB's documented ones.

let opened: TestDb;
let db: Db;
let engine: boolean;

const doc = {
  _id: 1,
  arr: [3, 1, 2],
  s: 'héllo wörld',
  emoji: 'a😀b',
  at: new Date('2024-01-07T05:06:07.089Z'),
  oid: new ObjectId('65a1b2c3d4e5f60718293a4b'),
  dec: Decimal128.fromString('1.50'),
  ts: new Timestamp({ t: 100, i: 7 }),
  bin: new Binary(Buffer.from([1, 2, 3])),
  nothing: null,
  team: [
    { name: 'pat', age: 30, address: { city: 'Tema' } },
    { name: 'ama', age: 24, address: { city: 'Accra' } },
    { name: 'kofi', age: 30, address: { city: 'Kumasi' } },
  ],
};

beforeAll(async () => {
  opened = await openTestDb('parity_expressions');
  ({ db, engine } = opened);
  await db.collection('one').insertOne(doc as never);
});

afterAll(() => opened.close());

/** The expression's value for the document, or 'missing' when it has none. */
async function value(expr: unknown): Promise<unknown> {
  const [out] = await db
    .collection('one')
    .aggregate([{ $project: { _id: 0, r: expr } }])
    .toArray();
  return out && 'r' in out ? out.r : 'missing';
}

async function failure(expr: unknown): Promise<{ code: number; message: string }> {
  const err = (await value(expr).then(
    () => null,
    (e: unknown) => e,
  )) as MongoServerError | null;
  expect(err, `${JSON.stringify(expr)} fails`).not.toBeNull();
  return { code: err!.code as number, message: err!.message };
}

describe('array expressions', () => {
  it('answer null for a null or missing array and missing past the end', async () => {
    for (const expr of [
      { $slice: ['$absent', 1] },
      { $slice: [null, 1] },
      { $slice: ['$arr', null] },
      { $slice: ['$arr', 0, '$absent'] },
      { $arrayElemAt: ['$absent', 0] },
      { $arrayElemAt: ['$arr', null] },
      { $concatArrays: ['$arr', '$absent'] },
      { $indexOfArray: ['$absent', 1] },
      { $reverseArray: '$nothing' },
      { $sortArray: { input: '$absent', sortBy: 1 } },
      { $first: '$absent' },
      { $last: null },
    ])
      expect(await value(expr), JSON.stringify(expr)).toBeNull();
    expect(await value({ $arrayElemAt: ['$arr', 3] })).toBe('missing');
    expect(await value({ $arrayElemAt: ['$arr', -4] })).toBe('missing');
    // https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/first-array-element/
    expect(await value({ $first: [[]] })).toBe('missing');
    expect(await value({ $first: [[[1, 2], 3]] })).toEqual([1, 2]);
    expect(await value({ $last: [[1, [2, 3]]] })).toEqual([2, 3]);
  });

  it('answer what MongoDB answers for arrays', async () => {
    expect(await value({ $size: '$arr' })).toBe(3);
    expect(await value({ $arrayElemAt: ['$arr', -1] })).toBe(2);
    expect(await value({ $concatArrays: ['$arr', [[4]], []] })).toEqual([3, 1, 2, [4]]);
    expect(await value({ $reverseArray: '$arr' })).toEqual([2, 1, 3]);
    expect(await value({ $slice: ['$arr', -2] })).toEqual([1, 2]);
    expect(await value({ $slice: ['$arr', -2, 1] })).toEqual([1]);
    expect(await value({ $slice: ['$arr', 5, 1] })).toEqual([]);
    expect(await value({ $slice: ['$arr', -9, 2] })).toEqual([3, 1]);
    expect(await value({ $indexOfArray: [[1, 2, 1, 2], 2, 2] })).toBe(3);
    expect(await value({ $indexOfArray: [[1, 2, 1, 2], 2, 0, 1] })).toBe(-1);
    // Values compare in BSON order: 1 equals 1.0, [1] is not 1, null is not missing.
    expect(await value({ $indexOfArray: [[[1], 1.0], 1] })).toBe(1);
    expect(await value({ $indexOfArray: [[null], '$absent'] })).toBe(-1);
  });

  it('refuse arguments of the wrong type with MongoDB’s codes', async () => {
    const cases: Array<[unknown, number, string]> = [
      [
        { $size: '$absent' },
        17124,
        'The argument to $size must be an array. Type of argument is missing',
      ],
      [
        { $size: '$s' },
        17124,
        'The argument to $size must be an array. Type of argument is string',
      ],
      [
        { $arrayElemAt: ['$s', 0] },
        28689,
        "$arrayElemAt's first argument must be an array, but is string",
      ],
      [
        { $arrayElemAt: ['$arr', 'x'] },
        28690,
        "$arrayElemAt's second argument must be a numeric value, but is string",
      ],
      [
        { $arrayElemAt: ['$arr', 1.5] },
        28691,
        "$arrayElemAt's second argument must be representable as a 32-bit integer: 1.5",
      ],
      [{ $first: '$s' }, 28689, "$first's argument must be an array, but is string"],
      [{ $concatArrays: ['$arr', '$s'] }, 28664, '$concatArrays only supports arrays, not string'],
      [
        { $indexOfArray: ['$s', 1] },
        40090,
        '$indexOfArray requires an array as a first argument, found: string',
      ],
      [
        { $indexOfArray: ['$arr', 1, -1] },
        40097,
        '$indexOfArray requires a nonnegative starting index, found: -1',
      ],
      [
        { $reverseArray: 3 },
        34435,
        'The argument to $reverseArray must be an array, but was of type: int',
      ],
      [
        { $slice: ['$s', 1] },
        28724,
        'First argument to $slice must be an array, but is of type: string',
      ],
      [
        { $slice: ['$arr', 'x'] },
        28725,
        'Second argument to $slice must be a numeric value, but is of type: string',
      ],
      [{ $slice: ['$arr', 0, 0] }, 28729, 'Third argument to $slice must be positive: 0'],
      [
        { $slice: ['$arr'] },
        28667,
        'Expression $slice takes at least 2 arguments, and at most 3, but 1 were passed in.',
      ],
      [
        { $sortArray: { input: '$s', sortBy: 1 } },
        2942504,
        'The input argument to $sortArray must be an array, but was of type: string',
      ],
    ];
    for (const [expr, code, message] of cases)
      expect(await failure(expr), JSON.stringify(expr)).toEqual({ code, message });
  });

  it('sorts arrays in BSON order, and documents by their fields', async () => {
    // https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/sortArray/ (mixed types)
    expect(
      await value({
        $sortArray: {
          input: [
            20,
            4,
            { a: 'Free' },
            6,
            21,
            5,
            'Gratis',
            { a: null },
            { a: { sale: true, price: 19 } },
            Decimal128.fromString('10.23'),
            { a: 'On sale' },
          ],
          sortBy: 1,
        },
      }),
    ).toEqual([
      4,
      5,
      6,
      Decimal128.fromString('10.23'),
      20,
      21,
      'Gratis',
      { a: null },
      { a: 'Free' },
      { a: 'On sale' },
      { a: { sale: true, price: 19 } },
    ]);
    expect(
      await value({ $sortArray: { input: [true, [1], null, 'b', 'B', 2], sortBy: -1 } }),
    ).toEqual([true, [1], 'b', 'B', 2, null]);
    const names = async (sortBy: object) =>
      ((await value({ $sortArray: { input: '$team', sortBy } })) as Array<{ name: string }>).map(
        (m) => m.name,
      );
    expect(await names({ age: -1, name: 1 })).toEqual(['kofi', 'pat', 'ama']);
    expect(await names({ 'address.city': 1 })).toEqual(['ama', 'kofi', 'pat']);
  });
});

describe('string expressions', () => {
  it('count and cut in UTF-8 bytes or in code points', async () => {
    expect(await value({ $strLenBytes: '$s' })).toBe(13);
    expect(await value({ $strLenCP: '$s' })).toBe(11);
    expect(await value({ $strLenCP: '$emoji' })).toBe(3);
    expect(await value({ $strLenBytes: '$emoji' })).toBe(6);
    expect(await value({ $substrCP: ['$emoji', 1, 1] })).toBe('😀');
    expect(await value({ $substrCP: ['$s', 1, 3] })).toBe('éll');
    expect(await value({ $substrBytes: ['$s', 0, 3] })).toBe('hé');
    expect(await value({ $substrBytes: ['$s', 0, -1] })).toBe('héllo wörld');
    expect(await value({ $substrBytes: ['$absent', 0, 2] })).toBe('');
    expect(await value({ $split: ['$s', 'ö'] })).toEqual(['héllo w', 'rld']);
    expect(await value({ $split: ['$absent', ','] })).toBeNull();
    // https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/toUpper/ — ASCII only.
    expect(await value({ $toUpper: '$s' })).toBe('HéLLO WöRLD');
    expect(await value({ $toLower: 'ÀB' })).toBe('Àb');
    expect(await value({ $toUpper: '$absent' })).toBe('');
  });

  it('refuse what MongoDB refuses', async () => {
    expect(await failure({ $substrBytes: ['$s', 0, 2] })).toEqual({
      code: 28657,
      message: '$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character.',
    });
    expect(await failure({ $strLenCP: '$absent' })).toEqual({
      code: 34471,
      message: '$strLenCP requires a string argument, found: missing',
    });
    expect(await failure({ $strLenBytes: 5 })).toEqual({
      code: 34473,
      message: '$strLenBytes requires a string argument, found: int',
    });
    expect(await failure({ $split: ['$s', ''] })).toEqual({
      code: 40087,
      message: '$split requires a non-empty separator',
    });
  });
});

describe('numbers and dates as text', () => {
  it('round half to even and truncate toward zero', async () => {
    // https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/round/#rounding-to-even-values
    for (const [n, out] of [
      [10.5, 10],
      [11.5, 12],
      [12.5, 12],
      [13.5, 14],
      [-2.5, -2],
    ])
      expect(await value({ $round: [n, 0] })).toBe(out);
    expect(await value({ $round: [2.675, 2] })).toBe(2.67);
    expect(await value({ $round: [0.125, 2] })).toBe(0.12);
    expect(await value({ $round: [1250, -2] })).toBe(1200);
    expect(await value({ $round: [1350, -2] })).toBe(1400);
    expect(await value({ $trunc: [-2.789, 1] })).toBe(-2.7);
    expect(await value({ $trunc: [1299, -2] })).toBe(1200);
    expect(await value({ $round: '$absent' })).toBeNull();
    expect(await value({ $trunc: [null, 1] })).toBeNull();
  });

  it('writes ObjectIds, dates and decimals as MongoDB writes them', async () => {
    expect(await value({ $toString: '$oid' })).toBe('65a1b2c3d4e5f60718293a4b');
    expect(await value({ $toString: '$at' })).toBe('2024-01-07T05:06:07.089Z');
    expect(await value({ $toString: '$dec' })).toBe('1.50');
    expect(await value({ $toString: true })).toBe('true');
    expect(await value({ $toString: '$absent' })).toBeNull();
    expect(await value({ $convert: { input: '$oid', to: 'string' } })).toBe(
      '65a1b2c3d4e5f60718293a4b',
    );
    expect(await value({ $convert: { input: '$team', to: 'string', onError: 'no' } })).toBe('no');
    expect(await value({ $toInt: '-12' })).toBe(-12);
    expect(await value({ $toDate: '2024-01-07T05:06:07.089Z' })).toEqual(doc.at);
    expect(await value({ $toDouble: '$absent' })).toBeNull();
    expect(await value({ $convert: { input: '$absent', to: 'string', onNull: 'none' } })).toBe(
      'none',
    );
  });

  it('formats dates with MongoDB’s default format and specifiers', async () => {
    expect(await value({ $dateToString: { date: '$at' } })).toBe('2024-01-07T05:06:07.089Z');
    // https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/dateToString/#format-specifiers
    // 2024-01-07 is a Sunday: %w is 1 (Sunday first), %u is 7, ISO week 1 of 2024, %U week 01.
    expect(
      await value({ $dateToString: { date: '$at', format: '%L|%w|%u|%j|%U|%V|%G|%%|%H:%M:%S' } }),
    ).toBe('089|1|7|007|01|01|2024|%|05:06:07');
    expect(await value({ $dateToString: { date: '$at', timezone: '+05:30' } })).toBe(
      '2024-01-07T10:36:07.089',
    );
    expect(
      await value({ $dateToString: { date: '$at', format: '%z %Z', timezone: '-0330' } }),
    ).toBe('-0330 -210');
    expect(await value({ $dateToString: { date: '$oid', format: '%Y' } })).toBe('2024');
    expect(await value({ $dateToString: { date: '$absent', onNull: 'never' } })).toBe('never');
    expect(await value({ $dateToString: { date: '$absent' } })).toBeNull();
    expect(await failure({ $dateToString: { date: '$at', format: '%Q' } })).toEqual({
      code: 18536,
      message: "Invalid format character '%Q' in format string",
    });
  });
});

describe('group and window operators', () => {
  it('answer $top and $bottom with one value, in BSON order', async () => {
    const coll = db.collection<{ _id: number; g: string; x: unknown }>('ranked');
    await coll.insertMany([
      { _id: 1, g: 'a', x: 1 },
      { _id: 2, g: 'a', x: 3 },
      { _id: 3, g: 'a', x: null },
      { _id: 4, g: 'a', x: 'z' },
    ]);
    // https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/top/
    const [out] = await coll
      .aggregate([
        {
          $group: {
            _id: '$g',
            top: { $top: { sortBy: { x: -1 }, output: '$x' } },
            bottom: { $bottom: { sortBy: { x: -1 }, output: '$_id' } },
            topTwo: { $topN: { n: 2, sortBy: { x: 1 }, output: '$_id' } },
            bottomTwo: { $bottomN: { n: 2, sortBy: { x: 1 }, output: '$_id' } },
          },
        },
      ])
      .toArray();
    expect(out).toEqual({ _id: 'a', top: 'z', bottom: 3, topTwo: [3, 1], bottomTwo: [2, 4] });
  });

  it('computes window fields beside their window', async () => {
    const coll = db.collection<{ _id: number; g: string; x: number }>('windows');
    await coll.insertMany([
      { _id: 1, g: 'a', x: 1 },
      { _id: 2, g: 'a', x: 3 },
      { _id: 3, g: 'b', x: 5 },
    ]);
    const out = await coll
      .aggregate([
        {
          $setWindowFields: {
            partitionBy: '$g',
            sortBy: { _id: 1 },
            output: {
              rank: { $rank: {} },
              running: { $sum: '$x', window: { documents: ['unbounded', 'current'] } },
            },
          },
        },
        { $sort: { _id: 1 } },
        { $project: { _id: 1, rank: 1, running: 1 } },
      ])
      .toArray();
    expect(out).toEqual([
      { _id: 1, rank: 1, running: 1 },
      { _id: 2, rank: 2, running: 4 },
      { _id: 3, rank: 1, running: 5 },
    ]);
  });

  it('knows no expression MongoDB does not know', async () => {
    for (const name of ['$foo', '$nin'])
      expect(await failure({ [name]: [1, [2]] })).toEqual({
        code: 168,
        message: `Unrecognized expression '${name}'`,
      });
  });
});

const dec = (s: string) => Decimal128.fromString(s);

describe('string and regular expression operators', () => {
  it('find and replace literally, in UTF-8 bytes or code points', async () => {
    expect(await value({ $indexOfBytes: ['$s', 'w'] })).toBe(7);
    expect(await value({ $indexOfCP: ['$s', 'w'] })).toBe(6);
    expect(await value({ $indexOfCP: ['$emoji', 'b'] })).toBe(2);
    expect(await value({ $indexOfCP: ['$s', 'l', 4] })).toBe(9);
    expect(await value({ $indexOfBytes: ['$s', 'x'] })).toBe(-1);
    expect(
      await value({ $replaceAll: { input: 'a.b.c', find: '.', replacement: { $literal: '$' } } }),
    ).toBe('a$b$c');
    expect(await value({ $replaceOne: { input: 'a+a+', find: 'a+', replacement: 'b' } })).toBe(
      'ba+',
    );
    expect(await value({ $replaceAll: { input: null, find: 'a', replacement: 'b' } })).toBeNull();
    expect(await value({ $concat: ['a', '$nothing'] })).toBeNull();
    expect(await failure({ $concat: ['a', 1] })).toEqual({
      code: 16702,
      message: '$concat only supports strings, not int',
    });
  });

  it('fold ASCII letters only, and trim MongoDB’s whitespace or the given characters', async () => {
    expect(await value({ $strcasecmp: ['abc', 'ABC'] })).toBe(0);
    expect(await value({ $strcasecmp: ['héllo', 'HÉLLO'] })).toBe(1);
    expect(await value({ $strcasecmp: ['$nothing', ''] })).toBe(0);
    expect(await value({ $trim: { input: ' \u00a0x\t\n' } })).toBe('x');
    expect(await value({ $ltrim: { input: 'xxaxx', chars: 'x' } })).toBe('axx');
    expect(await value({ $rtrim: { input: 'a😀😀', chars: '😀' } })).toBe('a');
    expect((await failure({ $trim: { input: 1 } })).code).toBe(50699);
  });

  it('report code point positions and nulls for groups that did not match, and step past empty matches', async () => {
    expect(await value({ $regexFind: { input: '$emoji', regex: 'b' } })).toEqual({
      match: 'b',
      idx: 2,
      captures: [],
    });
    expect(await value({ $regexFind: { input: 'abc', regex: '(x)?(b)' } })).toEqual({
      match: 'b',
      idx: 1,
      captures: [null, 'b'],
    });
    expect(await value({ $regexFind: { input: 'ABC', regex: /b/i } })).toMatchObject({ idx: 1 });
    expect(await value({ $regexFindAll: { input: 'abc', regex: '' } })).toHaveLength(4);
    expect(await value({ $regexMatch: { input: '$nothing', regex: 'a' } })).toBe(false);
    expect(await value({ $regexFindAll: { input: '$nothing', regex: 'a' } })).toEqual([]);
    expect((await failure({ $regexMatch: { input: 1, regex: 'a' } })).code).toBe(51104);
  });
});

describe('truth, conditions and sets', () => {
  it('take zero of every numeric type as false, and the empty string as true', async () => {
    expect(await value({ $cond: [dec('0.00'), 'yes', 'no'] })).toBe('no');
    expect(await value({ $cond: [new Long(0), 'yes', 'no'] })).toBe('no');
    expect(await value({ $and: [1, ''] })).toBe(true);
    expect(await value({ $not: [''] })).toBe(false);
    expect(await value({ $or: [0, dec('0'), '$nothing'] })).toBe(false);
    expect(await value({ $filter: { input: [0, 1, dec('0'), dec('2')], cond: '$$this' } })).toEqual(
      [1, dec('2')],
    );
    expect(await value({ $switch: { branches: [{ case: 0, then: 'a' }], default: 'b' } })).toBe(
      'b',
    );
  });

  it('hold 1, 1.0 and Decimal128 1.00 as one value', async () => {
    expect(
      await value({
        $size: {
          $setUnion: [
            [1, 2],
            [dec('1.0'), 3],
          ],
        },
      }),
    ).toBe(3);
    expect(
      await value({
        $setEquals: [
          [1, 2],
          [2, 1.0, dec('2.00')],
        ],
      }),
    ).toBe(true);
    expect(await value({ $setIsSubset: [[1], [dec('1.00')]] })).toBe(true);
    expect(await value({ $setDifference: [[1, 2, 3], [2.0]] })).toEqual([1, 3]);
    expect(
      await value({
        $setIntersection: [
          [1, 'a'],
          [dec('1'), 'b'],
        ],
      }),
    ).toEqual([1]);
    expect(await value({ $isNumber: '$dec' })).toBe(true);
    expect(await value({ $type: '$dec' })).toBe('decimal');
    expect(await value({ $type: '$absent' })).toBe('missing');
  });
});

describe('other operators mingo answers differently', () => {
  it('$range checks its bounds and step', async () => {
    expect(await value({ $range: [0, 10, 3] })).toEqual([0, 3, 6, 9]);
    expect(await value({ $range: [5, 0, -2] })).toEqual([5, 3, 1]);
    expect((await failure({ $range: [0, 10, 0] })).code).toBe(34449);
    expect((await failure({ $range: [0, 1.5] })).code).toBe(34446);
  });

  it('$maxN and $minN order values of every type as MongoDB does, without nulls', async () => {
    expect(await value({ $maxN: { n: 2, input: [1, 'a', null, 3] } })).toEqual(['a', 3]);
    expect(await value({ $minN: { n: 2, input: [3, null, 1, 'a'] } })).toEqual([1, 3]);
  });

  it('$zip pads only past an array’s end, with its default even when that is 0', async () => {
    expect(
      await value({
        $zip: { inputs: [[1, null, 3], [4]], useLongestLength: true, defaults: [0, 0] },
      }),
    ).toEqual([
      [1, 4],
      [null, 0],
      [3, 0],
    ]);
    expect(await value({ $zip: { inputs: [[1, 2], '$arr'] } })).toEqual([
      [1, 3],
      [2, 1],
    ]);
    expect(await value({ $zip: { inputs: [[1], '$absent'] } })).toBeNull();
  });

  it('$mergeObjects skips null and refuses what is not a document', async () => {
    expect(await value({ $mergeObjects: [{ a: 1 }, '$nothing', { b: 2, a: 3 }] })).toEqual({
      a: 3,
      b: 2,
    });
    expect((await failure({ $mergeObjects: [{ a: 1 }, 'x'] })).code).toBe(40400);
  });

  it('the bitwise operators take ints and longs, and a Timestamp’s parts are longs', async () => {
    expect(await value({ $bitAnd: [12, 10] })).toBe(8);
    expect(await value({ $bitOr: [new Long(8), 1] })).toBe(9);
    expect(await value({ $bitNot: 0 })).toBe(-1);
    expect(await value({ $tsSecond: '$ts' })).toBe(100);
    expect(await value({ $tsIncrement: '$ts' })).toBe(7);
    expect(await value({ $binarySize: '$bin' })).toBe(3);
    expect(await value({ $binarySize: '$s' })).toBe(13);
  });
});

describe('what the engine refuses by name', () => {
  it('refuses instead of answering differently', async () => {
    if (!engine) return;
    for (const expr of [
      { $sortArray: { input: [1, { a: 1 }], sortBy: { a: 1 } } },
      { $sortArray: { input: [{ a: 1 }, { b: 1 }], sortBy: { a: 1 } } },
      { $toString: 1.5 },
      { $toDate: 'Jan 1 2024' },
      { $bsonSize: '$$ROOT' },
      { $function: { body: 'function () { return 1 }', args: [], lang: 'js' } },
      { $median: { input: '$arr', method: 'approximate' } },
      { $percentile: { input: '$arr', p: [0.5], method: 'approximate' } },
      { $toHashedIndexKey: '$s' },
      { $regexFind: { input: '$s', regex: 'h', options: 'x' } },
    ]) {
      const err = await failure(expr);
      expect(err.code, JSON.stringify(expr)).toBe(238);
      expect(err.message).toMatch(/\$[a-zA-Z]+.* is not implemented by this database engine/);
    }
  });
});
