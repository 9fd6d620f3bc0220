import path from 'node:path';
import mongoose from 'mongoose';
import { startEmbeddedMongo } from '../../embedded-mongo';
import { env } from './env.server';

export const DB_NAME = 'courier';

type DbState = {
  connecting?: Promise<typeof mongoose>;
  embedded?: { uri: string; stop(): Promise<void> };
  onFirstConnect: Array<(info: { embedded: boolean }) => Promise<void>>;
};

const globalForDb = globalThis as typeof globalThis & { __courierDb?: DbState };
const state: DbState = (globalForDb.__courierDb ??= { onFirstConnect: [] });

/** Runs once after the first successful connection (used for the first-start seed). */
export function onFirstConnect(hook: (info: { embedded: boolean }) => Promise<void>) {
  state.onFirstConnect.push(hook);
}

async function connect(): Promise<typeof mongoose> {
  let uri = env.MONGODB_URI;
  if (!uri) {
    state.embedded = await startEmbeddedMongo({ dir: path.resolve(env.DATA_DIR, 'db') });
    uri = state.embedded.uri;
  }
  mongoose.set('strictQuery', true);
  await mongoose.connect(uri, {
    dbName: env.MONGODB_URI ? undefined : DB_NAME,
    serverSelectionTimeoutMS: 5000,
    autoIndex: true,
  });
  await Promise.all(Object.values(mongoose.models).map((model) => model.init()));
  for (const hook of state.onFirstConnect) await hook({ embedded: !env.MONGODB_URI });
  return mongoose;
}

/** The shared connection; every data function awaits this before it queries. */
export function connectDb(): Promise<typeof mongoose> {
  if (!state.connecting) {
    state.connecting = connect().catch((error) => {
      state.connecting = undefined;
      throw error;
    });
  }
  return state.connecting;
}

/**
 * The address other processes of the app use for this database: the embedded engine started
 * here (with the database name) or MONGODB_URI. Only meaningful after connectDb().
 */
export function databaseUri(): string {
  if (state.embedded) return `${state.embedded.uri}${DB_NAME}`;
  if (env.MONGODB_URI) return env.MONGODB_URI;
  throw new Error('The database is not started yet');
}

/** True when the database answers a ping within the time limit. */
export async function pingDb(timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const conn = await Promise.race([
      connectDb(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    const db = conn.connection.db;
    if (!db) return false;
    await Promise.race([
      db.admin().ping(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export async function disconnectDb() {
  await mongoose.disconnect();
  await state.embedded?.stop();
  state.embedded = undefined;
  state.connecting = undefined;
}
