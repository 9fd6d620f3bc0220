/**
 * Backups of the app's database, and restoring them:
 *
 *   npm run backup -- --out backup.gz
 *   npm run restore -- backup.gz [--drop]
 *
 * Both use the app's configuration: MONGODB_URI when set; otherwise the embedded database in
 * DATA_DIR/db — through the running app's engine when the app is running, else on an engine
 * started for the command (scripts/support/app-database.ts).
 *
 * The file is gzip-compressed text, one JSON value per line, in MongoDB Extended JSON v2,
 * canonical mode, so that every BSON type comes back as it was (ObjectId, Date, Int32 and Double
 * apart, Int64, Decimal128, Binary with its subtype, Timestamp, regular expressions…):
 *
 *   ["swiftship-courier-backup", {"version": 1, "database": …, "createdAt": …, "consistency": …}]
 *   ["collection", {"name": "parcels", "type": "collection", "options": {…}, "indexes": [ …listIndexes… ]}]
 *   {"_id": {"$oid": "…"}, …}                 one line per document of that collection
 *   ["collection", {"name": "users", …}]
 *   …
 *   ["end", {"collections": {"parcels": 10000, "users": 3, …}, "documents": 10003}]
 *
 * Documents are objects and the other lines arrays, so nothing a document holds can be mistaken
 * for a section header. The closing line's counts tell a complete file from a cut-off one.
 * Collections whose names start with `system.` are left out; views are kept as definitions.
 *
 * Consistency:
 * - Every collection is read in full, and each one as of a single moment: the find of every
 *   collection is issued first, back to back, and their results are read afterwards.
 * - On the embedded engine, which runs one command at a time and never changes a document in
 *   place, a find's result is a snapshot of its collection taken when the find ran. Writes that
 *   land between two of those finds (the time of one round trip each) can be in one collection's
 *   snapshot and not another's: a receipt may name a parcel created a moment too late to be in
 *   the backup. For a backup of one exact moment, stop the app first.
 * - On a MongoDB replica set (or sharded cluster) every find reads in one snapshot session, so
 *   all collections are read as of the same cluster time. That snapshot is held for at most
 *   `minSnapshotHistoryWindowInSeconds` (300 s by default): a backup that takes longer fails.
 * - On a standalone MongoDB a find is not a snapshot: documents written while it is read may or
 *   may not be in the backup. Stop the app, or run MongoDB as a (one-member) replica set.
 *
 * Restore loads a backup into an empty database (collections without documents count as
 * empty) and refuses anything else, naming the collections that hold documents, unless given
 * `--drop`, which drops those collections first. Collections are created with their options,
 * documents are inserted in batches, and then the indexes are created as listed in the backup
 * (unique, TTL, partial… included). The whole file is checked (gzip checksum, structure, counts)
 * before anything is written.
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createGunzip, createGzip } from 'node:zlib';
import { EJSON, type Document } from 'bson';
import { MongoClient, type ClientSession, type Db, type FindCursor } from 'mongodb';
import { AppDatabaseError, openAppDatabase, type AppDatabase } from './support/app-database';

export const BACKUP_FORMAT = 'swiftship-courier-backup';
export const BACKUP_VERSION = 1;

/** What the user did wrong or what is wrong with a file: printed as is, without a stack. */
export class BackupError extends Error {}

export interface CollectionSummary {
  name: string;
  type: string;
  documents: number;
  indexes: number;
}

export interface BackupReport {
  database: string;
  file: string;
  collections: CollectionSummary[];
  documents: number;
  /** Size of the file (compressed). */
  bytes: number;
  /** Size of the text inside it. */
  rawBytes: number;
  seconds: number;
  consistency: string;
}

export interface RestoreReport {
  database: string;
  file: string;
  collections: CollectionSummary[];
  documents: number;
  bytes: number;
  /** Collections that held documents and were dropped first (with --drop). */
  dropped: string[];
  seconds: number;
}

interface CollectionHeader {
  name: string;
  type: string;
  options: Document;
  indexes: Document[];
}

/** What a backup or a restore reports of its collections, and their documents in all. */
function collectionsOf(headers: CollectionHeader[], counts: Record<string, number>) {
  const collections = headers.map((h) => ({
    name: h.name,
    type: h.type,
    documents: counts[h.name] ?? 0,
    indexes: h.indexes.length,
  }));
  return { collections, documents: collections.reduce((sum, c) => sum + c.documents, 0) };
}

