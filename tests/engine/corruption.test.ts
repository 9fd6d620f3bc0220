import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize } from 'bson';
import { MongoClient } from 'mongodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedMongo, startEmbeddedMongoHere } from '../../embedded-mongo';
import { fillAndKill } from './crash';
import { tempDbDir, tsxBin } from './helpers';

afterEach(() => {
  vi.restoreAllMocks();
});

interface Rec {
  offset: number;
  end: number;
  body: Record<string, unknown>;
}

/** The records of an intact journal or snapshot, by following their length fields. */
function records(buf: Buffer): Rec[] {
  const out: Rec[] = [];
  for (let at = 0; at < buf.length;) {
    const end = at + 8 + buf.readUInt32LE(at);
    out.push({ offset: at, end, body: deserialize(buf.subarray(at + 8, end)) });
    at = end;
  }
  return out;
}

/** The record holding byte `offset`. */
const recordAt = (recs: Rec[], offset: number) =>
  recs.find((r) => r.offset <= offset && offset < r.end)!;

async function parcelIds(dir: string): Promise<number[]> {
  const engine = await startEmbeddedMongo({ dir, tcp: false });
  const client = await MongoClient.connect(engine.uri);
  try {
    const docs = await client.db('courier').collection('parcels').find().toArray();
    return docs.map((d) => d._id as unknown as number).sort((a, b) => a - b);
  } finally {
    await client.close();
    await engine.stop();
  }
}

function runCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(tsxBin, ['embedded-mongo/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A data directory of `count` parcels whose writer was killed, its journal and a copy to damage. */
async function killedJournal(count: number) {
  const dir = tempDbDir('embedded-mongo-damage-');
  await fillAndKill(dir, count);
  const journal = join(dir, 'journal.0.bson');
  const original = readFileSync(journal);
  return { dir, journal, original, damaged: Buffer.from(original) };
}

describe('damaged data files', () => {
  it('refuses to start on a journal damaged in the middle, and leaves it as it is', async () => {
    const { dir, journal, original, damaged } = await killedJournal(143);
    expect(original.length).toBeGreaterThan(130_000);
    const hit = recordAt(records(original), 20_050);
    damaged[20_050]! ^= 0x10;
    writeFileSync(journal, damaged);
    // Besides the socket files (the lock), the directory stays as it is.
    const files = () =>
      readdirSync(dir)
        .filter((f) => !f.endsWith('.sock'))
        .sort();
    const listing = files();

    await expect(startEmbeddedMongo({ dir })).rejects.toThrow(
      `journal.0.bson is damaged at byte offset ${hit.offset}`,
    );
    const cli = await runCli(['--dir', dir]);
    expect(cli.code).toBe(1);
    expect(cli.err).toContain(`journal.0.bson is damaged at byte offset ${hit.offset}`);
    expect(cli.err).toContain(`npm run db -- --dir ${dir} --salvage`);
    expect(readFileSync(journal).equals(damaged)).toBe(true);
    expect(files()).toEqual(listing);

    // Salvage keeps every intact record, before and after the damaged one.
    const salvage = await runCli(['--dir', dir, '--salvage']);
    expect(salvage.code, salvage.err).toBe(0);
    expect(salvage.out).toContain(
      `journal.0.bson: kept ${records(original).length - 1} records, dropped 1 damaged record`,
    );
    expect(salvage.out).toContain(`offset ${hit.offset}: ${hit.end - hit.offset} bytes`);
    const aside = readdirSync(dir).find((f) => f.startsWith('journal.0.bson.corrupt-'))!;
    expect(readFileSync(join(dir, aside)).equals(damaged)).toBe(true);
    const lost = (hit.body.d as { _id: number })._id;
    expect(lost).toBeGreaterThan(0);
    expect(await parcelIds(dir)).toEqual(range(143).filter((n) => n !== lost));
  }, 60_000);

  it('does not take a damaged length field for a torn final record', async () => {
    const { dir, journal, original, damaged } = await killedJournal(40);
    const recs = records(original);
    const hit = recs[Math.floor(recs.length / 2)]!;
    damaged[hit.offset + 3] = 0x7f; // declares a record far longer than the file
    writeFileSync(journal, damaged);
    await expect(startEmbeddedMongoHere({ dir })).rejects.toMatchObject({
      code: 'EDATADAMAGED',
      message: expect.stringContaining(`damaged at byte offset ${hit.offset}`),
    });
    expect(readFileSync(journal).equals(damaged)).toBe(true);
    const salvage = await runCli(['--dir', dir, '--salvage']);
    expect(salvage.code, salvage.err).toBe(0);
    const lost = (hit.body.d as { _id: number })._id;
    expect(await parcelIds(dir)).toEqual(range(40).filter((n) => n !== lost));
  }, 60_000);

  it('drops a final record whose checksum fails, with a warning', async () => {
    const { dir, journal, original, damaged } = await killedJournal(10);
    const last = records(original).at(-1)!;
    damaged[last.offset + 40]! ^= 0x01;
    writeFileSync(journal, damaged);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const engine = await startEmbeddedMongoHere({ dir, tcp: false });
    await engine.stop();
    expect(warn).toHaveBeenCalledWith(
      expect.stringContaining(
        `journal.0.bson: dropping an incomplete record at byte offset ${last.offset}`,
      ),
    );
    // A failed checksum may be damage to a record that was acknowledged: said, and kept aside.
    const kept = `${journal}.tail-${last.offset}`;
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('it may also be damage'));
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(kept));
    expect(readFileSync(kept).equals(damaged.subarray(last.offset))).toBe(true);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(await parcelIds(dir)).toEqual(range(9));
  }, 60_000);

  it('refuses a damaged snapshot and salvages it', async () => {
    const dir = tempDbDir('embedded-mongo-damage-');
    await fillAndKill(dir, 60);
    // A clean stop folds the journal into a snapshot.
    await (await startEmbeddedMongoHere({ dir })).stop();
    const snapshot = join(dir, 'snapshot.bson');
    const original = readFileSync(snapshot);
    const recs = records(original);
    expect(recs[0]!.body).toMatchObject({ o: 'gen' });
    const hit = recs[30]!;
    const damaged = Buffer.from(original);
    damaged[hit.offset + 100]! ^= 0x04;
    writeFileSync(snapshot, damaged);
    await expect(startEmbeddedMongoHere({ dir })).rejects.toThrow(
      `snapshot.bson is damaged at byte offset ${hit.offset}`,
    );
    expect(readFileSync(snapshot).equals(damaged)).toBe(true);
    const salvage = await runCli(['--dir', dir, '--salvage']);
    expect(salvage.code, salvage.err).toBe(0);
    expect(salvage.out).toContain('snapshot.bson: kept');
    const lost = (hit.body.d as { _id: number })._id;
    expect(await parcelIds(dir)).toEqual(range(60).filter((n) => n !== lost));
  }, 60_000);

  it('salvage reports an intact directory unchanged, and waits for no running engine', async () => {
    const busyDir = tempDbDir('embedded-mongo-damage-');
    const engine = await startEmbeddedMongo({ dir: busyDir, tcp: false });
    const busy = await runCli(['--dir', busyDir, '--salvage']);
    expect(busy.code).toBe(1);
    expect(busy.err).toMatch(/is in use by another process/);
    await engine.stop();

    const dir = tempDbDir('embedded-mongo-damage-');
    await fillAndKill(dir, 5);
    const before = readFileSync(join(dir, 'journal.0.bson'));
    const clean = await runCli(['--dir', dir, '--salvage']);
    expect(clean.code).toBe(0);
    expect(clean.out).toContain('journal.0.bson: intact, 6 records');
    expect(clean.out).toContain('Nothing was damaged');
    expect(readFileSync(join(dir, 'journal.0.bson')).equals(before)).toBe(true);
  }, 60_000);
});
