import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
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
  /**
   * Also listen on a Unix domain socket in the temporary directory and hand out its address as
   * `uri` (default true; not on Windows). The TCP port stays open either way.
   */
  socket?: boolean;
}

export interface EmbeddedMongo {
  /**
   * Connection string ending with `/`, e.g. `mongodb://%2Ftmp%2Fembedded-mongo-….sock/` or
   * `mongodb://127.0.0.1:27017/`; append the database name.
   */
  uri: string;
  /** The TCP address, `mongodb://127.0.0.1:<port>/`. */
  tcpUri: string;
  port: number;
  stop(): Promise<void>;
}

/** Starts the engine on the calling thread. */
export async function startEmbeddedMongoHere(
  options: EmbeddedMongoOptions = {},
): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  const engine = new Engine(options.cursorTimeoutMs);
  const dir = options.dir ?? options.dbPath;
  const storage = dir
    ? await Storage.open(dir, engine, { compactBytes: options.compactBytes })
    : null;
  const server = new WireServer(engine, storage);
  let port: number;
  let socketFile: string | null = null;
  try {
    port = await server.listen(options.port ?? 0, host);
    if (options.socket !== false && process.platform !== 'win32') {
      const file = path.join(
        tmpdir(),
        `embedded-mongo-${process.pid}-${randomBytes(6).toString('hex')}.sock`,
      );
      // Socket paths are limited to about 100 bytes; with a longer temporary directory, TCP only.
      if (Buffer.byteLength(file) < 100) {
        await server.listenSocket(file);
        socketFile = file;
      }
    }
  } catch (err) {
    await server.close();
    await storage?.close();
    throw err;
  }
  const tcpUri = `mongodb://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  const sweep = setInterval(
    () => engine.expireCursors(),
    Math.min(60_000, Math.max(100, engine.cursorTimeoutMs / 2)),
  );
  sweep.unref();
  let stopping: Promise<void> | null = null;
  return {
    uri: socketFile ? `mongodb://${encodeURIComponent(socketFile)}/` : tcpUri,
    tcpUri,
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

/**
 * Starts the engine on a thread of its own in this process, so that the engine's work (decoding,
 * querying, encoding, journaling) runs beside the application's instead of taking turns with it.
 * The application connects to it at `uri` either way.
 */
export async function startEmbeddedMongo(
  options: EmbeddedMongoOptions = {},
): Promise<EmbeddedMongo> {
  const entry = new URL('./engine-thread.js', import.meta.url);
  // Bundled into another program (the app's server build), the engine has no thread entry
  // beside it and runs on the calling thread.
  if (entry.protocol !== 'file:' || !existsSync(fileURLToPath(entry)))
    return startEmbeddedMongoHere(options);
  const worker = new Worker(entry, { workerData: options });
  const started = await new Promise<{ uri: string; tcpUri: string; port: number }>(
    (resolve, reject) => {
      const onError = (error: Error) => reject(error);
      worker.once('error', onError);
      worker.once('exit', (code) =>
        reject(new Error(`The database engine thread exited (${code}) before it started`)),
      );
      worker.once(
        'message',
        (message: {
          started?: { uri: string; tcpUri: string; port: number };
          failed?: { message: string; code?: string };
        }) => {
          worker.off('error', onError);
          if (message.started) resolve(message.started);
          else
            reject(
              Object.assign(
                new Error(message.failed?.message ?? 'The database engine did not start'),
                { code: message.failed?.code },
              ),
            );
        },
      );
    },
  );
  worker.removeAllListeners('exit');
  let stopping: Promise<void> | null = null;
  return {
    ...started,
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      });
      return stopping;
    },
  };
}
