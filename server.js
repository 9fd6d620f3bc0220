import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@remix-run/express';
import compression from 'compression';
import express from 'express';

const buildDir = path.resolve(process.env.BUILD_DIR || 'build');
const build = await import(pathToFileURL(path.join(buildDir, 'index.js')).href);

// The server build validates the environment and starts the database on import.
await build.entry.module.ready?.();

const app = express();
app.disable('x-powered-by');
if (process.env.TRUST_PROXY === 'true') app.set('trust proxy', true);
app.use(compression());
app.use('/build', express.static(path.join(buildDir, 'assets'), { immutable: true, maxAge: '1y' }));
app.use(express.static('public', { maxAge: '1h' }));
app.all(
  '*',
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV ?? 'production',
    getLoadContext: (req) => ({ clientAddress: req.ip ?? req.socket.remoteAddress ?? 'unknown' }),
  }),
);

const port = Number(process.env.PORT ?? 3000);
const server = app.listen(port, () => {
  console.log(`Courier app listening on http://localhost:${port}`);
});

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  server.close();
  await build.entry.module.shutdown?.();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
