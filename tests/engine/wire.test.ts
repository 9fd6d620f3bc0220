import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deserialize, Long, serialize } from 'bson';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../embedded-mongo';
import { decodeDocument } from '../../embedded-mongo/wire';

let engine: EmbeddedMongo<true>;
let requestId = 1;

beforeAll(async () => {
  engine = await startEmbeddedMongo({ cursorTimeoutMs: 300 });
});

afterAll(async () => {
  await engine?.stop();
});

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(engine.port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Sends bytes and resolves with the next full reply, or null when the server closes the connection. */
function exchange(socket: Socket, bytes: Buffer, expectReply = true): Promise<Buffer | null> {
  return new Promise((resolve) => {
    let data = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (data.length >= 4 && data.length >= data.readInt32LE(0)) finish(data);
    };
    const finish = (v: Buffer | null) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      clearTimeout(timer);
      resolve(v);
    };
    const onClose = () => finish(null);
    const timer = setTimeout(
      () => finish(expectReply ? null : Buffer.alloc(0)),
      expectReply ? 30000 : 300,
    );
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(bytes);
  });
}

function header(length: number, opCode: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeInt32LE(length, 0);
  h.writeInt32LE(requestId++, 4);
  h.writeInt32LE(0, 8);
  h.writeInt32LE(opCode, 12);
  return h;
}

function opMsg(doc: object, flags = 0, sequences: Array<[string, object[]]> = []): Buffer {
  const body = Buffer.from(serialize(doc));
  const parts: Buffer[] = [Buffer.alloc(4), Buffer.from([0]), body];
  parts[0]!.writeUInt32LE(flags, 0);
  for (const [id, docs] of sequences) {
    const payload = Buffer.concat([Buffer.from(id + '\0'), ...docs.map((d) => serialize(d))]);
    const size = Buffer.alloc(4);
    size.writeInt32LE(payload.length + 4, 0);
    parts.push(Buffer.from([1]), size, payload);
  }
  if (flags & 1) parts.push(Buffer.alloc(4));
  const rest = Buffer.concat(parts);
  return Buffer.concat([header(16 + rest.length, 2013), rest]);
}

function msgReply(buf: Buffer | null): Record<string, unknown> {
  expect(buf).not.toBeNull();
  expect(buf!.readInt32LE(12)).toBe(2013);
  return deserialize(buf!.subarray(21), { promoteLongs: false });
}

async function command(doc: object): Promise<Record<string, unknown>> {
  const s = await open();
  try {
    return msgReply(await exchange(s, opMsg(doc)));
  } finally {
    s.destroy();
  }
}

