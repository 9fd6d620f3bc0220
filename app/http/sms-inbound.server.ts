import { AlgorithmTypes } from '@vonage/auth';
import { SMS } from '@vonage/sms';
import twilio from 'twilio';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { env } from '~/lib/env.server';
import { publicUrl } from '~/lib/urls.server';
import type { InboundText } from '~/services/sms.server';
import { ApiError } from './api.server';

/**
 * A text received from a recipient, as the provider posts it to /api/sms/inbound, its signature
 * checked by the provider's own library: Twilio's form fields (`From`, `To`, `Body`) under
 * `X-Twilio-Signature` (twilio's validateRequest, with the account's auth token from SMS_URL and
 * the address Twilio was given, PUBLIC_URL's), Vonage's signed inbound message (`msisdn`, `to`,
 * `text`, `timestamp` and `sig`, as a form or JSON: @vonage/sms's verifySignature, with the
 * signature secret SMS_INBOUND_SECRET and the method SMS_URL's `?signature=` names, MD5HASH
 * unless it says; signed within the last 5 minutes), or a generic gateway's JSON
 * `{from, to, body}` signed as our own webhooks are (Standard Webhooks, SMS_INBOUND_SECRET).
 * Anything else is 401.
 */

export const INBOUND_PATH = '/api/sms/inbound';

export const InboundTextSchema = z
  .object({
    from: z.string().trim().min(3).max(40).describe('The number the text came from'),
    to: z.string().trim().max(40).optional().describe('The number it was sent to (ours)'),
    body: z.string().max(2000).describe('What the recipient wrote'),
  })
  .describe('A text a recipient sent, as a generic gateway posts it (Standard Webhooks signed)');

const UNSIGNED = 'The text’s signature is missing or not valid';

function refuse(): never {
  throw new ApiError(401, UNSIGNED, undefined, { code: 'invalid_signature' });
}

/** Whether the request is Twilio's (it answers TwiML). */
export function fromTwilio(request: Request) {
  return request.headers.has('x-twilio-signature');
}

/** How old a Vonage text's signature may be: a replayed one is refused after this. */
const VONAGE_SIGNED_WITHIN_MS = 5 * 60 * 1000;

/** Vonage's inbound message's parameters, when SMS_URL is Vonage's and the body is one. */
function vonageParams(raw: string, request: Request): Record<string, string> | null {
  let body: Record<string, unknown> = {};
  if ((request.headers.get('content-type') ?? '').includes('json')) {
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return null;
    }
  } else body = Object.fromEntries(new URLSearchParams(raw));
  if (!body || typeof body !== 'object' || !('msisdn' in body)) return null;
  return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, String(value)]));
}

function readVonageText(params: Record<string, string>, url: URL): InboundText {
  const method = (url.searchParams.get('signature') ?? AlgorithmTypes.md5hash).toUpperCase();
  const algorithm = Object.values(AlgorithmTypes).find((one) => one === method);
  const secret = env.SMS_INBOUND_SECRET;
  if (!secret || !algorithm || !params.sig) refuse();
  let valid = false;
  try {
    valid = new SMS({
      apiKey: decodeURIComponent(url.username),
      apiSecret: decodeURIComponent(url.password),
    }).verifySignature(params.sig, params, secret, algorithm);
  } catch {
    refuse();
  }
  const signedAt = Number(params.timestamp) * 1000;
  if (!valid || !(Math.abs(Date.now() - signedAt) <= VONAGE_SIGNED_WITHIN_MS)) refuse();
  return {
    from: params.msisdn!.startsWith('+') ? params.msisdn! : `+${params.msisdn}`,
    to: params.to,
    body: params.text ?? '',
  };
}

export async function readInboundText(request: Request): Promise<InboundText> {
  const raw = await request.text();
  const url = env.SMS_URL ? new URL(env.SMS_URL) : null;
  const vonage = url?.protocol === 'vonage:' ? vonageParams(raw, request) : null;
  if (vonage) return readVonageText(vonage, url!);
  if (fromTwilio(request)) {
    if (url?.protocol !== 'twilio:') refuse();
    const params = Object.fromEntries(new URLSearchParams(raw));
    const valid = twilio.validateRequest(
      decodeURIComponent(url.password),
      request.headers.get('x-twilio-signature') ?? '',
      publicUrl(INBOUND_PATH),
      params,
    );
    if (!valid) refuse();
    return { from: params.From ?? '', to: params.To, body: params.Body ?? '' };
  }
  if (!env.SMS_INBOUND_SECRET) refuse();
  try {
    new Webhook(env.SMS_INBOUND_SECRET).verify(raw, {
      'webhook-id': request.headers.get('webhook-id') ?? '',
      'webhook-timestamp': request.headers.get('webhook-timestamp') ?? '',
      'webhook-signature': request.headers.get('webhook-signature') ?? '',
    });
  } catch {
    refuse();
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ApiError(400, 'The body is not valid JSON', undefined, { code: 'malformed_json' });
  }
  const parsed = InboundTextSchema.safeParse(json);
  if (!parsed.success)
    throw new ApiError(400, 'The text must be {from, to, body}', undefined, {
      code: 'validation_failed',
    });
  return parsed.data;
}
