import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Inquiry } from '~/models/inquiry.server';
import { Subscription } from '~/models/subscription.server';
import { action as contactAction, loader as contactLoader } from '~/routes/_public.contact';
import { action as quoteAction, loader as quoteLoader } from '~/routes/_public.quote';
import { action as newsletterAction } from '~/routes/newsletter';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { contactLimiter, newsletterLimiter, quoteLimiter } from '~/services/inquiries.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { startJobWorker, type JobWorker } from '~/services/jobs.server';
import { until } from '../support/jobs';
import { startTestSmtpServer } from '../support/smtp';
import { jsonOf, toastOf, expectToast } from '../support/api';

let addressCounter = 0;
function nextAddress() {
  addressCounter += 1;
  return `10.20.${Math.floor(addressCounter / 250)}.${addressCounter % 250}`;
}

function post(url: string, fields: Record<string, string>) {
  return new Request(`http://localhost${url}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

type ActionFn = (args: { request: Request; params: object; context: object }) => Promise<Response>;

async function submit(
  action: unknown,
  url: string,
  fields: Record<string, string>,
  clientAddress = nextAddress(),
) {
  return (action as ActionFn)({
    request: post(url, fields),
    params: {},
    context: { clientAddress },
  });
}

/** The toast a redirect carries, as the next page would show it. */
function outboxMessages(): string[] {
  const dir = path.join(env.DATA_DIR, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((file) => fs.readFileSync(path.join(dir, file), 'utf8'));
}

function uniqueText(prefix: string) {
  return `${prefix} ${Math.random().toString(36).slice(2, 10)}`;
}

const validContact = () => ({
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'Ada.Lovelace@Example.com',
  phone: '+44 20 7946 0958',
  subject: uniqueText('Parcel SWX123456789 arrived damaged'),
  message: 'The box was crushed on one corner.\n\nPlease advise <b>how</b> to claim.',
  website: '',
});

const validQuote = () => ({
  name: 'Grace Hopper',
  email: 'grace@navy.example',
  phone: '(555) 010-2030',
  company: 'Compiler Works',
  plan: 'premium',
  shipmentsPerMonth: '51-200',
  origin: 'Arlington, USA',
  destination: uniqueText('Europe and Canada'),
  message: 'Mostly 2 kg boxes.',
  website: '',
});

let worker: JobWorker;

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  // The forms only queue their e-mails; this worker sends them.
  worker = startJobWorker({ pollMs: 20 });
});

beforeEach(async () => {
  await Promise.all([contactLimiter.clear(), quoteLimiter.clear(), newsletterLimiter.clear()]);
});

afterAll(async () => {
  await worker.stop();
  await disconnectDb();
});

/** The inquiry that matches `filter` once its e-mail to support has been tried. */
function handled(filter: Record<string, string>) {
  return until(() => Inquiry.findOne({ ...filter, emailStatus: { $ne: 'pending' } }).lean());
}

/** The two inquiry forms: their action, page, success toast and the field that names an inquiry. */
const CONTACT = { action: contactAction, page: '/contact', title: 'Message sent', by: 'subject' };
const QUOTE = {
  action: quoteAction,
  page: '/quote',
  title: 'Quote request received',
  by: 'destination',
};

/**
 * A valid form sent: it redirects back to its page with its toast, and the inquiry its field `by`
 * names is stored and e-mailed to support.
 */
async function accepted(form: typeof CONTACT, fields: Record<string, string>) {
  const { action, page, title, by } = form;
  const res = await submit(action, page, fields);
  await expectToast(res, { type: 'success', title }, `${page}?sent=1#sent`);
  const stored = await handled({ [by]: fields[by]! });
  const mail = outboxMessages().find((m) => m.includes(fields[by]!));
  expect(mail, `an .eml mentioning the ${by}`).toBeDefined();
  return { stored, mail };
}

describe('contact form', () => {
  it('stores a valid message, e-mails support and redirects with a confirmation', async () => {
    const { stored, mail } = await accepted(CONTACT, validContact());
    expect(stored).toMatchObject({
      kind: 'contact',
      name: 'Ada Lovelace',
      email: 'ada.lovelace@example.com',
      phone: '+44 20 7946 0958',
      emailStatus: 'sent',
    });
    expect(stored?.message).toContain('Please advise <b>how</b> to claim.');

    expect(mail).toContain(`To: ${env.COMPANY_EMAIL}`);
    expect(mail).toMatch(/Reply-To: ada\.lovelace@example\.com/i);
    // The visitor's markup reaches the HTML part escaped, never as markup.
    expect(mail).toContain('&lt;b&gt;how&lt;/b&gt;');
    expect(mail).not.toContain('<b>how</b> to claim.</p>');

    const page = await (contactLoader as unknown as (a: { request: Request }) => Promise<Response>)(
      {
        request: new Request('http://localhost/contact?sent=1'),
      },
    );
    expect(await page.json()).toEqual({ sent: true });
  });

  it('rejects invalid input with 400, field errors and the typed values, storing nothing', async () => {
    const before = await Inquiry.countDocuments();
    const res = await submit(contactAction, '/contact', {
      firstName: '   ',
      lastName: 'Lovelace',
      email: 'not-an-email',
      phone: 'call me',
      subject: '',
      message: 'short',
    });

    const body = await jsonOf(res, 400);
    expect(body.status).toBe('error');
    expect(body.error).toMatchObject({
      firstName: ['First name is required'],
      email: ['Enter a valid email address'],
      phone: ['Enter a valid phone number'],
      subject: ['Subject is required'],
      message: ['Message must be at least 10 characters'],
    });
    expect(body.error.lastName).toBeUndefined();
    expect(body.initialValue).toMatchObject({ lastName: 'Lovelace', email: 'not-an-email' });
    expect(await Inquiry.countDocuments()).toBe(before);
  });

  it('answers a filled honeypot as if successful but stores and sends nothing', async () => {
    const fields = { ...validContact(), website: 'http://spam.example' };
    const res = await submit(contactAction, '/contact', fields);

    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/contact?sent=1#sent');
    expect(await Inquiry.countDocuments({ subject: fields.subject })).toBe(0);
    await worker.idle();
    expect(outboxMessages().some((m) => m.includes(fields.subject))).toBe(false);
  });

  it('refuses with 429 after five messages from one address in ten minutes', async () => {
    const address = nextAddress();
    for (let i = 0; i < 5; i += 1) {
      const res = await submit(contactAction, '/contact', validContact(), address);
      expect(res.status).toBe(302);
    }
    const fields = validContact();
    const res = await submit(contactAction, '/contact', fields, address);

    expect(res.status).toBe(429);
    expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
    const body = await res.json();
    expect(body.error[''][0]).toMatch(/Please wait \d+ minutes/);
    expect(body.initialValue.subject).toBe(fields.subject);
    expect(await Inquiry.countDocuments({ subject: fields.subject })).toBe(0);

    // Another address is not affected.
    expect((await submit(contactAction, '/contact', validContact())).status).toBe(302);
  });

  it('keeps the message and still confirms when the mail server refuses it', async () => {
    const smtp = await startTestSmtpServer({ reject: true });
    const previous = env.SMTP_URL;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    env.SMTP_URL = smtp.url;
    try {
      const fields = validContact();
      const res = await submit(contactAction, '/contact', fields);

      await expectToast(res, { type: 'success', title: 'Message sent' });
      const stored = await handled({ subject: fields.subject });
      expect(stored?.emailStatus).toBe('failed');
      expect(stored?.emailError).toMatch(/550|not accepted/);
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('Could not e-mail contact inquiry'),
      );
    } finally {
      env.SMTP_URL = previous;
      warn.mockRestore();
      await smtp.stop();
    }
  });
});

