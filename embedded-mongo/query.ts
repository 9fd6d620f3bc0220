import { Context, initOptions, type Options } from 'mingo/core';
import { Query } from 'mingo/query';
import { Aggregator } from 'mingo/aggregator';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import { isPlainObject, keyOf, pathValues, type Doc } from './values';

const context = Context.init()
  .addAccumulatorOps(accumulatorOperators)
  .addExpressionOps(expressionOperators)
  .addPipelineOps(pipelineOperators)
  .addProjectionOps(projectionOperators)
  .addQueryOps(queryOperators)
  .addWindowOps(windowOperators);

export function mingoOptions(extra: Partial<Options> = {}): Options {
  return initOptions({
    context,
    useStrictMode: true,
    scriptEnabled: false,
    useGlobalContext: false,
    ...extra,
  });
}

const baseOptions = mingoOptions();
// mingo copies the whole operator context for every operator it compiles, so plain filters
// get a context holding only query operators; filters with $expr get the full one.
const filterOptions = initOptions({
  context: Context.init().addQueryOps(queryOperators),
  useStrictMode: true,
  scriptEnabled: false,
  useGlobalContext: false,
});

const projectionOptions = initOptions({
  context: Context.init().addQueryOps(queryOperators).addProjectionOps(projectionOperators),
  useStrictMode: true,
  scriptEnabled: false,
  useGlobalContext: false,
});

export function usesExpressions(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(usesExpressions);
  if (!isPlainObject(v)) return false;
  for (const k of Object.keys(v)) {
    if (k === '$expr' || k === '$where' || k === '$jsonSchema' || k === '$function') return true;
    if (usesExpressions(v[k])) return true;
  }
  return false;
}

function isLiteral(v: unknown): boolean {
  if (v === undefined || v instanceof RegExp || Array.isArray(v)) return false;
  if (isPlainObject(v)) return !Object.keys(v).some((k) => k.startsWith('$'));
  return true;
}

/** MongoDB equality for one field: the value itself, or an element of an array at that path. */
function equalityMatcher(path: string, target: unknown): Matcher {
  const key = keyOf(target);
  const isNull = target === null;
  return (doc) => {
    const values = pathValues(doc, path);
    if (isNull && values.length === 0) return true;
    for (const v of values) {
      if (keyOf(v) === key) return true;
      if (Array.isArray(v) && v.some((e) => keyOf(e) === key)) return true;
    }
    return false;
  };
}

/** MongoDB regex match for one field: a string value, or a string element of an array there. */
function regexMatcher(path: string, source: RegExp): Matcher {
  // Never share lastIndex state with the caller's object.
  const re = new RegExp(source.source, source.flags.replace(/[gy]/g, ''));
  const test = (v: unknown) => typeof v === 'string' && re.test(v);
  return (doc) => {
    for (const v of pathValues(doc, path)) {
      if (test(v)) return true;
      if (Array.isArray(v) && v.some(test)) return true;
    }
    return false;
  };
}

const REGEX_OPTIONS = /^[imsx]*$/;

/** `/re/`, `{ $regex: /re/ }` or `{ $regex: 'src', $options: 'i' }` as a RegExp; else null. */
function asRegex(v: unknown): RegExp | null {
  if (v instanceof RegExp) return v;
  if (!isPlainObject(v) || !('$regex' in v)) return null;
  const keys = Object.keys(v);
  if (keys.some((k) => k !== '$regex' && k !== '$options')) return null;
  const { $regex: src, $options: opts } = v as { $regex: unknown; $options?: unknown };
  if (
    opts !== undefined &&
    (typeof opts !== 'string' || !REGEX_OPTIONS.test(opts) || opts.includes('x'))
  )
    return null;
  if (src instanceof RegExp) return opts === undefined ? src : new RegExp(src.source, opts);
  if (typeof src !== 'string') return null;
  try {
    return new RegExp(src, (opts as string | undefined) ?? '');
  } catch {
    return null;
  }
}

/**
 * Filters made only of field equalities, regexes and $or/$and of those are matched without
 * mingo: they are what the product sends (lookups, searches, status filters). Anything else
 * returns null and goes through mingo.
 */
