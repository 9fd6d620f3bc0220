import {
  inquiryAcknowledgementEmail,
  inquiryEmail,
  newSubscriberEmail,
} from '~/emails/inquiry.server';
import { RateLimit } from '~/lib/rate-limit.server';
import {
  createContactMessage,
  createQuoteRequest,
  getInquiry,
  listInquiriesAwaitingAcknowledgement,
  listInquiriesAwaitingEmail,
  recordAcknowledgement,
  recordInquiryEmail,
  type StoredInquiry,
} from '~/models/inquiry.server';
import { subscribeToNewsletter } from '~/models/subscription.server';
import {
  PUBLIC_FORM_RATE_LIMIT,
  type ContactMessageInput,
  type QuoteRequestInput,
} from '~/schemas/public-forms';
import { enqueueEmail, type EmailKind } from './email-queue.server';
import { messageIdFor, sendMail } from './mailer.server';

/**
 * What visitors send the company from the public site — contact messages, quote requests and
 * newsletter sign-ups — and the e-mail each one sends to support. The e-mail is an `email.send`
 * job like every other: the request stores the submission, queues the e-mail and answers at once;
 * a worker sends it, and when the mail server refuses it or is down, tries again after each of
 * MAIL_RETRY_DELAYS until it goes through. The sender of a contact message or quote request is
 * acknowledged by e-mail the same way, once (the job's key and the inquiry's `acknowledgement`),
 * and at most ACKNOWLEDGEMENTS_PER_ADDRESS times an hour per address, since anyone may type
 * anyone's address into the form.
 */

/** Accepted submissions per client address, one counter per form. */
export const contactLimiter = new RateLimit(
  'contact',
  PUBLIC_FORM_RATE_LIMIT.limit,
  PUBLIC_FORM_RATE_LIMIT.windowMs,
  { perAddress: true },
);
export const quoteLimiter = new RateLimit(
  'quote',
  PUBLIC_FORM_RATE_LIMIT.limit,
  PUBLIC_FORM_RATE_LIMIT.windowMs,
  { perAddress: true },
);
export const newsletterLimiter = new RateLimit(
  'newsletter',
  PUBLIC_FORM_RATE_LIMIT.limit,
  PUBLIC_FORM_RATE_LIMIT.windowMs,
  { perAddress: true },
);

export const INQUIRY_EMAIL = 'inquiry';
export const INQUIRY_ACKNOWLEDGEMENT_EMAIL = 'inquiry-acknowledgement';
export const NEW_SUBSCRIBER_EMAIL = 'newsletter-subscriber';

/** Acknowledgements one address receives in an hour, whoever sends the forms. */
export const ACKNOWLEDGEMENTS_PER_ADDRESS = 3;
export const acknowledgementLimiter = new RateLimit(
  'inquiry-acknowledgement',
  ACKNOWLEDGEMENTS_PER_ADDRESS,
  60 * 60 * 1000,
);

const inquiryJobKey = (id: string) => `email:inquiry:${id}`;
const acknowledgementJobKey = (id: string) => `email:inquiry-acknowledgement:${id}`;

async function emailSupport(inquiryId: string) {
  await enqueueEmail({ kind: INQUIRY_EMAIL, inquiryId }, { uniqueKey: inquiryJobKey(inquiryId) });
}

async function acknowledge(inquiryId: string) {
  await enqueueEmail(
    { kind: INQUIRY_ACKNOWLEDGEMENT_EMAIL, inquiryId },
    { uniqueKey: acknowledgementJobKey(inquiryId) },
  );
}

/** Whether the sender's address may receive another acknowledgement this hour. */
async function mayAcknowledge(email: string) {
  return (await acknowledgementLimiter.hit(email.trim().toLowerCase())).allowed;
}

/**
 * Stores an inquiry through `store`, told whether its sender may be acknowledged, e-mails it to
 * support and acknowledges it to the sender.
 */
