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
  return initOptions({ context, useStrictMode: true, scriptEnabled: false, useGlobalContext: false, ...extra });
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

function usesExpressions(v: unknown): boolean {
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

/** Filters made only of field equalities are matched without mingo; they are the common case. */
function simpleMatcher(filter: Doc): Matcher | null {
  const parts: Matcher[] = [];
  for (const [k, v] of Object.entries(filter)) {
    if (k.startsWith('$')) return null;
    let target = v;
    if (isPlainObject(v) && Object.keys(v).length === 1 && '$eq' in v) target = v.$eq;
    if (!isLiteral(target) || (isPlainObject(target) && Object.keys(target).length === 0)) return null;
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

export function project(docs: Doc[], projection: unknown): Doc[] {
  if (!isPlainObject(projection) || Object.keys(projection).length === 0 || docs.length === 0) return docs;
  return new Query({}, projectionOptions).find(docs, projection).all() as Doc[];
}

export function aggregate(docs: Doc[], pipeline: Doc[], resolver: (name: string) => Doc[]): Doc[] {
  const agg = new Aggregator(pipeline, mingoOptions({ collectionResolver: resolver }));
  return agg.run(docs) as Doc[];
}
