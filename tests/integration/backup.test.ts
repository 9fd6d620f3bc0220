import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { EJSON } from 'bson';
import {
  Binary,
  BSONRegExp,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  MongoClient,
  type ObjectId,
  Timestamp,
  type Document,
} from 'mongodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueApiToken } from '~/models/api-token.server';
import { nextSequence } from '~/models/counter.server';
import { Notification } from '~/models/notification.server';
import { generateTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { Parcel } from '~/models/parcel.server';
import { Receipt } from '~/models/receipt.server';
import { createSessionRecord } from '~/models/session.server';
import { createUser } from '~/models/user.server';
import { connectDb, disconnectDb } from '~/lib/db.server';
import {
  BackupError,
  backupDatabase,
  backupMain,
  checkBackup,
  restoreDatabase,
  restoreMain,
} from '../../scripts/backup';
import { openAppDatabase } from '../../scripts/support/app-database';
import { findRunningEngine } from '../../scripts/support/running-engine';

// Three of the backup's and the restore's batches of 1,000 documents, the last one short.
const PARCELS = 2_500;
const sourceUri = process.env.MONGODB_URI!;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'courier-backup-test-'));
const client = new MongoClient(sourceUri);

/** Another database on the same server. */
function databaseUri(name: string): string {
  const url = new URL(sourceUri);
  url.pathname = `/${name}`;
  return url.toString();
}
const freshUri = () => databaseUri(`restore_${randomBytes(5).toString('hex')}`);
const dbOf = (uri: string) => client.db(new URL(uri).pathname.slice(1));

/** Every collection's documents as the driver returns them, BSON types kept, in _id order. */
async function contents(uri: string) {
  const db = dbOf(uri);
  const names = (await db.listCollections().toArray()).map((c) => c.name).sort();
  const out: Record<string, { docs: Document[]; indexes: Document[] }> = {};
  for (const name of names) {
    const collection = db.collection(name);
    out[name] = {
      docs: await collection
        .find({}, { promoteValues: false, promoteLongs: false, promoteBuffers: false })
        .sort({ _id: 1 })
        .toArray(),
      indexes: (await collection.listIndexes().toArray()).sort((a, b) =>
        a.name < b.name ? -1 : 1,
      ),
    };
  }
  return out;
}

/** The source's contents, read once: the tests only read the source after seeding it. */
let sourceContents: ReturnType<typeof contents> | undefined;

async function expectSameContents(targetUri: string) {
  sourceContents ??= contents(sourceUri);
  const [source, target] = await Promise.all([sourceContents, contents(targetUri)]);
  expect(Object.keys(target)).toEqual(Object.keys(source));
  for (const name of Object.keys(source)) {
    expect(target[name]!.docs.length, name).toBe(source[name]!.docs.length);
    // Canonical Extended JSON spells out every type (Int32 vs Double, Long, Binary subtype…).
    expect(EJSON.stringify(target[name]!.docs, { relaxed: false }), name).toBe(
      EJSON.stringify(source[name]!.docs, { relaxed: false }),
    );
    expect(target[name]!.docs, name).toStrictEqual(source[name]!.docs);
    expect(target[name]!.indexes, name).toStrictEqual(source[name]!.indexes);
  }
}

const ODD_VALUES = {
  int32: new Int32(7),
  double: new Double(1.5),
  long: Long.fromString('9007199254740993'),
  decimal: Decimal128.fromString('12345.6789'),
  binary: new Binary(Buffer.from([0, 1, 2, 255]), 0),
  uuid: new Binary(Buffer.from('0123456789abcdef0123456789abcdef', 'hex'), 4),
  timestamp: new Timestamp({ t: 1_700_000_000, i: 3 }),
  regex: new BSONRegExp('^SW[XY]\\d+$', 'i'),
  minKey: new MinKey(),
  maxKey: new MaxKey(),
  before1970: new Date('1969-07-20T20:17:40Z'),
  nothing: null,
  nested: { list: [new Int32(1), new Double(2.25), [new Long(3), 'x']], empty: {} },
  text: 'line one\nline two — “quoted” ✓ \u2028 end',
};

let oddId: ObjectId;
/** Made by the first test, used by the later ones. */
const BACKUP_FILE = path.join(work, 'backup.gz');

