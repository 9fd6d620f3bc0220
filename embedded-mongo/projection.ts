import { computeValue } from 'mingo/core';
import { fail } from './errors';
import {
  fieldOf,
  fromMingo,
  isOperatorObject,
  isPlainObject,
  setField,
  toMingo,
  type Doc,
} from './values';
import { notImplemented } from './expression-support';
import { isNumber } from './filter-values';
import { DBREF_FIELDS, elementMatcher, elementTests } from './filter';
import { baseOptions } from './mingo-context';
import { escapeExpression } from './pipeline';

/**
 * Projections as find and the $project family of stages read them: inclusion or exclusion,
 * $slice, $elemMatch, the positional $, and computed fields through mingo's expressions.
 */

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
export type ProjectionKind =
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
export function compileProjectionSpec(
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
