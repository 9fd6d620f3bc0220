import { createHash } from 'node:crypto';
import {
  claimIdempotencyKey,
  releaseIdempotencyKey,
  saveIdempotentAnswer,
} from '~/models/idempotency-key.server';
import { ApiError, toApiErrorResponse } from '~/http/api.server';
import { apiCredential } from './auth.server';

/**
 * `Idempotency-Key` on the API's POSTs, in Stripe's manner and as the IETF draft
 * (draft-ietf-httpapi-idempotency-key-header) describes: the first request with a key runs and
 * its answer is kept for 24 hours; the same key with the same request replays that answer with
 * `Idempotent-Replayed: true`; with a different request it is a 422; while the first is still
 * running, a 409. Keys belong to one API credential (an API key, or a user's tokens and session).
 * Answers of 500 and above are not kept, so a retry after a failure on our side runs again.
 *
 * Written here rather than taken from a package: the maintained Express middlewares for this keep
 * their state in process memory or Redis, and this app keeps shared state in MongoDB.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const IDEMPOTENCY_KEY_MAX = 255;
// How long a first request may run before a retry with its key may run in its place.
const RUNNING_MS = 60_000;

export const IDEMPOTENCY_MISMATCH =
  'This Idempotency-Key was already used with a different request';
export const IDEMPOTENCY_IN_PROGRESS =
  'A request with this Idempotency-Key is still being processed; retry later';

function requestHash(request: Request, body: string) {
  const { pathname } = new URL(request.url);
  return createHash('sha256')
    .update(`${request.method} ${pathname}\n${request.headers.get('content-type') ?? ''}\n${body}`)
    .digest('hex');
}

/** Runs `handler` at most once per credential and Idempotency-Key (when the request has one). */
export async function idempotent(
  request: Request,
  handler: () => Promise<Response>,
): Promise<Response> {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return handler();
  if (key.length < 1 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ApiError(400, 'Validation failed', {
      [IDEMPOTENCY_HEADER]: [
        `Must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters (a UUID, for example)`,
      ],
    });
  }
  const credential = apiCredential(request);
  if (!credential) return handler();

  const hash = requestHash(request, await request.clone().text());
  const claim = await claimIdempotencyKey(credential, key, hash, RUNNING_MS);
  if (!claim.claimed) {
    const { existing } = claim;
    if (existing.requestHash !== hash)
      throw new ApiError(422, IDEMPOTENCY_MISMATCH, undefined, { code: 'idempotency_key_reused' });
    if (existing.state !== 'done')
      throw new ApiError(409, IDEMPOTENCY_IN_PROGRESS, undefined, {
        headers: { 'Retry-After': '1' },
        code: 'idempotency_key_in_progress',
      });
    const headers = new Headers({ 'Idempotent-Replayed': 'true' });
    if (existing.contentType) headers.set('Content-Type', existing.contentType);
    return new Response(existing.body, { status: existing.status ?? 200, headers });
  }

  let response: Response;
  try {
    response = await handler();
  } catch (error) {
    response = toApiErrorResponse(error);
  }
  if (response.status >= 500) {
    await releaseIdempotencyKey(credential, key);
    return response;
  }
  const body = await response.clone().text();
  await saveIdempotentAnswer(credential, key, {
    status: response.status,
    contentType: response.headers.get('Content-Type'),
    body,
  });
  return response;
}
