import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { Inquiry } from '~/models/inquiry.server';
import { action as contactAction } from '~/routes/_public.contact';
import { action as quoteAction } from '~/routes/_public.quote';
import { action as newsletterAction } from '~/routes/newsletter';
import { EMAIL_JOB } from '~/services/email-queue.server';
import { Job } from '~/models/job.server';
import { resumeInquiryEmails } from '~/services/inquiries.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { startJobWorker, type JobWorker } from '~/services/jobs.server';
import { callRoute, toastOf, uniqueAddress, expectToast } from '../support/api';
import { attemptDueJob, until } from '../support/jobs';
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp';

let worker: JobWorker | undefined;
let smtp: TestSmtpServer | undefined;
const previous = { url: env.SMTP_URL, delays: env.MAIL_RETRY_DELAYS };

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  // Retries a fifth of a second apart, so that the server's return is seen within the test.
  env.MAIL_RETRY_DELAYS = [0.2, 0.2, 0.2, 0.2, 0.2];
});

afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  await smtp?.stop();
  smtp = undefined;
  env.SMTP_URL = previous.url;
});

afterAll(async () => {
  env.MAIL_RETRY_DELAYS = previous.delays;
  await disconnectDb();
});

function submit(action: unknown, url: string, fields: Record<string, string>) {
  return callRoute(action, url, {
    method: 'POST',
    body: new URLSearchParams(fields),
    clientAddress: uniqueAddress(),
  });
}

/** A port where nothing answers: a server was there a moment ago and has stopped. */
async function deadPort(): Promise<number> {
  const server = await startTestSmtpServer();
  await server.stop();
  return server.port;
}

describe('e-mails to the company from the public site', () => {
  it('a contact message sent while the mail server is down reaches it once the server is back', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const port = await deadPort();
    env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    const subject = `Where is my parcel ${Date.now()}`;

    const res = await submit(contactAction, '/contact', {
      firstName: 'Mary',
      lastName: 'Somerville',
      email: 'mary@example.com',
      phone: '+44 20 7946 0000',
      subject,
      message: 'It left the depot three days ago.',
      website: '',
    });
    await expectToast(res, { type: 'success', title: 'Message sent' });
    // The request only queued the e-mail; a worker's attempt finds the server down.
    expect(await Inquiry.findOne({ subject }).lean()).toMatchObject({ emailStatus: 'pending' });
    await attemptDueJob(EMAIL_JOB);
    const refused = await Inquiry.findOne({ subject }).lean();
    expect(refused).toMatchObject({ emailStatus: 'failed' });
    expect(refused?.emailError).toMatch(/ECONNREFUSED/);

    // The server comes back; the queue's next attempt delivers the message.
    smtp = await startTestSmtpServer({ port });
    worker = startJobWorker({ pollMs: 20 });
    const mail = await smtp.waitForMessage(env.COMPANY_EMAIL);
    expect(mail.subject).toBe(`[Contact] ${subject}`);
    expect(mail.replyTo?.text).toContain('mary@example.com');
    expect(mail.text).toContain('It left the depot three days ago.');
    const sent = await until(() => Inquiry.findOne({ subject, emailStatus: 'sent' }).lean());
    expect(sent.emailError).toBeUndefined();
    await worker.idle();
    // Support's copy, and the sender's acknowledgement: one each.
    expect(smtp.messages.map((m) => m.to && [m.to].flat()[0]!.text).sort()).toEqual(
      [env.COMPANY_EMAIL, 'mary@example.com'].sort(),
    );
    warn.mockRestore();
  });

  it('a quote request the mail server refuses at first is sent on a later attempt, once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    smtp = await startTestSmtpServer({ rejectFirst: 1 });
    env.SMTP_URL = smtp.url;
    const destination = `Lisbon ${Date.now()}`;

    const res = await submit(quoteAction, '/quote', {
      name: 'Ada Byron',
      email: 'ada@example.com',
      phone: '(555) 010-2040',
      company: 'Engines Ltd',
      plan: 'basic',
      shipmentsPerMonth: '1-10',
      origin: 'London',
      destination,
      message: '',
      website: '',
    });
    expect(res.status).toBe(302);
    await attemptDueJob(EMAIL_JOB);
    expect((await Inquiry.findOne({ destination }).lean())?.emailStatus).toBe('failed');
    expect(smtp.refusals()).toBe(1);

    worker = startJobWorker({ pollMs: 20 });
    const mail = await smtp.waitForMessage(env.COMPANY_EMAIL);
    expect(mail.subject).toBe('[Quote] Quote request: Basic ($9.99 per shipment) from Ada Byron');
    await until(() => Inquiry.findOne({ destination, emailStatus: 'sent' }).lean());
    await worker.idle();
    expect(
      smtp.messages.filter((m) => m.to && [m.to].flat()[0]!.text === env.COMPANY_EMAIL),
    ).toHaveLength(1);
    warn.mockRestore();
  });

  it('a new newsletter subscriber is reported to support once the mail server is back', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const port = await deadPort();
    env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    const email = `reader.${Date.now()}@example.com`;

    const res = await submit(newsletterAction, '/newsletter', { email, redirectTo: '/' });
    expect(await toastOf(res)).toMatchObject({ type: 'success', title: 'Subscribed' });
    await attemptDueJob(EMAIL_JOB);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`new subscription of ${email}`));

    smtp = await startTestSmtpServer({ port });
    worker = startJobWorker({ pollMs: 20 });
    const mail = await smtp.waitForMessage(env.COMPANY_EMAIL);
    expect(mail.subject).toBe(`[Newsletter] New subscriber: ${email}`);
    warn.mockRestore();
  });
});

