import { ComputeOptions, computeValue, type Options } from 'mingo/core';
import { resolve } from 'mingo/util';
import { fail } from './errors';
import { compareExpressionValues, isTrue } from './expression-support';
import { fieldOf, isPlainObject, setField, typeName, type Doc } from './values';

/**
 * Expressions compiled once per pipeline stage into functions of the document, for the stages
 * that evaluate them for every document ($group's key and accumulators, $project, $addFields):
 * field paths, constants and the operators most pipelines use are read straight from the
 * document, with the same answers as the engine's operators; any other operator, a variable or
 * an argument of the wrong shape is evaluated by mingo as before (errors included), at its place
 * in the expression. Values are in mingo's form (see toMingo).
 */

/** An expression's value for one document; `options` gives mingo's options for that document. */
export type Compiled = (doc: unknown, options: () => Options) => unknown;

/**
 * A field path through documents, read as MongoDB reads it: field by field, own fields only (mingo
 * would also index arrays by a numeric part and read the properties of a BSON value such as an
 * ObjectId); through an array, the path is followed in each of its documents and what is found
 * makes an array. The argument is the variable to start from and the path.
 */
export const FIELD_PATH = '$engineFieldPath';

export function followPath(value: unknown, parts: string[], i: number): unknown {
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

/** How an operator's argument compiles; null leaves the whole operator to mingo. */
type OperatorCompiler = (
  argument: unknown,
  compile: (expr: unknown) => Compiled,
) => Compiled | null;

/** The operators compiled here; other modules add theirs (dates.ts adds $dateToString). */
export const compiledOperators = new Map<string, OperatorCompiler>();

/**
 * The variables an operator compiled here binds ($filter's `as`), each a cell holding its value
 * for the element being read, by name (escaped, as the pipeline hands them on).
 */
type Scope = ReadonlyMap<string, { value: unknown }>;
const NO_VARIABLES: Scope = new Map();

/**
 * Thrown while compiling in a scope where a part left to mingo would read a variable of the scope
 * (mingo does not know it): the operator that binds it is then left to mingo whole.
 */
class ReadsCompiledVariable extends Error {}

/** Whether an (escaped) expression reads one of the scope's variables. */
function readsVariable(expr: unknown, scope: Scope): boolean {
  if (typeof expr === 'string')
    return expr.startsWith('$$') && scope.has(expr.slice(2).split('.')[0]!);
  if (Array.isArray(expr)) return expr.some((e) => readsVariable(e, scope));
  if (!isPlainObject(expr)) return false;
  return Object.values(expr).some((v) => readsVariable(v, scope));
}

const byMingo = (expr: unknown, scope: Scope): Compiled => {
  if (scope.size && readsVariable(expr, scope)) throw new ReadsCompiledVariable();
  return (doc, options) => computeValue(doc, expr, null, options());
};

const cache = new WeakMap<object, Compiled>();

/** The expression (escaped, in mingo's form, as the pipeline hands it on) as a function. */
export function compileExpression(expr: unknown): Compiled {
  return compileIn(expr, NO_VARIABLES);
}

function compileIn(expr: unknown, scope: Scope): Compiled {
  if (expr === null || typeof expr !== 'object') return compileScalar(expr, scope);
  if (scope.size) return compileObject(expr, scope);
  const cached = cache.get(expr);
  if (cached) return cached;
  const compiled = compileObject(expr, scope);
  cache.set(expr, compiled);
  return compiled;
}

function compileScalar(expr: unknown, scope: Scope): Compiled {
  if (typeof expr !== 'string' || !expr.startsWith('$')) return () => expr;
  // `$name`: a field of the document (a dotted path comes as FIELD_PATH); `$$name` a variable of
  // the scope; other variables by mingo.
  const name = expr.slice(1);
  const cell = name.startsWith('$') ? scope.get(name.slice(1)) : undefined;
  if (cell) return () => cell.value;
  if (name === '' || name.startsWith('$') || name.includes('.')) return byMingo(expr, scope);
  return (doc) => resolve(doc as Doc, name);
}

function compileObject(expr: object, scope: Scope): Compiled {
  const compile = (e: unknown) => compileIn(e, scope);
  if (Array.isArray(expr)) {
    const items = expr.map(compile);
    return (doc, options) => items.map((item) => item(doc, options));
  }
  if (!isPlainObject(expr)) return () => expr;
  const keys = Object.keys(expr);
  if (!keys.some((k) => k.startsWith('$'))) {
    // A document of expressions, its fields in their order.
    const fields = keys.map((k) => [k, compile(expr[k])] as const);
    return (doc, options) => {
      const out: Doc = {};
      for (const [k, field] of fields) setField(out, k, field(doc, options));
      return out;
    };
  }
  if (keys.length !== 1) return byMingo(expr, scope);
  const name = keys[0]!;
  const argument = expr[name];
  if (name === FIELD_PATH) {
    const [base, path] = argument as [string, string];
    const parts = path.split('.');
    const cell = base.startsWith('$$') ? scope.get(base.slice(2)) : undefined;
    if (cell) return () => followPath(cell.value, parts, 0);
    if (base !== '$$ROOT' && base !== '$$CURRENT') return byMingo(expr, scope);
    return (doc) => followPath(doc, parts, 0);
  }
  if (name === '$filter') return compileFilter(argument, scope) ?? byMingo(expr, scope);
  return compiledOperators.get(name)?.(argument, compile) ?? byMingo(expr, scope);
}

/**
 * $filter without a limit: the condition compiled once with the element as its variable, as
 * logic.ts evaluates it (null for a null or missing input, anything else that is not an array
 * refused as there, and any other shape of arguments left to mingo and the engine's $filter).
 */
function compileFilter(argument: unknown, scope: Scope): Compiled | null {
  if (!isPlainObject(argument) || !('input' in argument) || !('cond' in argument)) return null;
  if (Object.keys(argument).some((k) => k !== 'input' && k !== 'as' && k !== 'cond')) return null;
  const name = argument.as === undefined ? 'this' : argument.as;
  if (typeof name !== 'string') return null;
  const cell = { value: undefined as unknown };
  let input: Compiled;
  let cond: Compiled;
  try {
    input = compileIn(argument.input, scope);
    cond = compileIn(argument.cond, new Map([...scope, [name, cell]]));
  } catch (e) {
    if (e instanceof ReadsCompiledVariable) return null;
    throw e;
  }
  return (doc, options) => {
    const list = input(doc, options);
    if (list === null || list === undefined) return null;
    if (!Array.isArray(list))
      fail(28651, `input to $filter must be an array not ${typeName(list)}`);
    const out: unknown[] = [];
    const outer = cell.value;
    for (const e of list) {
      cell.value = e;
      if (isTrue(cond(doc, options))) out.push(e);
    }
    cell.value = outer;
    return out;
  };
}

/** The compiled arguments of an operator taking exactly `n`, as a list; null otherwise. */
function exactly(n: number, argument: unknown, compile: (expr: unknown) => Compiled) {
  return Array.isArray(argument) && argument.length === n ? argument.map(compile) : null;
}

/**
 * The compiled arguments of an operator taking from `min` to `max` of them (one may stand alone,
 * outside a list), as evaluateArguments reads them; null otherwise, for mingo to refuse.
 */
export function compiledArguments(
  argument: unknown,
  compile: (expr: unknown) => Compiled,
  min: number,
  max = min,
): Compiled[] | null {
  const list = Array.isArray(argument) ? argument : [argument];
  return list.length < min || list.length > max ? null : list.map(compile);
}

const comparison =
  (result: (c: number) => boolean): OperatorCompiler =>
  (argument, compile) => {
    const args = exactly(2, argument, compile);
    if (!args) return null;
    const [a, b] = args as [Compiled, Compiled];
    return (doc, options) => result(compareExpressionValues(a(doc, options), b(doc, options)));
  };

const operators: Record<string, OperatorCompiler> = {
  $literal: (argument) => () => argument,
  $eq: comparison((c) => c === 0),
  $ne: comparison((c) => c !== 0),
  $gt: comparison((c) => c > 0),
  $gte: comparison((c) => c >= 0),
  $lt: comparison((c) => c < 0),
  $lte: comparison((c) => c <= 0),
  $in: (argument, compile) => {
    const args = exactly(2, argument, compile);
    if (!args) return null;
    const [value, list] = args as [Compiled, Compiled];
    return (doc, options) => {
      const v = value(doc, options);
      const l = list(doc, options);
      if (!Array.isArray(l))
        fail(40081, `$in requires an array as a second argument, found: ${typeName(l)}`);
      return l.some((e) => compareExpressionValues(v, e) === 0);
    };
  },
  $and: (argument, compile) => {
    const args = (Array.isArray(argument) ? argument : [argument]).map(compile);
    return (doc, options) => args.every((arg) => isTrue(arg(doc, options)));
  },
  $or: (argument, compile) => {
    const args = (Array.isArray(argument) ? argument : [argument]).map(compile);
    return (doc, options) => args.some((arg) => isTrue(arg(doc, options)));
  },
  $cond: (argument, compile) => {
    let branches: unknown[] | null = null;
    if (Array.isArray(argument) && argument.length === 3) branches = argument;
    else if (isPlainObject(argument)) {
      const keys = Object.keys(argument);
      if (keys.length === 3 && ['if', 'then', 'else'].every((k) => keys.includes(k)))
        branches = [argument.if, argument.then, argument.else];
    }
    if (!branches) return null;
    const [test, then, otherwise] = branches.map(compile) as [Compiled, Compiled, Compiled];
    return (doc, options) =>
      isTrue(test(doc, options)) ? then(doc, options) : otherwise(doc, options);
  },
  // mingo's: every argument evaluated, the first neither null nor missing, else the last.
  $ifNull: (argument, compile) => {
    if (!Array.isArray(argument) || argument.length === 0) return null;
    const args = argument.map(compile);
    return (doc, options) => {
      const values = args.map((arg) => arg(doc, options));
      return values.find((v) => v !== null && v !== undefined) ?? values[values.length - 1];
    };
  },
};
for (const [name, compile] of Object.entries(operators)) compiledOperators.set(name, compile);

/**
 * The expression's value for each document of a group, as mingo's $push accumulator gives them
 * (each evaluated with the document as its root), compiled once for the expression.
 */
export function valuesOf(collection: unknown[], expr: unknown, options: Options): unknown[] {
  if (expr === null || expr === undefined) return collection;
  const compiled = compileExpression(expr);
  const copts = ComputeOptions.init(options);
  return collection.map((doc) => compiled(doc, () => copts.update(doc)));
}

/** A stage's expression for each document it reads, the document as its root. */
export function perDocument(expr: unknown, options: Options): (doc: Doc) => unknown {
  const compiled = compileExpression(expr);
  return (doc) => compiled(doc, () => ComputeOptions.init(options).update(doc));
}
