import { Decimal128, Double, Long } from 'bson';

// Numbers as MongoDB computes with them: Int32, Int64 and doubles compare exactly with each other
// and with Decimal128 (never through a double), and Decimal128 arithmetic is IEEE 754-2008
// decimal128 (34 digits, ties to even, trailing zeros kept), as in the Intel library MongoDB uses.

/** A decimal value: `coef × 10^exp`, or an infinity or NaN. */
export type Decimal =
  | { readonly kind: 'finite'; readonly neg: boolean; readonly coef: bigint; readonly exp: number }
  | { readonly kind: 'inf'; readonly neg: boolean }
  | { readonly kind: 'nan'; readonly neg: boolean };

type Finite = Extract<Decimal, { kind: 'finite' }>;

const DIGITS = 34;
const MAX_EXP = 6111;
const MIN_EXP = -6176;
const TEN = 10n;

const pow10Cache: bigint[] = [];
export function pow10(n: number): bigint {
  if (n < 64) return (pow10Cache[n] ??= TEN ** BigInt(n));
  return TEN ** BigInt(n);
}

const digitCount = (n: bigint): number => (n === 0n ? 1 : (n < 0n ? -n : n).toString().length);

export const NAN: Decimal = { kind: 'nan', neg: false };
const infinity = (neg: boolean): Decimal => ({ kind: 'inf', neg });
const finite = (neg: boolean, coef: bigint, exp: number): Finite => ({
  kind: 'finite',
  neg,
  coef,
  exp,
});

/**
 * `coef × 10^exp` (coef ≥ 0) as a decimal128: rounded to 34 digits (ties to even, or toward zero),
 * with the exponent brought into range; `sticky` says that nonzero digits below `coef` were
 * dropped already.
 */
export function roundDecimal(
  neg: boolean,
  coef: bigint,
  exp: number,
  mode: 'even' | 'down' | 'up' | 'floor' | 'ceiling' = 'even',
  sticky = false,
): Decimal {
  const drop = Math.max(digitCount(coef) - DIGITS, MIN_EXP - exp, 0);
  if (drop > 0) {
    const divisor = pow10(drop);
    let q = coef / divisor;
    const r = coef % divisor;
    if (roundsAway(mode, neg, q, r, divisor, sticky)) q += 1n;
    coef = q;
    exp += drop;
    if (digitCount(coef) > DIGITS) {
      coef /= TEN;
      exp += 1;
    }
  } else if (sticky && roundsAway(mode, neg, coef, 0n, 1n, true)) coef += 1n;
  if (exp > MAX_EXP) {
    if (coef === 0n) exp = MAX_EXP;
    else if (digitCount(coef) + exp - MAX_EXP <= DIGITS) {
      coef *= pow10(exp - MAX_EXP);
      exp = MAX_EXP;
    } else return infinity(neg);
  }
  return finite(neg, coef, exp);
}

function roundsAway(
  mode: 'even' | 'down' | 'up' | 'floor' | 'ceiling',
  neg: boolean,
  q: bigint,
  r: bigint,
  divisor: bigint,
  sticky: boolean,
): boolean {
  const inexact = r !== 0n || sticky;
  switch (mode) {
    case 'down':
      return false;
    case 'up':
      return inexact;
    case 'floor':
      return inexact && neg;
    case 'ceiling':
      return inexact && !neg;
  }
  const twice = 2n * r;
  if (twice > divisor) return true;
  if (twice < divisor) return false;
  return sticky || q % 2n === 1n;
}

// --- Conversions

const DECIMAL_TEXT = /^(-)?(\d+)(?:\.(\d+))?(?:E([+-]\d+))?$/;

export function fromDecimal128(d: Decimal128): Decimal {
  const s = d.toString();
  const m = DECIMAL_TEXT.exec(s);
  if (!m) {
    if (s.endsWith('Infinity')) return infinity(s.startsWith('-'));
    return NAN;
  }
  const fraction = m[3] ?? '';
  return finite(m[1] === '-', BigInt(m[2]! + fraction), Number(m[4] ?? 0) - fraction.length);
}

export function toDecimal128(d: Decimal): Decimal128 {
  if (d.kind === 'nan') return Decimal128.fromString('NaN');
  if (d.kind === 'inf') return Decimal128.fromString(d.neg ? '-Infinity' : 'Infinity');
  return Decimal128.fromString(`${d.neg ? '-' : ''}${d.coef}E${d.exp}`);
}

export function fromBigInt(n: bigint): Decimal {
  return roundDecimal(n < 0n, n < 0n ? -n : n, 0);
}

