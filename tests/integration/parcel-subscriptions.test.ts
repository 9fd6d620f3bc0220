import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '~/models/job.server';
import { countParcelSubscribers, ParcelSubscription } from '~/models/parcel-subscription.server';
import { Parcel } from '~/models/parcel.server';
import {
  action as confirmAction,
  loader as confirmLoader,
} from '~/routes/_public.subscriptions.confirm';
import {
  action as unsubscribeAction,
  loader as unsubscribeLoader,
} from '~/routes/_public.subscriptions.unsubscribe';
import { action as trackAction } from '~/routes/_public.track';
import {
  action as oneClickAction,
  loader as oneClickLoader,
} from '~/routes/subscriptions.one-click';
import {
  action as apiAction,
  loader as apiLoader,
} from '~/routes/api.tracking.track.$trackingNumber.subscriptions';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { startJobWorker, type JobWorker } from '~/services/jobs.server';
import {
  requestParcelSubscription,
  subscribeClientLimiter,
  subscribeEmailLimiter,
} from '~/services/parcel-subscriptions.server';
import { addEvent } from '~/services/tracking-events.server';
import { callRoute, uniqueAddress } from '../support/api';
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp';
import { apiError } from '../support/api-error';

let smtp: TestSmtpServer;
let worker: JobWorker;
let counter = 0;

async function makeParcel() {
  counter += 1;
  const parcel = await Parcel.create({
    trackingNumber: `SUB${String(100000000 + counter)}`,
    recipient: { name: `Rita ${counter}`, email: `recipient-${counter}@example.com` },
  });
  return { id: String(parcel._id), trackingNumber: parcel.trackingNumber };
}

let emailCounter = 0;
function uniqueEmail(prefix = 'visitor') {
  emailCounter += 1;
  return `${prefix}-${emailCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Submits the form under a tracking result, as a browser without JavaScript would. */
function subscribeByForm(trackingNumber: string, email: string, clientAddress = uniqueAddress()) {
  return callRoute(trackAction, `/track?number=${trackingNumber}`, {
    method: 'POST',
    body: new URLSearchParams({ email, website: '' }),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    clientAddress,
  });
}

/** A header as the message carries it (mailparser folds the List-* headers into one object). */
function rawHeader(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}

function messagesTo(email: string): ParsedMail[] {
  return smtp.messages.filter((m) =>
    [m.to]
      .flat()
      .flatMap((a) => a?.value ?? [])
      .some((v) => v.address?.toLowerCase() === email.toLowerCase()),
  );
}

/** The link in a message's text that starts with `path`. */
function linkIn(mail: ParsedMail, path: string): URL {
  const match = new RegExp(`https?://\\S+${path.replace(/[?]/g, '\\?')}\\S*`).exec(mail.text ?? '');
  expect(match, `a ${path} link in the e-mail`).not.toBeNull();
  return new URL(match![0]);
}

