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
