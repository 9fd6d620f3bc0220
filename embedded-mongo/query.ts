import { Long } from 'bson';
import { ComputeOptions, computeValue, Context, initOptions, type Options } from 'mingo/core';
import { Aggregator } from 'mingo/aggregator';
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
import { compareExpressionValues, isTrue } from './expression-support';
import { mongoExpressions } from './expressions';
import { isNaNNumber } from './numbers';
import { candidates, leafValues, MISSING } from './paths';
import { groupingStages } from './stages';
import { textExpressions } from './text';
import {
  bsonType,
  bsonTypeCode,
  compareValues,
  escapeKey,
  fieldOf,
  fieldPath,
  formatValue,
  fromMingo,
  isOperatorObject,
  isPlainObject,
  keyOf,
  setField,
  sortDocs,
  toMingo,
  TYPE_CODES_BY_NAME,
  typeName,
  unescapeKey,
  type Doc,
} from './values';

/** Refusal of something MongoDB does that this engine does not: never an answer without it. */
export function notImplemented(feature: string): never {
  fail(238, `${feature} is not implemented by this database engine`);
}

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
    // Escaped with the rest of the pipeline.
    prepare: (expr) => expr,
    evaluate: (doc) => {
      // The stage's options carry the variables in scope ($lookup's let); the root is this document.
      const forDoc = ComputeOptions.init(options).update(doc);
      return (expr) => computeValue(doc, expr, null, forDoc);
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

/**
 * A field path through documents, read as MongoDB reads it: field by field, own fields only (mingo
 * would also index arrays by a numeric part and read the properties of a BSON value such as an
 * ObjectId); through an array, the path is followed in each of its documents and what is found
 * makes an array. The argument is the variable to start from and the path.
 */
const FIELD_PATH = '$engineFieldPath';

function followPath(value: unknown, parts: string[], i: number): unknown {
  if (Array.isArray(value)) {
    const found: unknown[] = [];
    for (const e of value) {
      const v = isPlainObject(e) ? followPath(e, parts, i) : undefined;
      if (v !== undefined) found.push(v);
    }
    return found;
  }
  if (!isPlainObject(value)) return undefined;
  const next = fieldOf(value, parts[i]!);
  if (i === parts.length - 1) return next;
  return isPlainObject(next) || Array.isArray(next) ? followPath(next, parts, i + 1) : undefined;
}

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
    for (const v of $push!(collection, expr, options) as unknown[]) {
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
    ($push!(collection, expr, options) as unknown[]).filter((v) => v !== undefined),
  // Each value once, as MongoDB compares them (1 and 1.0 are one value); missing values are skipped.
  $addToSet: (collection, expr, options) =>
    distinctValues(($push!(collection, expr, options) as unknown[]).filter((v) => v !== undefined)),
  $min: extreme(-1),
  $max: extreme(1),
  $top: ranked('top', true),
  $topN: ranked('top', false),
  $bottom: ranked('bottom', true),
  $bottomN: ranked('bottom', false),
};

const context = Context.init()
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

const baseOptions = mingoOptions();

export function usesExpressions(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(usesExpressions);
  if (!isPlainObject(v)) return false;
  for (const k of Object.keys(v)) {
    if (k === '$expr' || k === '$where' || k === '$jsonSchema' || k === '$function') return true;
    if (usesExpressions(v[k])) return true;
  }
  return false;
}

export type Matcher = (doc: Doc) => boolean;

const matchAll: Matcher = () => true;

/** A test on the values found at one path: `leaves` as found, `cands` with arrays expanded. */
type ValueTest = (cands: unknown[], leaves: unknown[]) => boolean;

const isMissingOrNull = (v: unknown): boolean => v === MISSING || v === null || v === undefined;

function sameRegex(a: unknown, b: RegExp): boolean {
  if (a instanceof RegExp) return a.source === b.source && a.flags === b.flags;
  if (bsonType(a) === 'BSONRegExp') {
    const r = a as { pattern: string; options: string };
    return (
      r.pattern === b.source && [...r.options].sort().join('') === [...b.flags].sort().join('')
    );
  }
  return false;
}

function equalsTest(target: unknown): (v: unknown) => boolean {
  if (target === null || target === undefined) return isMissingOrNull;
  if (target instanceof RegExp) return (v) => sameRegex(v, target);
  const key = keyOf(target);
  if (isNaNNumber(target)) return isNaNValue;
  return (v) => v !== MISSING && v !== null && keyOf(v) === key;
}

function isNaNValue(v: unknown): boolean {
  return v !== MISSING && isNaNNumber(v);
}

function regexTest(re: RegExp): (v: unknown) => boolean {
  const safe = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  return (v) => (typeof v === 'string' ? safe.test(v) : sameRegex(v, re));
}

const REGEX_OPTIONS = /^[imsux]*$/;

function makeRegex(source: unknown, options: unknown): RegExp {
  if (options !== undefined && typeof options !== 'string') fail(2, '$options has to be a string');
  const opts = (options as string | undefined) ?? '';
  if (!REGEX_OPTIONS.test(opts)) fail(51108, `invalid flag in regex options: ${opts}`);
  if (opts.includes('x')) notImplemented("The regex option 'x' (extended)");
  if (source instanceof RegExp) {
    if (options !== undefined && source.flags && opts)
      fail(51074, 'options set in both $regex and $options');
    return new RegExp(source.source, opts || source.flags);
  }
  if (bsonType(source) === 'BSONRegExp') {
    const r = source as { pattern: string; options: string };
    return makeRegex(r.pattern, opts || r.options);
  }
  if (typeof source !== 'string') fail(2, '$regex has to be a string');
  try {
    return new RegExp(source, opts.replace(/x/g, ''));
  } catch (err) {
    fail(51091, `Regular expression is invalid: ${(err as Error).message}`);
  }
}

const TYPE_CODES = new Set(TYPE_CODES_BY_NAME.values());
const NUMBER_CODES = new Set([1, 16, 18, 19]);

function typeTest(spec: unknown): (v: unknown) => boolean {
  const list = Array.isArray(spec) ? spec : [spec];
  if (list.length === 0) fail(9, '$type must match at least one type');
  const codes = new Set<number>();
  let anyNumber = false;
  for (const t of list) {
    if (typeof t === 'string') {
      if (t === 'number') anyNumber = true;
      else if (TYPE_CODES_BY_NAME.has(t)) codes.add(TYPE_CODES_BY_NAME.get(t)!);
      else fail(2, `Unknown type name alias: ${t}`);
    } else if (typeof t === 'number' || bsonType(t) === 'Double' || t instanceof Long) {
      const n = Number(t);
      if (!Number.isInteger(n)) fail(2, `Invalid numerical type code: ${n}`);
      if (!TYPE_CODES.has(n)) fail(2, `Invalid numerical type code: ${n}`);
      codes.add(n);
    } else fail(14, 'type must be represented as a number or a string');
  }
  return (v) => {
    if (v === MISSING) return false;
    const code = bsonTypeCode(v);
    if (code === undefined) return codes.has(6);
    return codes.has(code) || (anyNumber && NUMBER_CODES.has(code));
  };
}

/** MongoDB's comparison operators compare only within one type bracket (numbers, strings, ...). */
function comparisonTest(op: string, target: unknown): (v: unknown) => boolean {
  if (target instanceof RegExp) fail(2, `Can't have RegEx as arg to predicate over field.`);
  if (target === null || target === undefined) {
    return op === '$gte' || op === '$lte' ? isMissingOrNull : () => false;
  }
  const bracket = bracketOf(target);
  const targetNaN = isNaNValue(target);
  const minMax = bracket === 1 || bracket === 13;
  return (v) => {
    if (v === MISSING) return false;
    if (!minMax && bracketOf(v) !== bracket) return false;
    if (targetNaN || isNaNValue(v)) {
      return targetNaN && isNaNValue(v) && (op === '$gte' || op === '$lte');
    }
    const c = compareValues(v, target);
    switch (op) {
      case '$gt':
        return c > 0;
      case '$gte':
        return c >= 0;
      case '$lt':
        return c < 0;
      default:
        return c <= 0;
    }
  };
}

/** MongoDB's canonical type order: numbers compare with numbers, strings with symbols, ... */
function bracketOf(v: unknown): number {
  const code = bsonTypeCode(v);
  switch (code) {
    case -1:
      return 1;
    case 10:
    case 6:
    case undefined:
      return 2;
    case 1:
    case 16:
    case 18:
    case 19:
      return 3;
    case 2:
    case 14:
      return 4;
    case 3:
      return 5;
    case 4:
      return 6;
    case 5:
      return 7;
    case 7:
      return 8;
    case 8:
      return 9;
    case 9:
      return 10;
    case 17:
      return 11;
    case 11:
      return 12;
    case 127:
      return 13;
    default:
      return 20 + (code ?? 0);
  }
}

function modTest(arg: unknown): (v: unknown) => boolean {
  if (!Array.isArray(arg)) fail(2, 'malformed mod, needs to be an array');
  if (arg.length < 2) fail(2, 'malformed mod, not enough elements');
  if (arg.length > 2) fail(2, 'malformed mod, too many elements');
  const [d, r] = arg.map((x) => {
    if (!isNumber(x)) fail(2, 'malformed mod, divisor value is invalid');
    const n = Number(x);
    if (!Number.isFinite(n)) fail(2, 'malformed mod, divisor value is invalid');
    return Math.trunc(n);
  }) as [number, number];
  if (d === 0) fail(2, 'divisor cannot be 0');
  return (v) => {
    if (v === MISSING || !isNumber(v)) return false;
    if (bsonType(v) === 'Long') return BigInt(String(v)) % BigInt(d) === BigInt(r);
    const n = Number(v);
    if (!Number.isFinite(n)) return false;
    const rem = Math.trunc(n) % d;
    return rem === r || (rem === 0 && r === 0);
  };
}

function isNumber(v: unknown): boolean {
  const code = bsonTypeCode(v);
  return code === 1 || code === 16 || code === 18 || code === 19;
}

function bitsTest(op: string, arg: unknown): (v: unknown) => boolean {
  let mask = 0n;
  if (Array.isArray(arg)) {
    for (const pos of arg) {
      if (!isNumber(pos) || !Number.isInteger(Number(pos)) || Number(pos) < 0)
        fail(2, `bit positions must be non-negative integers: ${String(pos)}`);
      if (Number(pos) < 64) mask |= 1n << BigInt(Number(pos));
    }
  } else if (isNumber(arg)) {
    const n = Number(arg);
    if (!Number.isInteger(n) || n < 0)
      fail(9, `${op} bitmask must be a non-negative integer: ${String(arg)}`);
    mask = BigInt(n);
  } else notImplemented(`${op} with a BinData bitmask`);
  return (v) => {
    let bits: bigint;
    if (typeof v === 'number' || bsonType(v) === 'Double' || bsonType(v) === 'Int32') {
      const n = Number(v);
      if (!Number.isInteger(n)) return false;
      bits = BigInt.asUintN(64, BigInt(n));
    } else if (bsonType(v) === 'Long') bits = BigInt.asUintN(64, BigInt(String(v)));
    else if (bsonType(v) === 'Binary') {
      const bytes = (v as { buffer: Uint8Array }).buffer;
      bits = 0n;
      for (let i = Math.min(bytes.length, 8) - 1; i >= 0; i--)
        bits = (bits << 8n) | BigInt(bytes[i]!);
    } else return false;
    const set = bits & mask;
    switch (op) {
      case '$bitsAllSet':
        return set === mask;
      case '$bitsAnySet':
        return set !== 0n;
      case '$bitsAllClear':
        return set === 0n;
      default:
        return set !== mask;
    }
  };
}

const GEO_OPERATORS = new Set([
  '$near',
  '$nearSphere',
  '$geoWithin',
  '$geoIntersects',
  '$within',
  '$box',
  '$center',
  '$centerSphere',
  '$polygon',
  '$geometry',
  '$maxDistance',
  '$minDistance',
]);

/** Compiles the operators (or equality) given for one path into a test on its values. */
function compileValueTest(cond: unknown): ValueTest {
  if (cond instanceof RegExp) {
    const test = regexTest(cond);
    return (cands) => cands.some(test);
  }
  if (!isOperatorSpec(cond)) {
    const test = equalsTest(cond);
    return (cands) => cands.some(test);
  }
  const spec = cond as Doc;
  const tests: ValueTest[] = [];
  const keys = Object.keys(spec);
  for (const op of keys) {
    const arg = spec[op];
    switch (op) {
      case '$eq': {
        const test = equalsTest(arg);
        tests.push((cands) => cands.some(test));
        break;
      }
      case '$ne': {
        if (arg instanceof RegExp) fail(2, "Can't have regex as arg to $ne.");
        const test = equalsTest(arg);
        tests.push((cands) => !cands.some(test));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const test = comparisonTest(op, arg);
        tests.push((cands) => cands.some(test));
        break;
      }
      case '$in':
      case '$nin': {
        if (!Array.isArray(arg)) fail(2, `${op} needs an array`);
        const each = arg.map((x) => {
          if (isPlainObject(x) && Object.keys(x).some((k) => k.startsWith('$')))
            fail(2, `cannot nest $ under ${op}`);
          return x instanceof RegExp ? regexTest(x) : equalsTest(x);
        });
        const any = (v: unknown): boolean => each.some((t) => t(v));
        tests.push(op === '$in' ? (cands) => cands.some(any) : (cands) => !cands.some(any));
        break;
      }
      case '$exists': {
        const want =
          arg !== false && arg !== 0 && arg !== null && !(arg instanceof Long && arg.isZero());
        tests.push((_, leaves) => leaves.some((v) => v !== MISSING) === want);
        break;
      }
      case '$type': {
        const test = typeTest(arg);
        tests.push((cands) => cands.some(test));
        break;
      }
      case '$regex': {
        const test = regexTest(makeRegex(arg, spec.$options));
        tests.push((cands) => cands.some(test));
        break;
      }
      case '$options':
        if (!('$regex' in spec)) fail(2, '$options needs a $regex');
        break;
      case '$not': {
        if (arg instanceof RegExp) {
          const inner = regexTest(arg);
          tests.push((cands) => !cands.some(inner));
          break;
        }
        if (!isPlainObject(arg)) fail(2, '$not needs a regex or a document');
        if (Object.keys(arg).length === 0) fail(2, '$not cannot be empty');
        if (!isOperatorSpec(arg)) fail(2, `unknown operator: ${Object.keys(arg)[0]}`);
        const inner = compileValueTest(arg);
        tests.push((cands, leaves) => !inner(cands, leaves));
        break;
      }
      case '$elemMatch': {
        if (!isPlainObject(arg)) fail(2, '$elemMatch needs an Object');
        const element = elementMatcher(arg);
        tests.push((_, leaves) => leaves.some((v) => Array.isArray(v) && v.some(element)));
        break;
      }
      case '$all': {
        if (!Array.isArray(arg)) fail(2, '$all needs an array');
        if (arg.length === 0) {
          tests.push(() => false);
          break;
        }
        const parts: ValueTest[] = arg.map((x) => {
          if (isPlainObject(x) && '$elemMatch' in x) {
            if (Object.keys(x).length !== 1) fail(2, '$all/$elemMatch has to be consistent');
            return compileValueTest(x);
          }
          if (isPlainObject(x) && Object.keys(x).some((k) => k.startsWith('$')))
            fail(2, 'no $ expressions in $all');
          const test = x instanceof RegExp ? regexTest(x) : equalsTest(x);
          return (cands) => cands.some(test);
        });
        tests.push((cands, leaves) => parts.every((p) => p(cands, leaves)));
        break;
      }
      case '$size': {
        const n = Number(arg);
        if (!isNumber(arg)) fail(2, '$size needs a number');
        if (!Number.isInteger(n)) fail(2, '$size must be a whole number');
        if (n < 0) fail(2, '$size may not be negative');
        tests.push((_, leaves) => leaves.some((v) => Array.isArray(v) && v.length === n));
        break;
      }
      case '$mod': {
        const test = modTest(arg);
        tests.push((cands) => cands.some(test));
        break;
      }
      case '$bitsAllSet':
      case '$bitsAnySet':
      case '$bitsAllClear':
      case '$bitsAnyClear': {
        const test = bitsTest(op, arg);
        tests.push((cands) => cands.some(test));
        break;
      }
      case '$comment':
        break;
      default:
        if (GEO_OPERATORS.has(op)) notImplemented(`The geospatial query operator ${op}`);
        fail(2, `unknown operator: ${op}`);
    }
  }
  if (tests.length === 1) return tests[0]!;
  return (cands, leaves) => tests.every((t) => t(cands, leaves));
}

/**
 * Operators that stand where a field name does and test the whole document: `$and`, `$expr`, …,
 * and `$ref`, `$id`, `$db`, which test those fields of a DBRef for equality.
 */
const PATHLESS = new Set([
  '$and',
  '$or',
  '$nor',
  '$expr',
  '$where',
  '$text',
  '$comment',
  '$jsonSchema',
  '$alwaysTrue',
  '$alwaysFalse',
  '$sampleRate',
  '$ref',
  '$id',
  '$db',
]);
const DBREF_FIELDS = ['$ref', '$id', '$db'];

/** An operator that tests a value (`$gt`, `$in`, …), as opposed to a pathless one. */
export function isValueOperator(name: string | undefined): boolean {
  return name !== undefined && name.startsWith('$') && !PATHLESS.has(name);
}

/**
 * `{ $gt: 1, ... }` (operators) as opposed to a document to compare with (`{ a: 1 }`), as MongoDB
 * tells them apart: a document whose first field starts with `$`, unless it is a DBRef — it has
 * `$ref` and `$id` or, where `incompleteDbRef` is allowed (in $elemMatch), any of `$ref`, `$id`
 * and `$db`.
 */
export function isOperatorSpec(v: unknown, incompleteDbRef = false): boolean {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  if (keys.length === 0 || !keys[0]!.startsWith('$')) return false;
  const dbRef = incompleteDbRef
    ? DBREF_FIELDS.some((k) => keys.includes(k))
    : keys.includes('$ref') && keys.includes('$id');
  return !dbRef;
}

/**
 * The test an $elemMatch applies to each array element: a query on element documents, or
 * operators applied to the element itself (`{ $gte: 2, $lt: 5 }`).
 */
export function elementMatcher(spec: Doc): (e: unknown) => boolean {
  if (isOperatorSpec(spec, true) && isValueOperator(Object.keys(spec)[0])) {
    const test = compileValueTest(spec);
    return (e) => test([e], [e]);
  }
  const m = compileFilter(spec);
  return (e) => isPlainObject(e) && m(e);
}

/**
 * The test of a single value for a condition that is a regular expression or a plain value (not
 * null, which also matches a missing field, and not an array or document): a field holding one
 * such value matches exactly when this test passes. Null for every other condition.
 */
function scalarTest(cond: unknown): ((v: unknown) => boolean) | null {
  if (cond instanceof RegExp) return regexTest(cond);
  if (cond === null || cond === undefined || typeof cond === 'object') return null;
  return equalsTest(cond);
}

function compileField(path: string, cond: unknown): Matcher {
  if (path === '') fail(2, 'FieldPath cannot be constructed with empty string');
  const field = fieldPath(path);
  const { parts, inherited } = field;
  const test = compileValueTest(cond);
  const general: Matcher = (doc) => {
    const leaves = leafValues(doc, field);
    return test(candidates(leaves), leaves);
  };
  const scalar = scalarTest(cond);
  if (!scalar) return general;
  // Most documents hold one plain value at the path, through documents only: test it directly
  // (a search scans every document), and take the general walk for arrays and missing fields.
  return (doc) => {
    let at: unknown = doc;
    for (let i = 0; i < parts.length; i++) {
      if (!isPlainObject(at)) return general(doc);
      at = inherited ? fieldOf(at, parts[i]!) : at[parts[i]!];
    }
    if (at === undefined || Array.isArray(at)) return general(doc);
    return scalar(at);
  };
}

/** Equality with the value as it is, even a document whose fields start with `$`. */
function compileEquality(path: string, value: unknown): Matcher {
  const field = fieldPath(path);
  const test = equalsTest(value);
  return (doc) => candidates(leafValues(doc, field)).some(test);
}

function compileLogical(op: string, arg: unknown, scope: ExprScope | undefined): Matcher {
  if (!Array.isArray(arg) || arg.length === 0) fail(2, `${op} must be a nonempty array`);
  const subs = arg.map((sub) => {
    if (!isPlainObject(sub)) fail(2, `${op} argument's entries must be objects`);
    return compileQuery(sub, scope);
  });
  if (op === '$and') return (doc) => subs.every((m) => m(doc));
  if (op === '$or') return (doc) => subs.some((m) => m(doc));
  return (doc) => !subs.some((m) => m(doc));
}

/**
 * Where the `$expr` of a filter in a pipeline's $match is evaluated: with the stage's options (the
 * variables of a $lookup's `let`), on documents already in mingo's form, the expression already
 * escaped with the rest of the pipeline.
 */
interface ExprScope {
  options: Options;
}

function compileExpr(expr: unknown, scope: ExprScope | undefined): Matcher {
  if (scope) {
    return (doc) => {
      const forDoc = ComputeOptions.init(scope.options).update(doc);
      return isTrue(computeValue(doc, expr, null, forDoc));
    };
  }
  const escaped = escapeExpression(toMingo(expr));
  return (doc) => {
    const view = toMingo(doc);
    return isTrue(computeValue(view, escaped, null, ComputeOptions.init(baseOptions).update(view)));
  };
}

function compileQuery(filter: Doc, scope?: ExprScope): Matcher {
  const parts: Matcher[] = [];
  for (const [k, v] of Object.entries(filter)) {
    if (k.startsWith('$')) {
      switch (k) {
        case '$and':
        case '$or':
        case '$nor':
          parts.push(compileLogical(k, v, scope));
          continue;
        case '$expr':
          parts.push(compileExpr(v, scope));
          continue;
        case '$comment':
          continue;
        case '$alwaysTrue':
          continue;
        case '$ref':
        case '$id':
        case '$db':
          parts.push(compileEquality(k, v));
          continue;
        case '$alwaysFalse':
          parts.push(() => false);
          continue;
        case '$where':
          notImplemented('The $where query operator (server-side JavaScript)');
          break;
        case '$text':
          notImplemented('Text search ($text)');
          break;
        case '$jsonSchema':
          notImplemented('The $jsonSchema query operator');
          break;
        case '$sampleRate':
          notImplemented('The $sampleRate query operator');
          break;
        default:
          fail(
            2,
            `unknown top level operator: ${k}. If you have a field name that starts with a '$' symbol, consider using $getField or $setField.`,
          );
      }
    }
    parts.push(compileField(k, v));
  }
  if (parts.length === 0) return matchAll;
  if (parts.length === 1) return parts[0]!;
  if (parts.length === 2) {
    const [a, b] = parts as [Matcher, Matcher];
    return (doc) => a(doc) && b(doc);
  }
  return (doc) => parts.every((m) => m(doc));
}

/** Compiles a MongoDB filter; invalid or unknown operators throw MongoDB's errors here. */
export function compileFilter(filter: unknown, scope?: ExprScope): Matcher {
  if (filter === undefined || filter === null) return matchAll;
  if (!isPlainObject(filter)) fail(2, 'filter must be an object');
  return compileQuery(filter, scope);
}

/** Conditions of the filter that apply to elements of the array at arrayPath. */
export function elementTests(filter: Doc, arrayPath: string): Array<(e: unknown) => boolean> {
  const tests: Array<(e: unknown) => boolean> = [];
  const visit = (f: Doc): void => {
    for (const [k, cond] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(cond)) {
        cond.forEach((c) => isPlainObject(c) && visit(c));
      } else if (k === arrayPath) {
        if (
          isPlainObject(cond) &&
          Object.keys(cond).length === 1 &&
          isPlainObject(cond.$elemMatch)
        ) {
          tests.push(elementMatcher(cond.$elemMatch));
        } else {
          const test = compileValueTest(cond);
          tests.push((e) => test(candidates([e]), [e]));
        }
      } else if (k.startsWith(arrayPath + '.')) {
        const m = compileFilter({ [k.slice(arrayPath.length + 1)]: cond });
        tests.push((e) => isPlainObject(e) && m(e));
      }
    }
  };
  visit(filter);
  return tests;
}

