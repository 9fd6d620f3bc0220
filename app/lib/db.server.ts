import mongoose from 'mongoose';
import { OBJECT_ID_PATTERN } from '~/schemas/constants';
import { env } from './env.server';
import { observeDatabase } from './metrics.server';

/**
 * The one database connection. The server connects once at boot (`ready()` in entry.server.tsx),
 * command-line scripts and test files connect in their own setup; the models then simply query.
 * Nothing connects on the way through a request, so a process that never connected fails loudly
 * (`connection()` throws) instead of waiting on mongoose's buffer.
 */
type DbState = { connecting?: Promise<typeof mongoose> };

const globalForDb = globalThis as typeof globalThis & { __courierDb?: DbState };
const state: DbState = (globalForDb.__courierDb ??= {});

/**
 * The app only ever sees a connection string: MONGODB_URI, which server.js sets to the embedded
 * engine's address when none is configured.
 */
async function connect(): Promise<typeof mongoose> {
  // Read again here: a command-line script may have started the engine after env was parsed.
  const uri = env.MONGODB_URI ?? process.env.MONGODB_URI;
  if (!uri) throw new Error('MONGODB_URI is not set: start the app with `npm start`');
  mongoose.set('strictQuery', true);
  // monitorCommands: every round trip is counted for /metrics (metrics.server.ts).
  await mongoose.connect(uri, {
    serverSelectionTimeoutMS: 5000,
    autoIndex: true,
    monitorCommands: true,
  });
  observeDatabase(mongoose.connection.getClient());
  await Promise.all(Object.values(mongoose.models).map((model) => model.init()));
  return mongoose;
}

/** Connects (once; later calls get the same connection). For boot, scripts and test setup. */
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
 * The connection made by connectDb. A new value after a reconnect, so what is built on it (the
 * rate limiter's store) can tell. Throws when this process never connected.
 */
export function connection(): Promise<typeof mongoose> {
  if (!state.connecting) throw new Error('The database is not connected: call connectDb() first');
  return state.connecting;
}

/** True when the database answers a ping within the time limit. */
export async function pingDb(timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const conn = await Promise.race([
      connection(),
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
  state.connecting = undefined;
}

/** An id as MongoDB writes it: 24 hexadecimal digits, any case. Anything else names no record. */
export function isObjectId(id: string | null | undefined): id is string {
  return typeof id === 'string' && OBJECT_ID_PATTERN.test(id);
}

type WriteRefusal = {
  code?: number;
  keyPattern?: Record<string, unknown>;
  err?: { code?: number };
};

/**
 * A write refused by a unique index, or a bulk insert one of whose documents was; with `field`, by
 * the index on that field.
 */
export function isDuplicateKey(error: unknown, field?: string): boolean {
  const e = error as (WriteRefusal & { writeErrors?: WriteRefusal[] }) | null;
  const refused = (r: WriteRefusal | null | undefined) =>
    (r?.code ?? r?.err?.code) === 11000 &&
    (!field || Boolean(r?.keyPattern && field in r.keyPattern));
  return refused(e) || Boolean(e?.writeErrors?.some(refused));
}
