import { type Binary, Long, type Timestamp } from 'bson';
import { ComputeOptions, computeValue } from 'mingo/core';
import * as expressionOperators from 'mingo/operators/expression';
import { compiledArguments, compiledOperators } from './compiled';
import { formatDate, ISO_FORMAT, UTC } from './dates';
import { fail } from './errors';
import {
  compareExpressionValues,
  evaluateArguments,
  isIntegral,
  notImplemented,
  nullish,
  shown,
  toNumber,
  type Expression,
} from './expression-support';
import { bsonType, compareValues, fieldOf, isNumeric, isPlainObject, typeName } from './values';

// Aggregation expressions whose answers in mingo differ from MongoDB's (null and missing
// arguments, type errors, string lengths in bytes and code points, rounding, formats): the
// engine's own, following MongoDB 7. Values here are in mingo's form (see toMingo).

const mingo = expressionOperators as Record<string, Expression>;

// --- Arrays (https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/#array-expression-operators)

function elementAt(name: string, array: unknown, index: unknown, oneArgument: boolean): unknown {
  if (nullish(array) || nullish(index)) return null;
  if (!Array.isArray(array))
    fail(
      28689,
      `${name}'s ${oneArgument ? 'argument' : 'first argument'} must be an array, but is ${typeName(array)}`,
    );
  if (!isNumeric(index))
    fail(28690, `${name}'s second argument must be a numeric value, but is ${typeName(index)}`);
  if (!isIntegral(index))
    fail(
      28691,
      `${name}'s second argument must be representable as a 32-bit integer: ${shown(index)}`,
    );
  const i = toNumber(index);
  return i < 0 ? array[array.length + i] : array[i];
}

/** $first and $last as expressions; in a window or accumulator they stay mingo's. */
function firstOrLast(name: '$first' | '$last', at: number): Expression {
  return (obj, expr, options) => {
    if (Array.isArray(obj)) return mingo[name]!(obj, expr, options);
    const [array] = evaluateArguments(name, obj, expr, options, 1);
    return elementAt(name, array, at, true);
  };
}

function requireArray(v: unknown, code: number, message: string): unknown[] {
  if (!Array.isArray(v)) fail(code, message + typeName(v));
  return v;
}

function integralArgument(name: string, v: unknown, code: number, what: string): number {
  if (!isNumeric(v))
    fail(code, `${what} to ${name} must be a numeric value, but is of type: ${typeName(v)}`);
  if (!isIntegral(v))
    fail(code + 1, `${what} to ${name} can't be represented as a 32-bit integer: ${shown(v)}`);
  return toNumber(v);
}

const sizeOf = (v: unknown): number =>
  requireArray(v, 17124, 'The argument to $size must be an array. Type of argument is ').length;

// Compiled (see compiled.ts): the argument evaluated for each document, then measured as below.
compiledOperators.set('$size', (argument, compile) => {
  const [arg] = compiledArguments(argument, compile, 1) ?? [null];
  return arg ? (doc, options) => sizeOf(arg(doc, options)) : null;
});

