import { serialize } from 'bson';
import { fail, MongoCommandError } from './errors';
import { compileFilter, usesExpressions, type Matcher } from './filter';
import {
  bsonType,
  compareValues,
  formatValue,
  isOperatorObject,
  isPlainObject,
  keyOf,
  pathValues,
  setField,
  sortDocs,
  typeRank,
  type Doc,
} from './values';

export interface IndexSpec {
  v: number;
  key: Doc;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Doc;
  [option: string]: unknown;
}

class Index {
  readonly fields: string[];
  readonly unique: boolean;
  readonly sparse: boolean;
  readonly isText: boolean;
  private readonly partial: Matcher | null;
  /** For unique indexes: entry key -> _id key; otherwise entry key -> set of _id keys. */
  private readonly entries = new Map<string, string | Set<string>>();
  /** The first field's entry key -> its value and the _id keys of the documents holding it. */
  private readonly firsts = new Map<string, { value: unknown; ids: Set<string> }>();
  /** The first field's distinct values in MongoDB's order, made by the first range lookup. */
  private ordered: Array<{ key: string; value: unknown }> | null = null;
  multikey = false;
  /** Whether the first field's value itself has been an array (not only a document it is in). */
  firstHeldArrays = false;

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.unique = spec.unique === true;
    this.sparse = spec.sparse === true;
    this.partial = spec.partialFilterExpression
      ? compileFilter(spec.partialFilterExpression)
      : null;
    this.isText = Object.values(spec.key).some((v) => typeof v === 'string');
  }

  /** Index keys for a document; several when an indexed field holds an array. */
  keysFor(doc: Doc): string[] {
    if (this.partial && !this.partial(doc)) return [];
    let combos: string[] = [''];
    let present = false;
    for (const field of this.fields) {
      const raw = pathValues(doc, field);
      if (raw.length > 0) present = true;
      const values = raw.flatMap((v) => (Array.isArray(v) ? (v.length ? v : [undefined]) : [v]));
      if (values.length > 1 || raw.some(Array.isArray)) this.multikey = true;
      if (field === this.fields[0] && raw.some(Array.isArray)) this.firstHeldArrays = true;
      const keys = [...new Set((values.length ? values : [null]).map(keyOf))];
      combos = combos.flatMap((c) => keys.map((k) => (c ? c + '|' + k : k)));
    }
    if (this.sparse && !present) return [];
    return combos;
  }

  /** The first field's values (with their entry keys) for a document with these index keys. */
  private firstValues(doc: Doc, keys: string[]): Map<string, unknown> {
    const out = new Map<string, unknown>();
    if (keys.length === 0) return out;
    const raw = pathValues(doc, this.fields[0]!);
    const values = raw.flatMap((v) => (Array.isArray(v) ? (v.length ? v : [undefined]) : [v]));
    for (const v of values.length ? values : [null]) out.set(keyOf(v), v ?? null);
    return out;
  }

  /**
   * The _id keys of the documents whose first field has a value within the range (and perhaps a
   * few more, which the filter then leaves out), in no particular order.
   */
  range({ lower, upper }: Range): string[] {
    const list = (this.ordered ??= [...this.firsts]
      .map(([key, e]) => ({ key, value: e.value }))
      .sort((a, b) => compareValues(a.value, b.value)));
    const rank = typeRank((lower ?? upper)!.value);
    let i = lower
      ? firstAt(list, (v) => compareValues(v, lower.value) >= 0)
      : firstAt(list, (v) => typeRank(v) >= rank);
    if (lower && !lower.inclusive)
      while (i < list.length && compareValues(list[i]!.value, lower.value) === 0) i++;
    const out: string[] = [];
    for (; i < list.length; i++) {
      const { key, value } = list[i]!;
      if (typeRank(value) !== rank) break;
      if (upper) {
        const c = compareValues(value, upper.value);
        if (c > 0 || (c === 0 && !upper.inclusive)) break;
      }
      for (const id of this.firsts.get(key)!.ids) out.push(id);
    }
    return out;
  }

  owner(key: string): string | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    return typeof e === 'string' ? e : e.values().next().value;
  }

  lookup(key: string): Iterable<string> {
    const e = this.entries.get(key);
    if (e === undefined) return [];
    return typeof e === 'string' ? [e] : e;
  }

  add(keys: string[], id: string, doc: Doc): void {
    for (const [key, value] of this.firstValues(doc, keys)) {
      const e = this.firsts.get(key);
      if (e) e.ids.add(id);
      else {
        this.firsts.set(key, { value, ids: new Set([id]) });
        if (this.ordered)
          this.ordered.splice(
            firstAt(this.ordered, (v) => compareValues(v, value) >= 0),
            0,
            { key, value },
          );
      }
    }
    for (const key of keys) {
      if (this.unique) {
        this.entries.set(key, id);
        continue;
      }
      const e = this.entries.get(key);
      if (e === undefined) this.entries.set(key, id);
      else if (typeof e === 'string') this.entries.set(key, new Set([e, id]));
      else e.add(id);
    }
  }

  remove(keys: string[], id: string, doc: Doc): void {
    for (const [key, value] of this.firstValues(doc, keys)) {
      const e = this.firsts.get(key);
      if (!e) continue;
      e.ids.delete(id);
      if (e.ids.size > 0) continue;
      this.firsts.delete(key);
      if (!this.ordered) continue;
      let i = firstAt(this.ordered, (v) => compareValues(v, value) >= 0);
      while (i < this.ordered.length && this.ordered[i]!.key !== key) i++;
      this.ordered.splice(i, 1);
    }
    for (const key of keys) {
      const e = this.entries.get(key);
      if (e === undefined) continue;
      if (typeof e === 'string') {
        if (e === id) this.entries.delete(key);
      } else {
        e.delete(id);
        if (e.size === 1) this.entries.set(key, e.values().next().value!);
      }
    }
  }

  clear(): void {
    this.entries.clear();
    this.firsts.clear();
    this.ordered = null;
    this.multikey = false;
    this.firstHeldArrays = false;
  }
}

