import { Decimal128, Double, Int32, Long } from 'bson';
import { computeValue, type Options } from 'mingo/core';
import { compiledArguments, compiledOperators, valuesOf, type Compiled } from './compiled';
import { fail } from './errors';
import {
  evaluateArguments,
  isIntegral,
  notImplemented,
  nullish,
  toNumber,
  type Expression,
} from './expression-support';
import {
  decimalAdd,
  decimalDivide,
  decimalModulo,
  decimalMultiply,
  decimalQuantize,
  decimalSubtract,
  decimalToBigInt,
  decimalTruncate,
  DoubleDoubleSum,
  fromBigInt,
  fromDecimal128,
  fromDouble,
  isZero,
  toDecimal128,
  toDouble,
  type Decimal,
} from './numbers';
import { bsonType, isInt32Number, typeName } from './values';

// Arithmetic as MongoDB 7 computes it: the result takes the widest type of the arguments (int,
// long, double, Decimal128), an int that overflows becomes a long and a long that overflows a
// double, Longs compute exactly beyond 2^53 and Decimal128 as IEEE decimal128 (34 digits). Values
// are in mingo's form (see toMingo): Doubles and Longs a double holds exactly are JS numbers, so
// an integral JS number outside the int range counts as a long, and other Longs and Decimal128
// stay objects.

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;
const fitsLong = (n: bigint): boolean => n >= LONG_MIN && n <= LONG_MAX;
const fitsInt = (n: bigint): boolean => n >= -(2n ** 31n) && n < 2n ** 31n;

/** A number's BSON type as the arithmetic sees it, and its value. */
export type Num =
  | { type: 'int'; value: bigint }
  | { type: 'long'; value: bigint; object: boolean }
  | { type: 'double'; value: number }
  | { type: 'decimal'; value: Decimal };

const RANK = { int: 0, long: 1, double: 2, decimal: 3 } as const;
type NumType = keyof typeof RANK;
const widest = (a: NumType, b: NumType): NumType => (RANK[a] >= RANK[b] ? a : b);

/** The number a value holds, or null when it is not a number. */
export function numeric(v: unknown): Num | null {
  if (typeof v === 'number') {
    if (isInt32Number(v)) return { type: 'int', value: BigInt(v) };
    if (Number.isSafeInteger(v) && !Object.is(v, -0))
      return { type: 'long', value: BigInt(v), object: false };
    return { type: 'double', value: v };
  }
  // A Timestamp is a Long in the bson library, but no number.
  if (v instanceof Long && bsonType(v) === 'Long')
    return { type: 'long', value: BigInt(v.toString()), object: true };
  if (v instanceof Decimal128) return { type: 'decimal', value: fromDecimal128(v) };
  if (v instanceof Double) return { type: 'double', value: v.value };
  if (v instanceof Int32) return { type: 'int', value: BigInt(v.value) };
  return null;
}

export function asDouble(n: Num): number {
  switch (n.type) {
    case 'double':
      return n.value;
    case 'decimal':
      return toDouble(n.value);
    default:
      return Number(n.value);
  }
}

/** Widened to Decimal128 as MongoDB widens: integers exactly, doubles to 15 digits. */
export function asDecimal(n: Num): Decimal {
  switch (n.type) {
    case 'decimal':
      return n.value;
    case 'double':
      return fromDouble(n.value, 15);
    default:
      return fromBigInt(n.value);
  }
}

/**
 * An integer result in mingo's form: a JS number when it is an int, or when no argument was a
 * `Long` object and a double holds it; otherwise a `Long`, so that nothing beyond 2^53 is rounded.
 */
export function integerResult(n: bigint, type: 'int' | 'long', longObject: boolean): unknown {
  if (type === 'int' && fitsInt(n)) return Number(n);
  if (!longObject && Number.isSafeInteger(Number(n))) return Number(n);
  return Long.fromBigInt(n);
}

export const decimalResult = (d: Decimal): Decimal128 => toDecimal128(d);

