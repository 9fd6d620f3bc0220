import { Double } from 'bson';
import { describe, expect, it, vi } from 'vitest';
import { aggregate } from '../../embedded-mongo/pipeline';
import * as values from '../../embedded-mongo/values';

vi.mock('../../embedded-mongo/values', async (actual) => {
  const real = await actual<typeof values>();
  return { ...real, cloneDoc: vi.fn(real.cloneDoc) };
});

// An aggregation copies the stored documents it reads only where mingo could change them: a first
// $project or $group reads them as they are, and its own (smaller) documents are copied.
const stored = () =>
  Array.from({ length: 20 }, (_, i) => ({
    _id: i,
    a: { b: i, c: [i, { d: i }] },
    at: new Date(Date.UTC(2030, 0, 1 + (i % 3))),
  }));

function run(pipeline: values.Doc[]) {
  const docs = stored();
  const before = structuredClone(docs);
  vi.mocked(values.cloneDoc).mockClear();
  const out = aggregate(docs, pipeline, () => []);
  const copiedStored = vi
    .mocked(values.cloneDoc)
    .mock.calls.some(([d]) => docs.includes(d as (typeof docs)[number]));
  expect(docs).toEqual(before);
  return { out, copiedStored };
}

describe('aggregation copies', () => {
  it('a first $project or $group reads the stored documents without copying them', () => {
    const projected = run([
      { $project: { a: 1, day: { $dateToString: { date: '$at', format: '%d' } } } },
      { $addFields: { 'a.x': 1, 'a.c': 0 } },
      { $unwind: { path: '$a.c', preserveNullAndEmptyArrays: true, includeArrayIndex: 'i' } },
      { $limit: 2 },
    ]);
    expect(projected.copiedStored).toBe(false);
    expect(projected.out).toEqual([
      { _id: 0, a: { b: 0, c: 0, x: 1 }, day: '01', i: null },
      { _id: 1, a: { b: 1, c: 0, x: 1 }, day: '02', i: null },
    ]);
    const grouped = run([
      { $group: { _id: '$at', first: { $first: '$$ROOT' }, n: { $sum: 1 } } },
      { $set: { 'first.a.b': -1 } },
      { $sort: { _id: 1 } },
    ]);
    expect(grouped.copiedStored).toBe(false);
    expect(grouped.out.map((g) => [g.n, (g.first as { a: { b: number } }).a.b])).toEqual([
      [7, -1],
      [7, -1],
      [6, -1],
    ]);
  });

  it('a first $project that only keeps fields converts for mingo only documents not in its form', () => {
    const docs: values.Doc[] = [
      { _id: 1, constructor: { x: 1 }, n: new Double(2) },
      { _id: 2, constructor: { x: 1 }, n: 3 },
      { _id: 3, n: 4, other: 'x' },
    ];
    expect(docs.map(values.inMingoForm)).toEqual([false, false, true]);
    const before = structuredClone(docs);
    for (let read = 0; read < 2; read++)
      expect(
        aggregate(
          docs,
          [
            { $project: { constructor: 1, n: 1 } },
            { $group: { _id: '$constructor.x', n: { $sum: '$n' } } },
          ],
          () => [],
        ),
      ).toEqual([
        { _id: 1, n: 5 },
        { _id: null, n: 4 },
      ]);
    expect(docs).toEqual(before);
  });

  it('the next aggregation with the same first $project reads what it kept of a stored document', () => {
    const docs = stored();
    const pipeline = [{ $project: { a: 1 } }, { $match: { 'a.b': { $lt: 3 } } }];
    const read = () => {
      vi.mocked(values.cloneDoc).mockClear();
      const out = aggregate(docs, pipeline, () => []);
      return { out, kept: vi.mocked(values.cloneDoc).mock.calls.map(([d]) => d) };
    };
    const first = read();
    const again = read();
    expect(again.out).toEqual(first.out);
    expect(again.kept).toHaveLength(3);
    again.kept.forEach((kept, i) => expect(kept).toBe(first.kept[i]));
    // Another projection, or a new version of the document, is read anew.
    const other = aggregate(docs, [{ $project: { at: 1 } }, { $limit: 1 }], () => []);
    expect(other).toEqual([{ _id: 0, at: docs[0]!.at }]);
    docs[1] = { ...docs[1]!, a: { b: -1, c: [] } };
    expect(aggregate(docs, pipeline, () => [])[1]).toEqual({ _id: 1, a: { b: -1, c: [] } });
  });

  it('an $unwind of a path alone reads what it is given as it is; one that writes reads copies', () => {
    const counted = (unwind: unknown) => {
      const { out } = run([
        { $project: { a: 1 } },
        { $unwind: unwind },
        { $match: { 'a.c': { $gte: 0 } } },
        { $group: { _id: null, n: { $sum: 1 } } },
      ]);
      return { out, copies: vi.mocked(values.cloneDoc).mock.calls.length };
    };
    expect(counted('$a.c')).toEqual({ out: [{ _id: null, n: 20 }], copies: 1 });
    expect(counted({ path: '$a.c' })).toEqual({ out: [{ _id: null, n: 20 }], copies: 1 });
    expect(counted({ path: '$a.c', includeArrayIndex: 'i' }).copies).toBe(20);
  });

  it('an $unwind of a path alone gives each element in a copy of its document, keeping the order', () => {
    const docs = [
      { _id: 1, a: { c: [1, { d: 2 }], e: 3 }, f: 4 },
      { _id: 2, a: { c: 5 } },
      { _id: 3, a: { c: [] } },
      { _id: 4, a: null },
      { _id: 5 },
    ];
    const before = structuredClone(docs);
    const out = aggregate(docs, [{ $project: { a: 1, f: 1 } }, { $unwind: '$a.c' }], () => []);
    expect(out).toEqual([
      { _id: 1, a: { c: 1, e: 3 }, f: 4 },
      { _id: 1, a: { c: { d: 2 }, e: 3 }, f: 4 },
      { _id: 2, a: { c: 5 } },
    ]);
    expect(out.map((d) => Object.keys(d.a as object))).toEqual([['c', 'e'], ['c', 'e'], ['c']]);
    expect(docs).toEqual(before);
  });

  it('copies them first for stages that would change them', () => {
    expect(run([{ $project: { 'a.b': 0 } }]).copiedStored).toBe(true);
    expect(run([{ $addFields: { 'a.b': 1 } }]).copiedStored).toBe(true);
  });
});
