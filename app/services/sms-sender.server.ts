import { SMS, SMSFailure, TypeEnum } from '@vonage/sms';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import twilio from 'twilio';
import { env } from '~/lib/env.server';
import { countMessage } from '~/lib/metrics.server';

/**
 * The text transport: one small interface, `SmsSender`, with a provider behind it chosen by
 * SMS_URL — Twilio (`twilio://ACCOUNT_SID:AUTH_TOKEN@FROM`, through its library), Vonage
 * (`vonage://API_KEY:API_SECRET@FROM`, through @vonage/sms, held at 1.21, the last line that runs
 * on Node 20), a generic gateway (`https://…`, given
 * JSON `{to, from, body}`; any 2xx is taken), or, unset, files in DATA_DIR/sms-outbox. The
 * `sms.send` jobs call it (sms.server.ts); what they send is written in app/emails/texts.server.ts.
 */

export type TextMessage = {
  /** E.164. */
  to: string;
  body: string;
  /** Stable per text: a gateway that keeps it answers a repeat without sending twice. */
  key: string;
};
export type TextResult = { messageId: string; outboxFile?: string };
export interface SmsSender {
  readonly provider: 'twilio' | 'vonage' | 'http' | 'outbox';
  send(message: TextMessage, options: { timeoutMs: number }): Promise<TextResult>;
}

export function smsOutboxDir() {
  return path.resolve(env.DATA_DIR, 'sms-outbox');
}

/** Whether texts reach phones (a provider is configured), rather than the outbox. */
export function smsProviderConfigured(url = env.SMS_URL): boolean {
  return Boolean(url);
}

/**
 * Who a text is from: SMS_FROM when set; else the number or sender id in a provider's URL (its
 * host), else the company's name (a gateway's, the outbox's).
 */
function senderOf(url: URL | null): string {
  if (env.SMS_FROM) return env.SMS_FROM;
  const host = url && decodeURIComponent(url.hostname);
  if (host) return /^\d{6,15}$/.test(host) ? `+${host}` : host;
  return env.COMPANY_NAME;
}

/** Twilio's account and token in the URL's user and password, the sender in its host. */
function twilioSender(url: URL): SmsSender {
  const client = twilio(decodeURIComponent(url.username), decodeURIComponent(url.password), {
    timeout: env.SMS_TIMEOUT_MS,
  });
  const from = senderOf(url);
  return {
    provider: 'twilio',
    async send({ to, body }) {
      const message = await client.messages.create({
        to,
        body,
        ...(/^MG[0-9a-f]{32}$/i.test(from) ? { messagingServiceSid: from } : { from }),
      });
      return { messageId: message.sid };
    },
  };
}

/** Vonage's SMS API, through its library (@vonage/sms): one status per part; "0" is taken. */
function vonageSender(url: URL): SmsSender {
  const from = senderOf(url).replace(/^\+/, '');
  const credentials = {
    apiKey: decodeURIComponent(url.username),
    apiSecret: decodeURIComponent(url.password),
  };
  return {
    provider: 'vonage',
    async send({ to, body }, { timeoutMs }) {
      const unicode = /[^\x20-\x7e\n\r]/.test(body);
      try {
        const answer = await new SMS(credentials, { timeout: timeoutMs }).send({
          from,
          to: to.replace(/^\+/, ''),
          text: body,
          ...(unicode ? { type: TypeEnum.UNICODE } : {}),
        });
        return { messageId: answer.messages[0]?.messageId ?? 'vonage' };
      } catch (error) {
        const refused =
          error instanceof SMSFailure ? error.getFailedMessages()[0]?.errorText : undefined;
        throw new Error(`Vonage refused the text: ${refused ?? (error as Error).message}`);
      }
    },
  };
}

/** A gateway of our own: JSON `{to, from, body}`, any 2xx taken; its `id` kept if it gives one. */
function httpSender(url: URL): SmsSender {
  const from = senderOf(null);
  // fetch refuses a URL with credentials: they go as Basic authorization.
  const authorization = url.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
    : null;
  const target = new URL(url);
  target.username = '';
  target.password = '';
  return {
    provider: 'http',
    async send({ to, body, key }, { timeoutMs }) {
      const response = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': key,
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ to, from, body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text().catch(() => '');
      if (!response.ok)
        throw new Error(`The SMS gateway answered ${response.status}: ${text.slice(0, 300)}`);
      let id: unknown;
      try {
        id = (JSON.parse(text) as { id?: unknown }).id;
      } catch {
        id = undefined;
      }
      return { messageId: typeof id === 'string' && id ? id : `http-${key}` };
    },
  };
}

const outboxSender: SmsSender = {
  provider: 'outbox',
  async send({ to, body, key }) {
    const dir = smsOutboxDir();
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(
      dir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.json`,
    );
    // A text carries a phone number and links that act for its recipient: for the app's user only.
    const text = JSON.stringify({ to, from: senderOf(null), body, key }, null, 2);
    await fs.writeFile(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
    return { messageId: `outbox-${key}`, outboxFile: file };
  },
};

let cached: { url: string | undefined; sender: SmsSender } | undefined;

/** The sender SMS_URL names (or `url`, for a test). */
export function smsSender(url: string | undefined = env.SMS_URL): SmsSender {
  if (cached && cached.url === url) return cached.sender;
  const parsed = url ? new URL(url) : null;
  const sender = !parsed
    ? outboxSender
    : parsed.protocol === 'twilio:'
      ? twilioSender(parsed)
      : parsed.protocol === 'vonage:'
        ? vonageSender(parsed)
        : httpSender(parsed);
  cached = { url, sender };
  return sender;
}

export type TextDelivery = { ok: true; messageId: string } | { ok: false; error: string };

function errorText(error: unknown): string {
  const e = error as { message?: string; code?: number | string; name?: string } | null;
  if (e?.name === 'TimeoutError') return 'The SMS provider did not answer in time';
  const code = typeof e?.code === 'number' ? ` (error ${e.code})` : '';
  return `${e?.message || String(error)}${code}`.slice(0, 1000);
}

/** Sends one text and never throws: the provider's message id, or its error in words. */
export async function deliverText(
  message: TextMessage,
  { url, timeoutMs = env.SMS_TIMEOUT_MS }: { url?: string; timeoutMs?: number } = {},
): Promise<TextDelivery> {
  try {
    const result = await smsSender(url ?? env.SMS_URL).send(message, { timeoutMs });
    countMessage('sms', 'sent');
    return { ok: true, messageId: result.messageId };
  } catch (error) {
    countMessage('sms', 'failed');
    return { ok: false, error: errorText(error) };
  }
}