function requireNumber(name: string, v: unknown, code: number, message?: string): Num {
  const n = numeric(v);
  if (!n) fail(code, message ?? `${name} only supports numeric types, not ${typeName(v)}`);
  return n;
}

const isLongObject = (n: Num): boolean => n.type === 'long' && n.object;

// --- $add, $subtract, $multiply, $divide, $mod

const dateOverflow = (): never => fail(2, 'date overflow');

/** A number added to a date's milliseconds: doubles rounded half away from zero. */
function millisOf(n: Num): bigint {
  switch (n.type) {
    case 'double': {
      if (!(n.value >= -(2 ** 63) && n.value < 2 ** 63)) dateOverflow();
      return BigInt(Math.sign(n.value) * Math.round(Math.abs(n.value)));
    }
    case 'decimal': {
      const rounded = decimalQuantize(n.value, 0, 'even');
      const ms = decimalToBigInt(rounded);
      if (ms === null || !fitsLong(ms)) return dateOverflow();
      return ms;
    }
    default:
      return n.value;
  }
}

function dateResult(ms: bigint): Date {
  if (!fitsLong(ms)) dateOverflow();
  return new Date(Number(ms));
}

/** $add: numbers in the widest type, or one date and numbers of milliseconds. */
const $add: Expression = (obj, expr, options) => {
  const args = evaluateArguments('$add', obj, expr, options, 0, Infinity);
  let type: NumType = 'int';
  let longTotal = 0n;
  let doubleTotal = 0;
  let decimalTotal: Decimal = fromBigInt(0n);
  let longObject = false;
  let date = false;
  for (const v of args) {
    if (nullish(v)) return null;
    if (v instanceof Date) {
      if (date) fail(16612, 'only one date allowed in an $add expression');
      date = true;
      // What was added so far becomes milliseconds.
      const sofar: Num =
        type === 'decimal'
          ? { type, value: decimalTotal }
          : type === 'double'
            ? { type, value: doubleTotal }
            : { type: 'long', value: longTotal, object: false };
      longTotal = millisOf(sofar);
      longTotal += BigInt(v.getTime());
      if (!fitsLong(longTotal)) dateOverflow();
      continue;
    }
    const n = requireNumber(
      '$add',
      v,
      14,
      `$add only supports numeric or date types, not ${typeName(v)}`,
    );
    longObject ||= isLongObject(n);
    if (date) {
      longTotal += millisOf(n);
      if (!fitsLong(longTotal)) dateOverflow();
      continue;
    }
    const before: NumType = type;
    type = widest(type, n.type);
    if (before !== type) {
      if (type === 'double' && before !== 'double') doubleTotal = Number(longTotal);
      if (type === 'decimal')
        decimalTotal = before === 'double' ? fromDouble(doubleTotal, 15) : fromBigInt(longTotal);
    }
    switch (type) {
      case 'int':
      case 'long': {
        const sum = longTotal + (n.value as bigint);
        if (fitsLong(sum)) longTotal = sum;
        else {
          type = 'double';
          doubleTotal = Number(longTotal) + asDouble(n);
        }
        break;
      }
      case 'double':
        doubleTotal += asDouble(n);
        break;
      case 'decimal':
        decimalTotal = decimalAdd(decimalTotal, asDecimal(n));
        break;
    }
  }
  if (date) return dateResult(longTotal);
  switch (type) {
    case 'int':
    case 'long':
      return integerResult(longTotal, type, longObject);
    case 'double':
      return doubleTotal;
    case 'decimal':
      return decimalResult(decimalTotal);
  }
};