/** The first position in an ordered list from which `after` holds (it holds from there on). */
function firstAt(list: Array<{ value: unknown }>, after: (v: unknown) => boolean): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(list[mid]!.value)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

interface Bound {
  value: unknown;
  inclusive: boolean;
}

/** Bounds a filter puts on a field, both within one type bracket; one of them at least. */
interface Range {
  lower?: Bound;
  upper?: Bound;
}

/** A bound an index can look up: a number, string, boolean, date or ObjectId (not NaN). */
function rangeable(v: unknown): boolean {
  switch (typeof v) {
    case 'number':
      return !Number.isNaN(v);
    case 'string':
    case 'boolean':
      return true;
  }
  if (v instanceof Date) return !Number.isNaN(v.getTime());
  const type = bsonType(v);
  if (type === 'Double') return !Number.isNaN((v as { value: number }).value);
  return type === 'ObjectId' || type === 'Int32' || type === 'Long';
}

/**
 * The range `$gt`, `$gte`, `$lt` and `$lte` put on a field's values (the tightest of each side),
 * or undefined when they put none an index can look up. With `oneBound` (a field that holds
 * arrays, whose elements may meet each bound apart) only the lower bound, or else the upper.
 */
function rangeOn(cond: unknown, oneBound: boolean): Range | undefined {
  if (!isOperatorObject(cond)) return undefined;
  let lower: Bound | undefined;
  let upper: Bound | undefined;
  for (const [op, value] of Object.entries(cond)) {
    const isLower = op === '$gt' || op === '$gte';
    if (!isLower && op !== '$lt' && op !== '$lte') continue;
    // A null, MinKey, array or the like: left to the scan.
    if (!rangeable(value)) return undefined;
    const bound = { value, inclusive: op.endsWith('e') };
    const kept = isLower ? lower : upper;
    const c =
      kept && typeRank(value) === typeRank(kept.value) ? compareValues(value, kept.value) : 0;
    const tighter =
      !kept || (isLower ? c > 0 : c < 0) || (c === 0 && kept.inclusive && !bound.inclusive);
    if (tighter && isLower) lower = bound;
    else if (tighter) upper = bound;
  }
  // Bounds in two brackets match nothing; the lower one alone gives more, never less.
  if (lower && upper && (oneBound || typeRank(lower.value) !== typeRank(upper.value)))
    upper = undefined;
  return lower || upper ? { lower, upper } : undefined;
}

/**
 * The range a filter puts on an index's first field: on the field itself (`{ at: { $gte: … } }`),
 * or on a field of an array's elements through `$elemMatch` (`{ events: { $elemMatch: { at:
 * { $gte: … } } } }`), where both bounds hold for one element's value unless that can be an array.
 */
