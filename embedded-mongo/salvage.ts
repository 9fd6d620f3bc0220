/**
 * Salvage of a data directory whose journal or snapshot is damaged (`npm run db -- --dir <dir>
 * --salvage`). The engine refuses to start on such a directory rather than drop the records after
 * the damage; this keeps every record whose checksum holds, before and after each damaged
 * stretch, and drops only the stretches themselves.
 *
 * For each damaged file it
 * 1. keeps the original as `<file>.corrupt-<timestamp>` (a hard link, or a copy where the file
 *    system has none),
 * 2. finds the next offset after each damaged stretch where an intact record (length, checksum
 *    and BSON agree) starts, and goes on reading from there,
 * 3. writes the intact records to a new file and puts it in place with a rename, so that a crash
 *    at any moment leaves either the old or the new file under the name.
 * Records are whole document versions, so what a dropped record held is simply missing: a
 * document that was inserted or replaced in it is absent or at its previous version, one that
 * was deleted in it is back.
 */
import { constants } from 'node:fs';
import { copyFile, link, open, readFile, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { lockDataDir } from './lock';
import {
  FILE_MODE,
  frame,
  JOURNAL_RE,
  journalName,
  nextRecord,
  privatize,
  recordAt,
  SNAPSHOT,
} from './storage';

export interface DroppedStretch {
  /** Byte offset of the damaged stretch in the file. */
  offset: number;
  bytes: number;
  /** Records the stretch held, as far as their length fields tell. */
  records: number;
  /** True when `records` is exact; false when it is a lower bound. */
  exact: boolean;
}

export interface SalvagedFile {
  /** File name in the data directory. */
  file: string;
  /** Intact records kept. */
  kept: number;
  dropped: DroppedStretch[];
  /** Where the original is kept, when the file was rewritten. */
  savedAs: string | null;
  note?: string;
}

export interface SalvageReport {
  dir: string;
  files: SalvagedFile[];
}

interface Scan {
  frames: Buffer[];
  recs: Record<string, unknown>[];
  dropped: DroppedStretch[];
}

/** Counts the records in a damaged stretch by following their length fields. */
function countRecords(buf: Buffer, from: number, to: number): { records: number; exact: boolean } {
  if (buf.subarray(from, to).every((b) => b === 0)) return { records: 0, exact: true };
  let records = 0;
  for (let at = from; at < to;) {
    const len = at + 8 <= to ? buf.readUInt32LE(at) : -1;
    records++;
    if (len < 5 || at + 8 + len > to) return { records, exact: false };
    at += 8 + len;
  }
  return { records, exact: true };
}

export function scanRecords(buf: Buffer): Scan {
  const scan: Scan = { frames: [], recs: [], dropped: [] };
  let at = 0;
  while (at < buf.length) {
    const r = recordAt(buf, at);
    if (r) {
      scan.frames.push(buf.subarray(at, r.end));
      scan.recs.push(r.rec);
      at = r.end;
      continue;
    }
    const next = nextRecord(buf, at + 1);
    const stop = next < 0 ? buf.length : next;
    scan.dropped.push({ offset: at, bytes: stop - at, ...countRecords(buf, at, stop) });
    at = stop;
  }
  return scan;
}

async function syncDir(dir: string): Promise<void> {
  try {
    const d = await open(dir, 'r');
    await d.sync();
    await d.close();
  } catch {
    // fsync on a directory is not supported everywhere
  }
}

/** Keeps the original aside and puts `content` in its place. Returns the name kept aside. */
async function rewrite(dir: string, name: string, content: Buffer, stamp: string): Promise<string> {
  const aside = `${name}.corrupt-${stamp}`;
  try {
    await link(join(dir, name), join(dir, aside));
  } catch {
    await copyFile(join(dir, name), join(dir, aside), constants.COPYFILE_EXCL);
    const fh = await open(join(dir, aside), 'r+');
    await fh.chmod(FILE_MODE);
    await fh.sync();
    await fh.close();
  }
  const tmp = join(dir, `${name}.salvage-tmp`);
  const fh = await open(tmp, 'w', FILE_MODE);
  try {
    await fh.write(content);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(tmp, join(dir, name));
  await syncDir(dir);
  return aside;
}

/**
 * Salvages the data directory `dir`; refuses while an engine uses it. Files without damage are
 * left as they are.
 */
export async function salvageDataDir(dir: string): Promise<SalvageReport> {
  const lock = await lockDataDir(dir);
  try {
    const real = lock.dir;
    privatize(real);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const names = await readdir(real);
    const gens = names
      .map((f) => JOURNAL_RE.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    const report: SalvageReport = { dir: real, files: [] };
    let gen = 0;
    if (names.includes(SNAPSHOT)) {
      const scan = scanRecords(await readFile(join(real, SNAPSHOT)));
      const genRec = scan.recs.find((r) => r.o === 'gen');
      const file: SalvagedFile = {
        file: SNAPSHOT,
        kept: scan.recs.length,
        dropped: scan.dropped,
        savedAs: null,
      };
      if (genRec) gen = Number(genRec.gen);
      else {
        // The snapshot covers every journal older than its generation. Without the record that
        // says which, the oldest journal left is taken, so that no journal is skipped.
        gen = gens[0] ?? 0;
        file.note = `its generation record was lost; journals from ${journalName(gen)} on are replayed over it`;
      }
      if (scan.dropped.length > 0 || !genRec) {
        const rest = scan.frames.filter((_, i) => scan.recs[i]!.o !== 'gen');
        const content = Buffer.concat([frame({ o: 'gen', gen }), ...rest]);
        file.savedAs = await rewrite(real, SNAPSHOT, content, stamp);
      }
      report.files.push(file);
    }
    for (const g of gens) {
      // Older journals are covered by the snapshot; the engine removes them when it starts.
      if (g < gen) continue;
      const name = journalName(g);
      const scan = scanRecords(await readFile(join(real, name)));
      const file: SalvagedFile = {
        file: name,
        kept: scan.recs.length,
        dropped: scan.dropped,
        savedAs: null,
      };
      if (scan.dropped.length > 0)
        file.savedAs = await rewrite(real, name, Buffer.concat(scan.frames), stamp);
      report.files.push(file);
    }
    return report;
  } finally {
    await lock.release();
  }
}

/** The report as lines for people. */
export function describeSalvage(report: SalvageReport): string[] {
  const lines = [`salvage of ${report.dir}:`];
  if (report.files.length === 0) lines.push('  no journal or snapshot: nothing to salvage');
  for (const f of report.files) {
    if (f.dropped.length === 0 && !f.savedAs) {
      lines.push(`  ${f.file}: intact, ${f.kept} records`);
      continue;
    }
    const lost = f.dropped.reduce((n, d) => n + d.records, 0);
    const exact = f.dropped.every((d) => d.exact);
    lines.push(
      `  ${f.file}: kept ${f.kept} records, dropped ${exact ? '' : 'at least '}${lost} ` +
        `damaged record${lost === 1 ? '' : 's'} in ${f.dropped.length} stretch` +
        `${f.dropped.length === 1 ? '' : 'es'}:`,
    );
    for (const d of f.dropped)
      lines.push(
        `    offset ${d.offset}: ${d.bytes} bytes, ${d.exact ? '' : 'at least '}${d.records} ` +
          `record${d.records === 1 ? '' : 's'}`,
      );
    if (f.note) lines.push(`    ${f.note}`);
    if (f.savedAs) lines.push(`    the original is kept as ${f.savedAs}`);
  }
  const damaged = report.files.some((f) => f.savedAs);
  lines.push(
    damaged
      ? 'The directory can be started again; the documents of dropped records are missing or at an earlier version.'
      : 'Nothing was damaged; nothing was changed.',
  );
  return lines;
}