type Node = {
  include?: boolean;
  slice?: [number, number | undefined];
  elemMatch?: (e: unknown) => boolean;
  positional?: Array<(e: unknown) => boolean>;
  /** A computed field: its expression, as mingo is given it (see toMingo). */
  expression?: unknown;
  children?: Map<string, Node>;
};

export type Projector = (doc: Doc) => Doc;

function sliceArgs(arg: unknown, field: string): [number, number | undefined] {
  if (isNumber(arg)) return [Number(arg), undefined];
  if (Array.isArray(arg) && arg.length === 2 && arg.every(isNumber)) {
    const limit = Number(arg[1]);
    if (limit <= 0) fail(28724, 'Second argument to $slice must be a positive number');
    return [Number(arg[0]), limit];
  }
  fail(28667, `Invalid $slice syntax for field '${field}'`);
}

function applySlice(v: unknown, [a, b]: [number, number | undefined]): unknown {
  if (!Array.isArray(v)) return v;
  if (b === undefined) return a >= 0 ? v.slice(0, a) : v.slice(Math.max(0, v.length + a));
  const start = a >= 0 ? Math.min(a, v.length) : Math.max(0, v.length + a);
  return v.slice(start, start + b);
}

/** Which language a projection is written in. */
type ProjectionKind =
  /** A find projection: `$slice`, `$elemMatch` and `field.$` are projection operators. */
  | 'find'
  /** The $project stage: every value that is not 0/1/true/false is an expression. */
  | 'project'
  /** The $addFields and $set stages: every value is an expression that sets a field. */
  | 'addFields';

