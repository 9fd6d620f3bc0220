import { Decimal128, Long, ObjectId, type Timestamp } from 'bson';
import { computeValue } from 'mingo/core';
import { asDecimal, asDouble, numeric, truncated, type Num } from './arithmetic';
import { compiledArguments, compiledOperators } from './compiled';
import { dateFromText, formatDate, ISO_FORMAT, UTC } from './dates';
import { fail } from './errors';
import {
  evaluateArguments,
  isTrue,
  notImplemented,
  nullish,
  type Expression,
} from './expression-support';
import { fromDecimal128, roundDecimal, toDecimal128, toDouble, type Decimal } from './numbers';
import { bsonType, isPlainObject, TYPE_CODES_BY_NAME, typeName } from './values';

// Conversions as MongoDB 7's $convert makes them: between the numeric types with overflow and NaN
// refused as ConversionFailure (241), to Decimal128 exactly (doubles to 15 digits), numbers read
// from strings in base 10, dates from ISO 8601 strings, ObjectIds from 24 hex digits. Values are
// in mingo's form (see toMingo).

const CONVERSION_FAILURE = 241;

function failed(message: string): never {
  fail(CONVERSION_FAILURE, `${message} in $convert with no onError value`);
}

function unsupported(v: unknown, to: string): never {
  failed(`Unsupported conversion from ${typeName(v)} to ${to}`);
}

function toText(v: unknown, name: string): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Date) return formatDate(v.getTime(), ISO_FORMAT, UTC);
  if (v instanceof ObjectId) return v.toHexString();
  if (bsonType(v) === 'Timestamp')
    return `Timestamp(${(v as Timestamp).high >>> 0}, ${(v as Timestamp).low >>> 0})`;
  if (v instanceof Long || v instanceof Decimal128) return v.toString();
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) && Math.abs(v) < 1e15) return String(v);
    notImplemented(`${name} of a number with a fractional part or beyond 10^15`);
  }
  return unsupported(v, 'string');
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SPECIAL_TEXT = /^([+-])?(inf|infinity|nan)$/i;

/** A string read as an integer in base 10, or a failure as MongoDB's NumberParser reports it. */
function integerFromText(s: string, bits: 32 | 64): bigint {
  if (!INTEGER_TEXT.test(s)) failed(`Failed to parse number '${s}'`);
  const n = BigInt(s);
  const limit = 2n ** BigInt(bits - 1);
  if (n < -limit || n >= limit) failed(`Failed to parse number '${s}': Overflow`);
  return n;
}

function decimalFromText(s: string): Decimal {
  const special = SPECIAL_TEXT.exec(s);
  if (special)
    return special[2]!.toLowerCase() === 'nan'
      ? fromDecimal128(Decimal128.fromString('NaN'))
      : { kind: 'inf', neg: special[1] === '-' };
  if (!NUMBER_TEXT.test(s)) failed(`Failed to parse string to decimal`);
  const [mantissa, exp = '0'] = s.toLowerCase().split('e') as [string, string?];
  const neg = mantissa.startsWith('-');
  const [whole, fraction = ''] = mantissa.replace(/^[+-]/, '').split('.') as [string, string?];
  return roundDecimal(neg, BigInt((whole || '0') + fraction), Number(exp) - fraction.length);
}

/** The integer a number converts to (truncated), or a failure for NaN, infinity and overflow. */
function integerOf(n: Num, bits: 32 | 64): bigint {
  if (
    (n.type === 'double' && Number.isNaN(n.value)) ||
    (n.type === 'decimal' && n.value.kind === 'nan')
  )
    failed('Attempt to convert NaN value to integer type');
  const whole = truncated(n);
  if (whole === null) return failed('Attempt to convert infinity value to integer type');
  const limit = 2n ** BigInt(bits - 1);
  if (whole < -limit || whole >= limit) failed('Conversion would overflow target type');
  return whole;
}

const dateMillis = (v: unknown): number | null => {
  if (v instanceof Date) return v.getTime();
  if (bsonType(v) === 'Timestamp') return (v as Timestamp).high * 1000;
  return null;
};

type Target = 'double' | 'string' | 'objectId' | 'bool' | 'date' | 'int' | 'long' | 'decimal';

const TARGETS: Record<string, Target> = {
  double: 'double',
  string: 'string',
  objectId: 'objectId',
  bool: 'bool',
  date: 'date',
  int: 'int',
  long: 'long',
  decimal: 'decimal',
};

