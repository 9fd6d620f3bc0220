import { env } from '~/lib/env.server';
import {
  emailLayout,
  escapeHtml,
  messageIdFor,
  mailTimeoutText,
  publicUrl,
  sendMail,
  textToHtml,
  type MailMessage,
} from './mailer.server';

export type SendOptions = {
  /** Overrides SMTP_URL (tests point this at their own server). */
  smtpUrl?: string;
  /** Overrides SMTP_TIMEOUT_MS. */
  timeoutMs?: number;
};

export type RenderableNotification = {
  /** The notification's id: its e-mail carries a Message-ID made from it. */
  id?: string;
  /** For e-mails that are not notifications: the key their Message-ID is made from. */
  messageKey?: string;
  recipient: string;
  title: string;
  message: string;
  /** The HTML body (from a template, already filled in and escaped); else made from `message`. */
  html?: string | null;
  trackingNumber: string;
  /** The tracking event the e-mail reports (subscribers' e-mails), shown under the message. */
  event?: { status: string; location?: string | null; description?: string | null; time: string };
  /**
   * Set for e-mails to people who subscribed: a visible unsubscribe link (`page`), and the
   * `List-Unsubscribe` (`oneClick`) and `List-Unsubscribe-Post` headers for one-click unsubscribe
   * (RFC 8058).
   */
  unsubscribe?: { page: string; oneClick: string };
};

export function trackingUrl(trackingNumber: string): string {
  return publicUrl(`/track?${new URLSearchParams({ number: trackingNumber })}`);
}

/** The e-mail for a notification: branded HTML and plain text, staff-typed text escaped. */
export function renderNotificationEmail(
  notification: RenderableNotification,
): Pick<MailMessage, 'subject' | 'text' | 'html'> {
  const link = trackingUrl(notification.trackingNumber);
  const { event } = notification;
  const unsubscribeUrl = notification.unsubscribe?.page;
  const eventLine = event
    ? [event.status, event.location, event.time].filter(Boolean).join(' · ')
    : '';
  const text = [
    notification.message,
    '',
    ...(event
      ? [`Latest update: ${eventLine}`, ...(event.description ? [event.description] : []), '']
      : []),
    `Tracking number: ${notification.trackingNumber}`,
    `Track your parcel: ${link}`,
    ...(unsubscribeUrl
      ? ['', `You asked for updates on this parcel. Unsubscribe: ${unsubscribeUrl}`]
      : []),
    '',
    '--',
    env.COMPANY_NAME,
    `${env.COMPANY_PHONE} · ${env.COMPANY_EMAIL}`,
  ].join('\n');
  const eventHtml = event
    ? `<p style="margin:16px 0 0;padding:12px;background:#f3f4f6;border-radius:6px">Latest update: <strong>${escapeHtml(eventLine)}</strong>${event.description ? `<br>${escapeHtml(event.description)}` : ''}</p>`
    : '';
  const unsubscribeHtml = unsubscribeUrl
    ? `<p style="font-size:13px;color:#6b7280">You asked for updates on this parcel. <a href="${escapeHtml(unsubscribeUrl)}">Unsubscribe</a></p>`
    : '';
  const body = `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(notification.title)}</h1>
${notification.html || textToHtml(notification.message)}${eventHtml}
<p style="margin:24px 0 8px">Tracking number: <strong>${escapeHtml(notification.trackingNumber)}</strong></p>
<p style="margin:0 0 16px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#1e40af;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">Track your parcel</a></p>
<p style="font-size:13px;color:#6b7280">Or open this link: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>${unsubscribeHtml}`;
  return { subject: notification.title, text, html: emailLayout(notification.title, body) };
}

export type DeliveryResult = { ok: true; messageId: string } | { ok: false; error: string };

function errorText(error: unknown): string {
  const e = error as { message?: string; response?: string } | null;
  const text = e?.message || e?.response || String(error);
  return text.slice(0, 1000);
}

/**
 * Sends a notification's e-mail and never throws: the outcome (message id or the transport's
 * error text) is returned. A hard time limit caps the whole attempt, on top of the transport's
 * own connection, greeting and socket timeouts, so a dead server cannot hang the caller.
 */
export async function deliverNotificationEmail(
  notification: RenderableNotification,
  options: SendOptions = {},
): Promise<DeliveryResult> {
  const timeoutMs = options.timeoutMs ?? env.SMTP_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  try {
    const sending = sendMail(
      {
        to: notification.recipient,
        ...renderNotificationEmail(notification),
        ...(notification.messageKey
          ? { messageId: messageIdFor(notification.messageKey) }
          : notification.id
            ? { messageId: messageIdFor(`notification-${notification.id}`) }
            : {}),
        ...(notification.unsubscribe
          ? {
              headers: {
                'List-Unsubscribe': `<${notification.unsubscribe.oneClick}>`,
                'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
              },
            }
          : {}),
      },
      { smtpUrl: options.smtpUrl, timeoutMs },
    );
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
