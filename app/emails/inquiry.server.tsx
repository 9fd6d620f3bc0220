import { env } from '~/lib/env.server';
import { inquiryRows } from '~/schemas/public-forms';
import { Heading, renderEmailHtml, TextParagraphs } from './layout.server';

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