/**
 * Compiles a find projection: inclusion or exclusion of (dotted) fields, `$slice`, `$elemMatch`
 * and the positional `field.$` (which needs the query filter), and computed fields, whose
 * expressions mingo evaluates. Returns null for an empty projection.
 */
export function compileProjection(projection: unknown, filter: Doc = {}): Projector | null {
  if (projection === undefined || projection === null) return null;
  if (!isPlainObject(projection)) fail(2, 'projection must be an object');
  if (Object.keys(projection).length === 0) return null;
  const expressions: Expressions = {
    prepare: (expr) => escapeExpression(toMingo(expr)),
    evaluate: (doc) => {
      const view = toMingo(doc);
      return (expr) => fromMingo(computeValue(view, expr, null, baseOptions));
    },
  };
  return compileProjectionSpec(projection, 'find', expressions, filter);
}

/** How the expressions of a projection are given to mingo, and evaluated for one document. */
interface Expressions {
  prepare: (expr: unknown) => unknown;
  evaluate: (doc: Doc) => (expr: unknown) => unknown;
}

/**
 * The projection as MongoDB applies it: included fields in the order the document has them, then
 * computed fields in the order the projection names them, through arrays of documents.
 */
function compileProjectionSpec(
  projection: Doc,
  kind: ProjectionKind,
  expressions: Expressions,
  filter: Doc = {},
): Projector {
  const entries = projectionEntries(projection, kind);
  const root = new Map<string, Node>();
  let keepId: boolean | undefined;
  let including = false;
  let excluding = false;
  let computed = false;
  const add = (field: string, node: Node): void => {
    const parts = field.split('.');
    if (parts.some((p) => p === ''))
      fail(40352, 'FieldPath cannot be constructed with empty string');
    if (parts.some((p) => p.startsWith('$') && !DBREF_FIELDS.includes(p)))
      fail(
        16410,
        `FieldPath field names may not start with '$'. Consider using $getField or $setField.`,
      );
    let map = root;
    for (let i = 0; i < parts.length; i++) {
      const existing = map.get(parts[i]!);
      if (i === parts.length - 1) {
        if (existing) fail(31250, `Path collision at ${field}`);
        map.set(parts[i]!, node);
      } else {
        if (existing && !existing.children)
          fail(
            31249,
            `Path collision at ${field} remaining portion ${parts.slice(i + 1).join('.')}`,
          );
        const next: Node = existing ?? { children: new Map() };
        map.set(parts[i]!, next);
        map = next.children!;
      }
    }
  };
  const addExpression = (field: string, value: unknown): void => {
    if (excluding) fail(31310, 'Cannot use expression other than $meta in exclusion projection');
    including = true;
    computed = true;
    add(field, { expression: expressions.prepare(value) });
  };
  for (const [field, value] of entries) {
    if (kind === 'addFields') {
      addExpression(field, value);
      continue;
    }
    if (kind === 'find' && field.endsWith('.$')) {
      const arrayPath = field.slice(0, -2);
      const tests = elementTests(filter, arrayPath);
      if (tests.length === 0)
        fail(
          51246,
          `Executor error during find command :: caused by :: positional operator '.$' couldn't find a matching element in the array`,
        );
      including = true;
      add(arrayPath, { positional: tests });
      continue;
    }
    if (isPlainObject(value)) {
      const keys = Object.keys(value);
      if (kind === 'find' && keys.length === 1 && keys[0] === '$slice') {
        add(field, { slice: sliceArgs(value.$slice, field) });
        continue;
      }
      if (kind === 'find' && keys.length === 1 && keys[0] === '$elemMatch') {
        if (field.includes('.')) fail(31275, `Cannot use $elemMatch projection on a nested field.`);
        if (!isPlainObject(value.$elemMatch))
          fail(31274, 'elemMatch: Invalid argument, object required.');
        including = true;
        add(field, { elemMatch: elementMatcher(value.$elemMatch) });
        continue;
      }
      if (keys.length === 1 && keys[0] === '$meta')
        notImplemented(`The $meta projection ('${String(value.$meta)}')`);
    }
    if (typeof value !== 'boolean' && !isNumber(value)) {
      addExpression(field, value);
      continue;
    }
    const on = value === true || (value !== false && Number(value) !== 0);
    if (field === '_id') {
      keepId = on;
      continue;
    }
    if (on) {
      if (excluding) fail(31254, `Cannot do inclusion on field ${field} in exclusion projection`);
      including = true;
      add(field, { include: true });
    } else {
      if (including) fail(31253, `Cannot do exclusion on field ${field} in inclusion projection`);
      excluding = true;
      add(field, { include: false });
    }
  }
  if (excluding && including) fail(31254, 'Cannot do exclusion in an inclusion projection');
  if (kind === 'addFields')
    return (doc) => {
      const out = { ...doc };
      applyExpressions(root, out, expressions.evaluate(doc));
      return out;
    };
  // `{ _id: 1 }` alone is an inclusion of `_id`; `{ _id: 0 }` alone an exclusion.
  if (!including && !excluding && keepId === true) including = true;
  if (including) {
    const withId = keepId !== false;
    return (doc) => {
      let out = includeFields(root, doc, true);
      if (computed) applyExpressions(root, out, expressions.evaluate(doc));
      if (withId && Object.hasOwn(doc, '_id') && !root.has('_id')) out = { _id: doc._id, ...out };
      else if (!withId) delete out._id;
      return out;
    };
  }
  if (keepId === false) root.set('_id', { include: false });
  return (doc) => excludeFields(root, doc) as Doc;
}