describe('wire protocol', () => {
  it('serves the same data over its Unix socket and TCP, and removes the socket when stopped', async () => {
    const local = await startEmbeddedMongo();
    const socketFile = decodeURIComponent(local.uri.slice('mongodb://'.length, -1));
    expect(socketFile).toMatch(/\.sock$/);
    expect(existsSync(socketFile)).toBe(true);
    expect(local.tcpUri).toBe(`mongodb://127.0.0.1:${local.port}/`);
    const viaSocket = await MongoClient.connect(local.uri);
    const viaTcp = await MongoClient.connect(local.tcpUri);
    try {
      await viaSocket
        .db('both')
        .collection('c')
        .insertOne({ _id: 1, from: 'socket' } as never);
      expect(
        await viaTcp
          .db('both')
          .collection('c')
          .findOne({ _id: 1 } as never),
      ).toEqual({ _id: 1, from: 'socket' });
    } finally {
      await viaSocket.close();
      await viaTcp.close();
      await local.stop();
    }
    expect(existsSync(socketFile)).toBe(false);
  });

  it('answers the legacy OP_QUERY handshake with OP_REPLY', async () => {
    const s = await open();
    const query = serialize({ isMaster: 1, helloOk: true, client: { driver: { name: 'test' } } });
    const fields = Buffer.alloc(4);
    const ns = Buffer.from('admin.$cmd\0');
    const skipReturn = Buffer.alloc(8);
    skipReturn.writeInt32LE(-1, 4);
    const rest = Buffer.concat([fields, ns, skipReturn, query]);
    const reply = await exchange(s, Buffer.concat([header(16 + rest.length, 2004), rest]));
    s.destroy();
    expect(reply!.readInt32LE(12)).toBe(1);
    expect(reply!.readInt32LE(32)).toBe(1);
    const doc = deserialize(reply!.subarray(36));
    expect(doc).toMatchObject({
      ok: 1,
      ismaster: true,
      helloOk: true,
      maxWireVersion: 21,
      minWireVersion: 0,
      maxBsonObjectSize: 16777216,
      maxMessageSizeBytes: 48000000,
      maxWriteBatchSize: 100000,
      logicalSessionTimeoutMinutes: 30,
    });
    expect(doc.localTime).toBeInstanceOf(Date);
    expect(typeof doc.connectionId).toBe('number');
    expect(doc.setName).toBeUndefined();
  });

  it('answers hello over OP_MSG, accepts a checksum and document sequences', async () => {
    expect(await command({ hello: 1, $db: 'admin' })).toMatchObject({
      isWritablePrimary: true,
      ok: 1,
    });
    const s = await open();
    const inserted = msgReply(
      await exchange(
        s,
        opMsg({ insert: 'seq', $db: 'wire' }, 1, [['documents', [{ _id: 1 }, { _id: 2 }]]]),
      ),
    );
    expect(inserted).toMatchObject({ n: 2, ok: 1 });
    const found = msgReply(await exchange(s, opMsg({ find: 'seq', filter: {}, $db: 'wire' })));
    expect((found.cursor as { firstBatch: unknown[]; id: Long }).firstBatch).toEqual([
      { _id: 1 },
      { _id: 2 },
    ]);
    expect((found.cursor as { id: Long }).id).toBeInstanceOf(Long);
    s.destroy();
  });

  it('does not reply when moreToCome is set', async () => {
    const s = await open();
    const reply = await exchange(s, opMsg({ endSessions: [], $db: 'admin' }, 2), false);
    expect(reply!.length).toBe(0);
    expect(msgReply(await exchange(s, opMsg({ ping: 1, $db: 'admin' })))).toMatchObject({ ok: 1 });
    s.destroy();
  });

  it('answers unknown commands with CommandNotFound', async () => {
    expect(await command({ frobnicate: 1, $db: 'admin' })).toMatchObject({
      ok: 0,
      code: 59,
      codeName: 'CommandNotFound',
    });
  });

  it('refuses transactions and change streams', async () => {
    const lsid = { id: new (await import('bson')).UUID() };
    const txn = await command({
      insert: 't',
      documents: [{ a: 1 }],
      lsid,
      txnNumber: Long.fromNumber(1),
      startTransaction: true,
      autocommit: false,
      $db: 'wire',
    });
    expect(txn).toMatchObject({ ok: 0, code: 20, codeName: 'IllegalOperation' });
    expect(String(txn.errmsg)).toContain(
      'Transaction numbers are only allowed on a replica set member or mongos',
    );
    expect(
      await command({
        insert: 't',
        documents: [{ a: 1 }],
        lsid,
        txnNumber: Long.fromNumber(1),
        $db: 'wire',
      }),
    ).toMatchObject({ code: 20 });
    expect(await command({ find: 't', filter: {}, $db: 'wire' })).toMatchObject({
      cursor: { firstBatch: [] },
    });
    const cs = await command({
      aggregate: 't',
      pipeline: [{ $changeStream: {} }],
      cursor: {},
      $db: 'wire',
    });
    expect(cs).toMatchObject({ ok: 0, code: 40573 });

    const client = await MongoClient.connect(engine.uri);
    const session = client.startSession();
    session.startTransaction();
    // The driver wraps code 20 the same way it does for a real standalone server.
    const err = (await client
      .db('wire')
      .collection('t')
      .insertOne({ a: 2 }, { session })
      .catch((e: unknown) => e)) as {
      code?: number;
      originalError?: { code?: number };
    };
    expect(err.originalError?.code ?? err.code).toBe(20);
    await session.abortTransaction().catch(() => {});
    await session.endSession();
    expect(await client.db('wire').collection('t').countDocuments()).toBe(0);
    await client.close();
  });

  it('reports CursorNotFound for unknown and expired cursors', async () => {
    const unknown = await command({
      getMore: Long.fromNumber(123456),
      collection: 'x',
      $db: 'wire',
    });
    expect(unknown).toMatchObject({
      ok: 0,
      code: 43,
      codeName: 'CursorNotFound',
      errmsg: 'cursor id 123456 not found',
    });

    await command({
      insert: 'many',
      documents: Array.from({ length: 10 }, (_, i) => ({ i })),
      $db: 'wire',
    });
    const first = await command({ find: 'many', filter: {}, batchSize: 2, $db: 'wire' });
    const id = (first.cursor as { id: Long }).id;
    expect(id.isZero()).toBe(false);
    const more = await command({ getMore: id, collection: 'many', batchSize: 3, $db: 'wire' });
    expect((more.cursor as { nextBatch: unknown[] }).nextBatch).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 700));
    expect(await command({ getMore: id, collection: 'many', $db: 'wire' })).toMatchObject({
      code: 43,
    });
  });

  it('survives malformed messages and keeps serving new clients', async () => {
    const cases: Buffer[] = [
      Buffer.from(Array.from({ length: 64 }, () => Math.floor(Math.random() * 256))),
      (() => {
        const b = header(30, 2013);
        return Buffer.concat([b, Buffer.alloc(14, 0xff)]);
      })(),
      header(3, 2013),
      header(900_000_000, 2013),
      (() => {
        const body = Buffer.concat([
          Buffer.alloc(4),
          Buffer.from([0]),
          Buffer.from([40, 0, 0, 0, 1, 2, 3]),
        ]);
        return Buffer.concat([header(16 + body.length, 2013), body]);
      })(),
      header(20, 9999),
      (() => {
        // Beside a DBRef, a document whose length points back at its own start.
        const doc = { d: { $ref: 'x', $id: 'y', a: {} } };
        const msg = opMsg({ insert: 'c', $db: 'wire', documents: [doc] });
        msg.writeInt32LE(-3, msg.indexOf(Buffer.from([3, 0x61, 0, 5, 0, 0, 0])) + 3);
        return msg;
      })(),
    ];
    for (const bytes of cases) {
      const s = await open();
      // Each malformed message is either refused with an error reply or ends the connection:
      // never answered as a success, never left hanging.
      const closed = new Promise<'closed'>((resolve) => s.once('close', () => resolve('closed')));
      const reply = await exchange(s, bytes);
      const outcome = reply
        ? msgReply(reply).ok
        : await Promise.race([
            closed,
            new Promise((resolve) => setTimeout(() => resolve('hung'), 2000)),
          ]);
      expect([0, 'closed']).toContain(outcome);
      s.destroy();
    }
    const client = await MongoClient.connect(engine.uri);
    expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
    await client.close();
  });

  it('answers pipelined requests in order, also behind journal writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wire-pipeline-'));
    const durable = await startEmbeddedMongo({ dir });
    try {
      const s = await new Promise<Socket>((resolve, reject) => {
        const sock = connect(durable.port, '127.0.0.1', () => resolve(sock));
        sock.once('error', reject);
      });
      const messages = [
        opMsg({ insert: 'p', documents: [{ _id: 1, v: 'a' }], $db: 'wire' }),
        opMsg({ find: 'p', filter: { _id: 1 }, limit: 1, singleBatch: true, $db: 'wire' }),
        opMsg({ insert: 'p', documents: [{ _id: 2, v: 'b' }], $db: 'wire' }, 2),
        opMsg({ update: 'p', updates: [{ q: { _id: 1 }, u: { $set: { v: 'c' } } }], $db: 'wire' }),
        opMsg({ find: 'p', filter: {}, $db: 'wire' }),
      ];
      const ids = messages.map((m) => m.readInt32LE(4));
      const replies = await new Promise<Buffer[]>((resolve, reject) => {
        let data = Buffer.alloc(0);
        const out: Buffer[] = [];
        const timer = setTimeout(() => reject(new Error(`only ${out.length} replies`)), 30000);
        s.on('data', (chunk: Buffer) => {
          data = Buffer.concat([data, chunk]);
          while (data.length >= 4 && data.length >= data.readInt32LE(0)) {
            out.push(data.subarray(0, data.readInt32LE(0)));
            data = data.subarray(data.readInt32LE(0));
          }
          if (out.length === 4) {
            clearTimeout(timer);
            resolve(out);
          }
        });
        s.write(Buffer.concat(messages));
      });
      s.destroy();
      expect(replies.map((r) => r.readInt32LE(8))).toEqual([ids[0], ids[1], ids[3], ids[4]]);
      const [inserted, found, updated, all] = replies.map(msgReply) as [
        { n: number },
        { cursor: { firstBatch: unknown[]; id: Long } },
        { nModified: number },
        { cursor: { firstBatch: unknown[] } },
      ];
      expect(inserted.n).toBe(1);
      expect(found.cursor.firstBatch).toEqual([{ _id: 1, v: 'a' }]);
      expect(found.cursor.id).toEqual(Long.ZERO);
      expect(updated.nModified).toBe(1);
      expect(all.cursor.firstBatch).toEqual([
        { _id: 1, v: 'c' },
        { _id: 2, v: 'b' },
      ]);
    } finally {
      await durable.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses documents over 16 MiB', async () => {
    const big = { _id: 'big', blob: 'x'.repeat(16 * 1024 * 1024 + 10) };
    const s = await open();
    const reply = msgReply(
      await exchange(s, opMsg({ insert: 'big', $db: 'wire' }, 0, [['documents', [big]]])),
    );
    s.destroy();
    expect(reply.ok).toBe(1);
    expect(reply.writeErrors).toEqual([expect.objectContaining({ index: 0, code: 10334 })]);
    expect(await command({ count: 'big', $db: 'wire' })).toMatchObject({ n: 0 });

    const client = await MongoClient.connect(engine.uri);
    await expect(
      client
        .db('wire')
        .collection('big')
        .insertOne(big as never),
    ).rejects.toThrow();
    expect(await client.db('wire').collection('big').countDocuments()).toBe(0);
    await client.close();
  });
});

