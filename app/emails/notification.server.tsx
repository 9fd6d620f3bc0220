import { trackingUrl } from '~/lib/urls.server';
import { recipientLanguage, translator } from '~/lib/i18n.server';
import { jsonLdText } from '~/utils/json-ld';
import type { LeanNotification } from '~/models/notification.server';
import {
  ButtonLink,
  Heading,
  renderEmailHtml,
  TextParagraphs,
  textSignature,
} from './layout.server';

/** A stored notification's message, or an e-mail written like one, with what goes around it. */
export type RenderableNotification = Pick<
  LeanNotification,
  'recipient' | 'title' | 'message' | 'html' | 'language' | 'trackingNumber'
> & {
  /** The notification's id: its e-mail carries a Message-ID made from it. */
  id?: string;
  /** For e-mails that are not notifications: the key their Message-ID is made from. */
  messageKey?: string;
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
  const language = recipientLanguage(notification.language);
  const t = translator(language);
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
      ? [
          t('notification.latestUpdate', { event: eventLine }),
          ...(event.description ? [event.description] : []),
          '',
        ]
      : []),
    t('notification.trackingNumber', { trackingNumber: notification.trackingNumber }),
    t('notification.trackLine', { url: link }),
    ...(unsubscribeUrl ? ['', t('notification.unsubscribeLine', { url: unsubscribeUrl })] : []),
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
          {t('notification.latestUpdateLabel')} <strong>{eventLine}</strong>
          {event.description ? (
            <>
              <br />
              {event.description}
            </>
          ) : null}
        </p>
      ) : null}
      <p style={{ margin: '24px 0 8px' }}>
        {t('notification.trackingNumberLabel')} <strong>{notification.trackingNumber}</strong>
      </p>
      <ButtonLink href={link} language={language}>
        {t('notification.trackYourParcel')}
      </ButtonLink>
      {unsubscribeUrl ? (
        <p style={NOTE}>
          {t('notification.askedForUpdates')}{' '}
          <a href={unsubscribeUrl}>{t('notification.unsubscribe')}</a>
        </p>
      ) : null}
    </>,
    language,
  );
  return { subject: notification.title, text, html };
}
