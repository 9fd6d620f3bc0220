import { ComputeOptions, computeValue, Context, initOptions, type Options } from 'mingo/core';
import { Lazy, type Iterator } from 'mingo/lazy';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import { fail } from './errors';
import { arithmeticExpressions } from './arithmetic';
import { conversionExpressions } from './conversions';
import { dateExpressions } from './dates';
import { distinctValues, logicExpressions } from './logic';
import { compareExpressionValues, notImplemented } from './expression-support';
import { mongoExpressions } from './expressions';
import { groupingStages } from './stages';
import { textExpressions } from './text';
import {
  compareValues,
  escapeKey,
  isPlainObject,
  sortDocs,
  typeName,
  unescapeKey,
  type Doc,
} from './values';
import { compileFilter } from './filter';
import { compileProjectionSpec, type ProjectionKind } from './projection';
import { compileExpression, FIELD_PATH, followPath, valuesOf, type Compiled } from './compiled';

/**
 * mingo, MongoDB's aggregation language in JavaScript, set up with the engine's own parts where
 * mingo would answer otherwise than MongoDB: the stages that filter, sort and project (the
 * engine's matcher and projection), the expressions that read field names and compare, and the
 * accumulators that order and pick values. Every pipeline and expression runs with these options.
 */

// Pipeline stages that filter and sort use the engine's own matcher and ordering, so a $match
// later in a pipeline answers exactly as a find does. Operators added first take precedence.
const engineStages = {
  $match: (collection: Iterator, expr: unknown, options: Options): Iterator => {
    const match = compileFilter(expr, { options });
    return collection.filter((o) => match(o as Doc));
  },
  $sort: (collection: Iterator, keys: unknown): Iterator => {
    if (!isPlainObject(keys) || Object.keys(keys).length === 0)
      fail(15976, '$sort stage must have at least one sort key');
    for (const [k, v] of Object.entries(keys)) {
      if (isPlainObject(v)) notImplemented(`$sort by {${unescapeKey(k)}: ${JSON.stringify(v)}}`);
      if (v !== 1 && v !== -1) fail(15975, '$sort key ordering must be 1 (for ascending) or -1');
    }
    return Lazy(sortDocs(collection.value() as Doc[], keys));
  },
  $project: (collection: Iterator, spec: unknown, options: Options): Iterator => {
    if (!isPlainObject(spec)) fail(15969, '$project specification must be an object');
    if (Object.keys(spec).length === 0)
      fail(
        51272,
        'Invalid $project :: caused by :: projection specification must have at least one field',
      );
    return projectStage(collection, spec, 'project', options);
  },
  $addFields: (collection: Iterator, spec: unknown, options: Options): Iterator =>
    addFieldsStage('$addFields', collection, spec, options),
  $set: (collection: Iterator, spec: unknown, options: Options): Iterator =>
    addFieldsStage('$set', collection, spec, options),
  $unset: (collection: Iterator, spec: unknown, options: Options): Iterator => {
    const fields = typeof spec === 'string' ? [spec] : spec;
    if (!Array.isArray(fields)) fail(31002, '$unset specification must be a string or an array');
    if (fields.length === 0)
      fail(31119, '$unset specification must be a string or an array with at least one field');
    if (!fields.every((f) => typeof f === 'string'))
      fail(
        31120,
        '$unset specification must be a string or an array containing only string values',
      );
    return projectStage(
      collection,
      Object.fromEntries(fields.map((f) => [f, 0])),
      'project',
      options,
    );
  },
};

function addFieldsStage(
  name: string,
  collection: Iterator,
  spec: unknown,
  options: Options,
): Iterator {
  if (!isPlainObject(spec))
    fail(40272, `${name} specification stage must be an object, got ${typeName(spec)}`);
  return projectStage(collection, spec, 'addFields', options);
}

/** $project, $addFields, $set and $unset: the engine's projection, with mingo's expressions. */
function projectStage(
  collection: Iterator,
  spec: Doc,
  kind: ProjectionKind,
  options: Options,
): Iterator {
  const project = compileProjectionSpec(spec, kind, {
    // Escaped with the rest of the pipeline, and compiled once for the stage.
    prepare: compileExpression,
    evaluate: (doc) => {
      // The stage's options carry the variables in scope ($lookup's let); the root is this document.
      let forDoc: Options | null = null;
      const options_ = () => (forDoc ??= ComputeOptions.init(options).update(doc));
      return (expr) => (expr as Compiled)(doc, options_);
    },
  });
  return collection.map((doc) => project(doc as Doc));
}

// The expressions that turn field names into values and back: mingo's, with the names escaped
// inside mingo (see toMingo) and real in the values. Their one argument may come in a list of one,
// as MongoDB allows (`{ $arrayToObject: [[['a', 1]]] }`).
type Expression = (obj: unknown, expr: unknown, options: Options) => unknown;
const { $objectToArray, $arrayToObject } = expressionOperators as Record<string, Expression>;
const onlyArgument = (expr: unknown): unknown =>
  Array.isArray(expr) && expr.length === 1 ? expr[0] : expr;
const engineExpressions: Record<string, Expression> = {
  $objectToArray: (obj, expr, options) => {
    const entries = $objectToArray!(obj, onlyArgument(expr), options);
    if (!Array.isArray(entries)) return entries;
    return entries.map((e: { k: string; v: unknown }) => ({ k: unescapeKey(e.k), v: e.v }));
  },
  $arrayToObject: (obj, expr, options) => {
    const value = computeValue(obj, onlyArgument(expr), null, options);
    const escaped = Array.isArray(value)
      ? value.map((e: unknown) => {
          if (Array.isArray(e) && typeof e[0] === 'string') return [escapeKey(e[0]), ...e.slice(1)];
          if (isPlainObject(e) && typeof e.k === 'string') return { ...e, k: escapeKey(e.k) };
          return e;
        })
      : value;
    return $arrayToObject!(obj, { $literal: escaped }, options);
  },
};

