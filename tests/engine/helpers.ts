import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import { afterAll } from 'vitest';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../embedded-mongo';

export interface Target {
  /** Base URI ending with `/`. */
  uri: string;
  stop(): Promise<void>;
  embedded: EmbeddedMongo | null;
}

/** The real MongoDB given by MONGODB_URI, or a fresh in-memory engine. */
export async function startTarget(): Promise<Target> {
  if (process.env.MONGODB_URI) {
    const url = new URL(process.env.MONGODB_URI);
    url.pathname = '/';
    return { uri: url.toString(), stop: async () => {}, embedded: null };
  }
  const embedded = await startEmbeddedMongo();
  return { uri: embedded.uri, stop: () => embedded.stop(), embedded };
}

export function uniqueDbName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/**
 * True when the server is this project's engine rather than a MongoDB (the suites reach either
 * through MONGODB_URI).
 */
export async function isEngine(db: Db): Promise<boolean> {
  const info = await db.admin().command({ buildInfo: 1 });
  return info.gitVersion === 'embedded';
}

/** The tsx binary, through which `npm run db` starts the command line. */
export const tsxBin = join(process.cwd(), 'node_modules', '.bin', 'tsx');

const tempDirs: string[] = [];

afterAll(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

/** Removes the folder once the test file is done. */
export function removeWhenDone(dir: string): void {
  tempDirs.push(dir);
}

/** A new temporary folder named from `prefix`, removed once the test file is done. */
export function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  removeWhenDone(d);
  return d;
}

/** A data directory the engine has not made yet: `db` in a new temporary folder. */
export function tempDbDir(prefix: string): string {
  return join(tempDir(prefix), 'db');
}

type Closable = { close(): Promise<unknown> } | { stop(): Promise<unknown> } | null | undefined;

/**
 * The end of a file's tests: drops its database (when there is one to drop), then closes or stops
 * what it opened, in the order given: clients and connections before the engines they reach.
 */
export async function tearDown(
  db: { dropDatabase(): Promise<unknown> } | undefined,
  ...opened: Closable[]
): Promise<void> {
  await db?.dropDatabase().catch(() => {});
  for (const thing of opened) {
    if (thing && 'close' in thing) await thing.close();
    else if (thing) await thing.stop();
  }
}

/** A test file's own database on the target, and how to drop it and close what reached it. */
export type TestDb = {
  target: Target;
  client: MongoClient;
  db: Db;
  /** Whether the target is this project's engine rather than a MongoDB. */
  engine: boolean;
  close(): Promise<void>;
};

/** Opens a database named from `prefix` on the target (MONGODB_URI, or a fresh engine). */
export async function openTestDb(prefix: string, { maxPoolSize = 2 } = {}): Promise<TestDb> {
  const target = await startTarget();
  const client = await MongoClient.connect(target.uri, { maxPoolSize });
  const db = client.db(uniqueDbName(prefix));
  return {
    target,
    client,
    db,
    engine: await isEngine(db),
    close: () => tearDown(db, client, target),
  };
}
