import { deserialize, serialize } from 'bson';
import { fromWire, setField, type Doc } from './values';

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
  return [fromWire(deserialize(buf.subarray(at, at + size), DESERIALIZE) as Doc), at + size];
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
