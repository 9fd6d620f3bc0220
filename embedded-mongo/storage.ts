import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { crc32 } from 'node:zlib';
import { serialize } from 'bson';
import type { Engine, Op } from './engine';
import { decodeDocument } from './wire';

export const SNAPSHOT = 'snapshot.bson';
const SNAPSHOT_TMP = 'snapshot.bson.tmp';
export const JOURNAL_RE = /^journal\.(\d+)\.bson$/;
const RECORD_HEADER = 8;
/** Modes of the data directory and of every file in it: for the owner only. */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

export interface StorageOptions {
  /** Journal size that triggers writing a snapshot. */
  compactBytes?: number;
}

export function journalName(gen: number): string {
  return `journal.${gen}.bson`;
}

export function frame(op: object): Buffer {
  const body = serialize(op);
  const head = Buffer.allocUnsafe(RECORD_HEADER);
  head.writeUInt32LE(body.length, 0);
  head.writeUInt32LE(crc32(body), 4);
  return Buffer.concat([head, body]);
}

/** The intact record that starts at `at` and the offset where it ends, or null. */
export function recordAt(
  buf: Buffer,
  at: number,
): { rec: Record<string, unknown>; end: number } | null {
  if (at + RECORD_HEADER + 5 > buf.length) return null;
  const len = buf.readUInt32LE(at);
  const end = at + RECORD_HEADER + len;
  if (len < 5 || end > buf.length) return null;
  // A BSON document begins with its own length: a cheap test before the checksum.
  if (buf.readUInt32LE(at + RECORD_HEADER) !== len) return null;
  const body = buf.subarray(at + RECORD_HEADER, end);
  if (crc32(body) !== buf.readUInt32LE(at + 4)) return null;
  try {
    return { rec: decodeDocument(body), end };
  } catch {
    return null;
  }
}

/** The first offset at or after `from` where an intact record starts, or -1. */
export function nextRecord(buf: Buffer, from: number): number {
  for (let at = from; at + RECORD_HEADER + 5 <= buf.length; at++) if (recordAt(buf, at)) return at;
  return -1;
}

/** Reads framed records; returns the offset where intact records end (damage or a torn tail starts there). */
export function readRecords(buf: Buffer, onRecord: (rec: Record<string, unknown>) => void): number {
  let at = 0;
  for (let r = recordAt(buf, at); r; r = recordAt(buf, at)) {
    onRecord(r.rec);
    at = r.end;
  }
  return at;
}

/**
 * What follows the intact records that end at `end`:
 * - `clean`: nothing;
 * - `torn`: the final record of the file, cut off by a crash while it was written: the file
 *   ends before the length it declares, or it is the last thing in the file and its checksum
 *   fails, or only zero bytes follow (space a file system gave the file before the data reached
 *   it). Most likely such a record was never acknowledged, since a write is acknowledged once it
 *   is on disk; but damage to the end of the file looks the same, so its bytes are kept aside.
 * - `damaged`: anything else, in particular a bad record with data after it, or any intact
 *   record anywhere after it (also when a damaged length field makes it look like the last).
 */
export function tailAfter(
  buf: Buffer,
  end: number,
): { kind: 'clean' } | { kind: 'torn' } | { kind: 'damaged'; next: number } {
  if (end >= buf.length) return { kind: 'clean' };
  const next = nextRecord(buf, end + 1);
  if (next >= 0) return { kind: 'damaged', next };
  if (buf.subarray(end).every((b) => b === 0)) return { kind: 'torn' };
  if (buf.length - end < RECORD_HEADER) return { kind: 'torn' };
  const len = buf.readUInt32LE(end);
  if (len >= 5 && end + RECORD_HEADER + len >= buf.length) return { kind: 'torn' };
  return { kind: 'damaged', next: -1 };
}

/** A journal or snapshot that cannot be read without losing records that are still intact. */
export class DamagedFileError extends Error {
  readonly code = 'EDATADAMAGED';

