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
 * the address Twilio was given, PUBLIC_URL's), or a generic gateway's JSON `{from, to, body}`
 * signed as our own webhooks are (Standard Webhooks, SMS_INBOUND_SECRET). Anything else is 401.
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

export async function readInboundText(request: Request): Promise<InboundText> {
  const raw = await request.text();
  if (fromTwilio(request)) {
    const url = env.SMS_URL ? new URL(env.SMS_URL) : null;
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
