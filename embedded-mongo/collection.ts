import { serialize } from 'bson';
import { fail, MongoCommandError } from './errors';
import { compileFilter, usesExpressions, type Matcher } from './filter';
import {
  formatValue,
  isOperatorObject,
  isPlainObject,
  keyOf,
  pathValues,
  setField,
  sortDocs,
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
  multikey = false;

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
      const keys = [...new Set((values.length ? values : [null]).map(keyOf))];
      combos = combos.flatMap((c) => keys.map((k) => (c ? c + '|' + k : k)));
    }
    if (this.sparse && !present) return [];
    return combos;
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

  add(keys: string[], id: string): void {
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

  remove(keys: string[], id: string): void {
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
    this.multikey = false;
  }
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
    this.indexes.forEach((index, i) => index.add(keys[i]!, idKey));
    this.changed();
  }

  replace(oldDoc: Doc, newDoc: Doc): void {
    const idKey = keyOf(oldDoc._id);
    const keys = this.check(newDoc, idKey, false);
    this.indexes.forEach((index, i) => {
      index.remove(index.keysFor(oldDoc), idKey);
      index.add(keys[i]!, idKey);
    });
    this.docs.set(idKey, newDoc);
    this.changed();
  }

  /** Unconditional write used when replaying the journal. */
  put(doc: Doc): void {
    const idKey = keyOf(doc._id);
    const old = this.docs.get(idKey);
    if (old) for (const index of this.indexes) index.remove(index.keysFor(old), idKey);
    this.docs.set(idKey, doc);
    for (const index of this.indexes) index.add(index.keysFor(doc), idKey);
    this.changed();
  }

  remove(doc: Doc): void {
    this.removeById(doc._id);
  }

  removeById(id: unknown): void {
    const idKey = keyOf(id);
    const doc = this.docs.get(idKey);
    if (!doc) return;
    for (const index of this.indexes) index.remove(index.keysFor(doc), idKey);
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
        index.add(keys, idKey);
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

  /** Documents that may match the filter, narrowed through an index when the filter pins one. */
  candidates(filter: Doc | undefined): Iterable<Doc> {
    if (!filter) return this.docs.values();
    const ids = pinnedValues(filter, '_id');
    if (ids) return this.byKeys(ids.map(keyOf));
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
      if (combos.length === 1) return this.byKeys([...index.lookup(combos[0]!)]);
      const idKeys = new Set<string>();
      for (const combo of combos) for (const id of index.lookup(combo)) idKeys.add(id);
      return this.byKeys([...idKeys]);
    }
    return this.docs.values();
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
    // Natural order must not depend on the order of $in values.
    if (out.length > 1) {
      const order = new Map<string, number>();
      let i = 0;
      for (const k of this.docs.keys()) if (seen.has(k)) order.set(k, i++);
      out.sort((a, b) => order.get(keyOf(a._id))! - order.get(keyOf(b._id))!);
    }
    return out;
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
