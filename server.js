import cluster from 'node:cluster';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@remix-run/node';
import { createAppServer } from './server/app-server.js';

const buildDir = path.resolve(process.env.BUILD_DIR || 'build');
const build = await import(pathToFileURL(path.join(buildDir, 'index.js')).href);
const entry = build.entry.module;

// The server build validates the environment on import. ready() connects the database (starting
// the embedded engine when MONGODB_URI is not set) and seeds a fresh one.
//
// With more than one app process (WEB_CONCURRENCY, one per CPU by default) this process is the
// cluster's primary: it owns the database connection, the embedded engine and the rate-limit
// counters, and the workers it forks serve HTTP on the shared port.
const processes = cluster.isPrimary ? entry.appProcesses() : 1;

if (cluster.isPrimary && processes > 1) {
  await entry.ready();
  entry.serveSharedRateLimits(cluster);
  const uri = entry.databaseUri();
  let closing = false;
  const fork = () => cluster.fork({ MONGODB_URI: uri });
  for (let i = 0; i < processes; i++) fork();
  const served = new Set();
  cluster.on('listening', (worker) => {
    served.add(worker.id);
    if (served.size === processes)
      console.log(
        `Courier app listening on http://localhost:${process.env.PORT ?? 3000} (${processes} processes)`,
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
    await entry.shutdown?.();
    process.exit(exitCode);
  };
  process.on('SIGINT', () => shutdown());
  process.on('SIGTERM', () => shutdown());
} else {
  await entry.ready();

  const server = createAppServer({
    handle: createRequestHandler(build, process.env.NODE_ENV ?? 'production'),
    assetsDir: path.join(buildDir, 'assets'),
    publicDir: 'public',
    trustProxy: process.env.TRUST_PROXY === 'true',
  });

  const port = Number(process.env.PORT ?? 3000);
  server.once('error', (error) => {
    console.error(`Cannot serve on port ${port}: ${error.message}`);
    process.exit(1);
  });
  server.listen(port, () => {
    if (cluster.isPrimary) console.log(`Courier app listening on http://localhost:${port}`);
  });

  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    server.close();
    await entry.shutdown?.();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
