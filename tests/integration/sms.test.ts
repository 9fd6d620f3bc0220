import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { Webhook } from 'standardwebhooks';
import twilio from 'twilio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { NOT_MOBILE } from '~/lib/phone.server';
import { publicUrl } from '~/lib/urls.server';
import { Notification, getNotification } from '~/models/notification.server';
import { Parcel } from '~/models/parcel.server';
import { Job } from '~/models/job.server';
import { action as parcelsApi } from '~/routes/api.parcels';
import { action as inbound } from '~/routes/api.sms.inbound';
import { registerJobKinds } from '~/services/job-kinds.server';
import { retryNotification } from '~/services/notifications.server';
import { SMS_JOB } from '~/services/sms-queue.server';
import { addEvent } from '~/services/tracking-events.server';
import { callRoute, pageRequest } from '../support/api';
import {
  action as settingsPage,
  loader as settingsPageLoader,
} from '~/routes/dashboard.notifications_.settings';
import {
  action as textsPage,
  loader as textsPageLoader,
} from '~/routes/dashboard.notifications_.texts';
import { countSms, smsCountText } from '~/utils/sms-segments';
import { Account } from '~/models/account.server';
import {
  loader as settingsLoader,
  action as settingsAction,
} from '~/routes/api.notification-settings';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { PhoneTextWarning } from '~/components/parcels/phone-text-warning';
import { loader as editLoader } from '~/routes/dashboard.parcels.$parcelId.edit';
import { quietHoursEnd } from '~/utils/quiet-hours';
import { createUsers, type UsersByRole } from '../support/factories';
import { attemptDueJob } from '../support/jobs';

/**
 * Texts through a real local HTTP gateway (and Twilio's API through msw): queued, retried, held
 * in quiet hours, stopped by STOP, and acted on when the recipient replies 1 or 2.
 */

type Received = { to: string; from: string; body: string; key: string | undefined };
let received: Received[] = [];
/** The gateway's next answers (status, body); 200 once they are used up. */
let answers: Array<[number, string]> = [];
let gateway: http.Server;
let users: Pick<UsersByRole, 'admin' | 'staff'>;
const SECRET = `whsec_${Buffer.from('inbound-secret-for-the-tests!').toString('base64')}`;
const TWILIO_SID = `AC${'1'.repeat(32)}`;
const TWILIO_TOKEN = 'twilio-auth-token-for-tests';

