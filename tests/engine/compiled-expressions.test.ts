import { Decimal128, Long } from 'bson';
import * as core from 'mingo/core';
import { describe, expect, it, vi } from 'vitest';
import { compileExpression } from '../../embedded-mongo/compiled';
import { baseOptions } from '../../embedded-mongo/mingo-context';
import { aggregate, escapeExpression } from '../../embedded-mongo/pipeline';
import * as values from '../../embedded-mongo/values';

const { computeValue } = core;
vi.mock('mingo/core', async (actual) => {
  const real = await actual<typeof core>();
  return { ...real, computeValue: vi.fn(real.computeValue) };
});
vi.mock('../../embedded-mongo/values', async (actual) => {
  const real = await actual<typeof values>();
  return { ...real, cloneDoc: vi.fn(real.cloneDoc) };
});

const docs = [
  { _id: 1, a: 1, at: new Date('2030-03-11T03:30:00Z'), e: [{ s: 'x' }, { s: 'y' }], r: { id: 7 } },
  { _id: 2, a: null, at: null, e: [], r: null },
  { _id: 3, a: Long.fromNumber(1), e: [{ s: 'y' }, { t: 1 }], r: { id: '7' } },
  { _id: 4, a: Decimal128.fromString('0'), at: new Date(0), e: 'x', constructor: 1 },
  { _id: 5 },
  { _id: 6, at: new Date('0000-01-01T00:00:00Z') },
  { _id: 7, at: new Date(Date.parse('0000-01-01T00:00:00Z') - 1) },
  { _id: 8, at: new Date('9999-12-31T23:59:59.999Z') },
  { _id: 9, at: new Date('+010000-01-01T00:00:00Z') },
].map(values.toMingo);

// Expressions the engine compiles answer as mingo's evaluation of the same operators does, errors
// and argument shapes it leaves to mingo included.
const expressions = [
  '$a',
  '$r.id',
  '$e.s',
  '$constructor',
  'text',
  [1, '$a'],
  { x: '$a', y: { z: '$r.id' } },
  { $literal: '$a' },
  { $eq: ['$a', 1] },
  { $ne: ['$a', null] },
  { $gt: ['$a', '$missing'] },
  { $lte: ['$at', new Date('2030-03-11T00:00:00Z')] },
  { $in: ['y', { $ifNull: ['$e.s', []] }] },
  { $and: [{ $ifNull: ['$a', false] }, '$r'] },
  { $or: ['$missing', '$a'] },
  { $cond: [{ $ifNull: ['$r.id', false] }, 'run', 'none'] },
  { $cond: { if: '$a', then: 1, else: 0 } },
  { $ifNull: ['$missing', '$a', 'none'] },
  { $dateToString: { date: '$at', format: '%Y-%m-%d', timezone: 'America/New_York' } },
  { $dateToString: { date: '$at', format: '%G-W%V' } },
  { $dateToString: { date: '$at', format: '%Y-%m-%d' } },
  { $dateToString: { date: '$at', format: '%Y-%m-%d', timezone: '+00:00' } },
  { $dateToString: { date: '$at' } },
  { $dateToString: { date: '$at', timezone: '$tz' } },
  { $cond: ['$a', { $toString: '$r.id' }, null] },
  { $toString: ['$a'] },
  { $toString: ['$a', '$a'] },
  { $toDouble: '$r.id' },
  { $concat: [{ $toString: '$r.id' }, ':', { $toString: '$_id' }] },
  { $concat: ['$e.s'] },
  { $concat: [] },
  { $size: '$e' },
  { $size: { $filter: { input: '$e', as: 'x', cond: { $ne: ['$$x.s', 'y'] } } } },
  { $filter: { input: '$e', cond: { $eq: ['$$this.s', 'y'] } } },
  { $filter: { input: '$e', as: 'x', cond: { $toBool: { $strLenCP: '$$x.s' } } } },
  {
    $filter: {
      input: '$e',
      as: 'x',
      cond: { $size: { $filter: { input: '$e', as: 'y', cond: { $eq: ['$$x', '$$y'] } } } },
    },
  },
  { $filter: { input: '$e', as: 'x', cond: true, limit: 1 } },
  { $filter: { input: '$e', as: 1, cond: true } },
  { $divide: ['$a', 2] },
  { $divide: [1, '$a'] },
  { $divide: [{ $size: '$e' }, 2, 3] },
];

const evaluate = (f: () => unknown) => {
  try {
    return { value: f() };
  } catch (error) {
    return { error: (error as Error).message };
  }
};