/**
 * A projection's fields as dotted paths: a document value that does not start with an operator
 * (`{ child: { name: 1 } }`) projects the fields inside it, exactly as `{ 'child.name': 1 }`.
 */
function projectionEntries(spec: Doc, kind: ProjectionKind, prefix = ''): Array<[string, unknown]> {
  return Object.entries(spec).flatMap(([field, value]): Array<[string, unknown]> => {
    const path = prefix + field;
    if (!isPlainObject(value) || isOperatorObject(value)) return [[path, value]];
    if (Object.keys(value).length === 0) {
      if (kind === 'addFields') return [[path, value]];
      fail(
        51270,
        `An empty sub-projection is not a valid value. Found empty object at path ${path}`,
      );
    }
    return projectionEntries(value, kind, path + '.');
  });
}

/**
 * Sets the computed fields under `map` in `out`, in the order the projection names them: a field
 * whose expression has no value is removed, and the documents on the way are created (a value
 * that is not a document is replaced), through arrays.
 */
function applyExpressions(
  map: Map<string, Node>,
  out: Doc,
  evaluate: (expr: unknown) => unknown,
): void {
  for (const [key, node] of map) {
    let value: unknown;
    if (node.expression !== undefined) value = evaluate(node.expression);
    else if (node.children && computes(node.children))
      value = expressionsIn(node.children, fieldOf(out, key), evaluate);
    else continue;
    if (value === undefined) delete out[key];
    else setField(out, key, value);
  }
}