afterAll(async () => {
  await client.close();
  await disconnectDb();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('backup and restore', () => {
  const file = BACKUP_FILE;

  beforeAll(async () => {
    await connectDb();
    await client.connect();
    const statuses = ['Pending', 'In Transit', 'Delivered', 'Failed'] as const;
    const parcelIds: unknown[] = [];
    for (let i = 0; i < PARCELS; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, PARCELS - i) }, (_, j) => {
        const n = i + j;
        return {
          trackingNumber: generateTrackingNumber(),
          sender: { name: `Sender ${n}`, email: `s${n}@example.com`, address: `${n} Market St` },
          recipient: { name: `Recipient ${n}`, address: `${n} Elm St` },
          weight: (n % 200) / 10,
          dimensions: { length: 30, width: 20.5, height: n % 7 },
          status: statuses[n % statuses.length],
          cost: n % 3 ? 25.99 : 40,
          destinations: [{ name: 'Recipient', address: `${n} Elm St`, city: 'Shelbyville' }],
          events: Array.from({ length: 1 + (n % 3) }, (_, k) => ({
            status: 'In Transit',
            location: `Hub ${k}`,
            description: `Step ${k}`,
            timestamp: new Date(Date.UTC(2024, 0, 1) + n * 60_000 + k * 1000),
          })),
        };
      });
      const docs = await Parcel.insertMany(batch);
      parcelIds.push(...docs.map((d) => d._id));
    }
    await Notification.insertMany(
      Array.from({ length: 300 }, (_, n) => ({
        type: 'Status Update',
        recipient: `r${n}@example.com`,
        title: `Update ${n}`,
        message: `Your parcel moved (${n})`,
        trackingNumber: 'SWX000000001',
        parcelId: parcelIds[n],
        status: n % 10 ? 'sent' : 'failed',
        emailResult: n % 10 ? { messageId: `<m${n}@x>`, sentAt: new Date(), attempts: 1 } : {},
      })),
    );
    await Receipt.insertMany(
      Array.from({ length: 200 }, (_, n) => ({
        receiptNumber: `RCP-2024-${String(n).padStart(6, '0')}`,
        parcelId: parcelIds[n],
        trackingNumber: 'SWX000000001',
        amount: 25.99,
        subtotal: 25.99,
        total: 25.99,
        date: new Date(Date.UTC(2024, 1, 1, 0, n)),
      })),
    );
    const admin = await createUser({
      username: 'admin',
      password: 'admin-password-1',
      role: 'admin',
    });
    await createUser({ username: 'jane', password: 'jane-password-1', name: 'Jane' });
    await issueApiToken(admin.id);
    await createSessionRecord({ userId: admin.id }, new Date(Date.now() + 3_600_000));
    await nextSequence('receipt-2024');
    oddId = (
      await dbOf(sourceUri)
        .collection('oddities')
        .insertOne({ ...ODD_VALUES })
    ).insertedId;
  }, 300_000);

  it('round-trips every document and index of every collection, BSON types included', async () => {
    const backup = await backupDatabase(sourceUri, file);
    const names = backup.collections.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'apitokens',
        'counters',
        'notifications',
        'oddities',
        'parcels',
        'receipts',
        'sessions',
        'users',
      ]),
    );
    const count = (name: string) => backup.collections.find((c) => c.name === name)?.documents;
    expect(count('parcels')).toBe(PARCELS);
    expect(count('notifications')).toBe(300);
    expect(count('receipts')).toBe(200);
    expect(count('users')).toBe(2);
    expect(backup.bytes).toBe(fs.statSync(file).size);
    expect(backup.bytes).toBeLessThan(backup.rawBytes);
    expect(fs.existsSync(`${file}.${process.pid}.tmp`)).toBe(false);

    // The format: canonical Extended JSON lines, a header per collection, a closing line.
    const lines = gunzipSync(fs.readFileSync(file)).toString('utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)[0]).toBe('swiftship-courier-backup');
    expect(JSON.parse(lines.at(-1)!)[0]).toBe('end');
    const odd = lines.find((l) => l.includes(oddId.toHexString()))!;
    expect(odd).toContain('"int32":{"$numberInt":"7"}');
    expect(odd).toContain('"double":{"$numberDouble":"1.5"}');
    expect(odd).toContain('"long":{"$numberLong":"9007199254740993"}');
    expect(odd).toContain('"subType":"04"');
    const parcelsHeader = JSON.parse(
      lines.find((l) => l.startsWith('["collection",{"name":"parcels"'))!,
    );
    expect(parcelsHeader[1].indexes.map((i: Document) => i.name)).toContain('trackingNumber_1');

    const target = freshUri();
    const restored = await restoreDatabase(target, file);
    expect(restored.documents).toBe(backup.documents);
    expect(restored.dropped).toEqual([]);
    await expectSameContents(target);

    // Unique and TTL indexes came back with their options.
    const indexes = await dbOf(target).collection('parcels').listIndexes().toArray();
    expect(indexes.find((i) => i.name === 'trackingNumber_1')).toMatchObject({ unique: true });
    const ttl = await dbOf(target).collection('sessions').listIndexes().toArray();
    expect(ttl.find((i) => i.name === 'expires_1')).toMatchObject({ expireAfterSeconds: 0 });
    const back = await dbOf(target)
      .collection('oddities')
      .findOne({ _id: oddId }, { promoteValues: false, promoteLongs: false });
    expect(back!.int32).toBeInstanceOf(Int32);
    expect(back!.double).toBeInstanceOf(Double);
    expect(back!.long).toBeInstanceOf(Long);
  }, 300_000);

  it('refuses a database that holds documents, and changes nothing', async () => {
    const target = freshUri();
    await dbOf(target).collection('parcels').insertOne({ trackingNumber: 'ABC123456789' });
    await dbOf(target)
      .collection('notes')
      .insertMany([{ a: 1 }, { a: 2 }]);
    await dbOf(target).createCollection('empty');
    const refused = await restoreDatabase(target, file).catch((e) => e);
    expect(refused).toBeInstanceOf(BackupError);
    expect(refused.message).toMatch(
      /is not empty: notes \(2 documents\), parcels \(1 document\)\./,
    );
    expect(refused.message).toContain('--drop');
    expect(await dbOf(target).collection('parcels').countDocuments()).toBe(1);
    expect(await dbOf(target).collection('users').countDocuments()).toBe(0);
  }, 120_000);

  it('with drop, drops the collections that hold documents first', async () => {
    const target = freshUri();
    await dbOf(target).collection('parcels').insertOne({ trackingNumber: 'ABC123456789' });
    await dbOf(target).collection('notes').insertOne({ a: 1 });
    const restored = await restoreDatabase(target, file, { drop: true });
    expect(restored.dropped.sort()).toEqual(['notes', 'parcels']);
    await expectSameContents(target);
  }, 300_000);

  it('takes a database whose collections exist but are empty, as a starting app leaves it', async () => {
    const target = freshUri();
    // Indexes the backup does not have, on an empty collection: the backup's replace them.
    await dbOf(target).collection('parcels').createIndex({ weight: 1 });
    await dbOf(target)
      .collection('sessions')
      .createIndex({ expires: 1 }, { expireAfterSeconds: 60 });
    await restoreDatabase(target, file);
    await expectSameContents(target);
  }, 300_000);

  it('gives clear errors for a missing, cut-off, damaged or foreign file and writes nothing', async () => {
    const target = freshUri();
    const bytes = fs.readFileSync(file);
    const cut = path.join(work, 'cut.gz');
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const damaged = path.join(work, 'damaged.gz');
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0xff;
    fs.writeFileSync(damaged, flipped);
    const plain = path.join(work, 'plain.txt');
    fs.writeFileSync(plain, 'not compressed');
    const foreign = path.join(work, 'foreign.gz');
    fs.writeFileSync(foreign, gzipSync('{"_id":1}\n'));
    const unfinished = path.join(work, 'unfinished.gz');
    const text = gunzipSync(bytes).toString('utf8').trimEnd().split('\n');
    fs.writeFileSync(unfinished, gzipSync(text.slice(0, -1).join('\n') + '\n'));

    const cases: [string, RegExp][] = [
      [path.join(work, 'missing.gz'), /missing\.gz: no such file/],
      [cut, /cut\.gz is cut off/],
      [damaged, /damaged\.gz is not a backup, or is damaged/],
      [plain, /plain\.txt is not a backup, or is damaged/],
      [foreign, /foreign\.gz is not a backup made by `npm run backup`/],
      [unfinished, /unfinished\.gz has no closing line/],
    ];
    for (const [bad, message] of cases) {
      const error = await restoreDatabase(target, bad).catch((e) => e);
      expect(error, bad).toBeInstanceOf(BackupError);
      expect(error.message, bad).toMatch(message);
      await expect(checkBackup(bad)).rejects.toThrow(message);
    }
    expect(await dbOf(target).listCollections().toArray()).toEqual([]);
  }, 120_000);

  it('runs from the command line with the app configuration', async () => {
    const out = path.join(work, 'cli.gz');
    const backup = await run(['scripts/backup.ts', '--out', out], { MONGODB_URI: sourceUri });
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/Backed up database "test_[0-9a-f]+" from MONGODB_URI/);
    expect(backup.stdout).toMatch(/parcels\s+2,500 documents/);

    const target = freshUri();
    const restore = await run(['scripts/restore.ts', out], { MONGODB_URI: target });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/Restored .*cli\.gz .* into database "restore_/);
    await expectSameContents(target);

    const again = await run(['scripts/restore.ts', out], { MONGODB_URI: target });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not empty: .*parcels \(2,500 documents\)/);
    expect(again.stderr).not.toMatch(/\n\s+at /);
  }, 300_000);

  it('answers a wrong command line with the usage and exit code 2', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await backupMain([])).toBe(2);
      expect(await backupMain(['--out', 'x.gz', '--bogus'])).toBe(2);
      expect(await restoreMain([])).toBe(2);
      expect(await restoreMain(['a.gz', 'b.gz'])).toBe(2);
      expect(error.mock.calls.map((c) => String(c[0]))).toEqual([
        'Usage: npm run backup -- --out <file>',
        expect.stringMatching(/Unknown option '--bogus'.*\nUsage: npm run backup -- --out <file>/s),
        'Usage: npm run restore -- <file> [--drop]',
        'Usage: npm run restore -- <file> [--drop]',
      ]);
    } finally {
      error.mockRestore();
    }
  });
});

