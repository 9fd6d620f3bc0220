import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '~/lib/env.server';

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
 * Rejects with the transport's error when the message was not accepted.
 */
export async function sendMail(
  message: MailMessage,
  options: { smtpUrl?: string; timeoutMs?: number } = {},
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
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(
    dir,
    `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`,
  );
  await fs.writeFile(file, info.message as Buffer);
  return { messageId: info.messageId, outboxFile: file };
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Plain text to HTML paragraphs, escaped. */
export function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

/** A Message-ID for the record `key` (e.g. `notification-<id>`), on the site's host name. */
export function messageIdFor(key: string): string {
  return `<${key}@${new URL(publicUrl('/')).hostname}>`;
}

export function publicUrl(pathname: string): string {
  const base = env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
  return new URL(pathname, base).toString();
}

/** The company's branded HTML wrapper around a message body (already HTML-safe). */
export function emailLayout(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border-radius:8px">
<tr><td style="background:#1e40af;color:#ffffff;padding:20px 24px;font-size:20px;font-weight:bold;border-radius:8px 8px 0 0">${escapeHtml(env.COMPANY_NAME)}</td></tr>
<tr><td style="padding:24px;font-size:15px;line-height:1.5">${bodyHtml}</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;color:#6b7280;border-top:1px solid #e5e7eb">${escapeHtml(env.COMPANY_NAME)} · ${escapeHtml(env.COMPANY_PHONE)} · ${escapeHtml(env.COMPANY_EMAIL)}</td></tr>
</table></td></tr></table></body></html>`;
}
