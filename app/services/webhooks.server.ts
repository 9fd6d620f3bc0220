import { randomBytes } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Webhook as Signer } from 'standardwebhooks';
import { enqueueJob, getJob } from '~/models/job.server';
import { getParcelTenancy } from '~/models/parcel-reads.server';
import {
  createDelivery,
  getDeliveryRecord,
  markDelivery,
  recordAttempt,
  setDeliveryJob,
  subscribedWebhooks,
  webhookForDelivery,
  type SerializedDelivery,
  getDelivery,
} from '~/models/webhook.server';
import type { WebhookEventType } from '~/schemas/integrations';
import { env } from '~/lib/env.server';
import { countWebhookDelivery } from '~/lib/metrics.server';
import type { JobHandler } from './jobs.server';
import { ConflictError, ValidationError } from '~/lib/errors.server';

/**
 * Webhooks as the Standard Webhooks specification describes them: each event is a POST of
 * `{"type", "timestamp", "data"}` signed by the `standardwebhooks` package (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`). Deliveries are jobs of type `webhook.deliver` in the
 * one durable queue (models/job.server.ts): a 2xx within WEBHOOK_TIMEOUT_MS counts; anything else
 * is retried after each of WEBHOOK_RETRY_DELAYS, and the delivery is failed after the last.
 *
 * Receivers on loopback, private, link-local and other non-public addresses are refused (unless
 * WEBHOOKS_ALLOW_PRIVATE=true), when an endpoint is saved and again on every connection: the
 * address checked is the one connected to, so a name that later resolves elsewhere gains nothing.
 */
export const WEBHOOK_JOB = 'webhook.deliver';
const RESPONSE_LOG_BYTES = 1024;

export class WebhookUrlError extends Error {}

/** The URL's error for a form, or null when the receiver may be called. */
export async function webhookUrlProblem(url: string | undefined): Promise<string | null> {
  if (url === undefined) return null;
  try {
    await assertPublicDestination(url);
    return null;
  } catch (error) {
    if (error instanceof WebhookUrlError) return error.message;
    throw error;
  }
}

/** A ValidationError naming `url` when a webhook's URL points somewhere it may not. */
export async function checkWebhookUrl(url: string | undefined) {
  const problem = await webhookUrlProblem(url);
  if (problem) throw new ValidationError({ url: [problem] });
}

function allowPrivate() {
  return env.WEBHOOKS_ALLOW_PRIVATE === 'true';
}

/** Whether an address is one the public internet routes to. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

const PRIVATE_MESSAGE =
  'URL must point to a public address (loopback, private and link-local addresses are refused)';

/** Refuses a URL whose host is, or resolves to, an address that is not public. */
export async function assertPublicDestination(url: string): Promise<void> {
  if (allowPrivate()) return;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host)) throw new WebhookUrlError(PRIVATE_MESSAGE);
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    throw new WebhookUrlError(`URL host ${host} could not be resolved`);
  }
  if (!addresses.length || addresses.some((a) => !isPublicAddress(a.address)))
    throw new WebhookUrlError(PRIVATE_MESSAGE);
}

/** dns.lookup, refusing non-public answers: what a delivery connects to is checked, not a guess. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as dns.LookupAddress[];
    const refused = list.find((a) => !isPublicAddress(a.address));
    if (refused || !list.length) {
      return callback(Object.assign(new Error(PRIVATE_MESSAGE), { code: 'EPRIVATE' }), '', 0);
    }
    if (options.all)
      return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

type Answer = { statusCode: number; body: string };

/**
 * One POST, over node's http client (so that the connection's address is checked as it is
 * made): resolves with the status and the first 1 KB of the answer, or rejects on a network
 * error or when no answer came within the timeout.
 */
function post(url: URL, body: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    if (!allowPrivate() && ipaddr.isValid(url.hostname.replace(/^\[|\]$/g, ''))) {
      if (!isPublicAddress(url.hostname.replace(/^\[|\]$/g, '')))
        return reject(new Error(PRIVATE_MESSAGE));
    }
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
        ...(allowPrivate() ? {} : { lookup: publicLookup }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_LOG_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            statusCode: res.statusCode ?? 0,
            body: Buffer.concat(chunks).subarray(0, RESPONSE_LOG_BYTES).toString('utf8'),
          });
        });
        res.on('error', (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`No answer within ${env.WEBHOOK_TIMEOUT_MS / 1000} s`));
    }, env.WEBHOOK_TIMEOUT_MS);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}

function newMessageId() {
  return `msg_${randomBytes(16).toString('hex')}`;
}

async function enqueueDelivery(deliveryId: string) {
  const job = await enqueueJob(
    WEBHOOK_JOB,
    { deliveryId },
    { retryDelays: env.WEBHOOK_RETRY_DELAYS },
  );
  await setDeliveryJob(deliveryId, job.id);
}