/** A double's exact value `m × 2^e`, with m odd (or zero). */
export function doubleParts(x: number): { neg: boolean; m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const neg = hi >>> 31 === 1;
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) e = -1074;
  else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  if (m === 0n) return { neg, m, e: 0 };
  while ((m & 1n) === 0n) {
    m >>= 1n;
    e += 1;
  }
  return { neg, m, e };
}

/** The exact decimal value of a finite double: `coef × 10^exp` with the fewest digits. */
function exactDouble(x: number): Finite {
  const { neg, m, e } = doubleParts(x);
  if (e >= 0) return finite(neg, m << BigInt(e), 0);
  return finite(neg, m * 5n ** BigInt(-e), e);
}

/**
 * A double as a decimal: `digits` 15 is MongoDB's default conversion (Decimal128(double)), which
 * keeps exactly 15 significant digits; 34 is the exact value rounded to 34 digits.
 */
export function fromDouble(x: number, digits: 15 | 34): Decimal {
  if (Number.isNaN(x)) return NAN;
  if (!Number.isFinite(x)) return infinity(x < 0);
  if (x === 0) return finite(Object.is(x, -0), 0n, 0);
  const exact = exactDouble(x);
  const rounded = roundDecimal(exact.neg, exact.coef, exact.exp) as Finite;
  return digits === 34 ? rounded : withDigits(rounded, 15);
}

/** The value with exactly `digits` significant digits: padded with zeros, or rounded (ties to even). */
function withDigits(x: Finite, digits: number): Decimal {
  const drop = digitCount(x.coef) - digits;
  if (drop <= 0) return finite(x.neg, x.coef * pow10(-drop), x.exp + drop);
  const divisor = pow10(drop);
  let q = x.coef / divisor;
  const r = x.coef % divisor;
  if (roundsAway('even', x.neg, q, r, divisor, false)) q += 1n;
  let exp = x.exp + drop;
  if (digitCount(q) > digits) {
    q /= TEN;
    exp += 1;
  }
  return roundDecimal(x.neg, q, exp);
}

/** The double nearest a decimal (what Decimal128's toDouble gives). */
export function toDouble(d: Decimal): number {
  if (d.kind === 'nan') return NaN;
  if (d.kind === 'inf') return d.neg ? -Infinity : Infinity;
  const x = Number(`${d.coef}e${d.exp}`);
  return d.neg ? -x : x;
}

// --- Arithmetic

function negate(d: Decimal): Decimal {
  return d.kind === 'finite' ? finite(!d.neg, d.coef, d.exp) : { ...d, neg: !d.neg };
}

export function decimalAdd(a: Decimal, b: Decimal): Decimal {
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  if (a.kind === 'inf' || b.kind === 'inf') {
    if (a.kind === 'inf' && b.kind === 'inf' && a.neg !== b.neg) return NAN;
    return a.kind === 'inf' ? a : b;
  }
  const exp = Math.min(a.exp, b.exp);
  const x = a.coef * pow10(a.exp - exp) * (a.neg ? -1n : 1n);
  const y = b.coef * pow10(b.exp - exp) * (b.neg ? -1n : 1n);
  const sum = x + y;
  if (sum === 0n) return roundDecimal(a.neg && b.neg, 0n, exp);
  return roundDecimal(sum < 0n, sum < 0n ? -sum : sum, exp);
}

export const decimalSubtract = (a: Decimal, b: Decimal): Decimal => decimalAdd(a, negate(b));

export function decimalMultiply(a: Decimal, b: Decimal): Decimal {
  const neg = a.neg !== b.neg;
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  if (a.kind === 'inf' || b.kind === 'inf') {
    const other = a.kind === 'inf' ? b : a;
    return other.kind === 'finite' && other.coef === 0n ? NAN : infinity(neg);
  }
  return roundDecimal(neg, a.coef * b.coef, a.exp + b.exp);
}

/** IEEE division: exact quotients take the exponent nearest exp(a) − exp(b), others 34 digits. */
export function decimalDivide(a: Decimal, b: Decimal): Decimal {
  const neg = a.neg !== b.neg;
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  if (a.kind === 'inf') return b.kind === 'inf' ? NAN : infinity(neg);
  if (b.kind === 'inf') return finite(neg, 0n, MIN_EXP);
  if (b.coef === 0n) return a.coef === 0n ? NAN : infinity(neg);
  const preferred = a.exp - b.exp;
  if (a.coef === 0n) return roundDecimal(neg, 0n, Math.max(MIN_EXP, preferred));
  const shift = Math.max(0, digitCount(b.coef) - digitCount(a.coef) + DIGITS + 2);
  const numerator = a.coef * pow10(shift);
  let q = numerator / b.coef;
  const r = numerator % b.coef;
  let exp = preferred - shift;
  if (r !== 0n) return roundDecimal(neg, q, exp, 'even', true);
  while (exp < preferred && q % TEN === 0n) {
    q /= TEN;
    exp += 1;
  }
  return roundDecimal(neg, q, exp);
}

