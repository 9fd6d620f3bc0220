import { Engine } from './engine';
import { WireServer } from './server';
import { Storage } from './storage';

export interface EmbeddedMongoOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on; defaults to 127.0.0.1. */
  host?: string;
  /** Data directory; omitted means in-memory. */
  dir?: string;
  /** Alias of dir. */
  dbPath?: string;
  /** Idle time after which an open cursor is discarded (default 10 minutes). */
  cursorTimeoutMs?: number;
  /** Journal size that triggers a snapshot (default 64 MiB). */
  compactBytes?: number;
}

export interface EmbeddedMongo {
  /** Connection string ending with `/`, e.g. `mongodb://127.0.0.1:27017/`; append the database name. */
  uri: string;
  port: number;
  stop(): Promise<void>;
}

export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  const engine = new Engine(options.cursorTimeoutMs);
  const dir = options.dir ?? options.dbPath;
  const storage = dir ? await Storage.open(dir, engine, { compactBytes: options.compactBytes }) : null;
  const server = new WireServer(engine, storage);
  let port: number;
  try {
    port = await server.listen(options.port ?? 0, host);
  } catch (err) {
    await storage?.close();
    throw err;
  }
  const sweep = setInterval(() => engine.expireCursors(), Math.min(60_000, Math.max(100, engine.cursorTimeoutMs / 2)));
  sweep.unref();
  let stopping: Promise<void> | null = null;
  return {
    uri: `mongodb://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    port,
    stop() {
      stopping ??= (async () => {
        clearInterval(sweep);
        await server.close();
        await storage?.close();
      })();
      return stopping;
    },
  };
}
