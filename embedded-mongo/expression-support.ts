import type { Decimal128, Long } from 'bson';
import { computeValue, type Options } from 'mingo/core';
import { fail } from './errors';
import { fromDecimal128, isZero } from './numbers';
import { bsonType, compareValues, isNumeric } from './values';

// What the engine's own aggregation expressions share: how arguments are evaluated and checked,
// and how a refusal is worded. Values are in mingo's form (see toMingo).

export type Expression = (obj: unknown, expr: unknown, options: Options) => unknown;

/** Refusal of something MongoDB does that this engine does not: never an answer without it. */
export function notImplemented(feature: string): never {
  fail(238, `${feature} is not implemented by this database engine`);
}

export const nullish = (v: unknown): v is null | undefined => v === null || v === undefined;

/** MongoDB's order of values in expressions, a missing value before null. */
export function compareExpressionValues(a: unknown, b: unknown): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return compareValues(a, b);
}

/** The evaluated arguments of an operator: one not in a list is a list of one, as in MongoDB. */
export function evaluateArguments(
  name: string,
  obj: unknown,
  expr: unknown,
  options: Options,
  min: number,
  max = min,
): unknown[] {
  const list = Array.isArray(expr) ? expr : [expr];
  if (list.length < min || list.length > max)
    fail(
      min === max ? 16020 : 28667,
      min === max
        ? `Expression ${name} takes exactly ${min} arguments. ${list.length} were passed in.`
        : `Expression ${name} takes at least ${min} arguments, and at most ${max}, but ${list.length} were passed in.`,
    );
  return list.map((e) => computeValue(obj, e, null, options));
}

export function toNumber(v: unknown): number {
  return typeof v === 'number' ? v : Number(String(v));
}

/** A numeric value with no fractional part that fits a 32-bit integer, as MongoDB's integral(). */
export function isIntegral(v: unknown): boolean {
  if (!isNumeric(v)) return false;
  const n = toNumber(v);
  return Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31;
}

/** How MongoDB prints a number in a message (coerceToDouble / Value::toString). */
export function shown(v: unknown): string {
  return String(toNumber(v));
}

/** An argument that must be a document of named fields, none but the known ones. */
export function namedArguments(
  name: string,
  expr: unknown,
  known: readonly string[],
  codes: { object: number; unknown: number },
  objectMessage = `${name} only supports an object as its argument`,
): Record<string, unknown> {
  if (expr === null || typeof expr !== 'object' || Array.isArray(expr))
    fail(codes.object, objectMessage);
  const args = expr as Record<string, unknown>;
  for (const k of Object.keys(args))
    if (!known.includes(k)) fail(codes.unknown, `Unrecognized argument to ${name}: ${k}`);
  return args;
}

/**
 * MongoDB's truth of a value (coerceToBool): false, null, a missing value and numbers equal to
 * zero are false; everything else is true, the empty string and NaN too.
 */
export function isTrue(v: unknown): boolean {
  if (v === null || v === undefined || v === false) return false;
  if (typeof v === 'number') return v !== 0;
  if (typeof v !== 'object') return true;
  switch (bsonType(v)) {
    case 'Long':
      return !(v as Long).isZero();
    case 'Decimal128':
      return !isZero(fromDecimal128(v as Decimal128));
    case 'Double':
    case 'Int32':
      return Number(v) !== 0;
  }
  return true;
}