  constructor(
    readonly file: string,
    readonly offset: number,
    dir: string,
    detail: string,
  ) {
    super(
      `${file} is damaged at byte offset ${offset} (${detail}). The engine does not start on ` +
        'it, so that no record after the damage is lost, and has left the file as it is. To ' +
        'keep every record that is still intact, stop whatever uses the directory and run: ' +
        `npm run db -- --dir ${dir} --salvage`,
    );
  }
}

function describe(buf: Buffer, end: number, tail: ReturnType<typeof tailAfter>): string {
  const after = buf.length - end;
  if (tail.kind === 'damaged' && tail.next >= 0)
    return `${after} bytes follow it, with intact records again from offset ${tail.next}`;
  if (tail.kind === 'torn')
    return `the last ${after} bytes are an incomplete record, where the file should be complete`;
  return `${after} bytes follow it`;
}

/** Gives the directory mode 0700 and its files mode 0600; warns where that is not allowed. */
export function privatize(dir: string): void {
  const fix = (path: string, mode: number): void => {
    try {
      if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
    } catch (err) {
      const { code, message } = err as NodeJS.ErrnoException;
      if (code !== 'ENOENT')
        console.warn(`embedded-mongo: cannot make ${path} private: ${message}`);
    }
  };
  fix(dir, DIR_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isFile()) fix(join(dir, entry.name), FILE_MODE);
}

interface Waiter {
  buf: Buffer;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Append-only journal with group commit and periodic snapshots. The caller holds the lock on the
 * directory (see lock.ts).
 */
export class Storage {
  private fh: FileHandle | null = null;
  private gen = 0;
  private journalBytes = 0;
  private queue: Waiter[] = [];
  private flushing: Promise<void> | null = null;
  private compacting: Promise<void> | null = null;
  private failed: Error | null = null;
  private readonly compactBytes: number;
  private closed = false;

  private constructor(
    readonly dir: string,
    private readonly engine: Engine,
    opts: StorageOptions,
  ) {
    this.compactBytes = opts.compactBytes ?? 64 * 1024 * 1024;
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  }

  static async open(dir: string, engine: Engine, opts: StorageOptions = {}): Promise<Storage> {
    const storage = new Storage(resolve(dir), engine, opts);
    await storage.load();
    return storage;
  }