const arrays: Record<string, Expression> = {
  $size: (obj, expr, options) => sizeOf(evaluateArguments('$size', obj, expr, options, 1)[0]),
  $arrayElemAt: (obj, expr, options) => {
    const [array, index] = evaluateArguments('$arrayElemAt', obj, expr, options, 2);
    return elementAt('$arrayElemAt', array, index, false);
  },
  $first: firstOrLast('$first', 0),
  $last: firstOrLast('$last', -1),
  $concatArrays: (obj, expr, options) => {
    const out: unknown[] = [];
    for (const v of evaluateArguments('$concatArrays', obj, expr, options, 0, Infinity)) {
      if (nullish(v)) return null;
      out.push(...requireArray(v, 28664, '$concatArrays only supports arrays, not '));
    }
    return out;
  },
  $reverseArray: (obj, expr, options) => {
    const [v] = evaluateArguments('$reverseArray', obj, expr, options, 1);
    if (nullish(v)) return null;
    const array = requireArray(
      v,
      34435,
      'The argument to $reverseArray must be an array, but was of type: ',
    );
    return [...array].reverse();
  },
  $indexOfArray: (obj, expr, options) => {
    const args = evaluateArguments('$indexOfArray', obj, expr, options, 2, 4);
    const [v, search] = args;
    if (nullish(v)) return null;
    const array = requireArray(
      v,
      40090,
      '$indexOfArray requires an array as a first argument, found: ',
    );
    const index = (value: unknown, what: string): number => {
      // MongoDB's message has no space before "requires" here.
      if (!isIntegral(value))
        fail(
          40096,
          `$indexOfArrayrequires an integral ${what}, found a value of type: ${typeName(value)}, with value: ${nullish(value) ? 'null' : shown(value)}`,
        );
      const n = toNumber(value);
      if (n < 0) fail(40097, `$indexOfArray requires a nonnegative ${what}, found: ${n}`);
      return n;
    };
    const start = args.length > 2 ? index(args[2], 'starting index') : 0;
    const end =
      args.length > 3 ? Math.min(array.length, index(args[3], 'ending index')) : array.length;
    for (let i = start; i < end; i++) if (compareExpressionValues(array[i], search) === 0) return i;
    return -1;
  },
  $slice: (obj, expr, options) => {
    const args = evaluateArguments('$slice', obj, expr, options, 2, 3);
    const [v, second] = args;
    if (nullish(v) || nullish(second)) return null;
    const array = requireArray(
      v,
      28724,
      'First argument to $slice must be an array, but is of type: ',
    );
    const n = integralArgument('$slice', second, 28725, 'Second argument');
    if (args.length === 2)
      return n < 0 ? array.slice(Math.max(0, array.length + n)) : array.slice(0, n);
    const third = args[2];
    if (nullish(third)) return null;
    if (!isNumeric(third))
      fail(28727, `Third argument to $slice must be numeric, but is of type: ${typeName(third)}`);
    if (!isIntegral(third))
      fail(
        28728,
        `Third argument to $slice can't be represented as a 32-bit integer: ${shown(third)}`,
      );
    const count = toNumber(third);
    if (count <= 0) fail(28729, `Third argument to $slice must be positive: ${count}`);
    const start = n < 0 ? Math.max(0, array.length + n) : Math.min(array.length, n);
    return array.slice(start, start + count);
  },
  $sortArray: (obj, expr, options) => {
    if (!isPlainObject(expr))
      fail(2942500, `$sortArray requires an object as an argument, found: ${typeName(expr)}`);
    for (const k of Object.keys(expr))
      if (k !== 'input' && k !== 'sortBy')
        fail(2942501, `$sortArray found an unknown argument: ${k}`);
    if (!('input' in expr)) fail(2942502, "$sortArray requires 'input' to be specified");
    if (!('sortBy' in expr)) fail(2942503, "$sortArray requires 'sortBy' to be specified");
    const compare = sortArrayOrder(expr.sortBy);
    const input = computeValue(obj, expr.input, null, options);
    if (nullish(input)) return null;
    const array = requireArray(
      input,
      2942504,
      'The input argument to $sortArray must be an array, but was of type: ',
    );
    return [...array].sort(compare);
  },
};

const SORT_INVALID =
  'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields';

/**
 * $sortArray's order: whole values in BSON order, or documents by the values at the given fields.
 * MongoDB orders by fields only between documents; elements that are not documents, and fields
 * that are missing or go through arrays, are refused rather than ordered some other way.
 */
function sortArrayOrder(sortBy: unknown): (a: unknown, b: unknown) => number {
  if (isNumeric(sortBy)) {
    const dir = toNumber(sortBy);
    if (dir !== 1 && dir !== -1) fail(2942506, 'The $sort element value must be either 1 or -1');
    return (a, b) => compareExpressionValues(a, b) * dir;
  }
  if (!isPlainObject(sortBy) || Object.keys(sortBy).length === 0) fail(2942507, SORT_INVALID);
  const keys = Object.entries(sortBy).map(([path, dir]) => {
    const d = isNumeric(dir) ? toNumber(dir) : NaN;
    if (d !== 1 && d !== -1)
      fail(15975, '$sort key ordering must be 1 (for ascending) or -1 (for descending)');
    return { parts: path.split('.'), dir: d };
  });
  const at = (e: unknown, parts: string[]): unknown => {
    if (!isPlainObject(e))
      notImplemented('$sortArray by fields of an element that is not a document');
    let v: unknown = e;
    for (const part of parts) {
      v = isPlainObject(v) ? fieldOf(v, part) : undefined;
      if (Array.isArray(v)) notImplemented('$sortArray by a field that holds or crosses an array');
    }
    if (v === undefined) notImplemented('$sortArray by a field an element does not have');
    return v;
  };
  return (a, b) => {
    for (const { parts, dir } of keys) {
      const c = compareValues(at(a, parts), at(b, parts));
      if (c) return c * dir;
    }
    return 0;
  };
}