describe('quote form', () => {
  it('preselects the plan from the query and falls back to "not sure"', async () => {
    const load = quoteLoader as unknown as (a: { request: Request }) => Promise<Response>;
    expect(
      await (await load({ request: new Request('http://localhost/quote?plan=enterprise') })).json(),
    ).toMatchObject({
      plan: 'enterprise',
    });
    expect(
      await (await load({ request: new Request('http://localhost/quote?plan=gold') })).json(),
    ).toMatchObject({
      plan: 'not-sure',
    });
  });

  it('stores a valid request and e-mails support', async () => {
    const { stored, mail } = await accepted(QUOTE, validQuote());
    expect(stored).toMatchObject({
      kind: 'quote',
      name: 'Grace Hopper',
      company: 'Compiler Works',
      plan: 'premium',
      shipmentsPerMonth: '51-200',
      origin: 'Arlington, USA',
      emailStatus: 'sent',
    });
    expect(mail).toContain('Subject: [Quote] Quote request: Premium');
  });

  it('rejects an unknown plan, a missing volume and missing fields with 400, storing nothing', async () => {
    const before = await Inquiry.countDocuments({ kind: 'quote' });
    const res = await submit(quoteAction, '/quote', {
      ...validQuote(),
      name: '',
      plan: 'gold',
      shipmentsPerMonth: '',
      origin: '',
    });

    const body = await jsonOf(res, 400);
    expect(Object.keys(body.error).sort()).toEqual(['name', 'origin', 'plan', 'shipmentsPerMonth']);
    expect(body.error.plan).toEqual(['Choose a plan']);
    expect(await Inquiry.countDocuments({ kind: 'quote' })).toBe(before);
  });

  it('ignores a filled honeypot and limits each address', async () => {
    const trap = { ...validQuote(), website: 'x' };
    expect((await submit(quoteAction, '/quote', trap)).status).toBe(302);
    expect(await Inquiry.countDocuments({ destination: trap.destination })).toBe(0);

    const address = nextAddress();
    for (let i = 0; i < 5; i += 1)
      expect((await submit(quoteAction, '/quote', validQuote(), address)).status).toBe(302);
    expect((await submit(quoteAction, '/quote', validQuote(), address)).status).toBe(429);
  });

  it('thanks and refuses in the language the form was filled in, keeping a chosen one', async () => {
    const address = nextAddress();
    const sent = await submit(quoteAction, '/quote?lang=fr', validQuote(), address);
    await expectToast(
      sent,
      { type: 'success', title: 'Demande de devis reçue' },
      '/quote?sent=1&lang=fr#sent',
    );
    for (let i = 0; i < 4; i += 1) await submit(quoteAction, '/quote', validQuote(), address);
    const limited = await submit(quoteAction, '/quote', { ...validQuote(), lang: 'de' }, address);
    expect(limited.status).toBe(429);
    expect((await limited.json()).error[''][0]).toMatch(/^Sie haben in kurzer Zeit .* Minuten/);
  });
});

