import { type Decimal128, Long, Timestamp } from 'bson';
import { fail } from './errors';
import {
  decimalAdd,
  decimalMultiply,
  fromBigInt,
  fromDecimal128,
  fromDouble,
  toDecimal128,
  type Decimal,
} from './numbers';
import { compileFilter, elementTests, isOperatorSpec, isValueOperator } from './filter';
import { aggregate } from './pipeline';
import {
  bsonTypeCode,
  cloneDoc,
  compareValues,
  fieldOf,
  formatValue,
  isPlainObject,
  keyOf,
  setField,
  setPath,
  sortDocs,
  storedDouble,
  typeName,
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

/** An update with operators; any other document replaces the one it matches (MongoDB looks at the first field). */
export function isOperatorUpdate(u: unknown): boolean {
  return isPlainObject(u) && (Object.keys(u)[0]?.startsWith('$') ?? false);
}

export function validateUpdate(u: unknown): void {
  if (Array.isArray(u)) return;
  if (!isPlainObject(u)) fail(9, 'Update argument must be either an object or an array');
  if (!isOperatorUpdate(u)) return;
  for (const k of Object.keys(u)) {
    if (!OPERATORS.has(k))
      fail(
        9,
        `Unknown modifier: ${k}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    if (!isPlainObject(u[k]))
      fail(9, `Modifiers operate on fields but we found type ${typeof u[k]} instead.`);
  }
}

/** Replaces the positional `$` segment with the index of the first array element the filter matched. */
function resolvePositional(path: string, filter: Doc, doc: Doc): string {
  const parts = path.split('.');
  const at = parts.indexOf('$');
  if (at < 0) return path;
  const arrayPath = parts.slice(0, at).join('.');
  const arr = getAt(doc, parts.slice(0, at));
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
  const [out] = aggregate([doc], pipeline, () => []);
  if (!out) fail(2, 'update pipeline produced no document');
  return out;
}

function getAt(doc: unknown, parts: string[]): unknown {
  let v: unknown = doc;
  for (const part of parts) {
    if (Array.isArray(v)) {
      if (!/^\d+$/.test(part)) return undefined;
      v = v[Number(part)];
    } else if (isPlainObject(v)) v = fieldOf(v, part);
    else return undefined;
    if (v === undefined) return undefined;
  }
  return v;
}

/** The container holding the last part of a path, created on the way when `create` is set. */
function parentOf(
  doc: Doc,
  parts: string[],
  create: boolean,
): { parent: Doc | unknown[]; key: string } | null {
  let cur: Doc | unknown[] = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]!;
    let next: unknown;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part)) {
        if (!create) return null;
        fail(28, `Cannot create field '${part}' in element {${parts[i - 1]}: ${formatValue(cur)}}`);
      }
      next = cur[Number(part)];
    } else next = fieldOf(cur, part);
    if (next === undefined) {
      if (!create) return null;
      const created: Doc = {};
      assign(cur, part, created);
      cur = created;
      continue;
    }
    if (isPlainObject(next) || Array.isArray(next)) {
      cur = next as Doc | unknown[];
      continue;
    }
    if (!create) return null;
    fail(28, `Cannot create field '${parts[i + 1]}' in element {${part}: ${formatValue(next)}}`);
  }
  const key = parts[parts.length - 1]!;
  if (Array.isArray(cur) && !/^\d+$/.test(key)) {
    if (!create) return null;
    fail(
      28,
      `Cannot create field '${key}' in element {${parts[parts.length - 2]}: ${formatValue(cur)}}`,
    );
  }
  return { parent: cur, key };
}

/** Sets a field or array element; arrays are padded with nulls up to a new index, as MongoDB does. */
function assign(container: Doc | unknown[], key: string, value: unknown): void {
  if (Array.isArray(container)) {
    const i = Number(key);
    while (container.length < i) container.push(null);
    container[i] = value;
  } else setField(container, key, value);
}

function read(container: Doc | unknown[], key: string): unknown {
  return Array.isArray(container) ? container[Number(key)] : fieldOf(container, key);
}

type NumberKind = 'int' | 'long' | 'double' | 'decimal';

function numberKind(v: unknown): NumberKind | null {
  switch (bsonTypeCode(v)) {
    case 16:
      return 'int';
    case 18:
      return 'long';
    case 1:
      return 'double';
    case 19:
      return 'decimal';
  }
  return null;
}

function toLong(v: unknown): Long {
  return v instanceof Long ? v : Long.fromNumber(Number(v));
}

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

const asBigInt = (v: unknown): bigint =>
  v instanceof Long ? BigInt(v.toString()) : BigInt(Number(v));

/** A number as a decimal, as MongoDB widens it: integers exactly, doubles to 15 digits. */
function asDecimal(v: unknown): Decimal {
  switch (numberKind(v)) {
    case 'decimal':
      return fromDecimal128(v as Decimal128);
    case 'double':
      return fromDouble(Number(v), 15);
    default:
      return fromBigInt(asBigInt(v));
  }
}

/**
 * MongoDB's typed arithmetic (SafeNum): int op int is int (long on overflow), long wins over int,
 * double over both and Decimal128 over all; a long result beyond 64 bits fails. Null for that
 * failure.
 */
function arithmetic(op: '$inc' | '$mul', a: unknown, b: unknown): unknown {
  const ka = numberKind(a)!;
  const kb = numberKind(b)!;
  if (ka === 'decimal' || kb === 'decimal') {
    const x = asDecimal(a);
    const y = asDecimal(b);
    return toDecimal128(op === '$inc' ? decimalAdd(x, y) : decimalMultiply(x, y));
  }
  if (ka === 'double' || kb === 'double') {
    const r = op === '$inc' ? Number(a) + Number(b) : Number(a) * Number(b);
    return storedDouble(r);
  }
  const r = op === '$inc' ? asBigInt(a) + asBigInt(b) : asBigInt(a) * asBigInt(b);
  if (ka === 'int' && kb === 'int' && r >= -(2n ** 31n) && r < 2n ** 31n) return Number(r);
  if (r < LONG_MIN || r > LONG_MAX) return null;
  return Long.fromBigInt(r);
}

/** The $pull test for one element, chosen as MongoDB's PullNode chooses it. */
function pullMatcher(cond: unknown): (e: unknown) => boolean {
  if (isPlainObject(cond)) {
    if (!isValueOperator(Object.keys(cond)[0])) {
      // A query on element documents: `{ a: 1 }`, `{ $or: [...] }`, `{ $ref: 'c', $id: 1 }`, `{}`.
      const m = compileFilter(cond);
      return (e) => isPlainObject(e) && m(e);
    }
    const m = compileFilter({ v: cond });
    return (e) => m({ v: e });
  }
  if (cond instanceof RegExp) {
    const m = compileFilter({ v: cond });
    return (e) => m({ v: e });
  }
  const key = keyOf(cond);
  return (e) => keyOf(e) === key && (cond !== null || e === null);
}

function sortElements(values: unknown[], spec: unknown): unknown[] {
  if (spec === 1 || spec === -1) {
    return values
      .map((v, i) => ({ v, i }))
      .sort((x, y) => compareValues(x.v, y.v) * (spec as number) || x.i - y.i)
      .map((x) => x.v);
  }
  if (!isPlainObject(spec) || Object.keys(spec).length === 0)
    fail(
      2,
      'The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields',
    );
  for (const dir of Object.values(spec))
    if (dir !== 1 && dir !== -1) fail(2, 'The $sort element value must be either 1 or -1');
  const docs = values.map((v) => (isPlainObject(v) ? v : { '': v }));
  const sorted = sortDocs(docs, spec);
  return sorted.map((d) => (Object.keys(d).length === 1 && '' in d ? d[''] : d));
}

function pushEach(current: unknown[], arg: unknown): unknown[] {
  if (!isPlainObject(arg) || !('$each' in arg)) return [...current, cloneDoc(arg)];
  for (const k of Object.keys(arg))
    if (!['$each', '$slice', '$sort', '$position'].includes(k))
      fail(2, `Unrecognized clause in $push: ${k}`);
  if (!Array.isArray(arg.$each))
    fail(
      2,
      `The argument to $each in $push must be an array but it was of type: ${typeName(arg.$each)}`,
    );
  const each = arg.$each.map(cloneDoc);
  let out = [...current];
  if (arg.$position !== undefined) {
    const pos = Number(arg.$position);
    if (!Number.isInteger(pos)) fail(2, 'The value for $position must be an integer value');
    const at = pos < 0 ? Math.max(0, out.length + pos) : Math.min(pos, out.length);
    out.splice(at, 0, ...each);
  } else out.push(...each);
  if (arg.$sort !== undefined) out = sortElements(out, arg.$sort);
  if (arg.$slice !== undefined) {
    const n = Number(arg.$slice);
    if (!Number.isInteger(n)) fail(2, 'The value for $slice must be an integer value');
    out = n >= 0 ? out.slice(0, n) : out.slice(Math.max(0, out.length + n));
  }
  return out;
}

interface Change {
  op: string;
  path: string;
  parts: string[];
  arg: unknown;
}

/** Expands `$[]` and `$[id]` into the concrete element paths of this document. */
function expandArrayFilters(
  doc: Doc,
  path: string,
  filters: Map<string, (e: unknown) => boolean>,
  used: Set<string>,
): string[] {
  if (!path.includes('$[')) return [path];
  const parts = path.split('.');
  let prefixes: string[][] = [[]];
  for (const part of parts) {
    const m = /^\$\[(.*)\]$/.exec(part);
    if (!m) {
      prefixes = prefixes.map((p) => [...p, part]);
      continue;
    }
    const id = m[1]!;
    let test: ((e: unknown) => boolean) | undefined;
    if (id !== '') {
      test = filters.get(id);
      if (!test) fail(2, `No array filter found for identifier '${id}' in path '${path}'`);
      used.add(id);
    }
    const next: string[][] = [];
    for (const prefix of prefixes) {
      const arr = getAt(doc, prefix);
      if (!Array.isArray(arr))
        fail(
          2,
          `The path '${prefix.join('.')}' must exist in the document in order to apply array updates.`,
        );
      arr.forEach((e, i) => {
        if (!test || test(e)) next.push([...prefix, String(i)]);
      });
    }
    prefixes = next;
  }
  return prefixes.map((p) => p.join('.'));
}

/** The identifiers an array filter's conditions start with (`i` in `{ 'i.a': 1 }`), through $and, $or and $nor. */
function filterIdentifiers(f: Doc, found: Set<string>): Set<string> {
  for (const [k, v] of Object.entries(f)) {
    if (k === '$and' || k === '$or' || k === '$nor') {
      if (Array.isArray(v))
        for (const sub of v) if (isPlainObject(sub)) filterIdentifiers(sub, found);
    } else if (!k.startsWith('$')) found.add(k.split('.')[0]!);
  }
  return found;
}

function compileArrayFilters(
  arrayFilters: Doc[] | undefined,
): Map<string, (e: unknown) => boolean> {
  const out = new Map<string, (e: unknown) => boolean>();
  for (const f of arrayFilters ?? []) {
    if (!isPlainObject(f)) fail(9, 'arrayFilters must be an array of objects');
    const ids = [...filterIdentifiers(f, new Set())];
    if (ids.length > 1)
      fail(
        9,
        `Error parsing array filter :: caused by :: Expected a single top-level field name, found '${ids[0]}' and '${ids[1]}'`,
      );
    const id = ids[0];
    if (id === undefined)
      fail(9, 'Cannot use an expression without a top-level field name in arrayFilters');
    if (!/^[a-z][a-zA-Z0-9]*$/.test(id))
      fail(
        2,
        `Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found '${id}'`,
      );
    if (out.has(id))
      fail(9, `Found multiple array filters with the same top-level field name ${id}`);
    const m = compileFilter(f);
    out.set(id, (e) => m({ [id]: e }));
  }
  return out;
}

/** The field at `parts` (its parents made where missing) and what it holds now. */
function fieldAt(doc: Doc, parts: string[]) {
  const at = parentOf(doc, parts, true)!;
  return { at, current: read(at.parent, at.key) };
}

function applyChange(next: Doc, c: Change, doc: Doc): void {
  const { op, path, parts, arg } = c;
  switch (op) {
    case '$set': {
      const at = parentOf(next, parts, true)!;
      assign(at.parent, at.key, cloneDoc(arg));
      return;
    }
    case '$unset': {
      const at = parentOf(next, parts, false);
      if (!at) return;
      if (Array.isArray(at.parent)) {
        if (Number(at.key) < at.parent.length) at.parent[Number(at.key)] = null;
      } else delete at.parent[at.key];
      return;
    }
    case '$inc':
    case '$mul': {
      if (!numberKind(arg))
        fail(
          14,
          `Cannot ${op === '$inc' ? 'increment' : 'multiply'} with non-numeric argument: {${path}: ${formatValue(arg)}}`,
        );
      const { at, current } = fieldAt(next, parts);
      if (current === undefined) {
        assign(at.parent, at.key, op === '$inc' ? arg : arithmetic('$mul', 0, arg));
        return;
      }
      if (!numberKind(current))
        fail(
          14,
          `Cannot apply ${op} to a value of non-numeric type. {_id: ${formatValue(doc._id)}} has the field '${at.key}' of non-numeric type ${typeName(current)}`,
        );
      const result = arithmetic(op, current, arg);
      if (result === null)
        fail(
          2,
          `Failed to apply ${op} operations to current value (${current instanceof Long ? '(NumberLong)' : '(NumberInt)'}${String(current)}) for document {_id: ${formatValue(doc._id)}}`,
        );
      assign(at.parent, at.key, result);
      return;
    }
    case '$min':
    case '$max': {
      const { at, current } = fieldAt(next, parts);
      const c = current === undefined ? 0 : compareValues(arg, current);
      if (current === undefined || (op === '$min' ? c < 0 : c > 0))
        assign(at.parent, at.key, cloneDoc(arg));
      return;
    }
    case '$currentDate': {
      let value: unknown = new Date();
      if (isPlainObject(arg)) {
        if (arg.$type === 'timestamp')
          value = new Timestamp({ t: Math.floor(Date.now() / 1000), i: 1 });
        else if (arg.$type !== 'date')
          fail(2, "The '$type' string field is required to be 'date' or 'timestamp'");
      } else if (typeof arg !== 'boolean')
        fail(
          2,
          `${path} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`,
        );
      const at = parentOf(next, parts, true)!;
      assign(at.parent, at.key, value);
      return;
    }
    case '$rename': {
      const from = parentOf(next, parts, false);
      if (!from || Array.isArray(from.parent)) return;
      if (!Object.hasOwn(from.parent, from.key)) return;
      const value = from.parent[from.key];
      delete from.parent[from.key];
      const to = parentOf(next, String(arg).split('.'), true)!;
      assign(to.parent, to.key, value);
      return;
    }
    case '$push':
    case '$addToSet': {
      const { at, current } = fieldAt(next, parts);
      if (current !== undefined && !Array.isArray(current))
        fail(
          2,
          `The field '${path}' must be an array but is of type ${typeName(current)} in document {_id: ${formatValue(doc._id)}}`,
        );
      const list = (current as unknown[] | undefined) ?? [];
      if (op === '$push') {
        assign(at.parent, at.key, pushEach(list, arg));
        return;
      }
      let values: unknown[] = [arg];
      if (isPlainObject(arg) && '$each' in arg) {
        if (!Array.isArray(arg.$each))
          fail(
            2,
            `The argument to $each in $addToSet must be an array but it was of type ${typeName(arg.$each)}`,
          );
        values = arg.$each;
      }
      const out = [...list];
      const seen = new Set(out.map(keyOf));
      for (const v of values) {
        const k = keyOf(v);
        if (!seen.has(k)) {
          seen.add(k);
          out.push(cloneDoc(v));
        }
      }
      assign(at.parent, at.key, out);
      return;
    }
    case '$pop': {
      const n = Number(arg);
      if (n !== 1 && n !== -1) fail(9, `$pop expects 1 or -1, found: ${formatValue(arg)}`);
      const at = parentOf(next, parts, false);
      if (!at) return;
      const current = read(at.parent, at.key);
      if (current === undefined) return;
      if (!Array.isArray(current))
        fail(14, `Path '${path}' contains an element of non-array type '${typeName(current)}'`);
      assign(at.parent, at.key, n === 1 ? current.slice(0, -1) : current.slice(1));
      return;
    }
    case '$pull':
    case '$pullAll': {
      let remove: (e: unknown) => boolean;
      if (op === '$pullAll') {
        if (!Array.isArray(arg))
          fail(2, `$pullAll requires an array argument but was given a ${typeName(arg)}`);
        const keys = new Set(arg.map(keyOf));
        remove = (e) => keys.has(keyOf(e));
      } else remove = pullMatcher(arg);
      const at = parentOf(next, parts, false);
      if (!at) return;
      const current = read(at.parent, at.key);
      if (current === undefined) return;
      if (!Array.isArray(current)) fail(2, 'Cannot apply $pull to a non-array value');
      const kept = current.filter((e) => !remove(e));
      if (kept.length !== current.length) assign(at.parent, at.key, kept);
      return;
    }
    case '$bit': {
      if (!isPlainObject(arg) || Object.keys(arg).length === 0)
        fail(
          9,
          `The $bit modifier is not compatible with a ${typeName(arg)}. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}`,
        );
      const at = parentOf(next, parts, true)!;
      let current = read(at.parent, at.key) ?? 0;
      for (const [how, operand] of Object.entries(arg)) {
        if (!['and', 'or', 'xor'].includes(how))
          fail(
            2,
            `The $bit modifier only supports 'and', 'or', and 'xor', not '${how}' which is an unknown operator: {${how}: ${formatValue(operand)}}`,
          );
        const ko = numberKind(operand);
        if (ko !== 'int' && ko !== 'long')
          fail(
            2,
            `The $bit modifier field must be an Integer(32/64 bit); a '${typeName(operand)}' is not supported here: {${how}: ${formatValue(operand)}}`,
          );
        const kc = numberKind(current);
        if (kc !== 'int' && kc !== 'long')
          fail(
            2,
            `Cannot apply $bit to a value of non-integral type.{_id: ${formatValue(doc._id)}} has the field ${at.key} of non-integer type ${typeName(current)}`,
          );
        if (kc === 'int' && ko === 'int') {
          const a = current as number;
          const b = operand as number;
          current = how === 'and' ? a & b : how === 'or' ? a | b : a ^ b;
        } else {
          const a = toLong(current);
          const b = toLong(operand);
          current = how === 'and' ? a.and(b) : how === 'or' ? a.or(b) : a.xor(b);
        }
      }
      assign(at.parent, at.key, current);
      return;
    }
  }
}

function comparePaths(a: string[], b: string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length - b.length;
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
    if (!ctx.inserting)
      for (const field of Object.keys(next))
        if (field.startsWith('$')) checkDollarField(next, field);
  } else {
    next = cloneDoc(doc);
    const filters = compileArrayFilters(ctx.arrayFilters);
    const used = new Set<string>();
    const touched: string[] = [];
    const touch = (path: string): void => {
      for (const other of touched) {
        const [a, b] = other.length <= path.length ? [other, path] : [path, other];
        if (a === b || b.startsWith(a + '.'))
          fail(40, `Updating the path '${path}' would create a conflict at '${a}'`);
      }
      touched.push(path);
    };
    const changes: Change[] = [];
    for (const [op, rawArgs] of Object.entries(u as Doc)) {
      for (const [path, value] of Object.entries(rawArgs as Doc)) {
        if (path === '' || path.split('.').some((p) => p === ''))
          fail(56, `An empty update path is not valid.`);
        checkPositional(path);
        if (op === '$rename') checkRename(path, value);
        const resolved = resolvePositional(path, ctx.filter, doc);
        touch(resolved);
        if (op === '$rename') touch(value as string);
        if (op === '$setOnInsert' && !ctx.inserting) continue;
        const target = op === '$setOnInsert' ? '$set' : op;
        for (const concrete of expandArrayFilters(doc, resolved, filters, used))
          changes.push({ op: target, path: concrete, parts: concrete.split('.'), arg: value });
      }
    }
    for (const id of filters.keys())
      if (!used.has(id))
        fail(
          9,
          `The array filter for identifier '${id}' was not used in the update ${JSON.stringify(u)}`,
        );
    // MongoDB applies the fields of an update in field-name order, whatever the operators' order.
    changes.sort((a, b) => comparePaths(a.parts, b.parts));
    for (const c of changes) applyChange(next, c, doc);
    if (!ctx.inserting)
      for (const c of changes) {
        const written = c.op === '$rename' ? String(c.arg).split('.') : c.parts;
        const field = written[0]!;
        if (!field.startsWith('$') || !Object.hasOwn(next, field)) continue;
        const before = fieldOf(doc, field);
        const changed =
          written.length === 1 ? keyOf(next[field]) !== keyOf(before) : before === undefined;
        if (changed) checkDollarField(next, field);
      }
  }
  if (doc._id !== undefined && keyOf(next._id) !== keyOf(doc._id)) {
    fail(66, "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  if (doc._id !== undefined && Object.keys(next)[0] !== '_id') next = withIdFirst(next, doc._id);
  return { doc: next, changed: keyOf(next) !== keyOf(doc) || typesChanged(doc, next) };
}

function checkPositional(path: string): void {
  const parts = path.split('.');
  if (parts.filter((p) => p === '$').length > 1)
    fail(2, `Too many positional (i.e. '$') elements found in path '${path}'`);
  if (parts[0] === '$')
    fail(2, `Cannot have positional (i.e. '$') element in the first position in path '${path}'`);
  if (/^\$\[.*\]$/.test(parts[0]!))
    fail(
      2,
      `Cannot have array filter identifier (i.e. '$[<id>]') element in the first position in path '${path}'`,
    );
}

const isDynamic = (path: string): boolean =>
  path.split('.').some((part) => part === '$' || /^\$\[.*\]$/.test(part));

/** What MongoDB refuses in a $rename before looking at any document. */
function checkRename(from: string, to: unknown): void {
  if (typeof to !== 'string')
    fail(2, `The 'to' field for $rename must be a string: ${from}: ${formatValue(to)}`);
  if (to === '' || to.split('.').some((p) => p === ''))
    fail(56, `The update path '${to}' contains an empty field name, which is not allowed.`);
  if (from === to) fail(2, `The source and target field for $rename must differ: ${from}: "${to}"`);
  if (to.startsWith(from + '.') || from.startsWith(to + '.'))
    fail(
      2,
      `The source and target field for $rename must not be on the same path: ${from}: "${to}"`,
    );
  if (isDynamic(from)) fail(2, `The source field for $rename may not be dynamic: ${from}`);
  if (isDynamic(to)) fail(2, `The destination field for $rename may not be dynamic: ${to}`);
}

/**
 * An update that writes a top-level field whose name starts with `$` is refused, as MongoDB
 * refuses it (inserts and upserts may create such fields): only the fields of a DBRef, `$ref`
 * followed by `$id` and an optional string `$db`, are allowed there.
 */
function checkDollarField(doc: Doc, field: string): void {
  const keys = Object.keys(doc);
  let at = keys.indexOf(field);
  let name = field;
  if (name === '$db') {
    if (typeof doc.$db !== 'string')
      fail(55, `The DBRef $db field must be a String, not a ${typeName(doc.$db)}`);
    if (keys[--at] !== '$id')
      fail(55, 'Found $db field without a $id before it, which is invalid.');
    name = '$id';
  }
  if (name === '$id') {
    if (keys[--at] !== '$ref')
      fail(55, 'Found $id field without a $ref before it, which is invalid.');
    name = '$ref';
  }
  if (name !== '$ref')
    fail(
      52,
      `The dollar ($) prefixed field '${field}' in '${field}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
    );
  if (typeof doc.$ref !== 'string')
    fail(55, `The DBRef $ref field must be a String, not a ${typeName(doc.$ref)}`);
  if (keys[at + 1] !== '$id') fail(55, 'The DBRef $ref field must be followed by a $id field');
}

/** keyOf treats 1 and 1.0 as equal; a change of number type is still a change. */
function typesChanged(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.some((x, i) => typesChanged(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b))
    return Object.keys(a).some((k) => typesChanged(a[k], fieldOf(b, k)));
  return bsonTypeCode(a) !== bsonTypeCode(b);
}

/** The document an upsert starts from: the equality conditions of its filter. */
export function upsertSeed(filter: Doc): Doc {
  const equalities: Array<[string, unknown]> = [];
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
      if (isOperatorSpec(v)) {
        // An $in of one value and each value of an $all are equalities too (not regexes).
        const { $eq: eq, $in: within, $all: all } = v as Doc;
        if ('$eq' in (v as Doc)) equalities.push([k, eq]);
        const values = [
          ...(Array.isArray(within) && within.length === 1 ? within : []),
          ...(Array.isArray(all) ? all : []),
        ];
        for (const x of values)
          if (!(x instanceof RegExp) && !isOperatorSpec(x)) equalities.push([k, x]);
        continue;
      }
      if (v instanceof RegExp) continue;
      equalities.push([k, v]);
    }
  };
  visit(filter);
  const seed: Doc = {};
  equalities.forEach(([path, value], i) => {
    for (const [other] of equalities.slice(0, i)) {
      if (other === path)
        fail(54, `cannot infer query fields to set, path '${path}' is matched twice`);
      if (other.startsWith(path + '.') || path.startsWith(other + '.'))
        fail(
          54,
          `cannot infer query fields to set, both paths '${other}' and '${path}' are matched`,
        );
    }
    setPath(seed, path, cloneDoc(value));
  });
  return seed;
}