function simpleMatcher(filter: Doc): Matcher | null {
  const parts: Matcher[] = [];
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$or' || k === '$and') {
      if (!Array.isArray(v) || v.length === 0 || !v.every(isPlainObject)) return null;
      const subs: Matcher[] = [];
      for (const sub of v as Doc[]) {
        const m = Object.keys(sub).length === 0 ? matchAll : simpleMatcher(sub);
        if (!m) return null;
        subs.push(m);
      }
      parts.push(
        k === '$or' ? (doc) => subs.some((m) => m(doc)) : (doc) => subs.every((m) => m(doc)),
      );
      continue;
    }
    if (k.startsWith('$')) return null;
    const re = asRegex(v);
    if (re) {
      parts.push(regexMatcher(k, re));
      continue;
    }
    let target = v;
    if (isPlainObject(v) && Object.keys(v).length === 1 && '$eq' in v) target = v.$eq;
    if (!isLiteral(target) || (isPlainObject(target) && Object.keys(target).length === 0))
      return null;
    parts.push(equalityMatcher(k, target));
  }
  if (parts.length === 1) return parts[0]!;
  return (doc) => parts.every((m) => m(doc));
}

export type Matcher = (doc: Doc) => boolean;

const matchAll: Matcher = () => true;

export function compileFilter(filter: unknown): Matcher {
  if (filter === undefined || filter === null) return matchAll;
  if (!isPlainObject(filter)) throw new Error('filter must be an object');
  if (Object.keys(filter).length === 0) return matchAll;
  const simple = simpleMatcher(filter);
  if (simple) return simple;
  const q = new Query(filter, usesExpressions(filter) ? baseOptions : filterOptions);
  return (doc) => q.test(doc);
}

type IncludeTree = Map<string, IncludeTree | true>;

/**
 * Inclusion of a dotted path keeps, inside the named subdocument, only the named fields; inside an
 * array, it applies to every element that is a document and drops the others, as MongoDB does.
 */
function includeTree(tree: IncludeTree, value: Doc): Doc {
  const out: Doc = {};
  for (const key of Object.keys(value)) {
    const sub = tree.get(key);
    if (sub === undefined) continue;
    if (sub === true) out[key] = value[key];
    else {
      const kept = includeNested(sub, value[key]);
      if (kept !== undefined) out[key] = kept;
    }
  }
  return out;
}

function includeNested(tree: IncludeTree, value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const kept = includeNested(tree, item);
      if (kept !== undefined) out.push(kept);
    }
    return out;
  }
  return isPlainObject(value) ? includeTree(tree, value) : undefined;
}

/**
 * Projections of plain field paths, all excluded (top-level fields only) or all included (dotted
 * paths too), with `_id` either way, are applied here; anything else goes through mingo. Paths that
 * overlap (`a` and `a.b`) are left to mingo.
 */
function plainProjection(projection: Doc): ((doc: Doc) => Doc) | null {
  let mode: 'include' | 'exclude' | undefined;
  let keepId = true;
  const tree: IncludeTree = new Map();
  const names = new Set<string>();
  for (const [field, value] of Object.entries(projection)) {
    if (
      field.startsWith('$') ||
      field === '' ||
      field.split('.').some((part) => part === '' || part.startsWith('$'))
    )
      return null;
    if (value !== 0 && value !== 1 && value !== true && value !== false) return null;
    const include = value === 1 || value === true;
    if (field === '_id') {
      keepId = include;
      continue;
    }
    const fieldMode = include ? 'include' : 'exclude';
    if (mode && mode !== fieldMode) return null;
    mode = fieldMode;
    if (!include) {
      if (field.includes('.')) return null;
      names.add(field);
      continue;
    }
    const parts = field.split('.');
    if (parts[0] === '_id') return null;
    let node = tree;
    for (let i = 0; i < parts.length; i++) {
      const existing = node.get(parts[i]!);
      if (i === parts.length - 1) {
        if (existing !== undefined) return null;
        node.set(parts[i]!, true);
      } else if (existing === true) return null;
      else if (existing) node = existing;
      else {
        const child: IncludeTree = new Map();
        node.set(parts[i]!, child);
        node = child;
      }
    }
  }
  if (mode === 'include') {
    return (doc) => {
      const out: Doc = {};
      if (keepId && '_id' in doc) out._id = doc._id;
      return Object.assign(out, includeTree(tree, doc));
    };
  }
  return (doc) => {
    const out: Doc = {};
    for (const key of Object.keys(doc)) {
      if (names.has(key) || (key === '_id' && !keepId)) continue;
      out[key] = doc[key];
    }
    return out;
  };
}

export function project(docs: Doc[], projection: unknown): Doc[] {
  if (!isPlainObject(projection) || Object.keys(projection).length === 0 || docs.length === 0)
    return docs;
  const fast = plainProjection(projection);
  if (fast) return docs.map(fast);
  return new Query({}, projectionOptions).find(docs, projection).all() as Doc[];
}

export function aggregate(docs: Doc[], pipeline: Doc[], resolver: (name: string) => Doc[]): Doc[] {
  const agg = new Aggregator(pipeline, mingoOptions({ collectionResolver: resolver }));
  return agg.run(docs) as Doc[];
}
