import { ComputeOptions, computeValue, type Options } from 'mingo/core';
import { fail } from './errors';
import { evaluateArguments, isTrue, nullish, type Expression } from './expression-support';
import { isNumeric, isPlainObject, keyOf, typeName } from './values';

// Booleans, conditions and sets as MongoDB 7 evaluates them: truth as MongoDB's coerceToBool
// (zero of every numeric type is false, the empty string is true), $and and $or stop at their
// answer, and sets compare values as MongoDB does (1, 1.0 and Decimal128 1.00 are one value).
// Values are in mingo's form (see toMingo).

const $and: Expression = (obj, expr, options) => {
  for (const e of Array.isArray(expr) ? expr : [expr])
    if (!isTrue(computeValue(obj, e, null, options))) return false;
  return true;
};

const $or: Expression = (obj, expr, options) => {
  for (const e of Array.isArray(expr) ? expr : [expr])
    if (isTrue(computeValue(obj, e, null, options))) return true;
  return false;
};

const $not: Expression = (obj, expr, options) => {
  const [v] = evaluateArguments('$not', obj, expr, options, 1);
  return !isTrue(v);
};

const $cond: Expression = (obj, expr, options) => {
  let branches: [unknown, unknown, unknown];
  if (Array.isArray(expr)) {
    if (expr.length !== 3)
      fail(16020, `Expression $cond takes exactly 3 arguments. ${expr.length} were passed in.`);
    branches = expr as [unknown, unknown, unknown];
  } else if (isPlainObject(expr)) {
    for (const k of Object.keys(expr))
      if (k !== 'if' && k !== 'then' && k !== 'else')
        fail(17083, `Unrecognized parameter to $cond: ${k}`);
    if (!('if' in expr)) fail(17080, "Missing 'if' parameter to $cond");
    if (!('then' in expr)) fail(17081, "Missing 'then' parameter to $cond");
    if (!('else' in expr)) fail(17082, "Missing 'else' parameter to $cond");
    branches = [expr.if, expr.then, expr.else];
  } else return fail(16020, 'Expression $cond takes exactly 3 arguments. 1 were passed in.');
  const [test, then, otherwise] = branches;
  return computeValue(
    obj,
    isTrue(computeValue(obj, test, null, options)) ? then : otherwise,
    null,
    options,
  );
};

const $switch: Expression = (obj, expr, options) => {
  if (!isPlainObject(expr))
    fail(40060, `$switch requires an object as an argument, found: ${typeName(expr)}`);
  for (const k of Object.keys(expr))
    if (k !== 'branches' && k !== 'default') fail(40067, `$switch found an unknown argument: ${k}`);
  const branches = expr.branches;
  if (!Array.isArray(branches))
    fail(40061, `$switch expected an array for 'branches', found: ${typeName(branches)}`);
  for (const branch of branches) {
    if (!isPlainObject(branch))
      fail(40062, `$switch expected each branch to be an object, found: ${typeName(branch)}`);
    for (const k of Object.keys(branch))
      if (k !== 'case' && k !== 'then')
        fail(40063, `$switch found an unknown argument to a branch: ${k}`);
    if (!('case' in branch)) fail(40064, "$switch requires each branch have a 'case' expression");
    if (!('then' in branch)) fail(40065, "$switch requires each branch have a 'then' expression.");
  }
  if (branches.length === 0) fail(40068, '$switch requires at least one branch.');
  for (const branch of branches as Array<{ case: unknown; then: unknown }>)
    if (isTrue(computeValue(obj, branch.case, null, options)))
      return computeValue(obj, branch.then, null, options);
  if (!('default' in expr))
    fail(
      40066,
      '$switch could not find a matching branch for an input, and no default was specified.',
    );
  return computeValue(obj, expr.default, null, options);
};

/** The value of `expr` with the variable `name` bound to `value`, as $filter and $map bind it. */
function withVariable(
  obj: unknown,
  expr: unknown,
  options: Options,
  name: string,
  value: unknown,
): unknown {
  const copts = ComputeOptions.init(options, obj);
  return computeValue(obj, expr, null, copts.update(copts.root, { variables: { [name]: value } }));
}

const $filter: Expression = (obj, expr, options) => {
  if (!isPlainObject(expr)) fail(28646, "Missing 'input' parameter to $filter");
  for (const k of Object.keys(expr))
    if (!['input', 'as', 'cond', 'limit'].includes(k))
      fail(28647, `Unrecognized parameter to $filter: ${k}`);
  if (!('input' in expr)) fail(28646, "Missing 'input' parameter to $filter");
  if (!('cond' in expr)) fail(28648, "Missing 'cond' parameter to $filter");
  const name = expr.as === undefined ? 'this' : expr.as;
  if (typeof name !== 'string') fail(28648, "Missing 'cond' parameter to $filter");
  const input = computeValue(obj, expr.input, null, options);
  let limit = Infinity;
  if (expr.limit !== undefined) {
    const l = computeValue(obj, expr.limit, null, options);
    if (!nullish(l)) {
      const n = Number(l);
      if (!isNumeric(l) || !Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31)
        fail(327391, `$filter: limit must be represented as a 32-bit integral value: ${String(l)}`);
      if (n < 1) fail(327392, `$filter: limit must be greater than 0: ${n}`);
      limit = n;
    }
  }
  if (nullish(input)) return null;
  if (!Array.isArray(input))
    fail(28651, `input to $filter must be an array not ${typeName(input)}`);
  const out: unknown[] = [];
  for (const e of input) {
    if (out.length >= limit) break;
    if (isTrue(withVariable(obj, expr.cond, options, name, e))) out.push(e);
  }
  return out;
};