describe('finding the app database', () => {
  const saved = { MONGODB_URI: process.env.MONGODB_URI, DATA_DIR: process.env.DATA_DIR };
  afterAll(() => {
    process.env.MONGODB_URI = saved.MONGODB_URI;
    process.env.DATA_DIR = saved.DATA_DIR;
  });

  /** Stands in for a running engine: a socket at `file` that forwards to the test server. */
  async function fakeRunningEngine(file: string) {
    const host = decodeURIComponent(new URL(sourceUri).hostname);
    const port = Number(new URL(sourceUri).port || 27017);
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      const upstream = host.startsWith('/') ? net.connect(host) : net.connect(port, host);
      socket.pipe(upstream).pipe(socket);
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((resolve) => server.listen(file, resolve));
    return {
      connections: () => connections,
      stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it('uses MONGODB_URI when it is set', async () => {
    process.env.MONGODB_URI = 'mongodb://user:secret@db.example:27017/courier';
    const database = await openAppDatabase({ create: false });
    expect(database.uri).toBe('mongodb://user:secret@db.example:27017/courier');
    expect(database.description).toBe('MONGODB_URI (mongodb://user:***@db.example:27017/courier)');
  });

  it('reaches a running engine through the socket in its data directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'courier-app-'));
    fs.mkdirSync(path.join(dataDir, 'db'));
    const socket = path.join(dataDir, 'db', 'mongod.sock');
    expect(await findRunningEngine(path.join(dataDir, 'db'))).toBeNull();
    const engine = await fakeRunningEngine(socket);
    try {
      delete process.env.MONGODB_URI;
      process.env.DATA_DIR = dataDir;
      const database = await openAppDatabase({ create: false });
      expect(database.uri).toBe(`mongodb://${encodeURIComponent(socket)}/courier`);
      expect(database.description).toContain("through the running app's engine");
      const report = await backupDatabase(database.uri, path.join(work, 'running.gz'));
      expect(report.database).toBe('courier');
      expect(engine.connections()).toBeGreaterThan(0);
    } finally {
      await engine.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('follows mongod.sock.path when the socket lives elsewhere, and ignores a dead socket', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'courier-app-'));
    const dbDir = path.join(dataDir, 'db');
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'courier-sock-'));
    fs.mkdirSync(dbDir);
    const socket = path.join(elsewhere, 'mongod.sock');
    fs.writeFileSync(path.join(dbDir, 'mongod.sock.path'), `${socket}\n`);
    const engine = await fakeRunningEngine(socket);
    try {
      expect(await findRunningEngine(dbDir)).toBe(`mongodb://${encodeURIComponent(socket)}/`);
    } finally {
      await engine.stop();
    }
    // A socket file nobody listens on any more, as a killed engine leaves it, is not an engine.
    spawnSync(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(socket)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    expect(fs.existsSync(socket)).toBe(true);
    expect(await findRunningEngine(dbDir)).toBeNull();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(elsewhere, { recursive: true, force: true });
  });

  it('starts the engine on DATA_DIR/db when none is running, and refuses a missing directory', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'courier-app-'));
    try {
      delete process.env.MONGODB_URI;
      process.env.DATA_DIR = dataDir;
      await expect(openAppDatabase({ create: false })).rejects.toThrow(
        `There is no embedded database in ${path.join(dataDir, 'db')}`,
      );
      const database = await openAppDatabase({ create: true });
      try {
        expect(database.description).toContain('engine started for this command');
        expect(process.env.MONGODB_URI).toBeUndefined();
        const restored = await restoreDatabase(database.uri, BACKUP_FILE);
        expect(restored.database).toBe('courier');
        expect(restored.documents).toBeGreaterThan(PARCELS);
      } finally {
        await database.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

function run(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    // The tsx binary that `npm run backup` runs, without npm's own start on top.
    const child = spawn(path.join('node_modules', '.bin', 'tsx'), args, {
      env: { ...process.env, ...env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