/** `v` (not null) converted to the target type, or a ConversionFailure. */
function convert(v: unknown, to: Target, name: string): unknown {
  const n = numeric(v);
  switch (to) {
    case 'string':
      return toText(v, name);
    case 'bool':
      if (n || typeof v === 'boolean') return isTrue(v);
      if (typeof v === 'string' || v instanceof ObjectId || v instanceof Date) return true;
      return unsupported(v, 'bool');
    case 'int':
    case 'long': {
      const bits = to === 'int' ? 32 : 64;
      let whole: bigint;
      if (n) whole = integerOf(n, bits);
      else if (typeof v === 'boolean') whole = v ? 1n : 0n;
      else if (typeof v === 'string') whole = integerFromText(v, bits);
      else if (to === 'long' && dateMillis(v) !== null) whole = BigInt(dateMillis(v)!);
      else return unsupported(v, to);
      if (to === 'int') return Number(whole);
      return Long.fromBigInt(whole);
    }
    case 'double': {
      if (n) {
        const x = asDouble(n);
        if (n.type === 'decimal' && n.value.kind === 'finite' && !Number.isFinite(x))
          failed('Conversion would overflow target type');
        return x;
      }
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (typeof v === 'string') {
        if (!NUMBER_TEXT.test(v) && !SPECIAL_TEXT.test(v)) failed(`Failed to parse number '${v}'`);
        const d = decimalFromText(v);
        return toDouble(d);
      }
      const ms = dateMillis(v);
      if (ms !== null) return ms;
      return unsupported(v, 'double');
    }
    case 'decimal': {
      if (n) return toDecimal128(asDecimal(n));
      if (typeof v === 'boolean') return Decimal128.fromString(v ? '1' : '0');
      if (typeof v === 'string') return toDecimal128(decimalFromText(v));
      const ms = dateMillis(v);
      if (ms !== null) return Decimal128.fromString(String(ms));
      return unsupported(v, 'decimal');
    }
    case 'date': {
      if (v instanceof Date) return v;
      if (v instanceof ObjectId) return v.getTimestamp();
      const ms = dateMillis(v);
      if (ms !== null) return new Date(ms);
      if (typeof v === 'string') return new Date(dateFromText(v, name));
      if (n && n.type !== 'int') {
        const whole = truncated(n);
        if (whole === null || whole < -(2n ** 63n) || whole >= 2n ** 63n)
          failed('Conversion would overflow target type');
        if (whole < -8_640_000_000_000_000n || whole > 8_640_000_000_000_000n)
          notImplemented(`${name} to a date more than 100,000,000 days from 1970`);
        return new Date(Number(whole));
      }
      return unsupported(v, 'date');
    }
    case 'objectId':
      if (v instanceof ObjectId) return v;
      if (typeof v === 'string') {
        if (!/^[0-9a-fA-F]{24}$/.test(v))
          failed(
            `Failed to parse objectId '${v}': Invalid string length for parsing to OID, expected 24 but found ${v.length}`,
          );
        return new ObjectId(v);
      }
      return unsupported(v, 'objectId');
  }
}

/** The target a `to` argument names, by alias or BSON type number. */
function targetOf(to: unknown): Target {
  let name: string | undefined;
  if (typeof to === 'string') {
    if (!TYPE_CODES_BY_NAME.has(to)) fail(2, `Unknown type name: ${to}`);
    name = to;
  } else {
    const n = numeric(to);
    const code = n ? Number(asDouble(n)) : NaN;
    if (!Number.isInteger(code))
      fail(9, `$convert's 'to' argument must be a string or number, but is ${typeName(to)}`);
    name = [...TYPE_CODES_BY_NAME].find(([, c]) => c === code)?.[0];
    if (name === undefined)
      fail(2, `In $convert, numeric value for 'to' does not correspond to a BSON type: ${code}`);
  }
  const target = TARGETS[name];
  if (!target) notImplemented(`$convert to ${name}`);
  return target;
}

const $convert: Expression = (obj, expr, options) => {
  if (!isPlainObject(expr))
    fail(50696, `$convert expects an object of named arguments but found: ${typeName(expr)}`);
  for (const k of Object.keys(expr))
    if (!['input', 'to', 'onError', 'onNull'].includes(k))
      fail(50693, `$convert found an unknown argument: ${k}`);
  if (!('input' in expr)) fail(50694, "Missing 'input' parameter to $convert");
  if (!('to' in expr)) fail(50695, "Missing 'to' parameter to $convert");
  const input = computeValue(obj, expr.input, null, options);
  const to = computeValue(obj, expr.to, null, options);
  if (nullish(to)) return null;
  const target = targetOf(to);
  if (nullish(input))
    return 'onNull' in expr ? computeValue(obj, expr.onNull, null, options) : null;
  try {
    return convert(input, target, '$convert');
  } catch (err) {
    if ('onError' in expr && (err as { code?: number }).code === CONVERSION_FAILURE)
      return computeValue(obj, expr.onError, null, options);
    throw err;
  }
};

/** $toInt and the others: $convert with no onError or onNull. */
function shorthand(name: string, to: Target): Expression {
  return (obj, expr, options) => {
    const [v] = evaluateArguments(name, obj, expr, options, 1);
    return nullish(v) ? null : convert(v, to, name);
  };
}

const SHORTHANDS: Record<string, Target> = {
  $toString: 'string',
  $toBool: 'bool',
  $toInt: 'int',
  $toLong: 'long',
  $toDouble: 'double',
  $toDecimal: 'decimal',
  $toDate: 'date',
  $toObjectId: 'objectId',
};

export const conversionExpressions: Record<string, Expression> = {
  $convert,
  ...Object.fromEntries(
    Object.entries(SHORTHANDS).map(([name, to]) => [name, shorthand(name, to)]),
  ),
};

// Compiled (see compiled.ts): the argument evaluated for each document, then converted as above.
for (const [name, to] of Object.entries(SHORTHANDS))
  compiledOperators.set(name, (argument, compile) => {
    const [arg] = compiledArguments(argument, compile, 1) ?? [null];
    if (!arg) return null;
    return (doc, options) => {
      const v = arg(doc, options);
      return nullish(v) ? null : convert(v, to, name);
    };
  });
