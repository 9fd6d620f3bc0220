import { type Binary, type DBRef, Double, Long, ObjectId } from 'bson';
import { compareNumbers, numberKey } from './numbers';

export type Doc = Record<string, unknown>;

export function bsonType(v: unknown): string | undefined {
  return v !== null && typeof v === 'object'
    ? ((v as { _bsontype?: string })._bsontype ?? undefined)
    : undefined;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** True for a JS number the BSON encoder writes as an Int32. */
export function isInt32Number(v: number): boolean {
  return Number.isInteger(v) && v >= INT32_MIN && v <= INT32_MAX && !Object.is(v, -0);
}

/**
 * How stored values keep their BSON number type: a JS number is an Int32 when it is integral and
 * fits (the encoder writes it so) and a Double otherwise; a Double whose value is integral and
 * fits an Int32 stays a `Double` object; Longs stay `Long` and Decimal128 stays `Decimal128`.
 */
export function storedDouble(n: number): number | Double {
  return isInt32Number(n) ? new Double(n) : n;
}

/** The BSON type number of a stored value (-1 MinKey, 127 MaxKey); undefined for a missing one. */
export function bsonTypeCode(v: unknown): number | undefined {
  if (v === undefined) return undefined;
  if (v === null) return 10;
  switch (typeof v) {
    case 'number':
      return isInt32Number(v) ? 16 : 1;
    case 'string':
      return 2;
    case 'boolean':
      return 8;
    case 'bigint':
      return 18;
  }
  if (Array.isArray(v)) return 4;
  if (v instanceof Date) return 9;
  if (v instanceof RegExp) return 11;
  switch (bsonType(v)) {
    case 'Double':
      return 1;
    case 'Int32':
      return 16;
    case 'Long':
      return 18;
    case 'Decimal128':
      return 19;
    case 'Binary':
      return 5;
    case 'ObjectId':
      return 7;
    case 'BSONRegExp':
      return 11;
    case 'Code':
      return (v as { scope?: unknown }).scope ? 15 : 13;
    case 'BSONSymbol':
      return 14;
    case 'Timestamp':
      return 17;
    case 'MinKey':
      return -1;
    case 'MaxKey':
      return 127;
    case 'DBRef':
      return 3;
  }
  return 3;
}

/** BSON types by the names MongoDB gives them (`$type` aliases, error messages). */
export const TYPE_CODES_BY_NAME = new Map<string, number>(
  Object.entries({
    double: 1,
    string: 2,
    object: 3,
    array: 4,
    binData: 5,
    undefined: 6,
    objectId: 7,
    bool: 8,
    date: 9,
    null: 10,
    regex: 11,
    dbPointer: 12,
    javascript: 13,
    symbol: 14,
    javascriptWithScope: 15,
    int: 16,
    timestamp: 17,
    long: 18,
    decimal: 19,
    minKey: -1,
    maxKey: 127,
  }),
);
const TYPE_NAMES = new Map([...TYPE_CODES_BY_NAME].map(([name, code]) => [code, name]));

/** MongoDB's name for the BSON type of a value (`missing` for none), as its messages give it. */
export function typeName(v: unknown): string {
  return v === undefined ? 'missing' : (TYPE_NAMES.get(bsonTypeCode(v)!) ?? 'unknown');
}

export function isNumeric(v: unknown): boolean {
  const code = bsonTypeCode(v);
  return code === 1 || code === 16 || code === 18 || code === 19;
}

/**
 * A value as decoded with `promoteValues: false`, in the form the engine keeps: Int32 as a JS
 * number, Double as a JS number unless only the `Double` object keeps it from reading as an Int32,
 * symbols as strings. Returns the same object when nothing needed changing.
 */
export function fromWire<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x = fromWire(v[i]);
      if (x !== v[i]) (out ??= [...v])[i] = x;
    }
    return (out ?? v) as T;
  }
  if (isPlainObject(v)) {
    for (const k of Object.keys(v)) {
      const x = fromWire(v[k]);
      if (x !== v[k]) (v as Doc)[k] = x;
    }
    return v;
  }
  switch (bsonType(v)) {
    case 'Int32':
      return (v as unknown as { value: number }).value as T;
    case 'Double':
      return storedDouble((v as unknown as Double).value) as T;
    case 'BSONSymbol':
      return (v as unknown as { value: string }).value as T;
    case 'DBRef': {
      // Kept as the document it was (decodeDocument avoids DBRef objects but for odd input).
      const ref = v as unknown as DBRef;
      const doc: Doc = { $ref: ref.collection, $id: fromWire(ref.oid) };
      if (ref.db !== undefined) doc.$db = ref.db;
      for (const k of Object.keys(ref.fields)) setField(doc, k, fromWire(ref.fields[k]));
      return doc as T;
    }
  }
  return v;
}

