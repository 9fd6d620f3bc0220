import { Long } from 'bson';
import { update as mingoUpdate } from 'mingo/updater';
import { fail } from './errors';
import { aggregate, compileFilter } from './query';
import {
  cloneDoc,
  getPath,
  isOperatorObject,
  isPlainObject,
  keyOf,
  setPath,
  withIdFirst,
  type Doc,
} from './values';

const OPERATORS = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$push',
  '$pull',
  '$pullAll',
  '$addToSet',
  '$pop',
  '$currentDate',
  '$bit',
  '$setOnInsert',
]);

export function isOperatorUpdate(u: unknown): boolean {
  return isPlainObject(u) && Object.keys(u).some((k) => k.startsWith('$'));
}

export function validateUpdate(u: unknown): void {
  if (Array.isArray(u)) return;
  if (!isPlainObject(u)) fail(9, 'Update argument must be either an object or an array');
  const keys = Object.keys(u);
  if (!keys.some((k) => k.startsWith('$'))) return;
  for (const k of keys) {
    if (!OPERATORS.has(k))
      fail(
        9,
        `Unknown modifier: ${k}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    if (!isPlainObject(u[k]))
      fail(9, `Modifiers operate on fields but we found type ${typeof u[k]} instead.`);
  }
}

/** Conditions of the filter that apply to elements of the array at arrayPath. */
function elementTests(filter: Doc, arrayPath: string): Array<(e: unknown) => boolean> {
  const tests: Array<(e: unknown) => boolean> = [];
  const visit = (f: Doc): void => {
    for (const [k, cond] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(cond)) {
        cond.forEach((c) => isPlainObject(c) && visit(c));
      } else if (k === arrayPath) {
        if (isPlainObject(cond) && isPlainObject(cond.$elemMatch)) {
          const inner = cond.$elemMatch;
          const scalar = Object.keys(inner).every(
            (x) => x.startsWith('$') && x !== '$and' && x !== '$or',
          );
          const m = compileFilter(scalar ? { v: inner } : inner);
          tests.push((e) => (scalar ? m({ v: e }) : isPlainObject(e) && m(e)));
        } else {
          const m = compileFilter({ v: cond });
          tests.push((e) => m({ v: e }));
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

/** Replaces the positional `$` segment with the index of the first array element the filter matched. */
function resolvePositional(path: string, filter: Doc, doc: Doc): string {
  const parts = path.split('.');
  const at = parts.indexOf('$');
  if (at < 0) return path;
  const arrayPath = parts.slice(0, at).join('.');
  const arr = getPath(doc, arrayPath);
  const tests = elementTests(filter, arrayPath);
  let index = -1;
  if (Array.isArray(arr) && tests.length > 0)
    index = arr.findIndex((e) => tests.every((t) => t(e)));
  if (index < 0) fail(2, 'The positional operator did not find the match needed from the query.');
  parts[at] = String(index);
  return parts.join('.');
}

export interface UpdateContext {
  filter: Doc;
  arrayFilters?: Doc[];
  inserting: boolean;
}

function applyPipeline(doc: Doc, pipeline: Doc[]): Doc {
  const [out] = aggregate([cloneDoc(doc)], pipeline, () => []);
  if (!out) fail(2, 'update pipeline produced no document');
  return out;
}

/** Applies an update to a copy of doc; the stored document is never mutated. */
export function applyUpdate(
  doc: Doc,
  u: unknown,
  ctx: UpdateContext,
): { doc: Doc; changed: boolean } {
  let next: Doc;
  if (Array.isArray(u)) {
    next = applyPipeline(doc, u as Doc[]);
  } else if (!isOperatorUpdate(u)) {
    const replacement = u as Doc;
    if (
      '_id' in replacement &&
      doc._id !== undefined &&
      keyOf(replacement._id) !== keyOf(doc._id)
    ) {
      fail(66, "Performing an update on the path '_id' would modify the immutable field '_id'");
    }
    next =
      doc._id !== undefined ? withIdFirst(cloneDoc(replacement), doc._id) : cloneDoc(replacement);
  } else {
    next = cloneDoc(doc);
    const touched: string[] = [];
    const touch = (path: string): void => {
      for (const other of touched) {
        const [a, b] = other.length <= path.length ? [other, path] : [path, other];
        if (a === b || b.startsWith(a + '.'))
          fail(40, `Updating the path '${path}' would create a conflict at '${a}'`);
      }
      touched.push(path);
    };
    for (const [op, rawArgs] of Object.entries(u as Doc)) {
      let target = op;
      if (op === '$setOnInsert') {
        if (!ctx.inserting) continue;
        target = '$set';
      }
      const args: Doc = {};
      for (const [path, value] of Object.entries(rawArgs as Doc)) {
        const resolved = resolvePositional(path, ctx.filter, doc);
        touch(resolved);
        if (op === '$rename' && typeof value === 'string') touch(value);
        args[resolved] = value;
      }
      if (target === '$inc' || target === '$mul') {
        for (const [path, value] of Object.entries(args)) {
          if (typeof value !== 'number')
            fail(
              14,
              `Cannot ${target === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${path}: ${String(value)}}`,
            );
          const current = getPath(next, path);
          if (current instanceof Long && Number.isInteger(value)) {
            const operand = Long.fromNumber(value);
            setPath(
              next,
              path,
              target === '$inc' ? current.add(operand) : current.multiply(operand),
            );
            delete args[path];
            continue;
          }
          if (current !== undefined && current !== null && typeof current !== 'number') {
            fail(
              14,
              `Cannot apply ${target} to a value of non-numeric type. {_id: ${String(doc._id)}} has the field '${path}' of non-numeric type ${typeof current}`,
            );
          }
          if (target === '$mul' && current === undefined && !path.includes('$')) {
            setPath(next, path, 0);
            delete args[path];
          }
        }
        if (Object.keys(args).length === 0) continue;
      }
      mingoUpdate(next, { [target]: args } as never, ctx.arrayFilters ?? [], {});
    }
  }
  if (doc._id !== undefined && keyOf(next._id) !== keyOf(doc._id)) {
    fail(66, "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  if (doc._id !== undefined && Object.keys(next)[0] !== '_id') next = withIdFirst(next, doc._id);
  return { doc: next, changed: keyOf(next) !== keyOf(doc) };
}

/** The document an upsert starts from: the equality conditions of its filter. */
export function upsertSeed(filter: Doc): Doc {
  const seed: Doc = {};
  const visit = (f: Doc): void => {
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) {
        v.forEach((c) => isPlainObject(c) && visit(c));
        continue;
      }
      if (k === '$or' && Array.isArray(v) && v.length === 1 && isPlainObject(v[0])) {
        visit(v[0]);
        continue;
      }
      if (k.startsWith('$')) continue;
      if (isOperatorObject(v)) {
        if ('$eq' in v) setPath(seed, k, cloneDoc(v.$eq));
        continue;
      }
      if (v instanceof RegExp) continue;
      setPath(seed, k, cloneDoc(v));
    }
  };
  visit(filter);
  return seed;
}