const $subtract: Expression = (obj, expr, options) => {
  const [a, b] = evaluateArguments('$subtract', obj, expr, options, 2);
  const x = numeric(a);
  const y = numeric(b);
  if (x && y) {
    const type = widest(x.type, y.type);
    switch (type) {
      case 'decimal':
        return decimalResult(decimalSubtract(asDecimal(x), asDecimal(y)));
      case 'double':
        return asDouble(x) - asDouble(y);
      default: {
        const r = (x.value as bigint) - (y.value as bigint);
        if (type === 'long' && !fitsLong(r)) return asDouble(x) - asDouble(y);
        return integerResult(r, type, isLongObject(x) || isLongObject(y));
      }
    }
  }
  if (nullish(a) || nullish(b)) return null;
  if (a instanceof Date) {
    if (b instanceof Date) return integerResult(BigInt(a.getTime() - b.getTime()), 'long', true);
    if (y) {
      if (y.type === 'double' && !(y.value >= -(2 ** 63) && y.value < 2 ** 63)) dateOverflow();
      return dateResult(BigInt(a.getTime()) - millisOf(y));
    }
    fail(14, `can't $subtract ${typeName(b)} from Date`);
  }
  return fail(14, `can't $subtract ${typeName(b)} from ${typeName(a)}`);
};

const $multiply: Expression = (obj, expr, options) => {
  const args = evaluateArguments('$multiply', obj, expr, options, 0, Infinity);
  let type: NumType = 'int';
  let doubleProduct = 1;
  let longProduct = 1n;
  let decimalProduct: Decimal = fromBigInt(1n);
  let longObject = false;
  for (const v of args) {
    if (nullish(v)) return null;
    const n = requireNumber('$multiply', v, 14);
    longObject ||= isLongObject(n);
    const before: NumType = type;
    type = widest(type, n.type);
    if (type === 'decimal') {
      if (before !== 'decimal')
        decimalProduct =
          before === 'double' ? fromDouble(doubleProduct, 15) : fromBigInt(longProduct);
      decimalProduct = decimalMultiply(decimalProduct, asDecimal(n));
      continue;
    }
    doubleProduct *= asDouble(n);
    if (type !== 'double') {
      const product = longProduct * (n.value as bigint);
      if (fitsLong(product)) longProduct = product;
      else type = 'double';
    }
  }
  switch (type) {
    case 'double':
      return doubleProduct;
    case 'decimal':
      return decimalResult(decimalProduct);
    default:
      return integerResult(longProduct, type, longObject);
  }
};

function twoNumbers(name: string, obj: unknown, expr: unknown, options: Options, code: number) {
  const [a, b] = evaluateArguments(name, obj, expr, options, 2);
  return numbersOf(name, a, b, code);
}

/** Two arguments' numbers; null if one is null or missing; refused with `code` if not numbers. */
function numbersOf(name: string, a: unknown, b: unknown, code: number) {
  const x = numeric(a);
  const y = numeric(b);
  if (x && y) return [x, y] as const;
  if (nullish(a) || nullish(b)) return null;
  return fail(code, `${name} only supports numeric types, not ${typeName(a)} and ${typeName(b)}`);
}

const $divide: Expression = (obj, expr, options) => {
  const [a, b] = evaluateArguments('$divide', obj, expr, options, 2);
  return quotient(a, b);
};

// Compiled (see compiled.ts): both arguments evaluated for each document, then divided as above.
compiledOperators.set('$divide', (argument, compile) => {
  const args = compiledArguments(argument, compile, 2);
  if (!args) return null;
  const [a, b] = args as [Compiled, Compiled];
  return (doc, options) => quotient(a(doc, options), b(doc, options));
});

function quotient(a: unknown, b: unknown): unknown {
  const args = numbersOf('$divide', a, b, 14);
  if (!args) return null;
  const [x, y] = args;
  if (x.type === 'decimal' || y.type === 'decimal') {
    return decimalDivision(x, y, decimalDivide, 2, "can't $divide by zero");
  }
  const denominator = asDouble(y);
  if (denominator === 0) fail(2, "can't $divide by zero");
  return asDouble(x) / denominator;
}

/** `divide` of x by y as Decimal128, which the server refuses (its code, its message) for a zero y. */
function decimalDivision(
  x: Num,
  y: Num,
  divide: (a: Decimal, b: Decimal) => Decimal,
  code: number,
  message: string,
): unknown {
  const divisor = asDecimal(y);
  if (isZero(divisor)) fail(code, message);
  return decimalResult(divide(asDecimal(x), divisor));
}

