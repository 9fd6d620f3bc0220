import { env } from '~/lib/env.server';
import { inquiryRows } from '~/schemas/public-forms';
import { formatDateTime } from '~/utils/format';
import { Heading, renderEmailHtml, TextParagraphs, textSignature } from './layout.server';

/** What the e-mail to support needs of a stored contact message or quote request. */
export type InquiryForEmail = {
  _id: unknown;
  kind: string;
  name: string;
  email: string;
  phone?: string | null;
  company?: string | null;
  subject: string;
  message?: string | null;
  plan?: string | null;
  shipmentsPerMonth?: string | null;
  origin?: string | null;
  destination?: string | null;
  createdAt: Date;
};

/** The message the support team receives for one inquiry; a reply goes to the visitor. */
export function inquiryEmail(inquiry: InquiryForEmail) {
  const heading =
    inquiry.kind === 'quote'
      ? `New quote request from ${inquiry.name}`
      : `New contact message from ${inquiry.name}`;
  const subject =
    inquiry.kind === 'quote'
      ? `[Quote] ${inquiry.subject} from ${inquiry.name}`
      : `[Contact] ${inquiry.subject}`;
  const rows = inquiryRows(inquiry.kind, inquiry).filter(([, value]) => value);
  const received = inquiry.createdAt.toISOString();
  const reference = String(inquiry._id);
  const text = [
    heading,
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    inquiry.message ? `Message:\n${inquiry.message}` : 'No message.',
    '',
    `Received ${received} (reference ${reference}).`,
  ].join('\n');
  const html = renderEmailHtml(
    heading,
    <>
      <Heading size={18}>{heading}</Heading>
      <table role="presentation" cellPadding={0} cellSpacing={0}>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <td style={{ padding: '4px 12px 4px 0', color: '#6b7280', verticalAlign: 'top' }}>
                {label}
              </td>
              <td style={{ padding: '4px 0' }}>{value ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {inquiry.message ? (
        <>
          <h2 style={{ fontSize: 15, margin: '20px 0 8px' }}>Message</h2>
          <TextParagraphs text={inquiry.message} />
        </>
      ) : null}
      <p style={{ color: '#6b7280', fontSize: 12, marginTop: 20 }}>
        Received {received} · reference {reference}. Reply to this e-mail to answer the visitor.
      </p>
    </>,
  );
  return { to: env.COMPANY_EMAIL, replyTo: inquiry.email, subject, text, html };
}

/** Support hears about each new newsletter subscriber. */
export function newSubscriberEmail(email: string) {
  return {
    to: env.COMPANY_EMAIL,
    subject: `[Newsletter] New subscriber: ${email}`,
    text: `${email} subscribed to the ${env.COMPANY_NAME} newsletter.`,
    html: renderEmailHtml(
      'New newsletter subscriber',
      <p>{email} subscribed to the newsletter.</p>,
    ),
  };
}

/**
 * The acknowledgement the sender of a contact message or quote request receives: that it
 * arrived, when, its reference and when to expect an answer. It repeats nothing the sender typed
 * (not even their name): anyone can type any address into a public form, and this e-mail must not
 * carry their words to it under the company's name.
 */
export function inquiryAcknowledgementEmail(inquiry: InquiryForEmail) {
  const quote = inquiry.kind === 'quote';
  const what = quote ? 'quote request' : 'message';
  const subject = `We received your ${what} · ${env.COMPANY_NAME}`;
  const received = formatDateTime(inquiry.createdAt, env.COMPANY_TIMEZONE);
  const reference = String(inquiry._id);
  const answer = quote
    ? 'Our sales team will reply to this address with your quote within 2 hours.'
    : 'Our support team will reply to this address within 2 hours.';
  const lines = [
    `Thank you for contacting ${env.COMPANY_NAME}.`,
    `We received your ${what} on ${received}. ${answer}`,
    `Your reference: ${reference}`,
    `If it cannot wait, call us at ${env.COMPANY_PHONE}, day or night, or reply to this e-mail.`,
  ];
  return {
    to: inquiry.email,
    replyTo: env.COMPANY_EMAIL,
    subject,
    text: [...lines.flatMap((line) => [line, '']), ...textSignature()].join('\n'),
    html: renderEmailHtml(
      subject,
      <>
        <Heading>We received your {what}</Heading>
        <TextParagraphs text={lines.join('\n\n')} />
      </>,
    ),
  };
}