describe('newsletter', () => {
  it('subscribes once per address whatever its case, and confirms on the page it came from', async () => {
    const email = `Reader.${Date.now()}@Example.com`;
    const first = await submit(newsletterAction, '/newsletter', { email, redirectTo: '/services' });
    const second = await submit(newsletterAction, '/newsletter', {
      email: `  ${email.toUpperCase()} `,
      redirectTo: '/about?x=1',
    });

    await expectToast(first, { type: 'success', title: 'Subscribed' }, '/services');
    await expectToast(second, { type: 'success', title: 'Subscribed' }, '/about?x=1');

    const docs = await Subscription.find({ email: email.toLowerCase() }).lean();
    expect(docs).toHaveLength(1);
    // Support hears about a new subscriber once, not on every repeat.
    await until(async () => outboxMessages().some((m) => m.includes(email.toLowerCase())));
    await worker.idle();
    expect(
      outboxMessages().filter((m) => m.includes(email.toLowerCase()) && m.includes('[Newsletter]')),
    ).toHaveLength(1);
  });

  it('redirects back with an error toast for an invalid address and stores nothing', async () => {
    const before = await Subscription.countDocuments();
    const res = await submit(newsletterAction, '/newsletter', {
      email: 'nope',
      redirectTo: '/contact',
    });

    await expectToast(
      res,
      {
        type: 'error',
        title: 'Subscription failed',
        description: 'Enter a valid email address',
      },
      '/contact',
    );
    expect(await Subscription.countDocuments()).toBe(before);
  });

  it('never redirects off the site, ignores the honeypot and limits each address', async () => {
    const offsite = await submit(newsletterAction, '/newsletter', {
      email: `a${Date.now()}@example.com`,
      redirectTo: '//evil.example/x',
    });
    expect(offsite.headers.get('Location')).toBe('/');

    const trapped = `bot${Date.now()}@example.com`;
    await submit(newsletterAction, '/newsletter', {
      email: trapped,
      website: 'spam',
      redirectTo: '/',
    });
    expect(await Subscription.countDocuments({ email: trapped })).toBe(0);

    const address = nextAddress();
    for (let i = 0; i < 5; i += 1) {
      await submit(
        newsletterAction,
        '/newsletter',
        { email: `n${i}-${Date.now()}@example.com`, redirectTo: '/' },
        address,
      );
    }
    const limited = `late${Date.now()}@example.com`;
    const res = await submit(
      newsletterAction,
      '/newsletter',
      { email: limited, redirectTo: '/' },
      address,
    );
    expect(await toastOf(res)).toMatchObject({ type: 'error', title: 'Too many attempts' });
    expect(await Subscription.countDocuments({ email: limited })).toBe(0);
  });
});