const $mod: Expression = (obj, expr, options) => {
  const args = twoNumbers('$mod', obj, expr, options, 16611);
  if (!args) return null;
  const [x, y] = args;
  if (x.type === 'decimal' || y.type === 'decimal') {
    return decimalDivision(x, y, decimalModulo, 5733415, "can't $mod by zero");
  }
  if (asDouble(y) === 0) fail(16610, "can't $mod by zero");
  if (x.type === 'double' || y.type === 'double') return asDouble(x) % asDouble(y);
  const a = x.value as bigint;
  const b = y.value as bigint;
  const r = b === -1n ? 0n : a % b;
  return integerResult(
    r,
    widest(x.type, y.type) as 'int' | 'long',
    isLongObject(x) || isLongObject(y),
  );
};

// --- One number in, one number out

function singleNumber(name: string, apply: (n: Num) => unknown): Expression {
  return (obj, expr, options) => {
    const [v] = evaluateArguments(name, obj, expr, options, 1);
    if (nullish(v)) return null;
    return apply(requireNumber(name, v, 28765));
  };
}

const unchanged = (n: Num): unknown =>
  n.type === 'decimal'
    ? decimalResult(n.value)
    : n.type === 'double'
      ? n.value
      : integerResult(n.value, n.type, isLongObject(n));

const $abs = singleNumber('$abs', (n) => {
  switch (n.type) {
    case 'double':
      return Math.abs(n.value);
    case 'decimal':
      return decimalResult(n.value.kind === 'nan' ? n.value : { ...n.value, neg: false });
    default:
      if (n.value === LONG_MIN) fail(28680, "can't take $abs of long long min");
      return integerResult(n.value < 0n ? -n.value : n.value, n.type, isLongObject(n));
  }
});

function toWhole(name: '$ceil' | '$floor', mode: 'ceiling' | 'floor', f: (x: number) => number) {
  return singleNumber(name, (n) => {
    if (n.type === 'double') return f(n.value);
    if (n.type === 'decimal') return decimalResult(decimalQuantize(n.value, 0, mode));
    return unchanged(n);
  });
}

/** Functions MongoDB computes in doubles; Decimal128 arguments it computes in decimal. */
function inDoubles(name: string, f: (x: number) => number, check?: (x: number) => void) {
  return singleNumber(name, (n) => {
    if (n.type === 'decimal') notImplemented(`${name} of a Decimal128 value`);
    const x = asDouble(n);
    check?.(x);
    return f(x);
  });
}

// --- $round and $trunc: on the number's decimal value, to a place between -20 and 100
// (https://www.mongodb.com/docs/v7.0/reference/operator/aggregation/round/).

function roundOrTrunc(name: '$round' | '$trunc'): Expression {
  const mode = name === '$round' ? 'even' : 'down';
  return (obj, expr, options) => {
    const [value, placeArg] = evaluateArguments(name, obj, expr, options, 1, 2);
    let place = 0;
    if (placeArg !== undefined) {
      if (nullish(placeArg)) return null;
      if (!isIntegral(placeArg))
        fail(51082, `precision argument to  ${name} must be a integral value`);
      place = toNumber(placeArg);
      if (place < -20 || place > 100)
        fail(
          51083,
          `cannot apply ${name} with precision value ${place} value must be in [-20, 100]`,
        );
    }
    if (nullish(value)) return null;
    const n = numeric(value);
    if (!n) fail(51081, `${name} only supports numeric types, not ${typeName(value)}`);
    switch (n.type) {
      case 'decimal':
        return n.value.kind === 'inf'
          ? decimalResult(n.value)
          : decimalResult(decimalQuantize(n.value, place, mode));
      case 'double': {
        const d = fromDouble(n.value, 34);
        if (d.kind === 'inf') return n.value;
        return toDouble(decimalQuantize(d, place, mode));
      }
      default: {
        if (place >= 0) return unchanged(n);
        const rounded = decimalToBigInt(decimalQuantize(fromBigInt(n.value), place, mode));
        if (rounded === null || !fitsLong(rounded))
          fail(
            51080,
            `invalid conversion from Decimal128 result in ${name} resulting from arguments: [${n.value}, ${place}]`,
          );
        return integerResult(rounded, fitsInt(rounded) ? n.type : 'long', isLongObject(n));
      }
    }
  };
}