describe('the acknowledgement to the sender', () => {
  it('says a contact message or quote request arrived, with its reference, and repeats nothing they typed', async () => {
    smtp = await startTestSmtpServer();
    env.SMTP_URL = smtp.url;
    worker = startJobWorker({ pollMs: 20 });
    const res = await submit(contactAction, '/contact', {
      firstName: 'Visit',
      lastName: 'Buy-Cheap-Pills',
      email: 'lovelace@example.com',
      phone: '',
      subject: 'Click http://spam.example now',
      message: 'Every word here is the sender’s own.',
      website: '',
    });
    expect(res.status).toBe(302);
    const mail = await smtp.waitForMessage('lovelace@example.com');
    const inquiry = await until(() =>
      Inquiry.findOne({ email: 'lovelace@example.com', acknowledgement: 'sent' }).lean(),
    );
    expect(mail.subject).toBe(`We received your message · ${env.COMPANY_NAME}`);
    expect(mail.replyTo?.text).toBe(env.COMPANY_EMAIL);
    expect(mail.messageId).toMatch(new RegExp(`^<inquiry-acknowledgement-${inquiry._id}@`));
    expect(mail.text).toContain(`Your reference: ${inquiry._id}`);
    expect(mail.text).toContain('Our support team will reply to this address within 2 hours.');
    for (const typed of ['Buy-Cheap-Pills', 'spam.example', 'sender’s own', 'Visit'])
      expect(`${mail.subject} ${mail.text} ${mail.html}`).not.toContain(typed);

    await submit(quoteAction, '/quote', {
      name: 'Ada Byron',
      email: 'byron@example.com',
      phone: '(555) 010-2040',
      company: '',
      plan: 'premium',
      shipmentsPerMonth: '1-10',
      origin: 'London',
      destination: 'Paris',
      message: '',
      website: '',
    });
    const quote = await smtp.waitForMessage('byron@example.com');
    expect(quote.subject).toBe(`We received your quote request · ${env.COMPANY_NAME}`);
    expect(quote.text).toContain('Our sales team will reply to this address with your quote');
  });

  it('goes to one address at most three times an hour, however many forms name it', async () => {
    const email = `often.${Date.now()}@example.com`;
    const form = {
      firstName: 'Ofte',
      lastName: 'Ner',
      email,
      phone: '',
      subject: 'Again',
      message: 'Hello there, again.',
      website: '',
    };
    for (let i = 0; i < 4; i++)
      expect((await submit(contactAction, '/contact', form)).status).toBe(302);
    const owed = await Inquiry.find({ email }).sort({ createdAt: 1 }).lean();
    expect(owed.map((i) => i.acknowledgement)).toEqual([
      'pending',
      'pending',
      'pending',
      'skipped',
    ]);
    // Queued once each, however often the queue is resumed.
    await resumeInquiryEmails();
    expect(
      await Job.countDocuments({
        'payload.kind': 'inquiry-acknowledgement',
        'payload.inquiryId': { $in: owed.map((i) => String(i._id)) },
      }),
    ).toBe(3);
  });
});