function expressionsIn(
  map: Map<string, Node>,
  value: unknown,
  evaluate: (expr: unknown) => unknown,
): unknown {
  if (Array.isArray(value)) return value.map((e) => expressionsIn(map, e, evaluate));
  const out: Doc = isPlainObject(value) ? { ...value } : {};
  applyExpressions(map, out, evaluate);
  return out;
}

function computes(map: Map<string, Node>): boolean {
  for (const node of map.values())
    if (node.expression !== undefined || (node.children && computes(node.children))) return true;
  return false;
}

function positionalElement(arr: unknown, tests: Array<(e: unknown) => boolean>): unknown {
  if (!Array.isArray(arr)) return undefined;
  const match = arr.find((e) => tests.every((t) => t(e)));
  if (match === undefined)
    fail(
      51246,
      `Executor error during find command :: caused by :: positional operator '.$' couldn't find a matching element in the array`,
    );
  return [match];
}

function includeFields(map: Map<string, Node>, value: Doc, top: boolean): Doc {
  const out: Doc = {};
  for (const key of Object.keys(value)) {
    const node = map.get(key);
    if (!node) continue;
    const v = value[key];
    if (node.include) setField(out, key, v);
    else if (node.slice) setField(out, key, applySlice(v, node.slice));
    else if (node.elemMatch) {
      if (top && Array.isArray(v)) {
        const e = v.find(node.elemMatch);
        if (e !== undefined) setField(out, key, [e]);
      }
    } else if (node.positional) {
      const kept = positionalElement(v, node.positional);
      if (kept !== undefined) setField(out, key, kept);
    } else if (node.children) {
      const kept = includeNested(node.children, v);
      if (kept !== undefined) setField(out, key, kept);
    }
  }
  return out;
}

