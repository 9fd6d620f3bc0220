import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { MongoClient, type Collection } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo, startEmbeddedMongoHere } from '../../embedded-mongo';
import { removeWhenDone, tempDbDir, tsxBin } from './helpers';

// `npm run db` runs the command line through the tsx binary, which starts node as a child of its
// own; both are in one process group, which is what a terminal or a supervisor kills.
const children: ChildProcess[] = [];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCollection = Collection<any>;
const coll = (c: MongoClient): AnyCollection =>
  c.db('lock').collection('parcels') as unknown as AnyCollection;

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) killGroup(c);
});

interface Cli {
  child: ChildProcess;
  /** The TCP address it printed, or null when it exited first. */
  uri: string | null;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `npm run db -- --dir <dir>` in a process group of its own. */
function startCli(dir: string, timeoutMs = 15_000): Promise<Cli> {
  const child = spawn(tsxBin, ['embedded-mongo/cli.ts', '--port', '0', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child);
      reject(new Error(`no address within ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    const stderr = () => err;
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolve({ child, uri: out.trim(), stderr, exited });
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      resolve({ child, uri: null, stderr, exited });
    });
  });
}

/** A socket file left behind by a process that was killed while it listened on it. */
async function staleSocket(dir: string, name: string, alsoAs?: string): Promise<void> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const server = createServer();
  const file = join(dir, name);
  await new Promise<void>((r) => server.listen(file, r));
  // Closing the server removes its file; the extra links stay, as after SIGKILL.
  const keep = join(dir, `${name}.keep`);
  linkSync(file, keep);
  if (alsoAs) linkSync(file, join(dir, alsoAs));
  await new Promise<void>((r) => server.close(() => r()));
  renameSync(keep, file);
  expect(statSync(file).isSocket()).toBe(true);
}

const socketUri = (file: string) => `mongodb://${encodeURIComponent(file)}/`;

/**
 * Several starts at once, `rounds` times, each in a new directory that every other round
 * `leftovers` first fills as a crash leaves it; `race` starts them and stops the one that won.
 */
async function raceEachRound(
  rounds: number,
  leftovers: (dir: string) => Promise<void>,
  race: (dir: string, round: number) => Promise<void>,
): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const dir = tempDbDir('embedded-mongo-lock-');
    if (round % 2 === 1) await leftovers(dir);
    await race(dir, round);
  }
}

describe('data directory lock', () => {
  it('restarts at once after SIGKILL, 20 times in a row, with every acknowledged write', async () => {
    const dir = tempDbDir('embedded-mongo-lock-');
    const acked: number[] = [];
    for (let round = 0; round <= 20; round++) {
      const started = Date.now();
      const cli = await startCli(dir);
      expect(cli.uri, cli.stderr()).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
      expect(Date.now() - started).toBeLessThan(10_000);
      const client = await MongoClient.connect(cli.uri!, { serverSelectionTimeoutMS: 5000 });
      const present = new Set(
        (
          await coll(client)
            .find({}, { projection: { _id: 1 } })
            .toArray()
        ).map((d) => d._id),
      );
      for (const id of acked) expect(present.has(id), `parcel ${id} after ${round}`).toBe(true);
      if (round === 20) {
        await client.close();
        cli.child.kill('SIGTERM');
        await cli.exited;
        break;
      }
      for (let i = 0; i < 5; i++) {
        await coll(client).insertOne({ _id: round * 100 + i, round });
        acked.push(round * 100 + i);
      }
      // Writes still in flight when the process dies are not acknowledged and may be lost.
      for (let i = 50; i < 55; i++)
        coll(client)
          .insertOne({ _id: round * 100 + i, round })
          .catch(() => {});
      killGroup(cli.child);
      void client.close(true).catch(() => {});
      // The next round starts at once, while the killed processes may not even be reaped.
    }
    expect(acked).toHaveLength(100);
  }, 300_000);

  it('starts whatever PID a leftover mongod.lock names, and removes it', async () => {
    for (const pid of [process.pid, process.ppid]) {
      const dir = tempDbDir('embedded-mongo-lock-');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'mongod.lock'), String(pid));
      const engine = await startEmbeddedMongoHere({ dir, tcp: false });
      const client = await MongoClient.connect(engine.uri);
      await coll(client).insertOne({ _id: pid });
      await client.close();
      expect(existsSync(join(dir, 'mongod.lock'))).toBe(false);
      await engine.stop();
    }
  });

  it('refuses a second engine on a live directory, and the first keeps working', async () => {
    const dir = tempDbDir('embedded-mongo-lock-');
    const first = await startCli(dir);
    expect(first.uri).not.toBeNull();
    const client = await MongoClient.connect(first.uri!);
    await coll(client).insertOne({ _id: 'before' });

    const second = await startCli(dir);
    expect(second.uri).toBeNull();
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(
      /data directory .* is in use by another process \(an engine answers on .*mongod-[0-9a-f]{16}\.sock\)/,
    );
    await expect(startEmbeddedMongo({ dir })).rejects.toThrow(/is in use by another process/);
    await expect(startEmbeddedMongoHere({ dir, tcp: false })).rejects.toMatchObject({
      code: 'EDATADIRINUSE',
    });

    await coll(client).insertOne({ _id: 'after' });
    expect(await coll(client).countDocuments()).toBe(2);
    const viaSocket = await MongoClient.connect(socketUri(join(realpathSync(dir), 'mongod.sock')));
    expect(await coll(viaSocket).countDocuments()).toBe(2);
    await viaSocket.close();
    await client.close();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(readdirSync(dir).filter((f) => f.endsWith('.sock'))).toEqual([]);
  }, 60_000);

  it('removes leftover socket files, whatever they are, and starts', async () => {
    const dir = tempDbDir('embedded-mongo-lock-');
    const killed = await startCli(dir);
    const client = await MongoClient.connect(killed.uri!);
    await coll(client).insertOne({ _id: 'kept' });
    killGroup(killed.child);
    await client.close(true).catch(() => {});
    await killed.exited;
    const left = readdirSync(dir).filter((f) => f.endsWith('.sock'));
    expect(left).toContain('mongod.sock');
    expect(left.some((f) => /^mongod-[0-9a-f]{16}\.sock$/.test(f))).toBe(true);
    await staleSocket(dir, `mongod-${randomBytes(8).toString('hex')}.sock`);
    writeFileSync(join(dir, `mongod-${randomBytes(8).toString('hex')}.sock`), 'not a socket');

    const engine = await startEmbeddedMongo({ dir, tcp: false });
    const own = readdirSync(dir).filter((f) => f.endsWith('.sock'));
    expect(own).toHaveLength(2);
    expect(own).toContain('mongod.sock');
    const reopened = await MongoClient.connect(engine.uri);
    expect(await coll(reopened).findOne({ _id: 'kept' })).toEqual({ _id: 'kept' });
    await reopened.close();
    await engine.stop();
    expect(readdirSync(dir).filter((f) => f.endsWith('.sock'))).toEqual([]);

    // A stale stable name alone, and a regular file in its place.
    await staleSocket(dir, 'mongod.sock');
    const again = await startEmbeddedMongoHere({ dir, tcp: false });
    await again.stop();
    writeFileSync(join(dir, 'mongod.sock'), 'junk');
    const third = await startEmbeddedMongoHere({ dir, tcp: false });
    expect(statSync(join(dir, 'mongod.sock')).isSocket()).toBe(true);
    await third.stop();
  }, 60_000);

  it('lets exactly one of several engines starting at once have the directory', async () => {
    const stale = async (dir: string) => {
      await staleSocket(dir, `mongod-${randomBytes(8).toString('hex')}.sock`, 'mongod.sock');
      await staleSocket(dir, `mongod-${randomBytes(8).toString('hex')}.sock`);
    };
    await raceEachRound(12, stale, async (dir, round) => {
      const starts = await Promise.allSettled([
        startEmbeddedMongoHere({ dir, tcp: false }),
        startEmbeddedMongoHere({ dir, tcp: false }),
        startEmbeddedMongoHere({ dir, tcp: false }),
        startEmbeddedMongo({ dir, tcp: false }),
      ]);
      const won = starts.filter((s) => s.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const s of starts)
        if (s.status === 'rejected')
          expect(String(s.reason)).toMatch(/is in use by another process/);
      const engine = (won[0] as PromiseFulfilledResult<{ uri: string; stop(): Promise<void> }>)
        .value;
      const client = await MongoClient.connect(engine.uri);
      await coll(client).insertOne({ _id: round });
      await client.close();
      expect(readdirSync(dir).filter((f) => f.endsWith('.sock'))).toHaveLength(2);
      await engine.stop();
    });
  }, 120_000);

  it('lets exactly one of several processes starting at once have the directory', async () => {
    const killed = async (dir: string) => {
      const cli = await startCli(dir);
      killGroup(cli.child);
      await cli.exited;
    };
    await raceEachRound(4, killed, async (dir, round) => {
      const clis = await Promise.all([startCli(dir), startCli(dir), startCli(dir)]);
      const serving = clis.filter((c) => c.uri !== null);
      expect(serving).toHaveLength(1);
      for (const c of clis.filter((c) => c.uri === null)) {
        expect(await c.exited).toBe(1);
        expect(c.stderr()).toMatch(/is in use by another process/);
      }
      const client = await MongoClient.connect(serving[0]!.uri!);
      await coll(client).insertOne({ _id: round });
      await client.close();
      serving[0]!.child.kill('SIGTERM');
      expect(await serving[0]!.exited).toBe(0);
    });
  }, 120_000);

  it('serves on its socket only with tcp: false; the socket is private', async () => {
    const dir = tempDbDir('embedded-mongo-lock-');
    const engine = await startEmbeddedMongo({ dir, tcp: false });
    const socket = join(realpathSync(dir), 'mongod.sock');
    expect(engine.uri).toBe(socketUri(socket));
    expect(engine.tcpUri).toBeNull();
    expect(engine.port).toBeNull();
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const client = await MongoClient.connect(`${engine.uri}parcels`);
    await client
      .db()
      .collection('p')
      .insertOne({ _id: 1 } as never);
    await client.close();
    await engine.stop();
    expect(existsSync(socket)).toBe(false);

    const memory = await startEmbeddedMongo({ tcp: false });
    const file = decodeURIComponent(memory.uri.slice('mongodb://'.length, -1));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const c = await MongoClient.connect(memory.uri);
    expect(await c.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
    await c.close();
    await memory.stop();
    await expect(startEmbeddedMongoHere({ tcp: false, socket: false })).rejects.toThrow(
      /tcp: false/,
    );

    // With TCP (the default) the socket is the address handed out, and TCP answers too.
    const both = await startEmbeddedMongoHere({ dir });
    expect(both.uri).toBe(socketUri(socket));
    expect(both.tcpUri).toBe(`mongodb://127.0.0.1:${both.port}/`);
    const viaTcp = await MongoClient.connect(both.tcpUri);
    expect(await viaTcp.db('parcels').collection('p').countDocuments()).toBe(1);
    await viaTcp.close();
    await both.stop();
  });

  it('keeps the socket in /tmp when the directory path is too long for one', async () => {
    const dir = join(tempDbDir('embedded-mongo-lock-'), 'a-directory-name-long-enough'.repeat(4));
    mkdirSync(dir, { recursive: true });
    const real = realpathSync(dir);
    const short = join(
      '/tmp',
      `embedded-mongo-${createHash('sha256').update(real).digest('hex').slice(0, 16)}`,
    );
    removeWhenDone(short);
    const engine = await startEmbeddedMongo({ dir, tcp: false });
    expect(engine.uri).toBe(socketUri(join(short, 'mongod.sock')));
    expect(readFileSync(join(dir, 'mongod.sock.path'), 'utf8').trim()).toBe(
      join(short, 'mongod.sock'),
    );
    expect(statSync(short).mode & 0o777).toBe(0o700);
    const client = await MongoClient.connect(engine.uri);
    await coll(client).insertOne({ _id: 'long' });
    await client.close();
    await expect(startEmbeddedMongoHere({ dir })).rejects.toThrow(/is in use by another process/);
    await engine.stop();
    const again = await startEmbeddedMongoHere({ dir, tcp: false });
    const reopened = await MongoClient.connect(again.uri);
    expect(await coll(reopened).findOne({ _id: 'long' })).toEqual({ _id: 'long' });
    await reopened.close();
    await again.stop();
  });
});
