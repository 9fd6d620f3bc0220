import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { renderToString } from 'react-dom/server';
import os from 'node:os';
import { connectDb, disconnectDb, onFirstConnect } from './services/db.server';
import { env } from './services/env.server';
import { applySecurityHeaders } from './services/security.server';
import { seedOnFirstStart } from './services/seed.server';

onFirstConnect(seedOnFirstStart);

/** Called by the server before it listens: connects the database and seeds a fresh one. */
export async function ready() {
  await connectDb();
}

/** How many app processes server.js runs: WEB_CONCURRENCY, or one per CPU. */
export function appProcesses(): number {
  return env.WEB_CONCURRENCY ?? os.availableParallelism();
}

export { databaseUri } from './services/db.server';
export { serveSharedRateLimits } from './services/rate-limit.server';

export async function shutdown() {
  await disconnectDb();
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  applySecurityHeaders(responseHeaders);
  // The whole page in one string: no route defers data, so there is nothing to stream, and a
  // string is cheaper to render and send than a stream of chunks.
  const html = renderToString(<RemixServer context={remixContext} url={request.url} />);
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  return new Response(`<!DOCTYPE html>${html}`, {
    headers: responseHeaders,
    status: responseStatusCode,
  });
}