/**
 * Whose an event is: the account and mode of the parcel it is about (the parcel as sent, else as
 * stored), or the company's live data for an event about no parcel of an account.
 */
async function eventOwner(
  data: Record<string, unknown>,
): Promise<{ accountId: string | null; livemode: boolean }> {
  const parcel = (data.parcel ?? null) as {
    id?: string;
    accountId?: string | null;
    livemode?: boolean;
  } | null;
  const parcelId = parcel?.id ?? (data.notification as { parcelId?: string } | undefined)?.parcelId;
  if (parcel && 'livemode' in parcel)
    return { accountId: parcel.accountId ?? null, livemode: parcel.livemode !== false };
  return (parcelId && (await getParcelTenancy(parcelId))) || { accountId: null, livemode: true };
}

/**
 * The one place events come from: the services call it after a change is stored, whichever
 * path (API, dashboard, import) made it. Each active endpoint that wants the type and may hear
 * of the parcel (its account's, and the company's for live data) gets a delivery,
 * queued before this returns. A failure here is logged and never fails the change itself.
 */
export async function emitWebhookEvent(
  type: WebhookEventType,
  data: Record<string, unknown>,
  /** Whose the parcel is, when the caller knows: not read again. */
  knownOwner?: { accountId: string | null; livemode: boolean } | null,
): Promise<void> {
  try {
    const owner = knownOwner ?? (await eventOwner(data));
    const webhookIds = await subscribedWebhooks(type, owner);
    if (!webhookIds.length) return;
    const payload = JSON.stringify({ type, timestamp: new Date().toISOString(), ...owner, data });
    await Promise.all(
      webhookIds.map(async (webhookId) => {
        const delivery = await createDelivery({
          webhookId,
          messageId: newMessageId(),
          type,
          payload,
        });
        await enqueueDelivery(delivery.id);
      }),
    );
  } catch (error) {
    console.error(`Could not queue the ${type} webhook event`, error);
  }
}

/** A delivery sent again while it is still queued (API: 409). */
export class RedeliveryConflict extends ConflictError {}

/** Sends a delivery again (the same message id and body), with the usual retries. */
export async function redeliver(
  webhookId: string,
  deliveryId: string,
): Promise<SerializedDelivery | null> {
  const delivery = await getDeliveryRecord(deliveryId);
  if (!delivery || String(delivery.webhookId) !== webhookId) return null;
  const current = delivery.jobId ? await getJob(delivery.jobId) : null;
  if (current && (current.status === 'queued' || current.status === 'running'))
    throw new RedeliveryConflict('This delivery is already queued');
  await enqueueDelivery(deliveryId);
  return getDelivery(webhookId, deliveryId);
}

/** One attempt: POST, log it, and throw (to be retried) unless the receiver answered 2xx. */
async function attemptDelivery(deliveryId: string, lastAttempt: boolean) {
  const delivery = await getDeliveryRecord(deliveryId);
  if (!delivery) return;
  const webhook = await webhookForDelivery(String(delivery.webhookId));
  if (!webhook || !webhook.active) {
    await markDelivery(deliveryId, 'failed');
    return;
  }
  const at = new Date();
  const started = performance.now();
  let answer: Answer | null = null;
  let error: string | null = null;
  try {
    await assertPublicDestination(webhook.url);
    const signer = new Signer(webhook.secret);
    const signature = signer.sign(delivery.messageId, at, delivery.payload);
    answer = await post(new URL(webhook.url), delivery.payload, {
      'Content-Type': 'application/json',
      'User-Agent': 'Courier-Webhooks/1.0',
      'webhook-id': delivery.messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    });
  } catch (e) {
    error = (e as Error).message || String(e);
  }
  const ok = answer !== null && answer.statusCode >= 200 && answer.statusCode < 300;
  if (!ok && !error) error = `The receiver answered ${answer!.statusCode}`;
  await recordAttempt(
    deliveryId,
    {
      at,
      statusCode: answer?.statusCode ?? null,
      durationMs: Math.round(performance.now() - started),
      response: answer?.body ?? '',
      error,
    },
    ok ? 'succeeded' : lastAttempt ? 'failed' : 'pending',
  );
  countWebhookDelivery(ok ? 'succeeded' : lastAttempt ? 'failed' : 'retrying');
  if (!ok) throw new Error(error!);
}

/** The handler of `webhook.deliver` jobs (registered in job-kinds.server.ts). */
export const webhookDeliveryJob: JobHandler = {
  run: (job) => attemptDelivery(String(job.payload.deliveryId), job.lastAttempt),
  onFailed: async (job) => {
    await markDelivery(String(job.payload.deliveryId), 'failed');
  },
};