const twilioApi = setupServer(
  mock.post(
    `https://api.twilio.com/2010-04-01/Accounts/${TWILIO_SID}/Messages.json`,
    async ({ request }) => {
      const form = new URLSearchParams(await request.text());
      received.push({
        to: form.get('To')!,
        from: form.get('From')!,
        body: form.get('Body')!,
        key: 'twilio',
      });
      return HttpResponse.json({ sid: `SM${'2'.repeat(32)}`, status: 'queued' }, { status: 201 });
    },
  ),
  // Vonage's SMS API, as @vonage/sms calls it: JSON in, one status per part out.
  mock.post('https://rest.nexmo.com/sms/json', async ({ request }) => {
    const sent = (await request.json()) as Record<string, string>;
    const auth = request.headers.get('authorization') ?? '';
    const key = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':')[0]!;
    received.push({ to: sent.to!, from: sent.from!, body: sent.text!, key: sent.api_key ?? key });
    return HttpResponse.json({
      'message-count': '1',
      messages: [{ to: sent.to, 'message-id': '0A0000000123ABCD1', status: '0' }],
    });
  }),
);

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  twilioApi.listen({ onUnhandledRequest: 'bypass' });
  gateway = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const [status, text] = answers.shift() ?? [200, '{"id":"gw-1"}'];
      if (status < 300)
        received.push({ ...JSON.parse(body), key: req.headers['idempotency-key'] as string });
      res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  env.SMS_URL = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`;
  env.SMS_INBOUND_SECRET = SECRET;
  env.SMS_RETRY_DELAYS = [0, 0];
  env.SMS_QUIET_HOURS = 'off';
  users = await createUsers(['admin', 'staff'], 'sms');
});

afterEach(async () => {
  await Job.deleteMany({ type: SMS_JOB });
  received = [];
  answers = [];
});

afterAll(async () => {
  twilioApi.close();
  await new Promise((resolve) => gateway.close(resolve));
});

let n = 0;
/** A parcel whose recipient's mobile is typed nationally, in the US. */
async function makeParcel(recipient: Record<string, unknown> = {}) {
  n += 1;
  const parcel = await Parcel.create({
    trackingNumber: `SMS${String(100000000 + n)}`,
    recipient: {
      name: `Rae ${n}`,
      address: '1 Pine St',
      country: 'USA',
      phone: `(415) 555-${String(2600 + n)}`,
      timeZone: 'America/Los_Angeles',
      ...recipient,
    },
  });
  return {
    id: String(parcel._id),
    trackingNumber: parcel.trackingNumber,
    phone: `+1415555${2600 + n}`,
  };
}

const ev = (status: string, more: Record<string, unknown> = {}) =>
  ({ status, location: '', description: '', ...more }) as never;

async function textsTo(phone: string) {
  return Notification.find({ recipient: phone, channel: 'sms' }).sort({ createdAt: 1 }).lean();
}

/** Sends every due text, one attempt each, until none is due. */
async function sendDueTexts() {
  for (;;) {
    const due = await Job.exists({ type: SMS_JOB, status: 'queued', runAt: { $lte: new Date() } });
    if (!due) return;
    await attemptDueJob(SMS_JOB);
  }
}

/** A text a recipient sends, posted as the generic gateway posts it (signed). */
function inboundText(from: string, body: string, secret = SECRET) {
  const payload = JSON.stringify({ from, to: '+14155550000', body });
  const id = `msg_${Math.random().toString(36).slice(2)}`;
  const at = new Date();
  const signature = new Webhook(secret).sign(id, at, payload);
  return callRoute(inbound, '/api/sms/inbound', {
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body: payload,
  });
}

describe('texts through the generic gateway', () => {
  it('texts the recipient when the parcel goes out for delivery, once, with the window and the choices, naming the company', async () => {
    const parcel = await makeParcel();
    const event = await addEvent(parcel.id, ev('Out for Delivery'));
    await addEvent(parcel.id, ev('Out for Delivery', { location: 'again' }));
    const [queued] = await textsTo(parcel.phone);
    expect(queued).toMatchObject({ status: 'pending', eventId: expect.anything() });
    expect(String(queued!.eventId)).toBe(event!.id);
    await sendDueTexts();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ to: parcel.phone, from: 'SwiftShip Courier' });
    expect(received[0]!.body).toMatch(
      /^SwiftShip Courier: your parcel SMS\d+ is out for delivery today, .*Reply 1 to leave it with a neighbour, 2 to hold it at the depot\.$/,
    );
    const sent = await getNotification(String(queued!._id));
    expect(sent).toMatchObject({
      status: 'sent',
      channel: 'sms',
      emailResult: { messageId: 'gw-1' },
    });
  });

  it('writes the text in the recipient’s language, English when it has none of its own', async () => {
    const parcel = await makeParcel();
    await Parcel.collection.updateOne(
      { trackingNumber: parcel.trackingNumber },
      { $set: { 'recipient.language': 'es' } },
    );
    await addEvent(parcel.id, ev('Out for Delivery'));
    const [text] = await textsTo(parcel.phone);
    expect(text!.message).toMatch(/^SwiftShip Courier: su paquete SMS\d+ está en reparto hoy/);
  });

  it('retries while the gateway is down: the text arrives once it is back, exactly once, even if its job runs again', async () => {
    const parcel = await makeParcel();
    answers = [[503, 'gateway down']];
    await addEvent(parcel.id, ev('Out for Delivery'));
    await attemptDueJob(SMS_JOB);
    const [pending] = await textsTo(parcel.phone);
    expect(pending).toMatchObject({ status: 'pending' });
    expect(pending!.emailResult!.error).toBe('The SMS gateway answered 503: gateway down');
    await sendDueTexts();
    expect(received).toHaveLength(1);
    // A worker that died after the send takes the job again: the text is not sent twice.
    await Job.updateOne({ _id: pending!.jobId }, { $set: { status: 'queued', runAt: new Date() } });
    await sendDueTexts();
    expect(received).toHaveLength(1);
    expect(received[0]!.key).toBe(`notification-${String(pending!._id)}`);
    expect(await getNotification(String(pending!._id))).toMatchObject({
      status: 'sent',
      emailResult: { attempts: 2 },
    });
  });

  it('shows staff a text that failed for good with the provider’s error, and sends it on retry', async () => {
    const parcel = await makeParcel();
    answers = [
      [500, 'no route'],
      [500, 'no route'],
      [500, 'no route'],
    ];
    await addEvent(parcel.id, ev('Out for Delivery'));
    await sendDueTexts();
    const [failed] = await textsTo(parcel.phone);
    const id = String(failed!._id);
    expect(await getNotification(id)).toMatchObject({
      status: 'failed',
      channel: 'sms',
      emailResult: { error: 'The SMS gateway answered 500: no route' },
    });
    await retryNotification(id, { user: users.staff.user, context: {} } as never);
    await sendDueTexts();
    expect(await getNotification(id)).toMatchObject({ status: 'sent' });
    expect(received).toHaveLength(1);
  });

  it('holds a text due in the recipient’s quiet hours until they end', async () => {
    const parcel = await makeParcel({ timeZone: 'UTC' });
    const hour = new Date().getUTCHours();
    const hh = (h: number) => String((h + 24) % 24).padStart(2, '0');
    env.SMS_QUIET_HOURS = `${hh(hour - 1)}:00-${hh(hour + 2)}:00`;
    try {
      await addEvent(parcel.id, ev('Out for Delivery'));
      const [held] = await textsTo(parcel.phone);
      const job = await Job.findById(held!.jobId).lean();
      const end = new Date();
      end.setUTCHours(hour + 2, 0, 0, 0);
      expect(job!.runAt.toISOString()).toBe(end.toISOString());
      expect(held!.emailResult!.nextAttemptAt!.toISOString()).toBe(end.toISOString());
      // Due now (a retry, a restart): the worker puts it back until the end, the attempt uncounted.
      await Job.updateOne({ _id: held!.jobId }, { $set: { runAt: new Date() } });
      await attemptDueJob(SMS_JOB);
      const after = await Job.findById(held!.jobId).lean();
      expect(after).toMatchObject({ status: 'queued', attempts: 0 });
      expect(after!.runAt.toISOString()).toBe(end.toISOString());
      expect(received).toHaveLength(0);
    } finally {
      env.SMS_QUIET_HOURS = 'off';
    }
  });
});

describe('texts per shipper account', () => {
  it('an account with its out-for-delivery texts off gets none; the company’s parcels still do', async () => {
    const account = await Account.create({ name: 'Quiet Shop', email: 'quiet@example.com' });
    const accountId = String(account._id);
    const put = (body: unknown) =>
      callRoute(settingsAction, '/api/notification-settings', {
        method: 'PUT',
        token: users.admin.token,
        body,
      });
    const off = await put({ accountId, texts: { outForDelivery: false } });
    expect(off.status).toBe(200);
    expect((await off.json()).settings.texts).toMatchObject({
      outForDelivery: false,
      failed: true,
    });
    expect((await put({ accountId: 'a'.repeat(24), texts: { failed: false } })).status).toBe(404);
    const read = await callRoute(
      settingsLoader,
      `/api/notification-settings?accountId=${accountId}`,
      {
        token: users.admin.token,
      },
    );
    expect((await read.json()).settings.texts.outForDelivery).toBe(false);
    const company = await callRoute(settingsLoader, '/api/notification-settings', {
      token: users.admin.token,
    });
    expect((await company.json()).settings.texts.outForDelivery).toBe(true);

    const theirs = await makeParcel();
    await Parcel.updateOne({ _id: theirs.id }, { $set: { accountId: account._id } });
    const ours = await makeParcel();
    await addEvent(theirs.id, ev('Out for Delivery'));
    await addEvent(ours.id, ev('Out for Delivery'));
    expect(await textsTo(theirs.phone)).toHaveLength(0);
    expect(await textsTo(ours.phone)).toHaveLength(1);
  });
});

describe('phone numbers', () => {
  it('normalises a number typed nationally with the address’s country, keeps what was typed, and never texts a landline', async () => {
    const created = await callRoute(parcelsApi, '/api/parcels', {
      token: users.staff.token,
      body: {
        recipient: { name: 'Lou', address: '3 Elm St', country: 'USA', phone: '(415) 555-2671' },
      },
    });
    expect(created.status).toBe(201);
    const { parcel } = await created.json();
    expect(parcel.recipient).toMatchObject({
      phone: '(415) 555-2671',
      phoneE164: '+14155552671',
      phoneProblem: null,
    });
    const landline = await makeParcel({ country: 'GB', phone: '020 7946 0958' });
    const stored = await callRoute(parcelsApi, '/api/parcels', {
      token: users.staff.token,
      body: {
        recipient: {
          name: 'Lee',
          address: '1 Strand',
          country: 'United Kingdom',
          phone: '020 7946 0958',
        },
      },
    });
    const landlineParcel = (await stored.json()).parcel;
    expect(landlineParcel.recipient).toMatchObject({ phoneE164: null, phoneProblem: NOT_MOBILE });
    // The staff's edit form warns why, without blocking; a mobile number or no phone says nothing.
    const edit = await callRoute(editLoader, `/dashboard/parcels/${landlineParcel.id}/edit`, {
      params: { parcelId: landlineParcel.id },
      cookie: users.staff.cookie,
    });
    const { parcel: editing } = await edit.json();
    const warning = (recipient: { phone: string; phoneProblem: string | null }) =>
      renderToStaticMarkup(
        createElement(PhoneTextWarning, {
          phone: recipient.phone,
          problem: recipient.phoneProblem,
        }),
      );
    expect(warning(editing.recipient)).toContain(
      'No texts can go to this phone: Not a mobile number: it cannot receive texts.',
    );
    expect(warning(parcel.recipient)).toBe('');
    expect(warning({ phone: '', phoneProblem: 'No phone number' })).toBe('');
    await addEvent(landline.id, ev('Out for Delivery'));
    expect(await Notification.countDocuments({ trackingNumber: landline.trackingNumber })).toBe(0);
  });
});

describe('replies', () => {
  it('refuses a text that is not signed', async () => {
    const response = await inboundText(
      '+14155552600',
      'STOP',
      `whsec_${Buffer.from('another secret, not ours').toString('base64')}`,
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'invalid_signature' });
  });

  it('STOP stops further texts to the number, for every parcel, and START starts them again', async () => {
    const first = await makeParcel();
    await addEvent(first.id, ev('Out for Delivery'));
    await sendDueTexts();
    const stop = await inboundText(first.phone.replace('+1', ''), 'stop');
    expect(await stop.json()).toEqual({ received: true, outcome: 'stopped' });
    await sendDueTexts();
    expect(received.at(-1)!.body).toMatch(/no more texts/);
    received = [];
    const second = await makeParcel({ phone: first.phone });
    await addEvent(second.id, ev('Out for Delivery'));
    expect(await Notification.countDocuments({ trackingNumber: second.trackingNumber })).toBe(0);
    expect((await (await inboundText(first.phone, 'START')).json()).outcome).toBe('started');
    await addEvent(second.id, ev('Failed Delivery', { reason: 'recipient_unavailable' }));
    const [text] = await textsTo(first.phone).then((all) =>
      all.filter((t) => t.trackingNumber === second.trackingNumber),
    );
    expect(text!.message).toMatch(/we missed you.*nobody was available/);
  });

  it('a reply 1 from the number the text went to leaves the parcel with a neighbour and says so; from another number, or after delivery, nothing changes', async () => {
    const parcel = await makeParcel();
    await addEvent(parcel.id, ev('Out for Delivery'));
    await sendDueTexts();
    received = [];
    const stranger = await inboundText('+14155559999', '1');
    expect((await stranger.json()).outcome).toBe('ignored');
    expect((await Parcel.findById(parcel.id).lean())!.deliveryPreferences?.updatedAt).toBeFalsy();

    const reply = await inboundText(parcel.phone, ' 1 ');
    expect((await reply.json()).outcome).toBe('neighbour');
    const stored = await Parcel.findById(parcel.id).lean();
    expect(stored!.deliveryPreferences).toMatchObject({
      safePlace: 'neighbour',
      holdAtDepot: false,
    });
    await sendDueTexts();
    expect(received.map((r) => r.body)).toEqual([
      `SwiftShip Courier: done. Your parcel ${parcel.trackingNumber} will be left with a neighbour.`,
    ]);
    const { AuditEntry } = await import('~/models/audit.server');
    expect(
      await AuditEntry.exists({ 'actor.username': `recipient (text from ${parcel.phone})` }),
    ).toBeTruthy();

    expect((await (await inboundText(parcel.phone, '2')).json()).outcome).toBe('depot');
    expect((await Parcel.findById(parcel.id).lean())!.deliveryPreferences).toMatchObject({
      holdAtDepot: true,
      safePlace: null,
    });
    await addEvent(parcel.id, ev('Delivered'));
    expect((await (await inboundText(parcel.phone, '1')).json()).outcome).toBe('closed');
    expect((await Parcel.findById(parcel.id).lean())!.deliveryPreferences).toMatchObject({
      holdAtDepot: true,
    });
  });
});

describe('Twilio', () => {
  it('sends through Twilio’s API and takes STOP signed by Twilio', async () => {
    env.SMS_URL = `twilio://${TWILIO_SID}:${TWILIO_TOKEN}@15005550006`;
    const saved = env.SMS_URL;
    try {
      const parcel = await makeParcel();
      await addEvent(parcel.id, ev('Out for Delivery'));
      await sendDueTexts();
      expect(received).toEqual([
        expect.objectContaining({ to: parcel.phone, from: '+15005550006', key: 'twilio' }),
      ]);
      const [text] = await textsTo(parcel.phone);
      expect(text).toMatchObject({
        status: 'sent',
        emailResult: { messageId: `SM${'2'.repeat(32)}` },
      });

      const params = { From: parcel.phone, To: '+15005550006', Body: 'STOP' };
      const signature = twilio.getExpectedTwilioSignature(
        TWILIO_TOKEN,
        publicUrl('/api/sms/inbound'),
        params,
      );
      const post = (sig: string) =>
        inbound({
          request: new Request('http://localhost/api/sms/inbound', {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'x-twilio-signature': sig,
            },
            body: new URLSearchParams(params),
          }),
          params: {},
          context: {},
        } as never).catch((e: Response) => e);
      expect((await post('forged')).status).toBe(401);
      const answer = await post(signature);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('<Response></Response>');
      const again = await makeParcel({ phone: parcel.phone });
      await addEvent(again.id, ev('Out for Delivery'));
      expect(await Notification.countDocuments({ trackingNumber: again.trackingNumber })).toBe(0);
    } finally {
      env.SMS_URL = saved.startsWith('twilio')
        ? `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`
        : saved;
    }
  });
});