function rangeFor(filter: Doc, index: Index): Range | undefined {
  const field = index.fields[0]!;
  if (Object.hasOwn(filter, field)) return rangeOn(filter[field], index.multikey);
  const parts = field.split('.');
  for (let i = 1; i < parts.length; i++) {
    const prefix = parts.slice(0, i).join('.');
    const cond = Object.hasOwn(filter, prefix) ? filter[prefix] : undefined;
    const elem = isPlainObject(cond) ? cond.$elemMatch : undefined;
    const rest = parts.slice(i).join('.');
    if (isPlainObject(elem) && Object.hasOwn(elem, rest))
      return rangeOn(elem[rest], index.firstHeldArrays || rest.includes('.'));
  }
  return undefined;
}

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** Equality value(s) a filter pins for a top-level field, or undefined when it does not. */
function pinnedValues(filter: Doc, field: string): unknown[] | undefined {
  if (!Object.hasOwn(filter, field)) return undefined;
  const v = filter[field];
  if (v instanceof RegExp || Array.isArray(v)) return undefined;
  if (isOperatorObject(v)) {
    const keys = Object.keys(v);
    if (keys.length !== 1) return undefined;
    if (keys[0] === '$eq' && !(v.$eq instanceof RegExp) && !Array.isArray(v.$eq)) return [v.$eq];
    if (
      keys[0] === '$in' &&
      Array.isArray(v.$in) &&
      v.$in.every((x) => !(x instanceof RegExp) && !Array.isArray(x))
    )
      return v.$in;
    return undefined;
  }
  if (isPlainObject(v) && Object.keys(v).some((k) => k.startsWith('$'))) return undefined;
  return [v];
}

/** The cached answer for `key`, computed on a miss; the oldest entry goes once `max` are kept. */
function remember(
  cache: Map<string, Doc[]>,
  key: string,
  max: number,
  compute: () => Doc[],
): Doc[] {
  let value = cache.get(key);
  if (!value) {
    value = compute();
    if (cache.size >= max) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
  }
  return value;
}

export class Collection {
  readonly docs = new Map<string, Doc>();
  private readonly indexes: Index[] = [];
  /** Whole-collection sort orders and filter results, kept until the next write. */
  private readonly sortCache = new Map<string, Doc[]>();
  private readonly matchCache = new Map<string, Doc[]>();

  constructor(
    readonly db: string,
    readonly name: string,
    readonly options: Doc = {},
  ) {}

  get ns(): string {
    return `${this.db}.${this.name}`;
  }

  indexSpecs(): IndexSpec[] {
    return [ID_INDEX, ...this.indexes.map((i) => i.spec)];
  }

  hasIndex(name: string): boolean {
    return name === '_id_' || this.indexes.some((i) => i.spec.name === name);
  }

  private duplicate(index: IndexSpec, doc: Doc): MongoCommandError {
    const keyValue: Doc = {};
    for (const field of Object.keys(index.key))
      setField(keyValue, field, pathValues(doc, field)[0] ?? null);
    const shown = Object.entries(keyValue)
      .map(([k, v]) => `${k}: ${formatValue(v)}`)
      .join(', ');
    return new MongoCommandError(
      11000,
      `E11000 duplicate key error collection: ${this.ns} index: ${index.name} dup key: { ${shown} }`,
      { keyPattern: index.key, keyValue },
    );
  }

  /** Checks every unique constraint for a new version of a document; throws DuplicateKey. */
  private check(doc: Doc, idKey: string, isNew: boolean): string[][] {
    if (isNew && this.docs.has(idKey)) throw this.duplicate(ID_INDEX, doc);
    return this.indexes.map((index) => {
      const keys = index.keysFor(doc);
      if (index.unique) {
        for (const key of keys) {
          const owner = index.owner(key);
          if (owner !== undefined && owner !== idKey) throw this.duplicate(index.spec, doc);
        }
      }
      return keys;
    });
  }

  insert(doc: Doc): void {
    const idKey = keyOf(doc._id);
    const keys = this.check(doc, idKey, true);
    this.docs.set(idKey, doc);
    this.indexes.forEach((index, i) => index.add(keys[i]!, idKey, doc));
    this.changed();
  }

  replace(oldDoc: Doc, newDoc: Doc): void {
    const idKey = keyOf(oldDoc._id);
    const keys = this.check(newDoc, idKey, false);
    this.indexes.forEach((index, i) => {
      index.remove(index.keysFor(oldDoc), idKey, oldDoc);
      index.add(keys[i]!, idKey, newDoc);
    });
    this.docs.set(idKey, newDoc);
    this.changed();
  }

  /** Unconditional write used when replaying the journal. */
  put(doc: Doc): void {
    const idKey = keyOf(doc._id);
    const old = this.docs.get(idKey);
    if (old) for (const index of this.indexes) index.remove(index.keysFor(old), idKey, old);
    this.docs.set(idKey, doc);
    for (const index of this.indexes) index.add(index.keysFor(doc), idKey, doc);
    this.changed();
  }

  remove(doc: Doc): void {
    this.removeById(doc._id);
  }

  removeById(id: unknown): void {
    const idKey = keyOf(id);
    const doc = this.docs.get(idKey);
    if (!doc) return;
    for (const index of this.indexes) index.remove(index.keysFor(doc), idKey, doc);
    this.docs.delete(idKey);
    this.changed();
  }

  private changed(): void {
    this.sortCache.clear();
    this.matchCache.clear();
  }