function includeNested(map: Map<string, Node>, value: unknown): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const kept = includeNested(map, item);
      if (kept !== undefined) out.push(kept);
    }
    return out;
  }
  return isPlainObject(value) ? includeFields(map, value, false) : undefined;
}

function excludeFields(map: Map<string, Node>, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => excludeFields(map, item));
  if (!isPlainObject(value)) return value;
  const out: Doc = {};
  for (const key of Object.keys(value)) {
    const node = map.get(key);
    const v = value[key];
    if (!node) setField(out, key, v);
    else if (node.include === false) continue;
    else if (node.slice) setField(out, key, applySlice(v, node.slice));
    else if (node.children) setField(out, key, excludeFields(node.children, v));
    else setField(out, key, v);
  }
  return out;
}

export function project(docs: Doc[], projection: unknown): Doc[] {
  if (docs.length === 0 || projection === undefined || projection === null) return docs;
  const projector =
    typeof projection === 'function' ? (projection as Projector) : compileProjection(projection);
  return projector ? docs.map(projector) : docs;
}

/** Pipeline stages MongoDB 7 knows. Those mingo does not run are refused by name. */
const KNOWN_STAGES = new Set([
  '$addFields',
  '$bucket',
  '$bucketAuto',
  '$changeStream',
  '$changeStreamSplitLargeEvent',
  '$collStats',
  '$count',
  '$currentOp',
  '$densify',
  '$documents',
  '$facet',
  '$fill',
  '$geoNear',
  '$graphLookup',
  '$group',
  '$indexStats',
  '$limit',
  '$listLocalSessions',
  '$listSampledQueries',
  '$listSearchIndexes',
  '$listSessions',
  '$lookup',
  '$match',
  '$merge',
  '$out',
  '$planCacheStats',
  '$project',
  '$redact',
  '$replaceRoot',
  '$replaceWith',
  '$sample',
  '$search',
  '$searchMeta',
  '$set',
  '$setWindowFields',
  '$shardedDataDistribution',
  '$skip',
  '$sort',
  '$sortByCount',
  '$unionWith',
  '$unset',
  '$unwind',
  '$vectorSearch',
]);