function elementsTrue(name: string, code: number, every: boolean): Expression {
  return (obj, expr, options) => {
    const [v] = evaluateArguments(name, obj, expr, options, 1);
    if (!Array.isArray(v)) fail(code, `${name}'s argument must be an array, but is ${typeName(v)}`);
    return every ? v.every(isTrue) : v.some(isTrue);
  };
}

// --- Sets: values compared as MongoDB compares them, each value once.

export function distinctValues(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const v of values) {
    const k = keyOf(v);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(v);
    }
  }
  return out;
}

const keys = (values: unknown[]): Set<string> => new Set(values.map(keyOf));

/** One of a set operator's operands, which must be an array. */
function operandArray(name: string, code: number, a: unknown): unknown[] {
  if (!Array.isArray(a))
    fail(code, `All operands of ${name} must be arrays. One argument is of type: ${typeName(a)}`);
  return a;
}

const $setUnion: Expression = (obj, expr, options) => {
  const args = evaluateArguments('$setUnion', obj, expr, options, 0, Infinity);
  const out: unknown[] = [];
  for (const a of args) {
    if (nullish(a)) return null;
    const array = operandArray('$setUnion', 17043, a);
    out.push(...array);
  }
  return distinctValues(out);
};

const $setIntersection: Expression = (obj, expr, options) => {
  const args = evaluateArguments('$setIntersection', obj, expr, options, 0, Infinity);
  let out: unknown[] | null = null;
  for (const a of args) {
    if (nullish(a)) return null;
    const array = operandArray('$setIntersection', 17047, a);
    if (out === null) out = distinctValues(array);
    else {
      const here = keys(array);
      out = out.filter((v) => here.has(keyOf(v)));
    }
  }
  return out ?? [];
};

/** Two set operands that must both be arrays, refused with the operator's code for each. */
function bothArrays(
  name: string,
  [a, b]: unknown[],
  [firstCode, secondCode]: [number, number],
): [unknown[], unknown[]] {
  const notArray = (code: number, which: string, v: unknown): never =>
    fail(
      code,
      `both operands of ${name} must be arrays. ${which} argument is of type: ${typeName(v)}`,
    );
  if (!Array.isArray(a)) notArray(firstCode, 'First', a);
  if (!Array.isArray(b)) notArray(secondCode, 'Second', b);
  return [a as unknown[], b as unknown[]];
}

const $setDifference: Expression = (obj, expr, options) => {
  const args = evaluateArguments('$setDifference', obj, expr, options, 2);
  if (args.some(nullish)) return null;
  const [a, b] = bothArrays('$setDifference', args, [17048, 17049]);
  const removed = keys(b);
  return distinctValues(a).filter((v) => !removed.has(keyOf(v)));
};

const $setEquals: Expression = (obj, expr, options) => {
  const args = evaluateArguments('$setEquals', obj, expr, options, 2, Infinity);
  let first: Set<string> | null = null;
  for (const a of args) {
    const array = operandArray('$setEquals', 17044, a);
    const here = keys(array);
    if (first === null) first = here;
    else if (here.size !== first.size || [...here].some((k) => !first!.has(k))) return false;
  }
  return true;
};

const $setIsSubset: Expression = (obj, expr, options) => {
  const [a, b] = bothArrays(
    '$setIsSubset',
    evaluateArguments('$setIsSubset', obj, expr, options, 2),
    [17046, 17042],
  );
  const within = keys(b);
  return a.every((v) => within.has(keyOf(v)));
};

export const logicExpressions: Record<string, Expression> = {
  $and,
  $or,
  $not,
  $cond,
  $switch,
  $filter,
  $allElementsTrue: elementsTrue('$allElementsTrue', 17040, true),
  $anyElementTrue: elementsTrue('$anyElementTrue', 17041, false),
  $setUnion,
  $setIntersection,
  $setDifference,
  $setEquals,
  $setIsSubset,
  $isNumber: (obj, expr, options) =>
    isNumeric(evaluateArguments('$isNumber', obj, expr, options, 1)[0]),
  $type: (obj, expr, options) => typeName(evaluateArguments('$type', obj, expr, options, 1)[0]),
};