/**
 * A copy of plain objects and arrays with each key renamed and each other value mapped; parts
 * in which nothing changes are shared, not copied.
 */
function mapTree(
  v: unknown,
  key: (k: string) => string,
  leaf: (x: unknown) => unknown,
  unchanged?: WeakSet<object>,
): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (unchanged?.has(v)) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const x = mapTree(v[i], key, leaf, unchanged);
      if (x !== v[i]) (out ??= [...v])[i] = x;
    }
    if (!out) unchanged?.add(v);
    return out ?? v;
  }
  if (!isPlainObject(v)) return leaf(v);
  const keys = Object.keys(v);
  let out: Doc | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const name = key(k);
    const x = mapTree(v[k], key, leaf, unchanged);
    if (!out && (name !== k || x !== v[k])) {
      out = {};
      for (const earlier of keys.slice(0, i)) setField(out, earlier, v[earlier]);
    }
    if (out) setField(out, name, x);
  }
  if (!out) unchanged?.add(v);
  return out ?? v;
}

/** `Double` objects and Longs that a double holds exactly, as JS numbers. */
function plainNumber(v: unknown): unknown {
  if (bsonType(v) === 'Double') return (v as Double).value;
  if (v instanceof Long && bsonType(v) === 'Long') {
    const n = v.toNumber();
    if (Number.isSafeInteger(n)) return n;
  }
  return v;
}

// mingo reads and writes fields with plain property access: inside it, a field named like an
// inherited property would be the engine's own object. Such names go into mingo with a NUL in
// front, which no BSON field name can hold, and come out restored.
const ESCAPE = '\u0000';

/** A field name, or each part of a dotted path, as mingo is given it. */
export function escapeKey(key: string): string {
  if (!key.includes('.')) return isInheritedName(key) ? ESCAPE + key : key;
  const parts = key.split('.');
  return parts.some(isInheritedName) ? parts.map(escapeKey).join('.') : key;
}

export function unescapeKey(key: string): string {
  if (!key.includes(ESCAPE)) return key;
  return key
    .split('.')
    .map((part) => (part.startsWith(ESCAPE) ? part.slice(1) : part))
    .join('.');
}

/**
 * A document (or pipeline) in the form mingo works on: JS numbers for `Double` objects and
 * exactly held Longs (mingo's expressions only understand JS numbers), and escaped field names.
 */
export function toMingo<T>(v: T): T {
  return mapTree(v, escapeKey, plainNumber) as T;
}

/** Documents and arrays of stored documents found already in mingo's form (storedToMingo). */
const storedInMingoForm = new WeakSet<object>();

/**
 * toMingo for what is read from stored documents: a document or array found already in mingo's
 * form is remembered and from then on given as it is without being walked again. Stored
 * documents are never changed in place (a write stores a new version, and every stage that would
 * change a document is given a copy), so what was found holds for as long as they are kept.
 */
export function storedToMingo<T>(v: T): T {
  return mapTree(v, escapeKey, plainNumber, storedInMingoForm) as T;
}

/**
 * Whether a stored document is in mingo's form as it is (toMingo would give it back unchanged), so
 * that any part of it is too; remembered, like what storedToMingo finds.
 */
export function inMingoForm(stored: Doc): boolean {
  return storedInMingoForm.has(stored) || storedToMingo(stored) === stored;
}

/** A document mingo produced, with its field names restored. */
export function fromMingo<T>(v: T): T {
  return mapTree(v, unescapeKey, (x) => x) as T;
}

/**
 * True for a name every plain object has through its prototype (`constructor`, `toString`,
 * `__proto__`, …). Documents may hold fields with these names like any other; code that follows a
 * user-supplied name into a document reads it with {@link fieldOf} and writes it with
 * {@link setField}, so such a name is an ordinary field and never a way into the engine's objects.
 */