/** The remainder of a truncating division, with the sign of the dividend (fmod), exactly. */
export function decimalModulo(a: Decimal, b: Decimal): Decimal {
  if (a.kind !== 'finite' || b.kind !== 'finite' || b.coef === 0n) {
    if (a.kind === 'finite' && b.kind === 'inf') return a;
    return NAN;
  }
  const exp = Math.min(a.exp, b.exp);
  const x = a.coef * pow10(a.exp - exp);
  const y = b.coef * pow10(b.exp - exp);
  return roundDecimal(a.neg, x % y, exp);
}

/** Rounds to `places` decimal places (quantize to 10^-places) in the given mode. */
export function decimalQuantize(
  a: Decimal,
  places: number,
  mode: 'even' | 'down' | 'up' | 'floor' | 'ceiling',
): Decimal {
  if (a.kind !== 'finite') return a;
  const exp = -places;
  if (a.exp >= exp) {
    const grow = a.exp - exp;
    if (digitCount(a.coef) + grow > DIGITS) return NAN;
    return finite(a.neg, a.coef * pow10(grow), exp);
  }
  const divisor = pow10(exp - a.exp);
  let q = a.coef / divisor;
  const r = a.coef % divisor;
  if (roundsAway(mode, a.neg, q, r, divisor, false)) q += 1n;
  if (digitCount(q) > DIGITS) return NAN;
  return finite(a.neg, q, exp);
}

export function isZero(d: Decimal): boolean {
  return d.kind === 'finite' && d.coef === 0n;
}

/** The integer a decimal holds exactly, or null when it has a fraction or is not finite. */
export function decimalToBigInt(d: Decimal): bigint | null {
  if (d.kind !== 'finite') return null;
  let n: bigint;
  if (d.exp >= 0) n = d.coef * pow10(d.exp);
  else {
    const divisor = pow10(-d.exp);
    if (d.coef % divisor !== 0n) return null;
    n = d.coef / divisor;
  }
  return d.neg ? -n : n;
}

/** Truncated toward zero (null for NaN and infinities). */
export function decimalTruncate(d: Decimal): bigint | null {
  if (d.kind !== 'finite') return null;
  const n = d.exp >= 0 ? d.coef * pow10(d.exp) : d.coef / pow10(-d.exp);
  return d.neg ? -n : n;
}

// --- Exact comparison of numbers of any BSON type

/**
 * A number as an exact fraction `num / den` (den a power of 2 or 10), or NaN or an infinity.
 * Plain JS numbers and `Double` objects are doubles, `Long`s and bigints integers.
 */
type Exact = { nan: true } | { nan: false; inf: -1 | 0 | 1; num: bigint; den: bigint };

function exactOf(v: unknown): Exact {
  if (typeof v === 'number' || v instanceof Double) {
    const x = typeof v === 'number' ? v : v.value;
    if (Number.isNaN(x)) return { nan: true };
    if (!Number.isFinite(x)) return { nan: false, inf: x > 0 ? 1 : -1, num: 0n, den: 1n };
    if (Number.isSafeInteger(x)) return { nan: false, inf: 0, num: BigInt(x), den: 1n };
    const { neg, m, e } = doubleParts(x);
    const num = neg ? -m : m;
    return e >= 0
      ? { nan: false, inf: 0, num: num << BigInt(e), den: 1n }
      : { nan: false, inf: 0, num, den: 1n << BigInt(-e) };
  }
  if (v instanceof Long) return { nan: false, inf: 0, num: BigInt(v.toString()), den: 1n };
  if (typeof v === 'bigint') return { nan: false, inf: 0, num: v, den: 1n };
  if (v instanceof Decimal128) {
    const d = fromDecimal128(v);
    if (d.kind === 'nan') return { nan: true };
    if (d.kind === 'inf') return { nan: false, inf: d.neg ? -1 : 1, num: 0n, den: 1n };
    const num = d.neg ? -d.coef : d.coef;
    return d.exp >= 0
      ? { nan: false, inf: 0, num: num * pow10(d.exp), den: 1n }
      : { nan: false, inf: 0, num, den: pow10(-d.exp) };
  }
  return exactOf(Number(v));
}

