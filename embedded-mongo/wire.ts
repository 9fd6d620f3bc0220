import { deserialize, serialize } from 'bson';
import { fromWire, isPlainObject, setField, type Doc } from './values';

export const OP_REPLY = 1;
export const OP_QUERY = 2004;
export const OP_MSG = 2013;

const CHECKSUM_PRESENT = 1;
export const MORE_TO_COME = 2;
const EXHAUST_ALLOWED = 1 << 16;

export interface Header {
  length: number;
  requestId: number;
  responseTo: number;
  opCode: number;
}

export type Request =
  | { kind: 'msg'; header: Header; flags: number; command: Doc }
  | { kind: 'query'; header: Header; collection: string; query: Doc };

// Numbers are decoded as Int32, Double and Long objects so that their BSON type is known;
// fromWire then turns them into the form the engine keeps (see storedDouble in values.ts).
export const DESERIALIZE = { promoteLongs: false, promoteValues: false } as const;

export class ProtocolError extends Error {}

export function readHeader(buf: Buffer): Header {
  return {
    length: buf.readInt32LE(0),
    requestId: buf.readInt32LE(4),
    responseTo: buf.readInt32LE(8),
    opCode: buf.readInt32LE(12),
  };
}

function readCString(buf: Buffer, at: number, end: number): [string, number] {
  const zero = buf.indexOf(0, at);
  if (zero < 0 || zero >= end) throw new ProtocolError('unterminated string');
  return [buf.toString('utf8', at, zero), zero + 1];
}

function readDoc(buf: Buffer, at: number, end: number): [Doc, number] {
  if (at + 5 > end) throw new ProtocolError('truncated document');
  const size = buf.readInt32LE(at);
  if (size < 5 || at + size > end) throw new ProtocolError('invalid document length');
  return [decodeDocument(buf.subarray(at, at + size)), at + size];
}

const DBREF_KEY = Buffer.from('$ref\0');
const DBREF_NAMES = new Set(['ref', 'id', 'db']);

/**
 * A BSON document in the form the engine keeps (see fromWire). js-bson turns a document with
 * `$ref` and `$id` fields into a `DBRef` object, which changes its field order and splits a
 * `$ref` holding a dot; MongoDB keeps it as the document it is, and queries reach its fields.
 * So before decoding, those three field names get a private first byte (one that occurs in no
 * field name of this document), and after decoding their `$` back.
 */
export function decodeDocument(bytes: Buffer): Doc {
  const marker = bytes.includes(DBREF_KEY) ? freeMarker(bytes) : 0;
  if (marker === 0) return fromWire(deserialize(bytes, DESERIALIZE) as Doc);
  const copy = Buffer.from(bytes);
  markDbRefNames(copy, 0, marker);
  const decoded = deserialize(copy, DESERIALIZE);
  return fromWire(restoreDbRefNames(decoded, String.fromCharCode(marker)) as Doc);
}

/** A byte in 1–31 that begins none of `ref`, `id`, `db` as a name in `bytes`, or 0. */
function freeMarker(bytes: Buffer): number {
  for (let m = 1; m < 32; m++) {
    const taken = [...DBREF_NAMES].some((name) =>
      bytes.includes(Buffer.from(String.fromCharCode(m) + name + '\0')),
    );
    if (!taken) return m;
  }
  return 0;
}

/** The bytes of a BSON value of each type whose values all have one size. */
const FIXED_SIZES = new Map([
  [0x01, 8], // double
  [0x06, 0], // undefined
  [0x07, 12], // ObjectId
  [0x08, 1], // boolean
  [0x09, 8], // date
  [0x0a, 0], // null
  [0x10, 4], // int32
  [0x11, 8], // timestamp
  [0x12, 8], // int64
  [0x13, 16], // decimal128
  [0x7f, 0], // max key
  [0xff, 0], // min key
]);

/** Gives the `$ref`, `$id` and `$db` names in the document at `start` (and those within) `marker` as their first byte. */
function markDbRefNames(buf: Buffer, start: number, marker: number): void {
  let at = start;
  // A length that would not move forward is not BSON; deserialize would refuse it too.
  const length = (least: number): number => {
    const n = buf.readInt32LE(at);
    if (n < least) throw new RangeError(`invalid BSON length ${n} at ${at}`);
    return n;
  };
  const end = Math.min(buf.length, start + length(5)) - 1;
  at += 4;
  while (at < end) {
    const type = buf[at++]!;
    const name = at;
    while (at < end && buf[at] !== 0) at++;
    if (buf[name] === 0x24 && DBREF_NAMES.has(buf.toString('latin1', name + 1, at)))
      buf[name] = marker;
    at++;
    const size = FIXED_SIZES.get(type);
    if (size !== undefined) {
      at += size;
      continue;
    }
    switch (type) {
      case 0x02: // string
      case 0x0d: // code
      case 0x0e: // symbol
        at += 4 + length(1);
        break;
      case 0x03: // document
      case 0x04: // array
        markDbRefNames(buf, at, marker);
        at += length(5);
        break;
      case 0x05: // binary
        at += 5 + length(0);
        break;
      case 0x0b: // regex: pattern and options
        for (let i = 0; i < 2; i++) {
          while (at < end && buf[at] !== 0) at++;
          at++;
        }
        break;
      case 0x0c: // DBPointer
        at += 4 + length(1) + 12;
        break;
      case 0x0f: // code with scope
        at += length(5);
        break;
      default:
        return; // not BSON: deserialize reports it
    }
  }
}