describe('Vonage', () => {
  /**
   * A text as Vonage posts it, signed as its documentation says (every parameter but sig, sorted,
   * "&key=value" with & and = in values made _, HMAC-SHA256 with the signature secret): written
   * here from the documentation, checked by the app with @vonage/sms's verifySignature.
   */
  function vonageText(params: Record<string, string>, secret: string) {
    const signed = Object.keys(params)
      .sort()
      .map((key) => `&${key}=${params[key]!.replace(/[&=]/g, '_')}`)
      .join('');
    const sig = createHmac('sha256', secret).update(signed).digest('hex');
    return callRoute(inbound, '/api/sms/inbound', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...params, sig }).toString(),
    });
  }

  it('sends through Vonage’s API, takes STOP signed with the signature secret, recently, and refuses anything else', async () => {
    const saved = { url: env.SMS_URL, secret: env.SMS_INBOUND_SECRET };
    env.SMS_URL = 'vonage://vonage-key:vonage-secret@15005550006?signature=sha256hmac';
    env.SMS_INBOUND_SECRET = 'vonage-signature-secret';
    try {
      const parcel = await makeParcel();
      await addEvent(parcel.id, ev('Out for Delivery'));
      await sendDueTexts();
      expect(received).toEqual([
        expect.objectContaining({
          to: parcel.phone.replace('+', ''),
          from: '15005550006',
          key: 'vonage-key',
        }),
      ]);
      const [text] = await textsTo(parcel.phone);
      expect(text).toMatchObject({
        status: 'sent',
        emailResult: { messageId: '0A0000000123ABCD1' },
      });
      const now = String(Math.floor(Date.now() / 1000));
      const stop = {
        msisdn: parcel.phone.replace('+', ''),
        to: '15005550006',
        messageId: '0A0000000123ABCD1',
        text: 'STOP',
        type: 'text',
        timestamp: now,
        nonce: 'a3e1f0c2',
      };
      expect((await vonageText(stop, 'not-the-secret')).status).toBe(401);
      const stale = { ...stop, timestamp: String(Number(now) - 3600) };
      expect((await vonageText(stale, 'vonage-signature-secret')).status).toBe(401);
      const answer = await vonageText(stop, 'vonage-signature-secret');
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ received: true, outcome: 'stopped' });
      const again = await makeParcel({ phone: parcel.phone });
      await addEvent(again.id, ev('Out for Delivery'));
      expect(await Notification.countDocuments({ trackingNumber: again.trackingNumber })).toBe(0);
    } finally {
      env.SMS_URL = saved.url;
      env.SMS_INBOUND_SECRET = saved.secret;
    }
  });
});