  /**
   * Every document matching the filter, in natural order (the caller must not change the
   * array). The answer is kept until the next write, so a count and a find with the same filter
   * (every page of a list sends both) scan the collection once. Filters with expressions
   * (which may read the clock) are not kept.
   */
  matching(filter: Doc): Doc[] {
    if (Object.keys(filter).length === 0) return [...this.docs.values()];
    if (usesExpressions(filter)) return this.find(filter);
    const bytes = serialize(filter);
    const key = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    return remember(this.matchCache, key, 8, () => this.find(filter));
  }

  /**
   * Every document in the given sort order. The order is kept until the next write, so repeated
   * unfiltered sorted reads (a list's first page, shown over and over) are a slice, as with an
   * index on the sort key.
   */
  sorted(sort: Doc): Doc[] {
    return remember(this.sortCache, JSON.stringify(sort), 4, () =>
      sortDocs([...this.docs.values()], sort),
    );
  }

  addIndex(spec: IndexSpec, enforce: boolean): void {
    const index = new Index(spec);
    if (!index.isText) {
      for (const [idKey, doc] of this.docs) {
        const keys = index.keysFor(doc);
        if (enforce && index.unique) {
          for (const key of keys) {
            const owner = index.owner(key);
            if (owner !== undefined && owner !== idKey) {
              const err = this.duplicate(spec, doc);
              err.message = `Index build failed: ${err.message}`;
              throw err;
            }
          }
        }
        index.add(keys, idKey, doc);
      }
    }
    this.indexes.push(index);
  }

  dropIndex(name: string): void {
    const i = this.indexes.findIndex((x) => x.spec.name === name);
    if (i < 0) fail(27, `index not found with name [${name}]`);
    this.indexes.splice(i, 1);
  }

  dropAllIndexes(): void {
    this.indexes.length = 0;
  }

  /**
   * Documents that may match the filter, narrowed through an index when the filter pins its
   * fields or puts a range on its first field.
   */
  candidates(filter: Doc | undefined): Iterable<Doc> {
    const idKeys = filter ? this.plan(filter) : null;
    return idKeys ? this.byKeys(idKeys) : this.docs.values();
  }

  /** The _id keys of the documents that may match, or null when no index narrows them. */
  private plan(filter: Doc): string[] | null {
    const ids = pinnedValues(filter, '_id');
    if (ids) return ids.map(keyOf);
    for (const index of this.indexes) {
      if (index.multikey || index.isText || index.spec.partialFilterExpression) continue;
      let combos: string[] = [''];
      for (const field of index.fields) {
        const values = pinnedValues(filter, field);
        if (!values || (index.sparse && values.some((v) => v === null))) {
          combos = [];
          break;
        }
        const keys = values.map(keyOf);
        combos = combos.flatMap((c) => keys.map((k) => (c ? c + '|' + k : k)));
      }
      if (combos.length === 0) continue;
      if (combos.length === 1) return [...index.lookup(combos[0]!)];
      const idKeys = new Set<string>();
      for (const combo of combos) for (const id of index.lookup(combo)) idKeys.add(id);
      return [...idKeys];
    }
    for (const index of this.indexes) {
      if (index.isText || index.spec.partialFilterExpression) continue;
      const range = rangeFor(filter, index);
      if (range) return index.range(range);
    }
    // Every branch of an $or narrowed: their union; one branch of an $and: that one.
    const branches = Array.isArray(filter.$or) ? filter.$or : null;
    if (branches?.length && branches.every(isPlainObject)) {
      const idKeys = new Set<string>();
      for (const branch of branches) {
        const some = this.plan(branch);
        if (!some) return null;
        for (const id of some) idKeys.add(id);
      }
      return [...idKeys];
    }
    if (Array.isArray(filter.$and))
      for (const branch of filter.$and) {
        const some = isPlainObject(branch) ? this.plan(branch) : null;
        if (some) return some;
      }
    return null;
  }

  private byKeys(idKeys: string[]): Doc[] {
    if (idKeys.length === 1) {
      const d = this.docs.get(idKeys[0]!);
      return d ? [d] : [];
    }
    const out: Doc[] = [];
    const seen = new Set<string>();
    for (const k of idKeys) {
      if (seen.has(k)) continue;
      seen.add(k);
      const d = this.docs.get(k);
      if (d) out.push(d);
    }
    // Natural order must not depend on the order of $in values or of an index.
    if (out.length < 2) return out;
    const inOrder: Doc[] = [];
    for (const [k, d] of this.docs) if (seen.has(k)) inOrder.push(d);
    return inOrder;
  }

  find(filter: Doc | undefined, limit = 0): Doc[] {
    const match = compileFilter(filter);
    const out: Doc[] = [];
    for (const doc of this.candidates(filter)) {
      if (match(doc)) {
        out.push(doc);
        if (limit > 0 && out.length >= limit) break;
      }
    }
    return out;
  }
}