// --- $pow, $log and the other functions of doubles

const $pow: Expression = (obj, expr, options) => {
  const [b, e] = evaluateArguments('$pow', obj, expr, options, 2);
  if (nullish(b) || nullish(e)) return null;
  const base = requireNumber('$pow', b, 28762, `$pow's base must be numeric, not ${typeName(b)}`);
  const exp = requireNumber(
    '$pow',
    e,
    28763,
    `$pow's exponent must be numeric, not ${typeName(e)}`,
  );
  if (base.type === 'decimal' || exp.type === 'decimal')
    notImplemented('$pow of a Decimal128 value');
  const x = asDouble(base);
  const y = asDouble(exp);
  if (x === 0 && y < 0) fail(28764, '$pow cannot take a base of 0 and a negative exponent');
  if (base.type === 'double' || exp.type === 'double') return Math.pow(x, y);
  const type = widest(base.type, exp.type) as 'int' | 'long';
  const longObject = isLongObject(base) || isLongObject(exp);
  const bb = base.value as bigint;
  const ee = exp.value as bigint;
  if (bb === 0n || bb === 1n) return integerResult(ee === 0n ? 1n : bb, type, longObject);
  if (bb === -1n) return integerResult(ee % 2n === 0n ? 1n : -1n, type, longObject);
  if (ee < 0n) return Math.pow(x, y);
  if (ee <= 63n) {
    const r = bb ** ee;
    if (fitsLong(r)) return integerResult(r, type, longObject);
  }
  return Math.pow(x, y);
};

const $log: Expression = (obj, expr, options) => {
  const [a, b] = evaluateArguments('$log', obj, expr, options, 2);
  if (nullish(a) || nullish(b)) return null;
  const arg = requireNumber(
    '$log',
    a,
    28756,
    `$log's argument must be numeric, not ${typeName(a)}`,
  );
  const base = requireNumber('$log', b, 28757, `$log's base must be numeric, not ${typeName(b)}`);
  if (arg.type === 'decimal' || base.type === 'decimal')
    notImplemented('$log of a Decimal128 value');
  const x = asDouble(arg);
  const y = asDouble(base);
  if (!(x > 0 || Number.isNaN(x)))
    fail(28758, `$log's argument must be a positive number, but is ${x}`);
  if (!((y > 0 && y !== 1) || Number.isNaN(y)))
    fail(28759, `$log's base must be a positive number not equal to 1, but is ${y}`);
  return Math.log(x) / Math.log(y);
};

/** How MongoDB prints a double in a message. */
const printed = (x: number): string =>
  Number.isNaN(x) ? 'nan' : x === Infinity ? 'inf' : x === -Infinity ? '-inf' : String(x);

function bounded(name: string, low: number, high: number, f: (x: number) => number, open = false) {
  return inDoubles(name, f, (x) => {
    const inside = open ? x > low && x < high : x >= low && x <= high;
    if (!inside && !Number.isNaN(x))
      fail(
        50989,
        `cannot apply ${name} to ${printed(x)}, value must be in ${open ? '(' : '['}${printed(low)},${printed(high)}${open ? ')' : ']'}`,
      );
  });
}

const $atan2: Expression = (obj, expr, options) => {
  const [a, b] = evaluateArguments('$atan2', obj, expr, options, 2);
  if (nullish(a) || nullish(b)) return null;
  const y = requireNumber('$atan2', a, 51044);
  const x = requireNumber('$atan2', b, 51045);
  if (y.type === 'decimal' || x.type === 'decimal') notImplemented('$atan2 of a Decimal128 value');
  return Math.atan2(asDouble(y), asDouble(x));
};

// --- $sum, $avg and the standard deviations, as accumulators and as expressions

