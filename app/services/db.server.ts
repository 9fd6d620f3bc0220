import mongoose from 'mongoose';
import { env } from './env.server';

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
  await mongoose.connect(uri, { serverSelectionTimeoutMS: 5000, autoIndex: true });
  await Promise.all(Object.values(mongoose.models).map((model) => model.init()));
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
  state.connecting = undefined;
}