/** MongoDB's order of two numbers of any numeric type: exact, NaN first and equal to itself. */
export function compareNumbers(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') {
    if (a < b) return -1;
    if (a > b) return 1;
    if (a === b) return 0;
    return Number.isNaN(a) ? (Number.isNaN(b) ? 0 : -1) : 1;
  }
  if (a instanceof Long && b instanceof Long) return a.compare(b);
  const x = exactOf(a);
  const y = exactOf(b);
  if (x.nan || y.nan) return x.nan ? (y.nan ? 0 : -1) : 1;
  if (x.inf || y.inf) return Math.sign(x.inf - y.inf);
  const l = x.num * y.den;
  const r = y.num * x.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

/** True for a value that is NaN, as a double or a Decimal128. */
export function isNaNNumber(v: unknown): boolean {
  if (typeof v === 'number') return Number.isNaN(v);
  if (v instanceof Double) return Number.isNaN(v.value);
  if (v instanceof Decimal128) return fromDecimal128(v).kind === 'nan';
  return false;
}

/**
 * A string equal for numbers MongoDB holds equal, whatever their types: the double's own text
 * when the value is exactly a double, else the exact decimal value with a different prefix.
 */
export function numberKey(v: unknown): string {
  if (typeof v === 'number') return 'n' + (Object.is(v, -0) ? 0 : v);
  if (v instanceof Double) return numberKey(v.value);
  if (v instanceof Long || typeof v === 'bigint') {
    const n = typeof v === 'bigint' ? v : BigInt(v.toString());
    const x = Number(n);
    return BigInt(x) === n ? numberKey(x) : 'N' + n;
  }
  if (v instanceof Decimal128) {
    const d = fromDecimal128(v);
    if (d.kind === 'nan') return 'nNaN';
    if (d.kind === 'inf') return d.neg ? 'n-Infinity' : 'nInfinity';
    let { coef, exp } = d;
    if (coef === 0n) return 'n0';
    while (coef % TEN === 0n) {
      coef /= TEN;
      exp += 1;
    }
    const x = Number(`${d.neg ? '-' : ''}${coef}e${exp}`);
    if (Number.isFinite(x) && compareNumbers(x, v) === 0) return numberKey(x);
    const sign = d.neg ? '-' : '';
    return exp >= 0 ? `N${sign}${coef}${'0'.repeat(exp)}` : `N${sign}${coef}e${exp}`;
  }
  return 'n' + Number(v);
}

// --- Sums as MongoDB keeps them: a compensated double sum (DoubleDoubleSummation)

/**
 * A sum of doubles, longs and ints as MongoDB's DoubleDoubleSummation keeps it: a rounded sum and
 * the error beside it, so that sums of integers are exact up to 2^106.
 */
export class DoubleDoubleSum {
  private sum = 0;
  private addend = 0;
  private special = 0;

  addDouble(x: number): void {
    this.special += x;
    // Fast2Sum of x and the addend (|addend| small), then 2Sum with the running sum.
    let s = x + this.addend;
    let t = this.addend - (s - x);
    x = s;
    this.addend = t;
    s = this.sum + x;
    const aPrime = s - x;
    const bPrime = s - aPrime;
    t = this.sum - aPrime + (x - bPrime);
    this.sum = s;
    this.addend += t;
  }

  addInteger(n: bigint): void {
    const high = (n / (1n << 32n)) * (1n << 32n);
    this.addDouble(Number(n - high));
    this.addDouble(Number(high));
  }

  getDouble(): number {
    return Number.isNaN(this.sum) ? this.special : this.sum;
  }

  /** The sum as an integer when it fits a long (rounded half away from zero), else null. */
  getLong(): bigint | null {
    const max = 2 ** 63;
    const fits =
      (this.sum > -max && this.sum < max) ||
      (this.sum === max && this.addend < -0.5) ||
      (this.sum === -max && this.addend >= -0.5);
    if (!fits || Number.isNaN(this.sum)) return null;
    const round = (x: number): bigint => BigInt(Math.sign(x) * Math.round(Math.abs(x)));
    if (this.sum === max) return round(this.addend) + (1n << 63n);
    const s = round(this.sum);
    return s + round(this.sum - Number(s) + this.addend);
  }

  getDecimal(): Decimal {
    if (!Number.isFinite(this.sum)) return fromDouble(this.special, 34);
    return decimalAdd(fromDouble(this.sum, 34), fromDouble(this.addend, 34));
  }
}
