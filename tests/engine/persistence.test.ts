import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient, type Collection } from 'mongodb';
import { describe, expect, it, vi } from 'vitest';
import { startEmbeddedMongo, startEmbeddedMongoHere } from '../../embedded-mongo';
import { frame } from '../../embedded-mongo/storage';
import { fillAndKill } from './crash';
import { tempDir, tsxBin } from './helpers';

// Run through node directly so signals reach the process that holds the data directory.
const node = process.execPath;
const tsx = (args: string[]) => ['--import', 'tsx', ...args];
const collectionOf = (c: MongoClient, db: string, name: string) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  c.db(db).collection(name) as unknown as Collection<any>;

async function withClient<T>(
  dir: string,
  fn: (client: MongoClient) => Promise<T>,
  opts: { compactBytes?: number } = {},
): Promise<T> {
  const engine = await startEmbeddedMongo({ dir, ...opts });
  const client = await MongoClient.connect(engine.uri);
  try {
    return await fn(client);
  } finally {
    await client.close();
    await engine.stop();
  }
}

describe('persistence', () => {
  it('keeps every acknowledged write after SIGKILL', async () => {
    const dir = tempDir('embedded-mongo-');
    for (const compactBytes of [64 * 1024 * 1024, 32 * 1024]) {
      const acked = new Set<number>();
      const updated = new Set<number>();
      const child = spawn(
        node,
        tsx(['tests/engine/fixtures/writer.ts', dir, String(compactBytes)]),
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      let buffered = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          buffered += d.toString();
          const lines = buffered.split('\n');
          buffered = lines.pop()!;
          for (const line of lines) {
            const [kind, n] = line.split(' ');
            if (kind === 'ack') acked.add(Number(n));
            if (kind === 'upd') updated.add(Number(n));
          }
          if (acked.size >= 800) resolve();
        });
        child.once('exit', (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
      });
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));

      await withClient(dir, async (client) => {
        const coll = collectionOf(client, 'crash', 'writes');
        const docs = await coll.find({}, { projection: { seq: 1, updated: 1 } }).toArray();
        const present = new Set(docs.map((d) => d.seq as number));
        for (const n of acked) expect(present.has(n)).toBe(true);
        const flagged = new Set(docs.filter((d) => d.updated).map((d) => d.seq as number));
        for (const n of updated) expect(flagged.has(n)).toBe(true);
        await expect(coll.insertOne({ seq: [...acked][0] })).rejects.toMatchObject({ code: 11000 });
        await coll.deleteMany({});
      });
    }
  }, 120_000);

  it('drops a torn journal tail left by a crash, with a warning, and keeps the rest', async () => {
    const dir = tempDir('embedded-mongo-');
    // Killed, not stopped: a clean stop folds the journal into a snapshot, and the torn bytes
    // appended to it would never be read.
    await fillAndKill(dir, 3);
    const journal = join(dir, 'journal.0.bson');
    const intact = statSync(journal).size;
    expect(intact).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'snapshot.bson'))).toBe(false);
    // The first bytes of a record whose write was cut off.
    const torn = frame({
      o: 'p',
      db: 'courier',
      c: 'parcels',
      d: { _id: 3, notes: 'x'.repeat(50) },
    });
    appendFileSync(journal, torn.subarray(0, torn.length - 20));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const engine = await startEmbeddedMongoHere({ dir, tcp: false });
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining(
        `journal.0.bson: dropping an incomplete record at byte offset ${intact}`,
      ),
    );
    warn.mockRestore();
    expect(statSync(journal).size).toBe(intact);
    const client = await MongoClient.connect(engine.uri);
    const parcels = collectionOf(client, 'courier', 'parcels');
    expect((await parcels.find().toArray()).map((d) => d._id)).toEqual([0, 1, 2]);
    await parcels.insertOne({ _id: 3 });
    await client.close();
    await engine.stop();
    await withClient(dir, async (c) => {
      expect(await collectionOf(c, 'courier', 'parcels').countDocuments()).toBe(4);
    });
  }, 60_000);

  it('recovers when the last journal record is torn', async () => {
    const dir = tempDir('embedded-mongo-');
    const engine = await startEmbeddedMongo({ dir });
    const client = await MongoClient.connect(engine.uri);
    await collectionOf(client, 't', 'c').insertMany([{ _id: 'a' }, { _id: 'b' }]);
    await client.close();
    // Copy the live journal as a crashed process would have left it, with a half-written record.
    const journal = readdirSync(dir).find((f) => f.startsWith('journal.'))!;
    const crashed = tempDir('embedded-mongo-');
    const { copyFileSync } = await import('node:fs');
    copyFileSync(join(dir, journal), join(crashed, journal));
    appendFileSync(join(crashed, journal), Buffer.from([50, 0, 0, 0, 9, 9, 9, 9, 1, 2]));
    const size = statSync(join(crashed, journal)).size;
    await engine.stop();
    await withClient(crashed, async (c) => {
      expect((await collectionOf(c, 't', 'c').find().toArray()).map((d) => d._id)).toEqual([
        'a',
        'b',
      ]);
    });
    expect(
      existsSync(join(crashed, journal)) ? statSync(join(crashed, journal)).size : 0,
    ).toBeLessThan(size);
  });

  it('keeps data and indexes across restarts with snapshots', async () => {
    const dir = tempDir('embedded-mongo-');
    await withClient(
      dir,
      async (client) => {
        const coll = collectionOf(client, 's', 'parcels');
        await coll.createIndex({ trackingNumber: 1 }, { unique: true });
        for (let i = 0; i < 20; i++) {
          await coll.insertMany(
            Array.from({ length: 50 }, (_, j) => ({
              trackingNumber: `T${i * 50 + j}`,
              pad: 'y'.repeat(300),
            })),
          );
        }
        await coll.updateMany({}, { $set: { touched: true } });
        await coll.deleteMany({ trackingNumber: { $in: ['T1', 'T2'] } });
      },
      { compactBytes: 100 * 1024 },
    );
    expect(existsSync(join(dir, 'snapshot.bson'))).toBe(true);
    await withClient(dir, async (client) => {
      const coll = collectionOf(client, 's', 'parcels');
      expect(await coll.countDocuments()).toBe(998);
      expect(await coll.countDocuments({ touched: true })).toBe(998);
      await expect(coll.insertOne({ trackingNumber: 'T5' })).rejects.toMatchObject({ code: 11000 });
      expect((await coll.listIndexes().toArray()).map((i) => i.name)).toEqual([
        '_id_',
        'trackingNumber_1',
      ]);
    });
  });

  it('refuses a second process on the same directory and runs from the command line', async () => {
    const dir = tempDir('embedded-mongo-');
    const engine = await startEmbeddedMongo({ dir });
    const second = spawn(node, tsx(['embedded-mongo/cli.ts', '--dir', dir]), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    second.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise((r) => second.once('exit', r));
    expect(code).toBe(1);
    expect(err).toContain('is in use by another process (an engine answers on');
    await expect(startEmbeddedMongo({ dir })).rejects.toThrow(/in use by another process/);
    await engine.stop();

    const cli = spawn(tsxBin, ['embedded-mongo/cli.ts', '--port', '0', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const uri = await new Promise<string>((resolve, reject) => {
      cli.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.trim());
      });
      cli.once('exit', (c) => reject(new Error(`cli exited ${c}`)));
    });
    expect(uri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
    const client = await MongoClient.connect(uri);
    await collectionOf(client, 'cli', 'c').insertOne({ _id: 'kept' });
    await client.close();
    cli.kill('SIGTERM');
    expect(await new Promise((r) => cli.once('exit', r))).toBe(0);
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(dir, 'mongod.lock'))).toBe(false);
    await withClient(dir, async (c) => {
      expect(await collectionOf(c, 'cli', 'c').findOne({ _id: 'kept' })).toEqual({ _id: 'kept' });
    });

    const mem = spawn(tsxBin, ['embedded-mongo/cli.ts'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let memErr = '';
    mem.stderr.on('data', (d: Buffer) => (memErr += d.toString()));
    await new Promise<void>((resolve) => mem.stdout.once('data', () => resolve()));
    mem.kill('SIGINT');
    expect(await new Promise((r) => mem.once('exit', r))).toBe(0);
    expect(memErr).toContain('in memory');
  }, 60_000);
});