// --- Strings: lengths and positions in UTF-8 bytes or code points, case in ASCII only.

/** A value as MongoDB's coerceToString reads it for the string operators. */
export function coerceToString(name: string, v: unknown): string {
  if (nullish(v)) return '';
  if (typeof v === 'string') return v;
  if (v instanceof Date) return formatDate(v.getTime(), ISO_FORMAT, UTC);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (bsonType(v) === 'Long') return (v as Long).toString();
  if (typeof v === 'number') notImplemented(`${name} of a number with a fractional part`);
  return fail(16007, `can't convert from BSON type ${typeName(v)} to String`);
}

function substrBytes(name: string): Expression {
  return (obj, expr, options) => {
    const [value, start, length] = evaluateArguments(name, obj, expr, options, 3);
    const s = coerceToString(name, value);
    if (!isNumeric(start))
      fail(
        16034,
        `${name}:  starting index must be a numeric type (is BSON type ${typeName(start)})`,
      );
    if (!isNumeric(length))
      fail(16035, `${name}:  length must be a numeric type (is BSON type ${typeName(length)})`);
    const bytes = Buffer.from(s, 'utf8');
    const from = Math.trunc(toNumber(start));
    const count = Math.trunc(toNumber(length));
    if (from < 0 || from >= bytes.length) return '';
    const to = count < 0 ? bytes.length : Math.min(bytes.length, from + count);
    const continuation = (i: number) => i < bytes.length && (bytes[i]! & 0xc0) === 0x80;
    if (continuation(from))
      fail(28656, `${name}:  Invalid range, starting index is a UTF-8 continuation byte.`);
    if (continuation(to))
      fail(28657, `${name}:  Invalid range, ending index is in the middle of a UTF-8 character.`);
    return bytes.subarray(from, to).toString('utf8');
  };
}

function requireString(name: string, v: unknown, code: number): string {
  if (typeof v !== 'string')
    fail(code, `${name} requires a string argument, found: ${typeName(v)}`);
  return v;
}

const strings: Record<string, Expression> = {
  $substr: substrBytes('$substrBytes'),
  $substrBytes: substrBytes('$substrBytes'),
  $substrCP: (obj, expr, options) => {
    const [value, start, length] = evaluateArguments('$substrCP', obj, expr, options, 3);
    const s = coerceToString('$substrCP', value);
    if (!isNumeric(start))
      fail(
        34450,
        `$substrCP: starting index must be a numeric type (is BSON type ${typeName(start)})`,
      );
    if (!isIntegral(start))
      fail(
        34451,
        `$substrCP: starting index cannot be represented as a 32-bit integral value: ${shown(start)}`,
      );
    if (!isNumeric(length))
      fail(34452, `$substrCP: length must be a numeric type (is BSON type ${typeName(length)})`);
    if (!isIntegral(length))
      fail(
        34453,
        `$substrCP: length cannot be represented as a 32-bit integral value: ${shown(length)}`,
      );
    const from = toNumber(start);
    const count = toNumber(length);
    if (from < 0) fail(34455, '$substrCP: the starting index must be nonnegative integer.');
    if (count < 0) fail(34454, '$substrCP: length must be a nonnegative integer.');
    return Array.from(s)
      .slice(from, from + count)
      .join('');
  },
  $strLenBytes: (obj, expr, options) => {
    const [v] = evaluateArguments('$strLenBytes', obj, expr, options, 1);
    return Buffer.byteLength(requireString('$strLenBytes', v, 34473), 'utf8');
  },
  $strLenCP: (obj, expr, options) => {
    const [v] = evaluateArguments('$strLenCP', obj, expr, options, 1);
    let n = 0;
    for (const _ of requireString('$strLenCP', v, 34471)) n++;
    return n;
  },
  $split: (obj, expr, options) => {
    const [s, separator] = evaluateArguments('$split', obj, expr, options, 2);
    if (nullish(s)) return null;
    if (typeof s !== 'string')
      fail(
        40085,
        `$split requires an expression that evaluates to a string as a first argument, found: ${typeName(s)}`,
      );
    if (typeof separator !== 'string')
      fail(
        40086,
        `$split requires an expression that evaluates to a string as a second argument, found: ${typeName(separator)}`,
      );
    if (separator === '') fail(40087, '$split requires a non-empty separator');
    return s.split(separator);
  },
  // MongoDB changes the case of ASCII letters only.
  $toUpper: (obj, expr, options) => {
    const [v] = evaluateArguments('$toUpper', obj, expr, options, 1);
    return coerceToString('$toUpper', v).replace(/[a-z]+/g, (m) => m.toUpperCase());
  },
  $toLower: (obj, expr, options) => {
    const [v] = evaluateArguments('$toLower', obj, expr, options, 1);
    return coerceToString('$toLower', v).replace(/[A-Z]+/g, (m) => m.toLowerCase());
  },
};