export function isInheritedName(name: string): boolean {
  return name in Object.prototype;
}

/** The document's own field `name`, or undefined: inherited properties are not fields. */
export function fieldOf(doc: Doc, name: string): unknown {
  return Object.hasOwn(doc, name) ? doc[name] : undefined;
}

/** Sets the document's own field `name`; `__proto__` is stored as a field like any other. */
export function setField(doc: Doc, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(doc, name, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  else doc[name] = value;
}

export function isPlainObject(v: unknown): v is Doc {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

export function isOperatorObject(v: unknown): v is Doc {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys[0]!.startsWith('$');
}

/** A canonical string for a value, equal for values MongoDB considers equal in an index. */
export function keyOf(v: unknown): string {
  if (v === undefined || v === null) return 'z';
  switch (typeof v) {
    case 'string':
      return 's' + v;
    case 'number':
      return numberKey(v);
    case 'boolean':
      return v ? 'bt' : 'bf';
    case 'bigint':
      return numberKey(v);
  }
  if (v instanceof Date) return 'd' + v.getTime();
  if (v instanceof RegExp) return 'r' + v.toString();
  if (Array.isArray(v)) return '[' + v.map(keyOf).join(',') + ']';
  switch (bsonType(v)) {
    case 'ObjectId':
      return 'o' + (v as ObjectId).toHexString();
    case 'Long':
    case 'Int32':
    case 'Double':
    case 'Decimal128':
      return numberKey(v);
    case 'Binary':
      return 'x' + (v as Binary).sub_type + ':' + (v as Binary).toString('base64');
  }
  if (isPlainObject(v)) {
    let s = '{';
    for (const k of Object.keys(v)) s += JSON.stringify(k) + ':' + keyOf(v[k]) + ',';
    return s + '}';
  }
  return 'u' + String(v);
}

/** Deep copy of plain objects and arrays; BSON value objects are immutable and shared. */
export function cloneDoc<T>(v: T): T {
  if (Array.isArray(v)) return v.map(cloneDoc) as T;
  if (v instanceof Date) return new Date(v.getTime()) as T;
  if (isPlainObject(v)) {
    const out: Doc = {};
    for (const k of Object.keys(v)) setField(out, k, cloneDoc(v[k]));
    return out as T;
  }
  return v;
}

/** A dotted path split into its parts, and whether one of them is a name objects inherit. */
export interface FieldPath {
  readonly parts: string[];
  readonly inherited: boolean;
}

const fieldPaths = new Map<string, FieldPath>();

export function fieldPath(path: string): FieldPath {
  let known = fieldPaths.get(path);
  if (!known) {
    const parts = path.split('.');
    known = { parts, inherited: parts.some(isInheritedName) };
    if (fieldPaths.size < 10_000) fieldPaths.set(path, known);
  }
  return known;
}

/** Values at a dotted path, descending into arrays the way MongoDB does for queries and indexes. */
export function pathValues(doc: unknown, path: string): unknown[] {
  if (!path.includes('.') && isPlainObject(doc)) {
    const v = fieldOf(doc, path);
    return v === undefined ? [] : [v];
  }
  const { parts, inherited } = fieldPath(path);
  // Most paths cross only plain objects: follow them without building the general walk.
  let v: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    if (Array.isArray(v)) return walkPath(v, parts, i);
    if (!isPlainObject(v)) return [];
    v = inherited ? fieldOf(v, parts[i]!) : v[parts[i]!];
    if (v === undefined) return [];
  }
  return [v];
}

function walkPath(start: unknown, parts: string[], from: number): unknown[] {
  const out: unknown[] = [];
  const walk = (v: unknown, i: number): void => {
    if (i === parts.length) {
      out.push(v);
      return;
    }
    if (Array.isArray(v)) {
      const part = parts[i]!;
      if (/^\d+$/.test(part)) {
        walk(v[Number(part)], i + 1);
        return;
      }
      for (const e of v) if (isPlainObject(e)) walk(e, i);
      return;
    }
    if (isPlainObject(v)) {
      const next = fieldOf(v, parts[i]!);
      if (next === undefined) return;
      walk(next, i + 1);
    }
  };
  walk(start, from);
  return out;
}

/** Sets a value at a dotted path through (own) documents, creating documents on the way. */
export function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur: Doc = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const next = fieldOf(cur, parts[i]!);
    if (isPlainObject(next)) cur = next;
    else {
      const created: Doc = {};
      setField(cur, parts[i]!, created);
      cur = created;
    }
  }
  setField(cur, parts[parts.length - 1]!, value);
}

