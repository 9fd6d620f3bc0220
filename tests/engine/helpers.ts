import type { Db } from 'mongodb';
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