// --- $range, $maxN, $minN, $mergeObjects and the parts of a Timestamp

/** A $range bound: a number a 32-bit integer holds. */
function rangeArgument(v: unknown, what: string, codes: [number, number]): number {
  if (!isNumeric(v))
    fail(codes[0], `$range requires a numeric ${what} value, found value of type: ${typeName(v)}`);
  if (!isIntegral(v))
    fail(
      codes[1],
      `$range requires a${what === 'ending' ? 'n' : ''} ${what} value that can be represented as a 32-bit integer, found value: ${shown(v)}`,
    );
  return toNumber(v);
}

/**
 * $maxN and $minN: the `n` greatest or least values in MongoDB's order, null and missing values
 * left out; an expression over an array, or an accumulator over a group.
 */
function extremes(name: '$maxN' | '$minN'): Expression {
  const sign = name === '$maxN' ? -1 : 1;
  const pick = (values: unknown[], n: number): unknown[] =>
    values
      .filter((v) => !nullish(v))
      .sort((a, b) => sign * compareValues(a, b))
      .slice(0, n);
  const count = (v: unknown): number => {
    if (!isNumeric(v) || !Number.isInteger(toNumber(v)))
      fail(5787902, `Value for 'n' must be of integral type, but found ${typeName(v)}`);
    const n = toNumber(v);
    if (n <= 0) fail(5787908, `'n' must be greater than 0, found ${n}`);
    return n;
  };
  return (obj, expr, options) => {
    if (!isPlainObject(expr) || !('n' in expr) || !('input' in expr))
      fail(5787906, `Missing value for 'n' or 'input' in ${name}`);
    if (Array.isArray(obj)) {
      // In $group: n is evaluated once, against the group's _id.
      const copts = ComputeOptions.init(options);
      const n = count(computeValue(copts.local.groupId, expr.n, null, copts));
      return pick(
        obj.map((doc) => computeValue(doc, expr.input, null, copts.update(doc))),
        n,
      );
    }
    const n = count(computeValue(obj, expr.n, null, options));
    const input = computeValue(obj, expr.input, null, options);
    if (nullish(input)) return null;
    if (!Array.isArray(input))
      fail(5788200, `Input must be an array, but found ${typeName(input)}`);
    return pick(input, n);
  };
}

/** $mergeObjects: the fields of each document in turn; null and missing arguments are skipped. */
const $mergeObjects: Expression = (obj, expr, options) => {
  const values = Array.isArray(obj)
    ? obj.map((doc) => computeValue(doc, expr, null, ComputeOptions.init(options).update(doc)))
    : evaluateArguments('$mergeObjects', obj, expr, options, 0, Infinity);
  const out: Record<string, unknown> = {};
  for (const v of values) {
    if (nullish(v)) continue;
    if (!isPlainObject(v))
      fail(
        40400,
        `$mergeObjects requires object inputs, but input ${String(v)} is of type ${typeName(v)}`,
      );
    for (const k of Object.keys(v)) if (v[k] !== undefined) out[k] = v[k];
  }
  return out;
};

function timestampPart(name: '$tsSecond' | '$tsIncrement', code: number): Expression {
  return (obj, expr, options) => {
    const [v] = evaluateArguments(name, obj, expr, options, 1);
    if (nullish(v)) return null;
    if (bsonType(v) !== 'Timestamp')
      fail(code, ` Argument to ${name} must be a timestamp, but is ${typeName(v)}`);
    const ts = v as Timestamp;
    return Long.fromNumber(name === '$tsSecond' ? ts.high : ts.low);
  };
}

