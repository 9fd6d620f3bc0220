/**
 * The app's database, found the way the app finds it, for scripts that must work whether the app
 * is running or not (backup, restore):
 * 1. MONGODB_URI when it is set;
 * 2. otherwise the embedded engine that serves DATA_DIR/db right now (the running app's), through
 *    its socket in that directory;
 * 3. otherwise the embedded engine started here on DATA_DIR/db, for as long as the script runs.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { findRunningEngine } from './running-engine';

/** The database the app uses on the embedded engine (server/embedded-database.js names it). */
export const EMBEDDED_DATABASE_NAME = 'courier';

export interface AppDatabase {
  /** Connection string including the database name. */
  uri: string;
  /** Where the database is, for the script's report (no password). */
  description: string;
  /** Stops the engine when this script started it; otherwise does nothing. */
  close(): Promise<void>;
}

/** The connection string with any password replaced by `***`. */
export function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/[^:@/]*):[^@/]*@/, '$1:***@');
}

export class AppDatabaseError extends Error {}

/**
 * Opens the app's database as described above. With `create: false` a data directory that does
 * not exist is an error rather than a new, empty database.
 */
export async function openAppDatabase({ create }: { create: boolean }): Promise<AppDatabase> {
  const configured = process.env.MONGODB_URI;
  if (configured)
    return {
      uri: configured,
      description: `MONGODB_URI (${redactUri(configured)})`,
      close: async () => {},
    };

  const dataDir = process.env.DATA_DIR || '.data';
  const dbDir = path.resolve(dataDir, 'db');
  const running = await findRunningEngine(dbDir);
  if (running)
    return {
      uri: `${running}${EMBEDDED_DATABASE_NAME}`,
      description: `the embedded database in ${dbDir}, through the running app's engine`,
      close: async () => {},
    };

  if (!create && !existsSync(dbDir))
    throw new AppDatabaseError(
      `There is no embedded database in ${dbDir} (DATA_DIR=${dataDir}); set DATA_DIR or MONGODB_URI.`,
    );
  // Sets process.env.MONGODB_URI to the engine's address, as it does for the app.
  const { startEmbeddedDatabase } = await import('../../server/embedded-database.js');
  let engine: { stop(): Promise<void> };
  try {
    engine = await startEmbeddedDatabase();
  } catch (error) {
    throw new AppDatabaseError((error as Error).message);
  }
  const uri = process.env.MONGODB_URI!;
  delete process.env.MONGODB_URI;
  return {
    uri,
    description: `the embedded database in ${dbDir} (engine started for this command)`,
    close: () => engine.stop(),
  };
}