/** A value's place in MongoDB's order of types (numbers together, strings together, ...). */
export function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 2;
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 3;
    case 'string':
      return 4;
    case 'boolean':
      return 9;
  }
  if (v instanceof Date) return 10;
  if (v instanceof RegExp) return 12;
  if (Array.isArray(v)) return 6;
  switch (bsonType(v)) {
    case 'MinKey':
      return 1;
    case 'Long':
    case 'Int32':
    case 'Double':
    case 'Decimal128':
      return 3;
    case 'Symbol':
      return 4;
    case 'Binary':
      return 7;
    case 'ObjectId':
      return 8;
    case 'Timestamp':
      return 11;
    case 'BSONRegExp':
      return 12;
    case 'MaxKey':
      return 13;
  }
  return 5;
}

/** Total order over BSON values following MongoDB's comparison order. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 3:
      // Exactly, across types; NaN sorts before every other number and equals itself.
      return compareNumbers(a, b);
    case 4:
      return compareStrings(String(a), String(b));
    case 8:
      return compareValues((a as ObjectId).toHexString(), (b as ObjectId).toHexString());
    case 9:
      return Number(a) - Number(b);
    case 10:
      return (a as Date).getTime() - (b as Date).getTime();
    case 7:
      return compareBinary(a as Binary, b as Binary);
    case 6: {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const c = compareValues(x[i], y[i]);
        if (c) return c;
      }
      return x.length - y.length;
    }
    case 5: {
      // Field by field: the type of the value, then the field's name (as stored, not as escaped
      // for mingo), then the value.
      const x = Object.keys(a as Doc);
      const y = Object.keys(b as Doc);
      for (let i = 0; i < Math.min(x.length, y.length); i++) {
        const u = (a as Doc)[x[i]!];
        const v = (b as Doc)[y[i]!];
        const c =
          typeRank(u) - typeRank(v) ||
          compareValues(unescapeKey(x[i]!), unescapeKey(y[i]!)) ||
          compareValues(u, v);
        if (c) return c;
      }
      return x.length - y.length;
    }
  }
  const x = keyOf(a);
  const y = keyOf(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

const SURROGATE = /[\ud800-\udfff]/;

/** A UTF-16 unit's place in code point order: the units of characters beyond U+FFFF come last. */
const codePointRank = (unit: number): number =>
  unit < 0xd800 ? unit : unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;

/**
 * Strings in MongoDB's order, by their UTF-8 bytes, which is code point order; JavaScript's own
 * comparison, by UTF-16 units, puts characters beyond U+FFFF before those from U+E000 on.
 */
export function compareStrings(x: string, y: string): number {
  if (x === y) return 0;
  const n = Math.min(x.length, y.length);
  let i = 0;
  while (i < n && x.charCodeAt(i) === y.charCodeAt(i)) i++;
  if (i === n) return x.length - y.length;
  return codePointRank(x.charCodeAt(i)) - codePointRank(y.charCodeAt(i));
}

/** MongoDB orders BinData by length, then subtype, then bytes. */
function compareBinary(a: Binary, b: Binary): number {
  return (
    a.position - b.position ||
    a.sub_type - b.sub_type ||
    Buffer.compare(a.buffer.subarray(0, a.position), b.buffer.subarray(0, b.position))
  );
}

/** The value a document sorts by for one key: arrays sort by their smallest (ascending) or largest (descending) element. */
export function sortKey(doc: Doc, path: string, dir: number): unknown {
  const found = pathValues(doc, path);
  if (found.length === 1 && !Array.isArray(found[0])) return found[0];
  const values = found.flatMap((v) => (Array.isArray(v) ? (v.length ? v : [undefined]) : [v]));
  if (values.length === 0) return null;
  let best = values[0];
  for (const v of values) {
    const c = compareValues(v, best);
    if ((dir > 0 && c < 0) || (dir < 0 && c > 0)) best = v;
  }
  return best;
}

/**
 * A sort column whose values all share one BSON type that compares like a JS primitive, turned
 * into those primitives (the common case: dates, numbers, strings, ObjectIds); else null.
 */
