import { PassThrough } from 'node:stream';
import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import os from 'node:os';
import { connectDb, disconnectDb, onFirstConnect } from './services/db.server';
import { env } from './services/env.server';
import { applySecurityHeaders } from './services/security.server';
import { seedOnFirstStart } from './services/seed.server';

onFirstConnect(seedOnFirstStart);

const ABORT_DELAY = 5_000;

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
  const callbackName = isbot(request.headers.get('user-agent') ?? '') ? 'onAllReady' : 'onShellReady';
  applySecurityHeaders(responseHeaders);
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />,
      {
        [callbackName]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
