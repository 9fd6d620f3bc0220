import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '~/lib/env.server';
import { countMessage } from '~/lib/metrics.server';
import { publicUrl } from '~/lib/urls.server';

/**
 * The mail transport: nodemailer through SMTP_URL, or the local outbox. The `email.send` jobs call
 * it (email-queue.server.ts); what they send is written in app/emails.
 */

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** A stable Message-ID (`<id@host>`), so a receiver can tell a repeat from a new message. */
  messageId?: string;
  headers?: Record<string, string>;
  attachments?: Array<{ filename: string; content: Buffer | string; contentType?: string }>;
};

export type MailResult = { messageId: string; outboxFile?: string };

export function outboxDir() {
  return path.resolve(env.DATA_DIR, 'outbox');
}

export function mailFrom() {
  return env.MAIL_FROM ?? `"${env.COMPANY_NAME}" <${env.COMPANY_EMAIL}>`;
}

let smtpTransport: Transporter | undefined;
let smtpTransportKey: string | undefined;

function getSmtpTransport(url: string, timeoutMs: number): Transporter {
  const key = `${timeoutMs} ${url}`;
  if (!smtpTransport || smtpTransportKey !== key) {
    smtpTransport = nodemailer.createTransport({
      url,
      // A slow or dead server must not hang the request that sends.
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    smtpTransportKey = key;
  }
  return smtpTransport;
}

const outboxTransport = nodemailer.createTransport({
  streamTransport: true,
  buffer: true,
  newline: 'unix',
});

/** What staff read when a mail server did not answer in time, whichever clock ran out. */
export function mailTimeoutText(timeoutMs: number) {
  return `Timed out after ${timeoutMs} ms waiting for the mail server`;
}

/**
 * The transport reports each of its timeouts (connection, greeting, idle socket) with code
 * ETIMEDOUT and a terse message such as "Greeting never received"; the text kept for staff says
 * what happened and which step it was.
 */
function withTimeoutText(error: unknown, timeoutMs: number) {
  if (!(error instanceof Error) || (error as { code?: string }).code !== 'ETIMEDOUT') return error;
  error.message = `${mailTimeoutText(timeoutMs)} (${error.message})`;
  return error;
}

/**
 * Sends one e-mail: through SMTP_URL when set, otherwise into the local outbox as an .eml file.
 * Rejects with the transport's error when the message was not accepted. Each is counted as sent
 * or failed for /metrics.
 */
export function sendMail(
  message: MailMessage,
  options: { smtpUrl?: string; timeoutMs?: number } = {},
): Promise<MailResult> {
  const sending = transportMail(message, options);
  sending.then(
    () => countMessage('email', 'sent'),
    () => countMessage('email', 'failed'),
  );
  return sending;
}

async function transportMail(
  message: MailMessage,
  options: { smtpUrl?: string; timeoutMs?: number },
): Promise<MailResult> {
  const smtpUrl = options.smtpUrl ?? env.SMTP_URL;
  const mail = { from: mailFrom(), ...message };
  if (smtpUrl) {
    const timeoutMs = options.timeoutMs ?? env.SMTP_TIMEOUT_MS;
    try {
      const info = await getSmtpTransport(smtpUrl, timeoutMs).sendMail(mail);
      return { messageId: info.messageId };
    } catch (error) {
      throw withTimeoutText(error, timeoutMs);
    }
  }
  const info = await outboxTransport.sendMail(mail);
  const dir = outboxDir();
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(
    dir,
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`,
  );
  // Messages carry addresses and links that act for their recipient: for the app's user only,
  // whatever the umask or the folder's own mode. `wx`: a new file, so the mode always applies.
  await fs.writeFile(file, info.message as Buffer, { mode: 0o600, flag: 'wx' });
  return { messageId: info.messageId, outboxFile: file };
}

/** A Message-ID for the record `key` (e.g. `notification-<id>`), on the site's host name. */
export function messageIdFor(key: string): string {
  return `<${key}@${new URL(publicUrl('/')).hostname}>`;
}

export type DeliveryResult = { ok: true; messageId: string } | { ok: false; error: string };

function errorText(error: unknown): string {
  const e = error as { message?: string; response?: string } | null;
  const text = e?.message || e?.response || String(error);
  return text.slice(0, 1000);
}

/**
 * Sends one e-mail and never throws: the outcome (message id or the transport's error text) is
 * returned. A hard time limit caps the whole attempt, on top of the transport's own connection,
 * greeting and socket timeouts, so a dead server cannot hang the caller.
 */
export async function deliverMail(
  message: MailMessage,
  options: { smtpUrl?: string; timeoutMs?: number } = {},
): Promise<DeliveryResult> {
  const timeoutMs = options.timeoutMs ?? env.SMTP_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  try {
    const sending = sendMail(message, { smtpUrl: options.smtpUrl, timeoutMs });
    // The losing promise may still reject later; keep that from surfacing as unhandled.
    sending.catch(() => undefined);
    const result = await Promise.race([
      sending,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(mailTimeoutText(timeoutMs))), timeoutMs);
      }),
    ]);
    return { ok: true, messageId: result.messageId };
  } catch (error) {
    return { ok: false, error: errorText(error) };
  } finally {
    clearTimeout(timer);
  }
}
