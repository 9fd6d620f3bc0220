import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Engine } from './engine';
import { lockDataDir } from './lock';
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
   * Listen on a TCP port (default true). With `false` the engine is reached only through its
   * Unix domain socket (`uri`), and `tcpUri` and `port` are null; this needs `socket` and a
   * Unix-like system.
   */
  tcp?: boolean;
  /**
   * Hand out a Unix domain socket as `uri` (default true; not on Windows). With a data directory
   * that is the directory's own socket, `<dir>/mongod.sock`, which is also the directory's lock
   * and so is there even with `false`; in-memory it is a socket in the temporary directory.
   * With `false`, `uri` is the TCP address.
   */
  socket?: boolean;
}

export interface EmbeddedMongo<Tcp extends boolean = boolean> {
  /**
   * Connection string ending with `/`, e.g. `mongodb://%2Fsrv%2Fapp%2F.data%2Fdb%2Fmongod.sock/`
   * or `mongodb://127.0.0.1:27017/`; append the database name.
   */
  uri: string;
  /** The TCP address, `mongodb://127.0.0.1:<port>/`; null when started with `tcp: false`. */
  tcpUri: Tcp extends true ? string : null;
  /** The TCP port; null when started with `tcp: false`. */
  port: Tcp extends true ? number : null;
  /** Stops serving, flushes the journal, writes a snapshot and releases the data directory. */
  stop(): Promise<void>;
}

type Started = Pick<EmbeddedMongo, 'uri' | 'tcpUri' | 'port'>;

/** Starts the engine on the calling thread. */
export async function startEmbeddedMongoHere(
  options: EmbeddedMongoOptions & { tcp: false },
): Promise<EmbeddedMongo<false>>;
export async function startEmbeddedMongoHere(
  options?: EmbeddedMongoOptions & { tcp?: true },
): Promise<EmbeddedMongo<true>>;
export async function startEmbeddedMongoHere(
  options?: EmbeddedMongoOptions,
): Promise<EmbeddedMongo>;
export async function startEmbeddedMongoHere(
  options: EmbeddedMongoOptions = {},
): Promise<EmbeddedMongo> {
  const host = options.host ?? '127.0.0.1';
  const tcp = options.tcp !== false;
  const unix = process.platform !== 'win32';
  if (!tcp && (options.socket === false || !unix))
    throw new Error(
      'embedded-mongo: tcp: false leaves only the Unix domain socket, which needs socket: true ' +
        'and a Unix-like system',
    );
  const engine = new Engine(options.cursorTimeoutMs);
  const dir = options.dir ?? options.dbPath;
  const lock = dir ? await lockDataDir(dir) : null;
  let storage: Storage | null = null;
  let server: WireServer | null = null;
  let port: number | null = null;
  let socketFile: string | null = null;
  try {
    storage = lock
      ? await Storage.open(lock.dir, engine, { compactBytes: options.compactBytes })
      : null;
    server = new WireServer(engine, storage);
    if (tcp) port = await server.listen(options.port ?? 0, host);
    if (lock) {
      const wire = server;
      lock.serve((socket) => wire.accept(socket));
      if (options.socket !== false) socketFile = lock.socketPath;
    } else if (options.socket !== false && unix) {
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
    if (!tcp && !socketFile)
      throw new Error(
        `embedded-mongo: tcp: false, and no Unix domain socket could be made in ${tmpdir()}`,
      );
  } catch (err) {
    lock?.serve(null);
    await server?.close();
    await storage?.close();
    await lock?.release();
    throw err;
  }
  const wire = server;
  const tcpUri =
    port === null ? null : `mongodb://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  const sweep = setInterval(
    () => engine.expireCursors(),
    Math.min(60_000, Math.max(100, engine.cursorTimeoutMs / 2)),
  );
  sweep.unref();
  let stopping: Promise<void> | null = null;
  return {
    uri: socketFile ? `mongodb://${encodeURIComponent(socketFile)}/` : tcpUri!,
    tcpUri,
    port,
    stop() {
      stopping ??= (async () => {
        clearInterval(sweep);
        lock?.serve(null);
        try {
          await wire.close();
          await storage?.close();
        } finally {
          // Released last, once everything is on disk, so that no other engine reads the
          // directory while this one still writes to it.
          await lock?.release();
        }
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
  options: EmbeddedMongoOptions & { tcp: false },
): Promise<EmbeddedMongo<false>>;
export async function startEmbeddedMongo(
  options?: EmbeddedMongoOptions & { tcp?: true },
): Promise<EmbeddedMongo<true>>;
export async function startEmbeddedMongo(options?: EmbeddedMongoOptions): Promise<EmbeddedMongo>;
export async function startEmbeddedMongo(
  options: EmbeddedMongoOptions = {},
): Promise<EmbeddedMongo> {
  const entry = new URL('./engine-thread.js', import.meta.url);
  // Bundled into another program (the app's server build), the engine has no thread entry
  // beside it and runs on the calling thread.
  if (entry.protocol !== 'file:' || !existsSync(fileURLToPath(entry)))
    return startEmbeddedMongoHere(options);
  const worker = new Worker(entry, { workerData: options });
  const started = await new Promise<Started>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    worker.once('error', onError);
    worker.once('exit', (code) =>
      reject(new Error(`The database engine thread exited (${code}) before it started`)),
    );
    worker.once(
      'message',
      (message: { started?: Started; failed?: { message: string; code?: string } }) => {
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
  });
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