export { FIELD_PATH };

engineExpressions[FIELD_PATH] = (obj, expr, options) => {
  const [base, path] = expr as [string, string];
  return followPath(computeValue(obj, base, null, options), path.split('.'), 0);
};

function twoArguments(
  name: string,
  obj: unknown,
  expr: unknown,
  options: Options,
): [unknown, unknown] {
  const args = computeValue(obj, expr, null, options);
  if (!Array.isArray(args) || args.length !== 2)
    fail(
      16020,
      `Expression ${name} takes exactly 2 arguments. ${Array.isArray(args) ? args.length : 1} were passed in.`,
    );
  return args as [unknown, unknown];
}

const comparison =
  (name: string, result: (c: number) => unknown): Expression =>
  (obj, expr, options) =>
    result(compareExpressionValues(...twoArguments(name, obj, expr, options)));

// mingo's comparisons are its query operators' (any element of an array, null equal to missing,
// nothing across types) and its $min/$max skip what is not a number; these follow MongoDB.
Object.assign(engineExpressions, {
  $eq: comparison('$eq', (c) => c === 0),
  $ne: comparison('$ne', (c) => c !== 0),
  $gt: comparison('$gt', (c) => c > 0),
  $gte: comparison('$gte', (c) => c >= 0),
  $lt: comparison('$lt', (c) => c < 0),
  $lte: comparison('$lte', (c) => c <= 0),
  $cmp: comparison('$cmp', (c) => Math.sign(c)),
  $in: (obj, expr, options) => {
    const [value, list] = twoArguments('$in', obj, expr, options);
    if (!Array.isArray(list))
      fail(40081, `$in requires an array as a second argument, found: ${typeName(list)}`);
    return list.some((e) => compareExpressionValues(value, e) === 0);
  },
} satisfies Record<string, Expression>);

type Accumulator = (collection: unknown[], expr: unknown, options: Options) => unknown;
const { $push } = accumulatorOperators as unknown as Record<string, Accumulator>;

/** $min and $max: the least or greatest value in BSON order, null and missing values aside. */
const extreme =
  (sign: 1 | -1): Accumulator =>
  (collection, expr, options) => {
    let best: unknown = null;
    for (const v of valuesOf(collection, expr, options)) {
      if (v === null || v === undefined) continue;
      if (best === null || compareValues(v, best) * sign > 0) best = v;
    }
    return best;
  };

/**
 * $topN, $bottomN, $top and $bottom: the group's documents in the engine's order (mingo's own
 * would not be MongoDB's), and for $top and $bottom the one value rather than a list of one.
 */
const ranked =
  (end: 'top' | 'bottom', one: boolean): Accumulator =>
  (collection, expr, options) => {
    const spec = (isPlainObject(expr) ? expr : {}) as Doc;
    const opts = ComputeOptions.init(options);
    const n = one ? 1 : Number(computeValue(opts.local.groupId, spec.n, null, opts));
    if (!isPlainObject(spec.sortBy))
      fail(5788604, `${end === 'top' ? '$top' : '$bottom'}${one ? '' : 'N'} requires a sortBy`);
    const sorted = sortDocs(collection as Doc[], spec.sortBy);
    const chosen =
      end === 'top' ? sorted.slice(0, n) : sorted.slice(Math.max(0, sorted.length - n));
    const values = $push!(chosen, spec.output, opts) as unknown[];
    return one ? (values[0] ?? null) : values;
  };

const engineAccumulators: Record<string, Accumulator> = {
  // Accumulators and expressions at once (see accumulating); windows look them up as accumulators.
  ...Object.fromEntries(
    ['$sum', '$avg', '$stdDevPop', '$stdDevSamp'].map((name) => [
      name,
      arithmeticExpressions[name] as Accumulator,
    ]),
  ),
  // Expressions that are accumulators in a group (their first argument is then the group).
  ...Object.fromEntries(
    ['$maxN', '$minN', '$mergeObjects', '$median', '$percentile'].map((name) => [
      name,
      mongoExpressions[name] as Accumulator,
    ]),
  ),
  // A missing value is not pushed.
  $push: (collection, expr, options) =>
    valuesOf(collection, expr, options).filter((v) => v !== undefined),
  // Each value once, as MongoDB compares them (1 and 1.0 are one value); missing values are skipped.
  $addToSet: (collection, expr, options) =>
    distinctValues(valuesOf(collection, expr, options).filter((v) => v !== undefined)),
  $min: extreme(-1),
  $max: extreme(1),
  $top: ranked('top', true),
  $topN: ranked('top', false),
  $bottom: ranked('bottom', true),
  $bottomN: ranked('bottom', false),
};

export const context = Context.init()
  .addPipelineOps(engineStages as never)
  .addPipelineOps(groupingStages((filter) => compileFilter(filter)) as never)
  .addAccumulatorOps(engineAccumulators as never)
  .addAccumulatorOps(accumulatorOperators)
  .addExpressionOps(engineExpressions)
  .addExpressionOps(arithmeticExpressions as never)
  .addExpressionOps(logicExpressions as never)
  .addExpressionOps(dateExpressions as never)
  .addExpressionOps(conversionExpressions as never)
  .addExpressionOps(textExpressions as never)
  .addExpressionOps(mongoExpressions as never)
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

export const baseOptions = mingoOptions();