  private async load(): Promise<void> {
    privatize(this.dir);
    const snapPath = join(this.dir, SNAPSHOT);
    if (existsSync(join(this.dir, SNAPSHOT_TMP))) unlinkSync(join(this.dir, SNAPSHOT_TMP));
    let gen = 0;
    if (existsSync(snapPath)) {
      const buf = readFileSync(snapPath);
      let sawGen = false;
      const end = readRecords(buf, (rec) => {
        if (rec.o === 'gen') {
          gen = Number(rec.gen);
          sawGen = true;
        } else this.engine.replay(rec as Op);
      });
      // A snapshot is complete on disk before it takes its name, so it has no torn tail.
      if (end !== buf.length)
        throw new DamagedFileError(
          snapPath,
          end,
          this.dir,
          describe(buf, end, tailAfter(buf, end)),
        );
      if (!sawGen)
        throw new DamagedFileError(snapPath, 0, this.dir, 'its generation record is missing');
    }
    const journals = readdirSync(this.dir)
      .map((f) => JOURNAL_RE.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    let last = gen;
    for (const g of journals) {
      const path = join(this.dir, journalName(g));
      if (g < gen) {
        unlinkSync(path);
        continue;
      }
      const buf = readFileSync(path);
      const end = readRecords(buf, (rec) => this.engine.replay(rec as Op));
      const tail = tailAfter(buf, end);
      // Only the newest journal is written to, so only it can end in a torn record.
      if (tail.kind === 'damaged' || (tail.kind === 'torn' && g !== journals.at(-1)))
        throw new DamagedFileError(path, end, this.dir, describe(buf, end, tail));
      if (tail.kind === 'torn') {
        // Most likely a write cut off by a crash, never acknowledged; but the same bytes could be
        // an acknowledged record damaged on disk. They are kept beside the journal, then dropped.
        const kept = `${path}.tail-${end}`;
        const copy = await open(kept, 'w', FILE_MODE);
        await copy.writeFile(buf.subarray(end));
        await copy.sync();
        await copy.close();
        console.warn(
          `embedded-mongo: ${path}: dropping an incomplete record at byte offset ${end} ` +
            `(the last ${buf.length - end} bytes). Most likely a write cut off by a crash before ` +
            'it was acknowledged, but it may also be damage to a record that was acknowledged: ' +
            `the bytes are kept in ${kept}.`,
        );
        const fh = await open(path, 'r+');
        await fh.truncate(end);
        await fh.sync();
        await fh.close();
      }
      last = g;
      this.journalBytes = end;
    }
    this.engine.takeOps();
    this.gen = last;
    this.fh = await open(join(this.dir, journalName(this.gen)), 'a', FILE_MODE);
  }

  /** Appends records; resolves once they are on disk. */
  append(ops: Op[]): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.closed) return Promise.reject(new Error('storage is closed'));
    const buf = ops.length === 1 ? frame(ops[0]!) : Buffer.concat(ops.map(frame));
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ buf, resolve, reject });
      if (!this.flushing) this.flushing = this.flushLoop();
    });
  }

  private async flushLoop(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0);
        try {
          const data = batch.length === 1 ? batch[0]!.buf : Buffer.concat(batch.map((w) => w.buf));
          await this.fh!.write(data);
          await this.fh!.datasync();
          this.journalBytes += data.length;
          for (const w of batch) w.resolve();
        } catch (err) {
          this.failed = err as Error;
          for (const w of batch) w.reject(err as Error);
          for (const w of this.queue.splice(0)) w.reject(err as Error);
          return;
        }
        if (this.journalBytes >= this.compactBytes && !this.compacting && !this.closed)
          await this.startCompaction();
      }
    } finally {
      this.flushing = null;
    }
  }

  /** Switches to a new journal and writes a snapshot of the state in the background. */
  private async startCompaction(): Promise<void> {
    const oldGen = this.gen;
    const newGen = oldGen + 1;
    const ops = this.engine.snapshotOps();
    await this.fh!.close();
    this.fh = await open(join(this.dir, journalName(newGen)), 'a', FILE_MODE);
    this.gen = newGen;
    this.journalBytes = 0;
    this.compacting = this.writeSnapshot(ops, newGen, oldGen)
      .catch((err: Error) => {
        process.emitWarning(`embedded-mongo: snapshot failed: ${err.message}`);
      })
      .finally(() => {
        this.compacting = null;
      });
  }

  private async writeSnapshot(ops: Iterable<Op>, gen: number, oldGen: number): Promise<void> {
    const tmp = join(this.dir, SNAPSHOT_TMP);
    const fh = await open(tmp, 'w', FILE_MODE);
    try {
      let chunk: Buffer[] = [frame({ o: 'gen', gen })];
      let size = 0;
      for (const op of ops) {
        const f = frame(op);
        chunk.push(f);
        size += f.length;
        if (size >= 4 * 1024 * 1024) {
          await fh.write(Buffer.concat(chunk));
          chunk = [];
          size = 0;
        }
      }
      if (chunk.length) await fh.write(Buffer.concat(chunk));
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, join(this.dir, SNAPSHOT));
    await this.syncDir();
    for (let g = oldGen; g >= 0; g--) {
      try {
        await unlink(join(this.dir, journalName(g)));
      } catch {
        break;
      }
    }
  }

  private async syncDir(): Promise<void> {
    try {
      const d = await open(this.dir, 'r');
      await d.sync();
      await d.close();
    } catch {
      // fsync on a directory is not supported everywhere
    }
  }

  /** Writes a snapshot now (used on clean shutdown so the next start is quick). */
  async compact(): Promise<void> {
    await this.flushing;
    await this.compacting;
    if (this.journalBytes > 0) {
      await this.startCompaction();
      await this.compacting;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.compact();
    } finally {
      this.closed = true;
      await this.flushing;
      await this.fh?.close();
      this.fh = null;
    }
  }
}
