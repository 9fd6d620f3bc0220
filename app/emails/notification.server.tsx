import { trackingUrl } from '~/lib/urls.server';
import { jsonLdText } from '~/utils/json-ld';
import {
  ButtonLink,
  Heading,
  renderEmailHtml,
  TextParagraphs,
  textSignature,
} from './layout.server';

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
  /** The parcel as schema.org ParcelDelivery data, for mail programs that show deliveries. */
  delivery?: unknown;
};

const NOTE = { fontSize: 13, color: '#6b7280' } as const;

/** The e-mail about a parcel: its message (or template HTML), the latest event, the tracking link. */
export function notificationEmail(notification: RenderableNotification) {
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
    ...textSignature(),
  ].join('\n');
  const html = renderEmailHtml(
    notification.title,
    <>
      {notification.delivery ? (
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={{ __html: jsonLdText(notification.delivery) }}
        />
      ) : null}
      <Heading>{notification.title}</Heading>
      {notification.html ? (
        // An admin's template, its placeholders filled in and escaped (emails/templates.server.ts).
        <div dangerouslySetInnerHTML={{ __html: notification.html }} />
      ) : (
        <TextParagraphs text={notification.message} />
      )}
      {event ? (
        <p style={{ margin: '16px 0 0', padding: 12, background: '#f3f4f6', borderRadius: 6 }}>
          Latest update: <strong>{eventLine}</strong>
          {event.description ? (
            <>
              <br />
              {event.description}
            </>
          ) : null}
        </p>
      ) : null}
      <p style={{ margin: '24px 0 8px' }}>
        Tracking number: <strong>{notification.trackingNumber}</strong>
      </p>
      <ButtonLink href={link}>Track your parcel</ButtonLink>
      {unsubscribeUrl ? (
        <p style={NOTE}>
          You asked for updates on this parcel. <a href={unsubscribeUrl}>Unsubscribe</a>
        </p>
      ) : null}
    </>,
  );
  return { subject: notification.title, text, html };
}
