import { Long } from 'bson';
import { fail } from './errors';
import { isNaNNumber } from './numbers';
import { MISSING } from './paths';
import {
  bsonType,
  bsonTypeCode,
  compareValues,
  isPlainObject,
  keyOf,
  TYPE_CODES_BY_NAME,
  type Doc,
} from './values';
import { notImplemented } from './expression-support';
import { elementMatcher, isOperatorSpec } from './filter';

/**
 * The query operators that test the values at one path: equality, comparison within MongoDB's
 * type brackets, $in and $nin, $regex, $type, $mod, the bit tests, $size, $all, $exists and
 * $elemMatch, compiled once into a test of the values a document holds there.
 */

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

export function equalsTest(target: unknown): (v: unknown) => boolean {
  if (target === null || target === undefined) return isMissingOrNull;
  if (target instanceof RegExp) return (v) => sameRegex(v, target);
  const key = keyOf(target);
  if (isNaNNumber(target)) return isNaNValue;
  return (v) => v !== MISSING && v !== null && keyOf(v) === key;
}

function isNaNValue(v: unknown): boolean {
  return v !== MISSING && isNaNNumber(v);
}

export function regexTest(re: RegExp): (v: unknown) => boolean {
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

export function isNumber(v: unknown): boolean {
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

/** A path's test: some of its values pass `test`. */
const someValue =
  (test: (v: unknown) => boolean): ValueTest =>
  (cands) =>
    cands.some(test);

/** A path's test: none of its values pass `test`. */
const noValue =
  (test: (v: unknown) => boolean): ValueTest =>
  (cands) =>
    !cands.some(test);

/** The operators that hold when one of a path's values passes their test, and that test. */
const VALUE_TESTS = new Map<string, (op: string, arg: unknown) => (v: unknown) => boolean>([
  ['$eq', (_, arg) => equalsTest(arg)],
  ['$gt', comparisonTest],
  ['$gte', comparisonTest],
  ['$lt', comparisonTest],
  ['$lte', comparisonTest],
  ['$type', (_, arg) => typeTest(arg)],
  ['$mod', (_, arg) => modTest(arg)],
  ['$bitsAllSet', bitsTest],
  ['$bitsAnySet', bitsTest],
  ['$bitsAllClear', bitsTest],
  ['$bitsAnyClear', bitsTest],
]);

/** Compiles the operators (or equality) given for one path into a test on its values. */
export function compileValueTest(cond: unknown): ValueTest {
  if (cond instanceof RegExp) return someValue(regexTest(cond));
  if (!isOperatorSpec(cond)) return someValue(equalsTest(cond));
  const spec = cond as Doc;
  const tests: ValueTest[] = [];
  const keys = Object.keys(spec);
  for (const op of keys) {
    const arg = spec[op];
    const valueTest = VALUE_TESTS.get(op);
    if (valueTest) {
      tests.push(someValue(valueTest(op, arg)));
      continue;
    }
    switch (op) {
      case '$ne': {
        if (arg instanceof RegExp) fail(2, "Can't have regex as arg to $ne.");
        tests.push(noValue(equalsTest(arg)));
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
        tests.push(op === '$in' ? someValue(any) : noValue(any));
        break;
      }
      case '$exists': {
        const want =
          arg !== false && arg !== 0 && arg !== null && !(arg instanceof Long && arg.isZero());
        tests.push((_, leaves) => leaves.some((v) => v !== MISSING) === want);
        break;
      }
      case '$regex':
        tests.push(someValue(regexTest(makeRegex(arg, spec.$options))));
        break;
      case '$options':
        if (!('$regex' in spec)) fail(2, '$options needs a $regex');
        break;
      case '$not': {
        if (arg instanceof RegExp) {
          tests.push(noValue(regexTest(arg)));
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
          return someValue(x instanceof RegExp ? regexTest(x) : equalsTest(x));
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