const ENGINE_STAGES = new Set([
  '$addFields',
  '$bucket',
  '$bucketAuto',
  '$count',
  '$documents',
  '$facet',
  '$group',
  '$limit',
  '$lookup',
  '$match',
  '$project',
  '$replaceRoot',
  '$replaceWith',
  '$sample',
  '$set',
  '$skip',
  '$sort',
  '$sortByCount',
  '$unionWith',
  '$unset',
  '$unwind',
  '$graphLookup',
  '$setWindowFields',
  '$redact',
  '$densify',
  '$fill',
]);

/**
 * Checks every stage of a pipeline (and of the pipelines nested in $lookup, $facet and
 * $unionWith) before anything runs: unknown stages get MongoDB's error, stages MongoDB has and
 * this engine does not run are refused by name, and every $match filter is compiled.
 */
export function validatePipeline(pipeline: unknown[]): void {
  for (const stage of pipeline) {
    if (!isPlainObject(stage)) fail(14, 'Each element of the pipeline array must be an object');
    const keys = Object.keys(stage);
    if (keys.length !== 1)
      fail(40323, 'A pipeline stage specification object must contain exactly one field.');
    const name = keys[0]!;
    const arg = stage[name];
    if (!KNOWN_STAGES.has(name)) fail(40324, `Unrecognized pipeline stage name: '${name}'`);
    if (name === '$changeStream')
      fail(40573, 'The $changeStream stage is only supported on replica sets');
    if (name === '$out' || name === '$merge')
      fail(115, `The ${name} aggregation stage is not supported by this database engine`);
    if (!ENGINE_STAGES.has(name))
      fail(115, `The ${name} aggregation stage is not supported by this database engine`);
    if (name === '$match') {
      if (!isPlainObject(arg)) fail(15959, 'the match filter must be an expression in an object');
      compileFilter(arg);
    }
    if (name === '$lookup' && isPlainObject(arg) && Array.isArray(arg.pipeline))
      validatePipeline(arg.pipeline);
    if (name === '$unionWith' && isPlainObject(arg) && Array.isArray(arg.pipeline))
      validatePipeline(arg.pipeline);
    if (name === '$facet' && isPlainObject(arg))
      for (const sub of Object.values(arg)) if (Array.isArray(sub)) validatePipeline(sub);
  }
}

// Field names in expressions and pipelines are escaped as in documents (see toMingo): keys by
// toMingo, and here the strings that name fields: `$a.b` and `$$var.a` in expressions, and the
// arguments below, which name fields without a `$`.
const NAMING_ARGUMENTS = new Map<string, Set<string>>(
  Object.entries({
    $lookup: ['localField', 'foreignField', 'as'],
    $graphLookup: ['connectFromField', 'connectToField', 'as', 'depthField'],
    $densify: ['field', 'partitionByFields'],
    $fill: ['partitionByFields'],
    $filter: ['as'],
    $map: ['as'],
    $setField: ['field'],
    $unsetField: ['field'],
  }).map(([op, names]) => [op, new Set(names)]),
);
/** Arguments that are constants or filters, not expressions. */
const CONSTANT_ARGUMENTS = new Set(['boundaries', 'default', 'range']);
const FILTER_ARGUMENTS = new Set(['restrictSearchWithMatch']);

function escapeNames(v: unknown): unknown {
  if (typeof v === 'string') return escapeKey(v);
  if (Array.isArray(v)) return v.map(escapeNames);
  if (isPlainObject(v) && typeof v.$literal === 'string')
    return { $literal: escapeKey(v.$literal) };
  return v;
}

/** A field path (`$a.b`, `$$var.a`) where mingo wants a string, its names escaped. */
function escapePathString(v: string): string {
  if (!v.startsWith('$')) return v;
  const at = v.startsWith('$$') ? 2 : 1;
  return v.slice(0, at) + escapeKey(v.slice(at));
}