/** A running sum as MongoDB's AccumulatorSum keeps it. */
class Sum {
  type: NumType = 'int';
  longObject = false;
  count = 0;
  readonly nonDecimal = new DoubleDoubleSum();
  decimal: Decimal = fromBigInt(0n);

  add(v: unknown): void {
    const n = numeric(v);
    if (!n) return;
    this.count++;
    this.type = widest(this.type, n.type);
    this.longObject ||= isLongObject(n);
    switch (n.type) {
      case 'decimal':
        this.decimal = decimalAdd(this.decimal, n.value);
        break;
      case 'double':
        this.nonDecimal.addDouble(n.value);
        break;
      default:
        this.nonDecimal.addInteger(n.value);
    }
  }

  total(): Decimal | number | bigint {
    if (this.type === 'decimal') return decimalAdd(this.decimal, this.nonDecimal.getDecimal());
    if (this.type !== 'double') {
      const n = this.nonDecimal.getLong();
      if (n !== null) return n;
    }
    return this.nonDecimal.getDouble();
  }

  value(): unknown {
    const total = this.total();
    if (typeof total === 'bigint')
      return integerResult(total, this.type as 'int' | 'long', this.longObject);
    if (typeof total === 'number') return total;
    return decimalResult(total);
  }

  average(): unknown {
    if (this.count === 0) return null;
    if (this.type === 'decimal')
      return decimalResult(
        decimalDivide(
          decimalAdd(this.decimal, this.nonDecimal.getDecimal()),
          fromBigInt(BigInt(this.count)),
        ),
      );
    return this.nonDecimal.getDouble() / this.count;
  }
}

/** Welford's running mean and deviation, in doubles, as MongoDB's AccumulatorStdDev. */
class Deviation {
  count = 0;
  mean = 0;
  m2 = 0;

  add(v: unknown): void {
    const n = numeric(v);
    if (!n) return;
    const x = asDouble(n);
    this.count++;
    const delta = x - this.mean;
    if (delta !== 0) {
      this.mean += delta / this.count;
      this.m2 += delta * (x - this.mean);
    }
  }

  value(sample: boolean): number | null {
    const n = sample ? this.count - 1 : this.count;
    if (n <= 0) return null;
    return Math.sqrt(this.m2 / n);
  }
}

/**
 * An operator that is an accumulator in $group (and windows, $bucket), over the values of the
 * expression for each document, and an expression elsewhere: over the elements of its one
 * argument when that is an array, else over its arguments.
 */
function accumulating(name: string, result: (values: unknown[]) => unknown): Expression {
  return (obj, expr, options) => {
    if (Array.isArray(obj)) return result(valuesOf(obj, expr, options));
    const list = Array.isArray(expr) ? expr : [expr];
    const values = list.map((e) => computeValue(obj, e, null, options));
    if (list.length === 1 && Array.isArray(values[0])) return result(values[0]);
    return result(values);
  };
}

/**
 * $sum and $avg as running accumulators, one value at a time, for $group (stages.ts): the same
 * sums as over the list of values.
 */
export const runningSums = {
  $sum: () => {
    const sum = new Sum();
    return { add: (v: unknown) => sum.add(v), result: () => sum.value() };
  },
  $avg: () => {
    const sum = new Sum();
    return { add: (v: unknown) => sum.add(v), result: () => sum.average() };
  },
};

const summed = (values: unknown[]): Sum => {
  const sum = new Sum();
  for (const v of values) sum.add(v);
  return sum;
};

const deviation = (values: unknown[]): Deviation => {
  const d = new Deviation();
  for (const v of values) d.add(v);
  return d;
};

// --- $bitAnd, $bitOr, $bitXor, $bitNot: on ints and longs only

