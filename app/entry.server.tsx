import type { AppLoadContext, EntryContext } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { renderToString } from 'react-dom/server';
import os from 'node:os';
import { numberOlderRecords } from './lib/changes.server';
import { connectDb, disconnectDb } from './lib/db.server';
import { env, type TrustProxy } from './lib/env.server';
import { documentResponse } from './lib/http-cache.server';
import { renderPage } from './lib/render-cache.server';
import { logger, reportError, requestContext } from './lib/logger.server';
import { observeJobQueue } from './lib/metrics.server';
import { newWorkerId, queueFigures, releaseLeasesOfDeadWorkers } from './models/job.server';
import { Notification } from './models/notification.server';
import { Parcel } from './models/parcel.server';
import { refreshDeliveryFacts } from './models/parcel-delivery-facts.server';
import { Receipt } from './models/receipt.server';
import { planDayBeforePlanning } from './services/day-before-emails.server';
import { planStatementEmails } from './services/statements.server';
import { resumeInquiryEmails } from './services/inquiries.server';
import { JOB_KINDS, registerJobKinds } from './services/job-kinds.server';
import { startJobWorker, type JobWorker } from './services/jobs.server';
import { resumeNotificationSends } from './services/notifications.server';
import { seedOnFirstStart } from './services/seed.server';
import { NonceProvider } from './utils/nonce-provider';
import { I18nextProvider } from 'react-i18next';
import { i18nFor } from './lib/i18n.server';
import { pageLanguage, renderingWith } from './utils/page-language';

/**
 * Called by the server before it listens: connects the database (the one connection every
 * request uses), registers the kinds of background job, numbers records stored before syncs
 * followed changes, works out the delivery facts of parcels stored without them (or in another
 * company zone) and, in the process that started an embedded database (or with SEED_DEMO), seeds
 * it when it is empty.
 */
export async function ready({ embedded = false }: { embedded?: boolean } = {}) {
  await connectDb();
  registerJobKinds();
  observeJobQueue(queueFigures, Object.keys(JOB_KINDS));
  await numberOlderRecords([Parcel, Notification, Receipt] as never[]);
  await refreshDeliveryFacts();
  await seedOnFirstStart({ embedded });
}

/** How many app processes server.js runs: WEB_CONCURRENCY, or one per CPU. */
export function appProcesses(): number {
  return env.WEB_CONCURRENCY ?? os.availableParallelism();
}

/** The most a request body may carry, in bytes (BODY_LIMIT_BYTES). */
export function bodyLimit(): number {
  return env.BODY_LIMIT_BYTES;
}

/** The most a request body to an upload route may carry, in bytes (IMPORT_BODY_LIMIT_BYTES). */
export function uploadBodyLimit(): number {
  return env.IMPORT_BODY_LIMIT_BYTES;
}

/** Where server/index.js logs each request, and the context the app notes its facts in. */
export function requestLogging() {
  return { logger, requestContext };
}

/** The bearer token GET /metrics asks for (METRICS_TOKEN); unset, /metrics is not served. */
export function metricsToken(): string | undefined {
  return env.METRICS_TOKEN;
}

/** Express's `trust proxy` setting, from TRUST_PROXY (see app/lib/env.server.ts). */
export function trustProxy(): TrustProxy {
  return env.TRUST_PROXY;
}

let worker: JobWorker | null = null;

/** Called by each process that serves HTTP: runs background jobs (e-mails, webhooks) beside it. */
export function startWorkers() {
  if (env.JOBS_WORKER === 'false' || worker) return;
  const id = newWorkerId();
  // Jobs this machine's earlier (crashed or killed) processes held are taken again at once, and
  // e-mails a stop left without a job (or with a failed one) are queued (or failed) again; the
  // day's planning of tomorrow's day-before e-mails and the month's statements is queued unless
  // it already is.
  releaseLeasesOfDeadWorkers(id)
    .then(() => resumeNotificationSends())
    .then(() => resumeInquiryEmails())
    .then(() => planDayBeforePlanning())
    .then(() => planStatementEmails())
    .catch((error) =>
      console.error(
        'Could not resume queued e-mails',
        error instanceof Error ? error.message : error,
      ),
    );
  worker = startJobWorker({ id });
}

export async function shutdown() {
  // Jobs in flight finish first; one cut short by a crash is taken again when its lease ends
  // (at once when this machine restarts the app).
  await worker?.stop();
  worker = null;
  await disconnectDb();
}

export function handleError(error: unknown, { request }: { request: Request }) {
  // A client that went away, or a body cut off at the size limit (server/index.js answered 413).
  if (request.signal.aborted) return;
  if (error instanceof Error && error.name === 'PayloadTooLargeError') return;
  // The router's own answers to a bad request (a method no route takes, say) are not failures.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  reportError(error);
}

/**
 * What a public page is drawn from, as the key it is kept under: its address and its loaders'
 * data. Null for any other answer: a staff page, a form's answer, an error, one that sets a
 * cookie (a flash message shown once).
 */
function publicPageKey(
  request: Request,
  status: number,
  headers: Headers,
  { staticHandlerContext: context }: EntryContext,
): string | null {
  if (request.method !== 'GET' || status !== 200 || headers.has('Set-Cookie')) return null;
  if (context.actionData || context.errors) return null;
  if (!context.matches.some((match) => match.route.id === 'routes/_public')) return null;
  const url = new URL(request.url);
  return `${url.pathname}${url.search}\n${JSON.stringify(context.loaderData)}`;
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // Security headers come from the server (server/security.js), with this request's nonce.
  const nonce = typeof loadContext.cspNonce === 'string' ? loadContext.cspNonce : '';
  // The whole page in one string: no route defers data, so there is nothing to stream, and a
  // string is cheaper to render and send than a stream of chunks. A public page is rendered once
  // for what it shows (render-cache.server.ts), its language included: the page's language, as its
  // loaders decided it (app/utils/page-language.ts), is in their data.
  const { matches, loaderData } = remixContext.staticHandlerContext;
  const language = pageLanguage(matches.map((match) => ({ data: loaderData[match.route.id] })));
  const i18n = i18nFor(language);
  const { html, etag } = renderPage(
    publicPageKey(request, responseStatusCode, responseHeaders, remixContext),
    nonce,
    (nonce) =>
      renderingWith(i18n.getFixedT(language, 'public'), () =>
        renderToString(
          <I18nextProvider i18n={i18n}>
            <NonceProvider value={nonce}>
              <RemixServer context={remixContext} url={request.url} nonce={nonce} />
            </NonceProvider>
          </I18nextProvider>,
        ),
      ),
  );
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
  return documentResponse(
    request,
    responseStatusCode,
    responseHeaders,
    `<!DOCTYPE html>${html}`,
    nonce,
    etag,
  );
}