describe('decoding', () => {
  it('keeps documents shaped like DBRefs byte for byte, in any order and with a dotted $ref', async () => {
    const docs = [
      { _id: 1, r: { $id: 5, $ref: 'fs.files', x: 1, $db: 'd' } },
      { _id: 2, list: [{ $ref: 'a.b', $id: new Long(1), $db: 'c' }, [{ $ref: 'z', $id: 'q' }]] },
      { $ref: 'top', $id: 3, _id: 3 },
      { _id: 4, ['\u0001ref']: 1, r: { $ref: 'y', $id: 2 } },
    ];
    for (const doc of docs) {
      const bytes = serialize(doc);
      expect(Buffer.from(serialize(decodeDocument(Buffer.from(bytes))))).toEqual(
        Buffer.from(bytes),
      );
    }
    const client = await MongoClient.connect(engine.uri);
    const coll = client.db('wire').collection('dbref_shapes');
    await coll.insertMany(docs.slice(0, 2) as never[]);
    for (const doc of docs.slice(0, 2)) {
      const raw = (await coll.findOne({ _id: doc._id } as never, { raw: true })) as unknown;
      expect(Buffer.from(raw as Uint8Array)).toEqual(Buffer.from(serialize(doc)));
    }
    expect(await coll.countDocuments({ 'r.$ref': 'fs.files', 'r.$db': 'd' })).toBe(1);
    await client.close();
  });
});