function bitwise(
  name: string,
  combine: (a: bigint, b: bigint) => bigint,
  identity: bigint,
): Expression {
  return (obj, expr, options) => {
    const args = evaluateArguments(name, obj, expr, options, 0, Infinity);
    let acc = identity;
    let type: 'int' | 'long' = 'int';
    let longObject = false;
    for (const v of args) {
      if (nullish(v)) return null;
      const n = numeric(v);
      if (!n || (n.type !== 'int' && n.type !== 'long'))
        fail(14, `${name} only supports int and long operands.`);
      if (n.type === 'long') type = 'long';
      longObject ||= isLongObject(n);
      acc = combine(acc, n.value);
    }
    return integerResult(BigInt.asIntN(type === 'int' ? 32 : 64, acc), type, longObject);
  };
}

const $bitNot: Expression = (obj, expr, options) => {
  const [v] = evaluateArguments('$bitNot', obj, expr, options, 1);
  if (nullish(v)) return null;
  const n = numeric(v);
  if (!n || (n.type !== 'int' && n.type !== 'long'))
    fail(14, `$bitNot only supports int and long, not: ${typeName(v)}.`);
  return integerResult(~n.value, n.type, isLongObject(n));
};

export const arithmeticExpressions: Record<string, Expression> = {
  $bitAnd: bitwise('$bitAnd', (a, b) => a & b, -1n),
  $bitOr: bitwise('$bitOr', (a, b) => a | b, 0n),
  $bitXor: bitwise('$bitXor', (a, b) => a ^ b, 0n),
  $bitNot,
  $add,
  $subtract,
  $multiply,
  $divide,
  $mod,
  $abs,
  $ceil: toWhole('$ceil', 'ceiling', Math.ceil),
  $floor: toWhole('$floor', 'floor', Math.floor),
  $round: roundOrTrunc('$round'),
  $trunc: roundOrTrunc('$trunc'),
  $pow,
  $log,
  $exp: inDoubles('$exp', Math.exp),
  $sqrt: inDoubles('$sqrt', Math.sqrt, (x) => {
    if (x < 0) fail(28714, "$sqrt's argument must be greater than or equal to 0");
  }),
  $ln: inDoubles('$ln', Math.log, (x) => {
    if (!(x > 0 || Number.isNaN(x)))
      fail(28766, `$ln's argument must be a positive number, but is ${printed(x)}`);
  }),
  $log10: inDoubles('$log10', Math.log10, (x) => {
    if (!(x > 0 || Number.isNaN(x)))
      fail(28761, `$log10's argument must be a positive number, but is ${printed(x)}`);
  }),
  $sin: bounded('$sin', -Infinity, Infinity, Math.sin, true),
  $cos: bounded('$cos', -Infinity, Infinity, Math.cos, true),
  $tan: bounded('$tan', -Infinity, Infinity, Math.tan, true),
  $asin: bounded('$asin', -1, 1, Math.asin),
  $acos: bounded('$acos', -1, 1, Math.acos),
  $atan: inDoubles('$atan', Math.atan),
  $atan2,
  $sinh: inDoubles('$sinh', Math.sinh),
  $cosh: inDoubles('$cosh', Math.cosh),
  $tanh: inDoubles('$tanh', Math.tanh),
  $asinh: inDoubles('$asinh', Math.asinh),
  $acosh: bounded('$acosh', 1, Infinity, Math.acosh),
  $atanh: bounded('$atanh', -1, 1, Math.atanh),
  $degreesToRadians: inDoubles('$degreesToRadians', (x) => x * (Math.PI / 180)),
  $radiansToDegrees: inDoubles('$radiansToDegrees', (x) => x * (180 / Math.PI)),
  $sum: accumulating('$sum', (values) => summed(values).value()),
  $avg: accumulating('$avg', (values) => summed(values).average()),
  $stdDevPop: accumulating('$stdDevPop', (values) => deviation(values).value(false)),
  $stdDevSamp: accumulating('$stdDevSamp', (values) => deviation(values).value(true)),
};

/** The integer part of a number, for conversions (null for NaN and infinities). */
export function truncated(n: Num): bigint | null {
  switch (n.type) {
    case 'double':
      return Number.isFinite(n.value) ? BigInt(Math.trunc(n.value)) : null;
    case 'decimal':
      return decimalTruncate(n.value);
    default:
      return n.value;
  }
}