/** $zip: the arrays' elements side by side; past an array's end, its default or null. */
const $zip: Expression = (obj, expr, options) => {
  if (!isPlainObject(expr))
    fail(34460, `$zip only supports an object as an argument, found ${typeName(expr)}`);
  for (const k of Object.keys(expr))
    if (!['inputs', 'useLongestLength', 'defaults'].includes(k))
      fail(34464, `$zip found an unknown argument: ${k}`);
  if (!Array.isArray(expr.inputs))
    fail(34461, `inputs must be an array of expressions, found ${typeName(expr.inputs)}`);
  const longest = expr.useLongestLength ?? false;
  if (typeof longest !== 'boolean')
    fail(34463, `useLongestLength must be a bool, found ${typeName(longest)}`);
  if (expr.defaults !== undefined) {
    if (!longest) fail(34466, 'cannot specify defaults unless useLongestLength is true');
    if (!Array.isArray(expr.defaults))
      fail(34462, `defaults must be an array of expressions, found ${typeName(expr.defaults)}`);
    if (expr.defaults.length !== expr.inputs.length)
      fail(34467, 'defaults and inputs must have the same length');
  }
  const inputs: unknown[][] = [];
  for (const e of expr.inputs) {
    const v = computeValue(obj, e, null, options);
    if (nullish(v)) return null;
    if (!Array.isArray(v))
      fail(34468, `$zip found a non-array expression in input: ${typeName(v)}`);
    inputs.push(v);
  }
  const defaults = Array.isArray(expr.defaults)
    ? expr.defaults.map((e) => computeValue(obj, e, null, options))
    : inputs.map(() => null);
  const lengths = inputs.map((a) => a.length);
  const length = inputs.length === 0 ? 0 : longest ? Math.max(...lengths) : Math.min(...lengths);
  return Array.from({ length }, (_, i) =>
    inputs.map((a, j) => (i < a.length ? a[i] : (defaults[j] ?? null))),
  );
};

const others: Record<string, Expression> = {
  $zip,
  $range: (obj, expr, options) => {
    const args = evaluateArguments('$range', obj, expr, options, 2, 3);
    const start = rangeArgument(args[0], 'starting', [34443, 34444]);
    const end = rangeArgument(args[1], 'ending', [34445, 34446]);
    let step = 1;
    if (args.length === 3) {
      if (!isNumeric(args[2]))
        fail(
          34447,
          `$range requires a numeric step value, found value of type:${typeName(args[2])}`,
        );
      if (!isIntegral(args[2]))
        fail(
          34448,
          `$range requires a step value that can be represented as a 32-bit integer, found value: ${shown(args[2])}`,
        );
      step = toNumber(args[2]);
      if (step === 0) fail(34449, '$range requires a non-zero step value');
    }
    const out: number[] = [];
    for (let i = start; step > 0 ? i < end : i > end; i += step) out.push(i);
    return out;
  },
  $maxN: extremes('$maxN'),
  $minN: extremes('$minN'),
  $mergeObjects,
  $binarySize: (obj, expr, options) => {
    const [v] = evaluateArguments('$binarySize', obj, expr, options, 1);
    if (nullish(v)) return null;
    if (typeof v === 'string') return Buffer.byteLength(v, 'utf8');
    if (bsonType(v) === 'Binary') return (v as Binary).length();
    return fail(51276, `$binarySize requires a string or BinData argument, found: ${typeName(v)}`);
  },
  $tsSecond: timestampPart('$tsSecond', 5687301),
  $tsIncrement: timestampPart('$tsIncrement', 5687302),
};

// Operators of MongoDB 7 that mingo does not have, or runs differently (server-side JavaScript).
const refused: Record<string, Expression> = Object.fromEntries(
  [
    '$accumulator',
    '$bsonSize',
    '$meta',
    // MongoDB's hash of the value's BSON, which no other engine computes alike.
    '$toHashedIndexKey',
    // MongoDB 7 computes these with its own approximation (t-digest), not reproduced here.
    '$median',
    '$percentile',
  ].map((name) => [name, () => notImplemented(`The ${name} expression`)]),
);

/**
 * $function runs server-side JavaScript, which the engine refuses; mingo's $setWindowFields calls
 * it internally with a function of its own, which no BSON value can be.
 */
const $function: Expression = (obj, expr, options) => {
  if (!isPlainObject(expr) || typeof expr.body !== 'function')
    notImplemented('The $function expression');
  const args = computeValue(obj, expr.args, null, options) as unknown[];
  return (expr.body as (...a: unknown[]) => unknown)(...args);
};

/** Not a MongoDB expression, though mingo has it. */
const unknown =
  (name: string): Expression =>
  () =>
    fail(168, `Unrecognized expression '${name}'`);

export const mongoExpressions: Record<string, Expression> = {
  ...refused,
  $function,
  $nin: unknown('$nin'),
  ...arrays,
  ...strings,
  ...others,
};
