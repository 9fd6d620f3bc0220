import { ComputeOptions, computeValue, type Options } from 'mingo/core';
import { fail } from './errors';
import { isTrue, notImplemented } from './expression-support';
import { candidates, leafValues } from './paths';
import { fieldOf, fieldPath, isPlainObject, toMingo, type Doc } from './values';
import { compileValueTest, equalsTest, regexTest } from './filter-values';
import { baseOptions } from './mingo-context';
import { escapeExpression } from './pipeline';

/**
 * Whole filters: a field's conditions (filter-values.ts), the logical operators, $expr (through
 * mingo), the DBRef fields and the operators that are refused by name, compiled once into a
 * matcher; and the conditions of a filter that apply to an array's elements (the positional $).
 */

export type Matcher = (doc: Doc) => boolean;

const matchAll: Matcher = () => true;

export function usesExpressions(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(usesExpressions);
  if (!isPlainObject(v)) return false;
  for (const k of Object.keys(v)) {
    if (k === '$expr' || k === '$where' || k === '$jsonSchema' || k === '$function') return true;
    if (usesExpressions(v[k])) return true;
  }
  return false;
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
export const DBREF_FIELDS = ['$ref', '$id', '$db'];

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