/**
 * A field path in an expression: one that goes through documents is read by the engine (see
 * FIELD_PATH), the field of the document or a variable alone by mingo.
 */
function escapeFieldPath(v: string): unknown {
  if (!v.startsWith('$')) return v;
  const dot = v.indexOf('.');
  if (dot < 0 || dot === v.length - 1) return escapePathString(v);
  const base = v.startsWith('$$') ? v.slice(0, dot) : '$$ROOT';
  const rest = v.startsWith('$$') ? v.slice(dot + 1) : v.slice(1);
  return { [FIELD_PATH]: [base, escapeKey(rest)] };
}

function mapEntries(v: Doc, f: (key: string, arg: unknown) => unknown): Doc {
  const out: Doc = {};
  for (const [k, arg] of Object.entries(v)) setField(out, k, f(k, arg));
  return out;
}

function escapeExpression(v: unknown): unknown {
  if (typeof v === 'string') return escapeFieldPath(v);
  if (Array.isArray(v)) return v.map(escapeExpression);
  if (!isPlainObject(v)) return v;
  checkExpressionObject(v);
  return mapEntries(v, (k, arg) => {
    if (k === '$literal') return arg;
    const naming = NAMING_ARGUMENTS.get(k);
    if (naming && isPlainObject(arg)) return escapeArguments(arg, naming);
    return escapeExpression(arg);
  });
}

/**
 * An object in an expression is one operator (`{ $add: [...] }`) or a document of fields none of
 * which starts with `$`; mingo would take anything else for a document.
 */
function checkExpressionObject(v: Doc): void {
  const keys = Object.keys(v);
  if (keys[0]?.startsWith('$')) {
    if (keys.length > 1)
      fail(
        15983,
        `An object representing an expression must have exactly one field: ${formatValue(v)}`,
      );
    if (!/^\$[A-Za-z0-9_]+$/.test(keys[0]) || keys[0] === FIELD_PATH || !isKnownOperator(keys[0]))
      fail(168, `Unrecognized expression '${keys[0]}'`);
  } else if (keys.some((k) => k.startsWith('$')))
    fail(
      16410,
      "FieldPath field names may not start with '$'. Consider using $getField or $setField.",
    );
}

const isKnownOperator = (name: string): boolean =>
  (['expression', 'accumulator', 'window'] as const).some(
    (type) => context.getOperator(type as never, name) !== null,
  );

function escapeArguments(args: Doc, naming: Set<string> = new Set()): Doc {
  return mapEntries(args, (k, arg) => {
    if (naming.has(k)) return escapeNames(arg);
    if (k === 'pipeline' && Array.isArray(arg)) return escapePipeline(arg);
    if (CONSTANT_ARGUMENTS.has(k)) return arg;
    if (FILTER_ARGUMENTS.has(k)) return escapeFilter(arg);
    return escapeExpression(arg);
  });
}

/** Filters name fields only in their keys, except inside `$expr`. */
function escapeFilter(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(escapeFilter);
  if (!isPlainObject(v)) return v;
  return mapEntries(v, (k, arg) => (k === '$expr' ? escapeExpression(arg) : escapeFilter(arg)));
}

/**
 * $setWindowFields: each output field is one operator beside its `window` (bounds, not an
 * expression); the sort is a sort.
 */
function escapeWindowFields(spec: Doc): Doc {
  return mapEntries(spec, (k, arg) => {
    if (k === 'sortBy') return arg;
    if (k !== 'output' || !isPlainObject(arg)) return escapeExpression(arg);
    return mapEntries(arg, (_, field) => {
      if (!isPlainObject(field)) return escapeExpression(field);
      const { window, ...operator } = field;
      const out = escapeExpression(operator) as Doc;
      if (window !== undefined) out.window = window;
      return out;
    });
  });
}

function escapePipeline(stages: unknown[]): unknown[] {
  return stages.map((stage) =>
    isPlainObject(stage)
      ? mapEntries(stage, (name, arg) => {
          switch (name) {
            case '$match':
              return escapeFilter(arg);
            case '$sort':
            case '$limit':
            case '$skip':
            case '$sample':
              return arg;
            case '$count':
            case '$unset':
              return escapeNames(arg);
            case '$unwind':
              return typeof arg === 'string'
                ? escapePathString(arg)
                : isPlainObject(arg)
                  ? mapEntries(arg, (k, x) =>
                      k === 'path' && typeof x === 'string'
                        ? escapePathString(x)
                        : k === 'includeArrayIndex'
                          ? escapeNames(x)
                          : x,
                    )
                  : arg;
            case '$setWindowFields':
              return isPlainObject(arg) ? escapeWindowFields(arg) : arg;
            case '$facet':
              return isPlainObject(arg)
                ? mapEntries(arg, (_, sub) => (Array.isArray(sub) ? escapePipeline(sub) : sub))
                : arg;
          }
          if (!isPlainObject(arg)) return escapeExpression(arg);
          if (name === '$unionWith' || NAMING_ARGUMENTS.has(name) || name === '$bucket')
            return escapeArguments(arg, NAMING_ARGUMENTS.get(name));
          return escapeExpression(arg);
        })
      : stage,
  );
}

export function aggregate(docs: Doc[], pipeline: Doc[], resolver: (name: string) => Doc[]): Doc[] {
  const agg = new Aggregator(
    escapePipeline(toMingo(pipeline)) as Doc[],
    mingoOptions({ collectionResolver: (name) => resolver(name).map(toMingo) }),
  );
  // mingo computes with JS numbers; documents that pass through unchanged go out as stored, with
  // their Double values still Doubles.
  const originals = new Map<Doc, Doc>();
  const input = docs.map((doc) => {
    const view = toMingo(doc);
    originals.set(view, doc);
    return view;
  });
  const out = agg.run(input) as Doc[];
  return out.map((d) => originals.get(d) ?? fromMingo(d));
}