function restoreDbRefNames(v: unknown, marker: string): unknown {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = restoreDbRefNames(v[i], marker);
    return v;
  }
  if (!isPlainObject(v)) return v;
  const keys = Object.keys(v);
  const marked = (k: string) => k[0] === marker && DBREF_NAMES.has(k.slice(1));
  if (!keys.some(marked)) {
    for (const k of keys) v[k] = restoreDbRefNames(v[k], marker);
    return v;
  }
  const out: Doc = {};
  for (const k of keys)
    setField(out, marked(k) ? '$' + k.slice(1) : k, restoreDbRefNames(v[k], marker));
  return out;
}

/** Parses one complete message (header included). Throws ProtocolError on malformed input. */
export function parseMessage(buf: Buffer): Request {
  const header = readHeader(buf);
  try {
    if (header.opCode === OP_MSG) {
      const flags = buf.readUInt32LE(16);
      // Unknown required flag bits (0-15) must be rejected; optional bits are ignored.
      if (flags & 0xfffc & ~EXHAUST_ALLOWED)
        throw new ProtocolError(`unsupported OP_MSG flags ${flags}`);
      const end = buf.length - (flags & CHECKSUM_PRESENT ? 4 : 0);
      let at = 20;
      let command: Doc | undefined;
      const sequences: Array<[string, Doc[]]> = [];
      while (at < end) {
        const kind = buf[at++];
        if (kind === 0) {
          if (command) throw new ProtocolError('more than one body section');
          [command, at] = readDoc(buf, at, end);
        } else if (kind === 1) {
          const size = buf.readInt32LE(at);
          const sectionEnd = at + size;
          if (size < 5 || sectionEnd > end)
            throw new ProtocolError('invalid document sequence length');
          const [identifier, start] = readCString(buf, at + 4, sectionEnd);
          let pos = start;
          const docs: Doc[] = [];
          while (pos < sectionEnd) {
            let doc: Doc;
            [doc, pos] = readDoc(buf, pos, sectionEnd);
            docs.push(doc);
          }
          sequences.push([identifier, docs]);
          at = sectionEnd;
        } else throw new ProtocolError(`unknown section kind ${kind}`);
      }
      if (!command) throw new ProtocolError('OP_MSG without body');
      for (const [identifier, docs] of sequences) setField(command, identifier, docs);
      return { kind: 'msg', header, flags, command };
    }
    if (header.opCode === OP_QUERY) {
      const [collection, at] = readCString(buf, 20, buf.length);
      const [query] = readDoc(buf, at + 8, buf.length);
      return { kind: 'query', header, collection, query };
    }
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    throw new ProtocolError(err instanceof Error ? err.message : String(err));
  }
  throw new ProtocolError(`unsupported opCode ${header.opCode}`);
}

function header(length: number, requestId: number, responseTo: number, opCode: number): Buffer {
  const h = Buffer.allocUnsafe(16);
  writeHeader(h, length, requestId, responseTo, opCode);
  return h;
}

function writeHeader(
  buf: Buffer,
  length: number,
  requestId: number,
  responseTo: number,
  opCode: number,
): void {
  buf.writeInt32LE(length, 0);
  buf.writeInt32LE(requestId, 4);
  buf.writeInt32LE(responseTo, 8);
  buf.writeInt32LE(opCode, 12);
}

export function encodeMsg(requestId: number, responseTo: number, doc: Doc): Buffer {
  const body = serialize(doc);
  const out = Buffer.allocUnsafe(16 + 5 + body.length);
  writeHeader(out, out.length, requestId, responseTo, OP_MSG);
  // Flags (none) and the kind-0 section marker.
  out.writeUInt32LE(0, 16);
  out[20] = 0;
  out.set(body, 21);
  return out;
}

export function encodeReply(
  requestId: number,
  responseTo: number,
  doc: Doc,
  queryFailure = false,
): Buffer {
  const body = serialize(doc);
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(queryFailure ? 2 : 0, 0);
  fields.writeInt32LE(0, 12);
  fields.writeInt32LE(1, 16);
  return Buffer.concat([
    header(16 + 20 + body.length, requestId, responseTo, OP_REPLY),
    fields,
    body,
  ]);
}