describe('compiled expressions', () => {
  it('answer as mingo evaluates them, for every document', () => {
    for (const expr of expressions) {
      const escaped = escapeExpression(values.toMingo(expr));
      const compiled = compileExpression(escaped);
      for (const doc of docs)
        expect(
          evaluate(() => compiled(doc, () => baseOptions)),
          JSON.stringify(expr),
        ).toEqual(evaluate(() => computeValue(doc, escaped, null, baseOptions)));
    }
    expect(() =>
      compileExpression(escapeExpression({ $in: ['y', '$a'] }))(docs[0], () => baseOptions),
    ).toThrow('$in requires an array as a second argument, found: int');
  });

  it('evaluates $filter with its variable, $size, $divide, $concat and $toString without mingo', () => {
    const compiled = compileExpression(
      escapeExpression({
        $divide: [
          { $size: { $filter: { input: '$e', as: 'x', cond: { $ne: ['$$x.s', 'y'] } } } },
          { $cond: [{ $eq: [{ $concat: [{ $toString: '$_id' }, ':'] }, '1:'] }, 2, 0] },
        ],
      }),
    );
    vi.mocked(computeValue).mockClear();
    expect(compiled(docs[0], () => baseOptions)).toBe(0.5);
    expect(vi.mocked(computeValue)).not.toHaveBeenCalled();
  });

  it('$facet gives each pipeline documents of its own, copying only what its first stages keep', () => {
    const stored = [1, 2, 3, 4].map((i) => ({ _id: i, a: { b: i }, keep: i % 2 === 0 }));
    const before = structuredClone(stored);
    vi.mocked(values.cloneDoc).mockClear();
    const [out] = aggregate(
      stored,
      [
        { $project: { a: 1, keep: 1 } },
        {
          $facet: {
            changed: [{ $match: { keep: true } }, { $set: { 'a.b': -1 } }],
            summed: [{ $group: { _id: null, b: { $sum: '$a.b' } } }],
          },
        },
      ],
      () => [],
    );
    expect(out).toEqual({
      changed: [
        { _id: 2, a: { b: -1 }, keep: true },
        { _id: 4, a: { b: -1 }, keep: true },
      ],
      summed: [{ _id: null, b: 10 }],
    });
    expect(stored).toEqual(before);
    // The two kept documents, the one sum, and the facet's answer: not the four documents read.
    expect(vi.mocked(values.cloneDoc).mock.calls).toHaveLength(4);
  });
});

describe("$group's own accumulators", () => {
  // The documents above, with numbers of every type to sum and values to collect.
  const grouped = [...docs, { _id: 10, a: 2.5, r: { id: 7 } }, { _id: 11, a: 'x', r: { id: 7.0 } }];
  const accumulators = {
    n: { $sum: 1 },
    sum: { $sum: '$a' },
    avg: { $avg: '$a' },
    pushed: { $push: '$a' },
    set: { $addToSet: '$a' },
    ids: { $addToSet: { $cond: [{ $ifNull: ['$r.id', false] }, { $toString: '$_id' }, null] } },
    twice: { $sum: { $multiply: [{ $ifNull: ['$_id', 0] }, 2] } },
    first: { $first: '$a' },
  };

  it('answer as mingo evaluates the accumulators over each group’s documents', () => {
    for (const key of ['$r.id', { id: '$r.id', a: { $ifNull: ['$a', 'none'] } }, null]) {
      const stage = escapeExpression(values.toMingo({ _id: key, ...accumulators })) as values.Doc;
      const { _id: idExpr, ...fields } = stage;
      const expected = new Map<string, values.Doc>();
      for (const doc of grouped) {
        const id = computeValue(doc, idExpr, null, baseOptions) ?? null;
        const k = values.keyOf(id);
        expected.set(k, { _id: id, docs: [...((expected.get(k)?.docs as unknown[]) ?? []), doc] });
      }
      const answers = [...expected.values()].map(({ _id, docs: members }) => ({
        _id,
        ...Object.fromEntries(
          Object.entries(fields).map(([f, spec]) => [
            f,
            computeValue(members, spec, null, baseOptions),
          ]),
        ),
      }));
      expect(
        aggregate(grouped, [{ $group: { _id: key, ...accumulators } }], () => []),
        JSON.stringify(key),
      ).toEqual(answers.map((a) => values.fromMingo(a)));
    }
  });

  it('computes the key and $sum, $avg, $push and $addToSet of compiled expressions without mingo', () => {
    vi.mocked(computeValue).mockClear();
    const [group] = aggregate(
      grouped,
      [
        { $match: { _id: { $lte: 3 } } },
        {
          $group: {
            _id: { id: '$r.id', none: null },
            n: { $sum: 1 },
            sum: { $sum: '$a' },
            avg: { $avg: { $ifNull: ['$a', 0] } },
            pushed: { $push: '$_id' },
            set: { $addToSet: { $cond: [{ $eq: ['$a', null] }, 'null', 'a'] } },
          },
        },
        { $match: { '_id.id': 7 } },
      ],
      () => [],
    );
    expect(group).toEqual({
      _id: { id: 7, none: null },
      n: 1,
      sum: 1,
      avg: 1,
      pushed: [1],
      set: ['a'],
    });
    expect(vi.mocked(computeValue)).not.toHaveBeenCalled();
  });
});