async function waitForCount(email: string, count: number) {
  const deadline = Date.now() + 15_000;
  while (messagesTo(email).length < count) {
    if (Date.now() > deadline) throw new Error(`${count} messages to ${email} did not arrive`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return messagesTo(email);
}

/** Subscribes and confirms through the pages; returns the confirmation e-mail. */
async function subscribeAndConfirm(trackingNumber: string, email: string) {
  const answer = await subscribeByForm(trackingNumber, email);
  expect(answer.status).toBe(302);
  const [confirmation] = await waitForCount(email, 1);
  const link = linkIn(confirmation!, '/subscriptions/confirm?token=');
  const confirmed = await callRoute(confirmAction, link.pathname + link.search, { method: 'POST' });
  expect(confirmed.status).toBe(302);
  return confirmation!;
}

beforeAll(async () => {
  smtp = await startTestSmtpServer();
  await connectDb();
  registerJobKinds();
  env.SMTP_URL = smtp.url;
  env.MAIL_RETRY_DELAYS = [0.05, 0.05, 0.05];
  worker = startJobWorker({ pollMs: 20 });
});

afterAll(async () => {
  await worker?.stop();
  env.SMTP_URL = undefined;
  await smtp?.stop();
  await subscribeClientLimiter.clear();
  await subscribeEmailLimiter.clear();
  await disconnectDb();
});

/** The one-click unsubscribe form (RFC 8058) posted to `url`, as a mail client or the page sends it. */
function unsubscribePost(action: unknown, url: string) {
  return callRoute(action, url, {
    method: 'POST',
    body: 'List-Unsubscribe=One-Click',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
}

describe('following a parcel by e-mail', () => {
  it('is confirmed by its link, then e-mails every new event with one-click unsubscribe, until unsubscribed', async () => {
    const parcel = await makeParcel();
    const email = uniqueEmail();

    const answer = await subscribeByForm(parcel.trackingNumber, email.toUpperCase());
    expect(answer.status).toBe(302);
    expect(answer.headers.get('Location')).toBe(
      `/track?number=${parcel.trackingNumber}&subscribe=sent#subscribe`,
    );
    const [confirmation] = await waitForCount(email, 1);
    expect(confirmation!.subject).toBe(
      `Confirm e-mail updates for parcel ${parcel.trackingNumber}`,
    );
    // The confirmation e-mail is itself a job of the one e-mail queue.
    expect(
      await Job.countDocuments({
        type: 'email.send',
        'payload.kind': 'parcel-subscription-confirm',
      }),
    ).toBeGreaterThanOrEqual(1);

    // Before confirming, a new event e-mails nobody.
    await addEvent(parcel.id, { status: 'Picked Up', location: 'Austin', description: '' });
    await worker.idle();
    expect(messagesTo(email)).toHaveLength(1);

    // Opening the link shows a button; only the POST confirms (link scanners only GET).
    const link = linkIn(confirmation!, '/subscriptions/confirm?token=');
    const page = await callRoute(confirmLoader, link.pathname + link.search);
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({
      state: 'pending',
      trackingNumber: parcel.trackingNumber,
    });
    expect(page.headers.get('Cache-Control')).toBe('no-store');
    expect((await ParcelSubscription.findOne({ email }).lean())?.status).toBe('pending');
    const confirmed = await callRoute(confirmAction, link.pathname + link.search, {
      method: 'POST',
    });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('Location')).toBe(link.pathname + link.search);
    const after = await callRoute(confirmLoader, link.pathname + link.search);
    expect(await after.json()).toMatchObject({ state: 'confirmed' });

    // The next event reaches the subscriber, with the status template and RFC 8058 headers.
    await addEvent(parcel.id, {
      status: 'Arrived at Facility',
      location: 'Memphis hub',
      description: 'Sorted for the next truck',
    });
    const [, update] = await waitForCount(email, 2);
    expect(update!.subject).toBe(`Status update for your parcel ${parcel.trackingNumber}`);
    expect(update!.text).toContain('its current status is "In Transit"');
    expect(update!.text).toContain('Latest update: Arrived at Facility · Memphis hub');
    expect(update!.text).toContain('Sorted for the next truck');
    // Anyone may subscribe: the e-mail greets them neutrally, never by the recipient's name.
    expect(update!.text).toMatch(/^Dear customer,/);
    expect(update!.text).not.toContain('Rita');
    // Fluid for phones: as wide as the screen, up to 600 px.
    expect(update!.html).toContain('name="viewport"');
    expect(update!.html).toMatch(/width:100%;max-width:600px/);
    expect(update!.html).not.toMatch(/width="600"/);
    const unsubscribe = linkIn(update!, '/subscriptions/unsubscribe?token=');
    expect(rawHeader(update!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    // The header names the one-click address; the body links to the page with a button.
    const oneClickUrl = new URL(unsubscribe.href);
    oneClickUrl.pathname = '/subscriptions/one-click';
    expect(rawHeader(update!, 'List-Unsubscribe')).toBe(`<${oneClickUrl.href}>`);
    const opened = await callRoute(oneClickLoader, oneClickUrl.pathname + oneClickUrl.search);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('Location')).toBe(unsubscribe.pathname + unsubscribe.search);
    // The confirmation is no list e-mail: it has no such headers.
    expect(rawHeader(confirmation!, 'List-Unsubscribe')).toBeUndefined();
    expect(update!.html).toContain('>Unsubscribe</a>');
    expect(update!.html).toContain(unsubscribe.search.replace(/&/g, '&amp;'));

    // One-click unsubscribe, as a mail client does it: a cookieless POST with that body.
    const oneClick = await unsubscribePost(
      oneClickAction,
      oneClickUrl.pathname + oneClickUrl.search,
    );
    expect(oneClick.status).toBe(200);
    expect((await ParcelSubscription.findOne({ email }).lean())?.status).toBe('unsubscribed');
    // Again, from the page's button: still fine, still unsubscribed.
    const again = await unsubscribePost(
      unsubscribeAction,
      unsubscribe.pathname + unsubscribe.search,
    );
    expect(again.status).toBe(200);
    const unsubscribedPage = await callRoute(
      unsubscribeLoader,
      unsubscribe.pathname + unsubscribe.search,
    );
    expect(await unsubscribedPage.json()).toMatchObject({ state: 'unsubscribed' });

    // Nothing more arrives.
    await addEvent(parcel.id, { status: 'Out for Delivery', location: 'Boston', description: '' });
    await worker.idle();
    expect(messagesTo(email)).toHaveLength(2);
  });

  it('sends the e-mail about delivery, then ends the subscription', async () => {
    const parcel = await makeParcel();
    const email = uniqueEmail();
    await subscribeAndConfirm(parcel.trackingNumber, email);
    await addEvent(parcel.id, { status: 'Delivered', location: 'Front door', description: '' });
    const [, delivered] = await waitForCount(email, 2);
    expect(delivered!.subject).toBe(`Your parcel ${parcel.trackingNumber} has been delivered`);
    expect(rawHeader(delivered!, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect((await ParcelSubscription.findOne({ email }).lean())?.status).toBe('ended');

    // A delivered parcel takes no new subscribers.
    expect(
      await requestParcelSubscription({
        trackingNumber: parcel.trackingNumber,
        email: uniqueEmail(),
      }),
    ).toBe('delivered');

    await addEvent(parcel.id, { status: 'Returned to Sender', location: '', description: '' });
    await worker.idle();
    expect(messagesTo(email)).toHaveLength(2);
  });

  it('keeps at most 5 subscribers per parcel, and answers the same to the 6th', async () => {
    const parcel = await makeParcel();
    const emails = Array.from({ length: 6 }, () => uniqueEmail('many'));
    const answers = await Promise.all(emails.map((e) => subscribeByForm(parcel.trackingNumber, e)));
    for (const a of answers) {
      expect(a.status).toBe(302);
      expect(a.headers.get('Location')).toBe(
        `/track?number=${parcel.trackingNumber}&subscribe=sent#subscribe`,
      );
    }
    expect(await ParcelSubscription.countDocuments({ parcelId: parcel.id })).toBe(5);
    expect(await countParcelSubscribers(parcel.id)).toEqual({ confirmed: 0, pending: 5 });
    await worker.idle();
    expect(emails.filter((e) => messagesTo(e).length === 1)).toHaveLength(5);

    // One of them leaves: the place is free again.
    const stored = await ParcelSubscription.find({ parcelId: parcel.id }).lean();
    const leaving = stored[0]!;
    const [mail] = messagesTo(leaving.email);
    expect(mail).toBeDefined();
    const late = emails.find((e) => !stored.some((s) => s.email === e))!;
    await ParcelSubscription.updateOne(
      { _id: leaving._id },
      { $set: { status: 'unsubscribed' }, $unset: { slot: 1 } },
    );
    expect(await subscribeByForm(parcel.trackingNumber, late).then((r) => r.status)).toBe(302);
    expect(
      await ParcelSubscription.countDocuments({
        parcelId: parcel.id,
        status: { $in: ['pending', 'confirmed'] },
      }),
    ).toBe(5);
    expect((await ParcelSubscription.findOne({ email: late }).lean())?.status).toBe('pending');
  });

  it('answers the same for an address already subscribed, and sends it nothing new', async () => {
    const parcel = await makeParcel();
    const email = uniqueEmail();
    await subscribeAndConfirm(parcel.trackingNumber, email);
    const first = await subscribeByForm(parcel.trackingNumber, uniqueEmail());
    const repeat = await subscribeByForm(parcel.trackingNumber, email);
    expect(repeat.status).toBe(first.status);
    expect(repeat.headers.get('Location')).toBe(first.headers.get('Location'));
    await worker.idle();
    expect(messagesTo(email)).toHaveLength(1);
    expect((await ParcelSubscription.findOne({ email }).lean())?.status).toBe('confirmed');
  });

  it('shows field errors, refuses forged links and limits each client address', async () => {
    const parcel = await makeParcel();
    const bad = await subscribeByForm(parcel.trackingNumber, 'not-an-address');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { email: ['Enter a valid email address'] } });

    const forged = await callRoute(
      confirmLoader,
      `/subscriptions/confirm?token=${'a'.repeat(24)}.${'b'.repeat(43)}`,
    );
    expect(forged.status).toBe(404);
    const forgedPost = await unsubscribePost(
      unsubscribeAction,
      `/subscriptions/unsubscribe?token=${'a'.repeat(24)}.${'b'.repeat(43)}`,
    );
    expect(forgedPost.status).toBe(404);
    const forgedOneClick = await callRoute(
      oneClickAction,
      `/subscriptions/one-click?token=${'a'.repeat(24)}.${'b'.repeat(43)}`,
      { method: 'POST', body: 'List-Unsubscribe=One-Click' },
    );
    expect(forgedOneClick.status).toBe(404);

    const client = uniqueAddress();
    for (let i = 0; i < subscribeClientLimiter.limit; i += 1)
      expect(
        (await subscribeByForm(parcel.trackingNumber, uniqueEmail('limit'), client)).status,
      ).toBe(302);
    const refused = await subscribeByForm(parcel.trackingNumber, uniqueEmail('limit'), client);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
  });
});

describe('POST /api/tracking/track/:trackingNumber/subscriptions', () => {
  const url = (n: string) => `/api/tracking/track/${n}/subscriptions`;
  const post = (n: string, body: unknown, clientAddress = uniqueAddress()) =>
    callRoute(apiAction, url(n), {
      method: 'POST',
      params: { trackingNumber: n },
      body,
      clientAddress,
    });

  it('answers 202 whatever the address, 400 per field, 404 for an unknown number', async () => {
    const parcel = await makeParcel();
    const email = uniqueEmail('api');
    const accepted = await post(parcel.trackingNumber.toLowerCase(), { email });
    expect(accepted.status).toBe(202);
    const body = await accepted.json();
    expect(body).toEqual({ message: expect.stringContaining('confirm') });
    expect(accepted.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(accepted.headers.get('RateLimit-Limit')).toBe(String(env.RATE_LIMIT_SUBSCRIBE_PER_HOUR));
    await waitForCount(email, 1);

    const repeat = await post(parcel.trackingNumber, { email });
    expect(repeat.status).toBe(202);
    expect(await repeat.json()).toEqual(body);

    const invalid = await post(parcel.trackingNumber, { email: 'nope' });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({
      details: { email: ['Enter a valid email address'] },
    });

    const malformed = await post('SWX1', { email });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({
      details: { trackingNumber: [expect.any(String)] },
    });

    // 99999999 would end in 5: the number is told apart as mistyped, as on the tracking API.
    const unknown = await post('ZZZ999999999', { email });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(
      apiError('Tracking number not found', 'tracking_number_mistyped', {
        trackingNumber: 'ZZZ999999999',
      }),
    );

    const preflight = await callRoute(apiLoader, url(parcel.trackingNumber), {
      method: 'OPTIONS',
      params: { trackingNumber: parcel.trackingNumber },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Methods')).toBe('POST, OPTIONS');
  });

  it('answers 409 for a delivered parcel and 429 past the per-client limit', async () => {
    const parcel = await makeParcel();
    await addEvent(parcel.id, { status: 'Delivered', location: '', description: '' });
    const delivered = await post(parcel.trackingNumber, { email: uniqueEmail() });
    expect(delivered.status).toBe(409);

    const open = await makeParcel();
    const client = uniqueAddress();
    for (let i = 0; i < subscribeClientLimiter.limit; i += 1)
      expect(
        (await post(open.trackingNumber, { email: uniqueEmail('api-limit') }, client)).status,
      ).toBe(202);
    const refused = await post(open.trackingNumber, { email: uniqueEmail('api-limit') }, client);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
  });
});