describe('the rules and the templates', () => {
  it('counts characters and messages as GSM-7 or UCS-2', () => {
    expect(countSms('a'.repeat(160))).toMatchObject({
      encoding: 'GSM-7',
      segments: 1,
      remaining: 0,
    });
    expect(countSms('a'.repeat(161))).toMatchObject({ segments: 2, remaining: 145 });
    expect(countSms('{€}'.repeat(53))).toMatchObject({ units: 318, segments: 3 });
    expect(countSms('ç'.repeat(70))).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(countSms('Olá 😀')).toMatchObject({ encoding: 'UCS-2', characters: 5, units: 6 });
    expect(smsCountText(countSms('é'.repeat(71)))).toBe('71 characters · 1 message (GSM-7)');
    expect(smsCountText(countSms('ś'.repeat(71)))).toBe('71 characters · 2 messages (UCS-2)');
  });

  it('holds a text due at 23:00 in the recipient’s zone until 08:00 there', () => {
    const late = new Date('2026-07-01T06:00:00Z'); // 23:00 in Los Angeles
    expect(quietHoursEnd(late, 'America/Los_Angeles', '21:00-08:00')!.toISOString()).toBe(
      '2026-07-01T15:00:00.000Z',
    );
    expect(
      quietHoursEnd(
        new Date('2026-07-01T13:00:00Z'),
        'America/Los_Angeles',
        '21:00-08:00',
      )!.toISOString(),
    ).toBe('2026-07-01T15:00:00.000Z');
    expect(
      quietHoursEnd(new Date('2026-07-01T16:00:00Z'), 'America/Los_Angeles', '21:00-08:00'),
    ).toBeNull();
    expect(quietHoursEnd(late, 'America/Los_Angeles', 'off')).toBeNull();
  });

  it('turns a text off on the rules page, and an admin’s template, counted, is what goes; one over three messages is refused', async () => {
    const shown = await (
      await settingsPageLoader({
        request: pageRequest('/dashboard/notifications/settings', users.admin),
        params: {},
        context: {},
      } as never)
    ).json();
    expect(shown.settings.texts).toEqual({
      outForDelivery: true,
      failed: true,
      delivered: true,
      dayBefore: true,
    });
    const off = await settingsPage({
      request: pageRequest('/dashboard/notifications/settings', users.admin, {
        'texts.shown': 'true',
        'texts.failed': 'on',
        'texts.delivered': 'on',
        'texts.dayBefore': 'on',
      }),
      params: {},
      context: {},
    } as never);
    expect(off.status).toBe(302);
    const parcel = await makeParcel();
    await addEvent(parcel.id, ev('Out for Delivery'));
    expect(await textsTo(parcel.phone)).toHaveLength(0);

    const url = '/dashboard/notifications/texts?event=failed&language=en';
    const page = await (
      await textsPageLoader({
        request: pageRequest(url, users.admin),
        params: {},
        context: {},
      } as never)
    ).json();
    expect(page.body).toMatch(/we missed you/);
    const tooLong = await textsPage({
      request: pageRequest(url, users.admin, {
        event: 'failed',
        language: 'en',
        intent: 'save',
        body: 'x'.repeat(460),
      }),
      params: {},
      context: {},
    } as never);
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(await tooLong.json())).toContain('A text is at most 3 messages');
    const saved = await textsPage({
      request: pageRequest(url, users.admin, {
        event: 'failed',
        language: 'en',
        intent: 'save',
        body: 'Missed you with {{trackingNumber}}: {{reason}}.',
      }),
      params: {},
      context: {},
    } as never);
    expect(saved.status).toBe(302);
    await addEvent(parcel.id, ev('Failed Delivery', { reason: 'weather' }));
    const [text] = await textsTo(parcel.phone);
    expect(text!.message).toBe(
      `SwiftShip Courier: Missed you with ${parcel.trackingNumber}: the weather prevented it.`,
    );
  });
});