/** Types are kept as they are: Int32 stays Int32, Double stays Double, Int64 stays Int64. */
const RAW_TYPES = { promoteValues: false, promoteLongs: false, promoteBuffers: false } as const;
const CANONICAL = { relaxed: false } as const;
/** Documents per insert (and less when they are large: see INSERT_BYTES). */
const INSERT_DOCS = 1000;
const INSERT_BYTES = 8 * 1024 * 1024;
/** Lines are handed to gzip in chunks of about this size. */
const CHUNK_BYTES = 256 * 1024;

const line = (value: unknown) => `${EJSON.stringify(value, CANONICAL)}\n`;

function connect(uri: string): MongoClient {
  return new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
}

/** Collections (and views) of a database, without system collections, by name. */
async function listCollections(db: Db) {
  const infos = await db.listCollections({}, { nameOnly: false, ...RAW_TYPES }).toArray();
  return infos
    .filter((info) => !info.name.startsWith('system.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A replica set member or a mongos: snapshot reads are possible. The engine is neither. */
async function supportsSnapshots(db: Db): Promise<boolean> {
  const hello = await db.admin().command({ hello: 1 });
  return Boolean(hello.setName) || hello.msg === 'isdbgrid';
}

/** Writes a backup of the database `uri` names to `out` (through a temporary file beside it). */
export async function backupDatabase(uri: string, out: string): Promise<BackupReport> {
  const started = performance.now();
  const dir = path.dirname(path.resolve(out));
  if (!existsSync(dir)) throw new BackupError(`Cannot write ${out}: there is no directory ${dir}`);
  const client = connect(uri);
  const tmp = `${out}.${process.pid}.tmp`;
  const cursors: (FindCursor<Document> | null)[] = [];
  let session: ClientSession | undefined;
  try {
    await client.connect();
    const db = client.db();
    const snapshot = await supportsSnapshots(db);
    session = snapshot ? client.startSession({ snapshot: true }) : undefined;
    const consistency = snapshot
      ? 'all collections as of one cluster time (snapshot session)'
      : 'each collection as of one moment, read back to back (not one moment for all)';

    const infos = await listCollections(db);
    const headers: CollectionHeader[] = [];
    for (const info of infos) {
      const type = info.type ?? 'collection';
      const indexes =
        type === 'view' ? [] : await db.collection(info.name).listIndexes(RAW_TYPES).toArray();
      headers.push({ name: info.name, type, options: info.options ?? {}, indexes });
    }
    // Every find first, then the reading: the collections' snapshots are as close as they can be.
    for (const header of headers) {
      if (header.type === 'view') {
        cursors.push(null);
        continue;
      }
      const cursor = db
        .collection(header.name)
        .find({}, { session, batchSize: INSERT_DOCS, ...RAW_TYPES });
      cursors.push(cursor);
      await cursor.hasNext();
    }

    const counts: Record<string, number> = {};
    let rawBytes = 0;
    async function* lines() {
      let chunk = line([
        BACKUP_FORMAT,
        {
          version: BACKUP_VERSION,
          database: db.databaseName,
          createdAt: new Date(),
          consistency,
        },
      ]);
      for (const [i, header] of headers.entries()) {
        chunk += line(['collection', header]);
        counts[header.name] = 0;
        const cursor = cursors[i];
        if (!cursor) continue;
        for await (const doc of cursor) {
          chunk += line(doc);
          counts[header.name]!++;
          if (chunk.length >= CHUNK_BYTES) {
            rawBytes += Buffer.byteLength(chunk);
            yield chunk;
            chunk = '';
          }
        }
      }
      const documents = Object.values(counts).reduce((a, b) => a + b, 0);
      chunk += line(['end', { collections: counts, documents }]);
      rawBytes += Buffer.byteLength(chunk);
      yield chunk;
    }
    await pipeline(Readable.from(lines()), createGzip(), createWriteStream(tmp, { mode: 0o600 }));
    renameSync(tmp, out);

    return {
      database: db.databaseName,
      file: out,
      ...collectionsOf(headers, counts),
      bytes: statSync(out).size,
      rawBytes,
      seconds: (performance.now() - started) / 1000,
      consistency,
    };
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  } finally {
    await Promise.all(cursors.map((cursor) => cursor?.close().catch(() => {})));
    await session?.endSession().catch(() => {});
    await client.close();
  }
}

/** The lines of a gzip-compressed file, with their numbers; clear errors for a bad file. */
async function* readLines(file: string): AsyncGenerator<[number, string]> {
  if (!existsSync(file)) throw new BackupError(`${file}: no such file`);
  if (!statSync(file).isFile()) throw new BackupError(`${file}: not a file`);
  const input = createReadStream(file);
  const gunzip = createGunzip();
  input.once('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let number = 0;
  try {
    for await (const chunk of gunzip) {
      const parts = (rest + decoder.write(chunk as Buffer)).split('\n');
      rest = parts.pop()!;
      for (const part of parts) yield [++number, part];
    }
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(e.message))
      throw new BackupError(`${file} is cut off (the compressed data ends too early)`);
    if (e.code === 'Z_DATA_ERROR')
      throw new BackupError(`${file} is not a backup, or is damaged (gzip: ${e.message})`);
    throw new BackupError(`Cannot read ${file}: ${e.message}`);
  } finally {
    input.destroy();
  }
  rest += decoder.end();
  if (rest) yield [++number, rest];
}

function parseLine(file: string, number: number, text: string): unknown {
  try {
    return EJSON.parse(text, CANONICAL);
  } catch (error) {
    throw new BackupError(
      `${file}, line ${number}: not valid Extended JSON (${(error as Error).message})`,
    );
  }
}

export interface BackupContents {
  file: string;
  database?: string;
  headers: CollectionHeader[];
  counts: Record<string, number>;
}

/**
 * Reads the whole file and checks it (gzip checksum, structure, the closing line's counts)
 * without writing anything; returns what it holds. Throws a BackupError for a bad file.
 */
export async function checkBackup(file: string): Promise<BackupContents> {
  const bad = (number: number, what: string) =>
    new BackupError(`${file}, line ${number}: ${what}; the file is not a complete backup`);
  const headers: CollectionHeader[] = [];
  const counts: Record<string, number> = {};
  let header: { database?: string } | null = null;
  let current: CollectionHeader | null = null;
  let end: { collections: Record<string, number> } | null = null;

  const check = (number: number, text: string) => {
    if (end) throw bad(number, 'text after the closing line');
    if (number === 1) {
      const first = text.startsWith('[') ? (parseLine(file, number, text) as unknown[]) : null;
      if (!first || first[0] !== BACKUP_FORMAT)
        throw new BackupError(`${file} is not a backup made by \`npm run backup\``);
      const meta = first[1] as { version?: unknown; database?: string };
      if (Number(meta?.version) !== BACKUP_VERSION)
        throw new BackupError(
          `${file} is a backup in format version ${String(meta?.version)}; this version reads ${BACKUP_VERSION}`,
        );
      header = meta;
      return;
    }
    if (text.startsWith('{')) {
      if (!current || current.type === 'view') throw bad(number, 'a document outside a collection');
      counts[current.name]!++;
      return;
    }
    if (!text.startsWith('[')) throw bad(number, 'neither a document nor a section line');
    const [kind, body] = parseLine(file, number, text) as [unknown, Document];
    if (kind === 'collection') {
      if (typeof body?.name !== 'string' || !Array.isArray(body.indexes))
        throw bad(number, 'a collection line without a name or indexes');
      if (body.name in counts) throw bad(number, `collection ${body.name} appears twice`);
      current = {
        name: body.name,
        type: typeof body.type === 'string' ? body.type : 'collection',
        options: (body.options as Document) ?? {},
        indexes: body.indexes as Document[],
      };
      headers.push(current);
      counts[current.name] = 0;
    } else if (kind === 'end') {
      end = body as { collections: Record<string, number> };
    } else throw bad(number, `an unknown section "${String(kind)}"`);
  };

  // After the first problem the rest is still read: when the file is damaged, the gzip checksum
  // at its end says so, which is the better explanation.
  let problem: BackupError | null = null;
  for await (const [number, text] of readLines(file)) {
    if (problem) continue;
    try {
      check(number, text);
    } catch (error) {
      problem = error as BackupError;
    }
  }
  if (problem) throw problem;
  if (!header) throw new BackupError(`${file} is empty`);
  const closing = end as { collections: Record<string, number> } | null;
  if (!closing) throw new BackupError(`${file} has no closing line: the backup is not complete`);
  for (const h of headers) {
    const expected = Number(closing.collections?.[h.name]);
    if (expected !== counts[h.name])
      throw new BackupError(
        `${file}: collection ${h.name} holds ${counts[h.name]} documents, the closing line says ${expected}`,
      );
  }
  return { file, headers, counts, database: (header as { database?: string }).database };
}

/** Insert batches of one collection's documents, as they come in the file. */
async function* documentBatches(file: string) {
  let name: string | null = null;
  let batch: Document[] = [];
  let bytes = 0;
  for await (const [number, text] of readLines(file)) {
    if (text.startsWith('{')) {
      batch.push(parseLine(file, number, text) as Document);
      bytes += text.length;
      if (batch.length >= INSERT_DOCS || bytes >= INSERT_BYTES) {
        yield { name: name!, docs: batch };
        batch = [];
        bytes = 0;
      }
    } else if (text.startsWith('["collection"')) {
      if (batch.length) yield { name: name!, docs: batch };
      batch = [];
      bytes = 0;
      name = (parseLine(file, number, text) as [string, { name: string }])[1].name;
    }
  }
  if (batch.length) yield { name: name!, docs: batch };
}

/** An index as createIndexes takes it: what listIndexes gave, without the server's own fields. */
function indexSpec(listed: Document): Document {
  const { v: _v, ns: _ns, ...spec } = listed;
  return spec;
}

const plural = (n: number, word: string) =>
  `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/**
 * Loads the backup `file` into the database `uri` names. It must hold no documents, unless
 * `drop` is set: then the collections that hold documents are dropped first. `checked` is what
 * checkBackup returned for the file, when the caller has checked it already.
 */
export async function restoreDatabase(
  uri: string,
  file: string,
  { drop = false, checked }: { drop?: boolean; checked?: BackupContents } = {},
): Promise<RestoreReport> {
  const started = performance.now();
  const { headers, counts } = checked?.file === file ? checked : await checkBackup(file);
  const client = connect(uri);
  try {
    await client.connect();
    const db = client.db();
    const existing = await listCollections(db);
    const occupied: { name: string; what: string }[] = [];
    for (const info of existing) {
      if (info.type === 'view') occupied.push({ name: info.name, what: 'a view' });
      else {
        const n = await db.collection(info.name).countDocuments();
        if (n > 0) occupied.push({ name: info.name, what: plural(n, 'document') });
      }
    }
    if (occupied.length && !drop)
      throw new BackupError(
        `The database "${db.databaseName}" is not empty: ` +
          occupied.map((o) => `${o.name} (${o.what})`).join(', ') +
          '. Restore into an empty database, or add --drop to drop these collections first.',
      );
    for (const { name } of occupied) await db.dropCollection(name);
    // Empty collections the backup also has are made again, with the backup's options and indexes.
    const left = new Set(existing.map((info) => info.name));
    for (const { name } of occupied) left.delete(name);
    for (const header of headers) {
      if (left.has(header.name)) await db.dropCollection(header.name);
      if (header.type !== 'view') await db.command({ create: header.name, ...header.options });
    }

    for await (const { name, docs } of documentBatches(file)) {
      await db.collection(name).insertMany(docs, { ordered: true, bypassDocumentValidation: true });
    }
    for (const header of headers) {
      if (header.type === 'view') {
        await db.command({ create: header.name, ...header.options });
        continue;
      }
      const specs = header.indexes.filter((i) => i.name !== '_id_').map(indexSpec);
      if (specs.length) await db.command({ createIndexes: header.name, indexes: specs });
      const stored = await db.collection(header.name).countDocuments();
      if (stored !== counts[header.name])
        throw new BackupError(
          `Collection ${header.name} holds ${stored} documents after the restore, the backup ${counts[header.name]}`,
        );
    }
    return {
      database: db.databaseName,
      file,
      ...collectionsOf(headers, counts),
      bytes: statSync(file).size,
      dropped: occupied.map((o) => o.name),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await client.close();
  }
}

/* ---------- Command line ---------- */

export const BACKUP_USAGE = 'Usage: npm run backup -- --out <file>';
export const RESTORE_USAGE = 'Usage: npm run restore -- <file> [--drop]';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function table(collections: CollectionSummary[]): string[] {
  const width = Math.max(10, ...collections.map((c) => c.name.length));
  return collections.map(
    (c) =>
      `  ${c.name.padEnd(width)}  ${
        c.type === 'view'
          ? 'view'
          : `${c.documents.toLocaleString('en-US').padStart(9)} documents  ${plural(c.indexes, 'index').replace(/xs$/, 'xes')}`
      }`,
  );
}

export function describeBackup(report: BackupReport, where: string): string[] {
  return [
    `Backed up database "${report.database}" from ${where}:`,
    ...table(report.collections),
    `${plural(report.collections.length, 'collection')}, ${plural(report.documents, 'document')} → ` +
      `${report.file}: ${megabytes(report.bytes)} (${megabytes(report.rawBytes)} uncompressed) ` +
      `in ${report.seconds.toFixed(1)} s.`,
    `Consistency: ${report.consistency}.`,
  ];
}

export function describeRestore(report: RestoreReport, where: string): string[] {
  return [
    ...(report.dropped.length ? [`Dropped first (--drop): ${report.dropped.join(', ')}.`] : []),
    `Restored ${report.file} (${megabytes(report.bytes)}) into database "${report.database}" on ${where}:`,
    ...table(report.collections),
    `${plural(report.collections.length, 'collection')}, ${plural(report.documents, 'document')} ` +
      `in ${report.seconds.toFixed(1)} s.`,
  ];
}

/** Runs a command on the app's database; known failures are one line on stderr and exit code 1. */
async function withAppDatabase(
  create: boolean,
  run: (database: AppDatabase) => Promise<string[]>,
): Promise<number> {
  let database: AppDatabase | null = null;
  try {
    database = await openAppDatabase({ create });
    console.log((await run(database)).join('\n'));
    return 0;
  } catch (error) {
    const known = error instanceof BackupError || error instanceof AppDatabaseError;
    const message = (error as Error)?.message ?? String(error);
    if (known) console.error(message);
    else if ((error as Error)?.name === 'MongoServerSelectionError')
      console.error(`Cannot reach ${database?.description ?? 'the database'}: ${message}`);
    else console.error(`Failed: ${message}`);
    return 1;
  } finally {
    await database?.close().catch(() => {});
  }
}

/** Reads the command line; a mistake is a BackupError that ends with the usage. */
function parse<T extends ParseArgsConfig>(usage: string, config: T) {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new BackupError(`${(error as Error).message}\n${usage}`);
  }
}

export async function backupMain(argv = process.argv.slice(2)): Promise<number> {
  let out: string;
  try {
    const { values } = parse(BACKUP_USAGE, {
      args: argv,
      strict: true,
      options: { out: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      console.log(BACKUP_USAGE);
      return 0;
    }
    if (typeof values.out !== 'string' || !values.out) throw new BackupError(BACKUP_USAGE);
    out = values.out;
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  return withAppDatabase(false, async (database) =>
    describeBackup(await backupDatabase(database.uri, out), database.description),
  );
}

export async function restoreMain(argv = process.argv.slice(2)): Promise<number> {
  let file: string;
  let drop: boolean;
  try {
    const { values, positionals } = parse(RESTORE_USAGE, {
      args: argv,
      strict: true,
      options: { drop: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
    if (values.help) {
      console.log(RESTORE_USAGE);
      return 0;
    }
    if (positionals.length !== 1) throw new BackupError(RESTORE_USAGE);
    file = positionals[0]!;
    drop = values.drop === true;
  } catch (error) {
    console.error((error as Error).message);
    return 2;
  }
  // The file is checked before the database is opened (or an engine started for it).
  let checked: BackupContents;
  try {
    checked = await checkBackup(file);
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    console.error(error instanceof BackupError ? message : `Failed: ${message}`);
    return 1;
  }
  return withAppDatabase(true, async (database) =>
    describeRestore(
      await restoreDatabase(database.uri, file, { drop, checked }),
      database.description,
    ),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  backupMain().then((code) => process.exit(code));
}