function primitiveColumn(column: unknown[]): Array<number | string> | null {
  if (column.length === 0) return null;
  const rank = typeRank(column[0]);
  for (const v of column) if (typeRank(v) !== rank) return null;
  switch (rank) {
    case 3:
      // Numbers a double holds exactly; Longs beyond 2^53 and Decimal128 compare exactly instead.
      return column.every(isPlainNumber) ? column.map((v) => Number(v)) : null;
    case 4:
      return column.every((v) => !SURROGATE.test(String(v))) ? column.map((v) => String(v)) : null;
    case 8:
      return column.map((v) => (v as ObjectId).toHexString());
    case 10:
      return column.map((v) => (v as Date).getTime());
    default:
      return null;
  }
}

function isPlainNumber(v: unknown): boolean {
  if (typeof v === 'number') return !Number.isNaN(v);
  const type = bsonType(v);
  if (type === 'Double' || type === 'Int32') return !Number.isNaN(Number(v));
  return type === 'Long' && Number.isSafeInteger((v as Long).toNumber());
}

/** The indexes of the `k` smallest items by `cmp`, in order, via a bounded max-heap. */
function smallestK(n: number, k: number, cmp: (a: number, b: number) => number): number[] {
  const heap: number[] = [];
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && cmp(heap[l]!, heap[top]!) > 0) top = l;
      if (r < heap.length && cmp(heap[r]!, heap[top]!) > 0) top = r;
      if (top === i) return;
      [heap[i], heap[top]] = [heap[top]!, heap[i]!];
      i = top;
    }
  };
  for (let i = 0; i < n; i++) {
    if (heap.length < k) {
      heap.push(i);
      for (let c = heap.length - 1; c > 0;) {
        const p = (c - 1) >> 1;
        if (cmp(heap[c]!, heap[p]!) <= 0) break;
        [heap[c], heap[p]] = [heap[p]!, heap[c]!];
        c = p;
      }
    } else if (cmp(i, heap[0]!) < 0) {
      heap[0] = i;
      down(0);
    }
  }
  return heap.sort(cmp);
}

/** Sorts like MongoDB; with `firstK`, only the first that many come back (a top-k selection). */
export function sortDocs(docs: Doc[], sort: Doc, firstK = 0): Doc[] {
  const keys = Object.entries(sort);
  if (keys.length === 0) return docs;
  if (keys.length === 1 && keys[0]![0] === '$natural')
    return Number(keys[0]![1]) < 0 ? [...docs].reverse() : docs;
  const specs = keys.map(([path, dir]) => ({ path, dir: Number(dir) < 0 ? -1 : 1 }));
  const columns = specs.map((spec) => docs.map((doc) => sortKey(doc, spec.path, spec.dir)));
  const primitive = columns.map(primitiveColumn);
  const cmp = (a: number, b: number): number => {
    for (let k = 0; k < specs.length; k++) {
      const fast = primitive[k];
      let c: number;
      if (fast) {
        const x = fast[a]!;
        const y = fast[b]!;
        c = x < y ? -1 : x > y ? 1 : 0;
      } else c = compareValues(columns[k]![a], columns[k]![b]);
      if (c) return c * specs[k]!.dir;
    }
    return a - b;
  };
  if (firstK > 0 && firstK * 4 < docs.length)
    return smallestK(docs.length, firstK, cmp).map((i) => docs[i]!);
  const order = docs.map((_, i) => i);
  order.sort(cmp);
  return order.map((i) => docs[i]!);
}

/** Renders a value the way MongoDB prints it in duplicate-key messages. */
export function formatValue(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return `new Date(${v.getTime()})`;
  if (bsonType(v) === 'ObjectId') return `ObjectId('${(v as ObjectId).toHexString()}')`;
  if (Array.isArray(v)) return '[ ' + v.map(formatValue).join(', ') + ' ]';
  if (isPlainObject(v))
    return (
      '{ ' +
      Object.entries(v)
        .map(([k, x]) => `${k}: ${formatValue(x)}`)
        .join(', ') +
      ' }'
    );
  return String(v);
}

export function withIdFirst(doc: Doc, id: unknown): Doc {
  const out: Doc = { _id: id };
  for (const k of Object.keys(doc)) if (k !== '_id') setField(out, k, doc[k]);
  return out;
}

export function newId(): ObjectId {
  return new ObjectId();
}
