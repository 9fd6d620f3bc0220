import cluster from 'node:cluster';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startEmbeddedDatabase } from './server/embedded-database.js';
import { createApp, setTimeouts } from './server/index.js';
import { answerMetricsRequests } from './server/metrics.js';

/**
 * Starts the app. Without MONGODB_URI it first starts the embedded database engine (see
 * embedded-mongo/README.md) on DATA_DIR/db and hands its address to the app as MONGODB_URI: the
 * app only ever sees a connection string, and its build contains no engine.
 *
 * With more than one app process (WEB_CONCURRENCY) this process seeds a fresh database, then
 * forks the processes that serve HTTP on the shared port; they share nothing but the database.
 */
const buildDir = path.resolve(process.env.BUILD_DIR || 'build');

/**
 * The app processes hand memory of 128 KiB or more back to the system when they free it (glibc's
 * mmap threshold, unless MALLOC_MMAP_THRESHOLD_ is set already). Otherwise glibc raises the
 * threshold after the first such block and keeps later ones in its arenas: every sign-in hashes
 * with scrypt, which takes 16 MB in a thread of libuv's pool, and a process then holds 16 MB per
 * pool thread, and more, that it never uses again.
 */
const WORKER_ENV = { MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ || '131072' };

if (cluster.isPrimary) {
  const database = process.env.MONGODB_URI ? null : await startEmbeddedDatabase().catch(fail);
  const entry = await loadEntry();
  await entry.ready({ embedded: Boolean(database) });
  const processes = entry.appProcesses();
  if (processes > 1) {
    await entry.shutdown();
    runCluster(processes, database);
  } else {
    await serve(entry, { onStop: () => database?.stop() });
  }
} else {
  const entry = await loadEntry();
  await entry.ready({ embedded: false });
  await serve(entry);
}

function fail(error) {
  console.error(error.message);
  process.exit(1);
}

async function loadEntry() {
  const build = await import(pathToFileURL(path.join(buildDir, 'index.js')).href);
  return Object.assign(build.entry.module, { build });
}

async function serve(entry, { onStop } = {}) {
  const port = Number(process.env.PORT ?? 3000);
  const app = createApp({
    build: entry.build,
    buildDir,
    mode: process.env.NODE_ENV ?? 'production',
    trustProxy: entry.trustProxy(),
    bodyLimit: entry.bodyLimit(),
    uploadBodyLimit: entry.uploadBodyLimit(),
    publicUrl: process.env.PUBLIC_URL,
    metricsToken: entry.metricsToken(),
    ...entry.requestLogging(),
  });
  // HOST: the address to listen on (every interface when unset).
  const host = process.env.HOST || undefined;
  const server = app.listen(port, host, () => {
    if (cluster.isPrimary)
      console.log(`Courier app listening on http://${host ?? 'localhost'}:${port}`);
    entry.startWorkers();
  });
  setTimeouts(server);
  server.once('error', (error) => {
    console.error(`Cannot serve on port ${port}: ${error.message}`);
    process.exit(1);
  });

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    // Stop accepting; in-flight requests finish (idle keep-alive connections close at once).
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    force.unref();
    await new Promise((resolve) => server.close(resolve));
    await entry.shutdown();
    await onStop?.();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

function runCluster(processes, database) {
  answerMetricsRequests();
  let closing = false;
  const served = new Set();
  const fork = () => cluster.fork(WORKER_ENV);
  for (let i = 0; i < processes; i++) fork();
  cluster.on('listening', (worker) => {
    served.add(worker.id);
    if (served.size === processes)
      console.log(
        `Courier app listening on http://${process.env.HOST || 'localhost'}:${process.env.PORT ?? 3000} (${processes} processes)`,
      );
  });
  cluster.on('exit', (worker, code, signal) => {
    if (closing) return;
    if (!served.has(worker.id)) {
      // It failed before it could serve (the port is taken, say): another would fail the same way.
      console.error(
        `App process ${worker.process.pid} stopped before it could serve (${signal ?? code}); stopping`,
      );
      shutdown(1);
      return;
    }
    console.error(
      `App process ${worker.process.pid} stopped (${signal ?? code}); starting another`,
    );
    fork();
  });
  const shutdown = async (exitCode = 0) => {
    if (closing) return;
    closing = true;
    const workers = Object.values(cluster.workers ?? {});
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise((resolve) => {
            if (!worker || worker.isDead()) return resolve(undefined);
            worker.once('exit', resolve);
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    await database?.stop();
    process.exit(exitCode);
  };
  process.on('SIGINT', () => shutdown());
  process.on('SIGTERM', () => shutdown());
}