async function submitInquiry<I extends { email: string }>(
  input: I,
  store: (input: I & { acknowledge: boolean }) => Promise<StoredInquiry>,
) {
  const inquiry = await store({ ...input, acknowledge: await mayAcknowledge(input.email) });
  await emailSupport(String(inquiry._id));
  if (inquiry.acknowledgement === 'pending') await acknowledge(String(inquiry._id));
  return inquiry;
}

/** Stores a contact message, e-mails it to support and acknowledges it to the sender. */
export async function submitContactMessage(
  input: ContactMessageInput & { clientAddress?: string },
) {
  return submitInquiry(input, createContactMessage);
}

/** Stores a quote request, e-mails it to support and acknowledges it to the sender. */
export async function submitQuoteRequest(input: QuoteRequestInput & { clientAddress?: string }) {
  return submitInquiry(input, createQuoteRequest);
}

/**
 * Subscribes an address to the newsletter (once, whatever its letter case); support hears about
 * each new subscriber.
 */
export async function signUpForNewsletter(input: {
  email: string;
  source?: string;
  clientAddress?: string;
}): Promise<{ created: boolean }> {
  const { created, id } = await subscribeToNewsletter(input);
  if (created && id) {
    await enqueueEmail(
      { kind: NEW_SUBSCRIBER_EMAIL, email: input.email },
      { uniqueKey: `email:newsletter-subscriber:${id}` },
    );
  }
  return { created };
}

/**
 * After a restart: an inquiry whose e-mail was never attempted (the process stopped between
 * storing it and queueing it) is queued. A job already queued for it is kept: the key is the
 * inquiry's.
 */
export async function resumeInquiryEmails(): Promise<void> {
  for (const id of await listInquiriesAwaitingEmail()) await emailSupport(id);
  for (const id of await listInquiriesAwaitingAcknowledgement()) await acknowledge(id);
}

function errorText(error: unknown) {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/**
 * The `inquiry` kind of `email.send` job (registered in job-kinds.server.ts): each attempt's
 * outcome is recorded on the inquiry for the staff inbox, a refusal is logged, and thrown for
 * the queue to try again.
 */
export const inquiryEmailKind: EmailKind = {
  send: async (payload) => {
    const inquiry = await getInquiry(String(payload.inquiryId));
    if (!inquiry) return;
    try {
      await sendMail(inquiryEmail(inquiry));
    } catch (error) {
      const message = errorText(error);
      console.warn(
        `Could not e-mail ${inquiry.kind} inquiry ${String(inquiry._id)} to support: ${message}`,
      );
      await recordInquiryEmail(String(inquiry._id), { status: 'failed', error: message });
      throw error;
    }
    await recordInquiryEmail(String(inquiry._id), { status: 'sent' });
  },
};

/**
 * The `inquiry-acknowledgement` kind of `email.send` job (registered in job-kinds.server.ts):
 * sent while the inquiry still owes it, under a Message-ID of its own so a receiver can tell a
 * repeat; a refusal is thrown for the queue to try again, and recorded once the last try failed.
 */
export const inquiryAcknowledgementEmailKind: EmailKind = {
  send: async (payload) => {
    const id = String(payload.inquiryId);
    const inquiry = await getInquiry(id);
    if (inquiry?.acknowledgement !== 'pending') return;
    await sendMail({
      ...inquiryAcknowledgementEmail(inquiry),
      messageId: messageIdFor(`inquiry-acknowledgement-${id}`),
    });
    await recordAcknowledgement(id, 'sent');
  },
  failed: async (payload, error) => {
    console.warn(`Could not acknowledge inquiry ${String(payload.inquiryId)}: ${error}`);
    await recordAcknowledgement(String(payload.inquiryId), 'failed');
  },
};

/** The `newsletter-subscriber` kind of `email.send` job (registered in job-kinds.server.ts). */
export const newSubscriberEmailKind: EmailKind = {
  send: async (payload) => {
    const email = String(payload.email);
    try {
      await sendMail(newSubscriberEmail(email));
    } catch (error) {
      console.warn(
        `Could not e-mail the new subscription of ${email} to support: ${errorText(error)}`,
      );
      throw error;
    }
  },
};
