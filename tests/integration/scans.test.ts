import { beforeAll, describe, expect, it } from 'vitest';
import { Notification } from '~/models/notification.server';
import { insertWithTrackingNumber } from '~/models/parcel-tracking-numbers.server';
import { Parcel } from '~/models/parcel.server';

import { action as scansApi } from '~/routes/api.scans';
import { action as depotsApiAction, loader as depotsApiLoader } from '~/routes/api.depots';
import { action as depotApiAction } from '~/routes/api.depots.$id';
import { action as parcelsApi } from '~/routes/api.parcels';
import { action as parcelApi } from '~/routes/api.parcels.$id';
import { action as eventsApi } from '~/routes/api.tracking.$parcelId.events';
import { action as scanPageAction, loader as scanPageLoader } from '~/routes/dashboard.scan';
import { loader as exceptionsLoader } from '~/routes/dashboard.exceptions';
import {
  action as addEventPageAction,
  loader as addEventPageLoader,
} from '~/routes/dashboard.tracking.$parcelId.events.new';
import { createWebhook, WebhookDelivery } from '~/models/webhook.server';
import { connectDb } from '~/lib/db.server';
import type { WebhookEventType } from '~/schemas/integrations';
import { env } from '~/lib/env.server';
import { openParcelSubscription, ParcelSubscription } from '~/models/parcel-subscription.server';
import { EMAIL_JOB } from '~/services/email-queue.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { callRoute } from '../support/api';
import { attemptDueJob } from '../support/jobs';
import { startTestSmtpServer } from '../support/smtp';
import { createUser } from '../support/factories';

const tokens: Record<string, string> = {};
const cookies: Record<string, string> = {};
let courierId = '';
let depotId = '';

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  for (const role of ['admin', 'staff', 'courier', 'viewer'] as const) {
    const { user, token, cookie } = await createUser(role, {
      username: `scan-${role}`,
      name: role,
    });
    if (role === 'courier') courierId = user.id;
    tokens[role] = token;
    cookies[role] = cookie;
  }
  await createWebhook({
    url: 'https://hooks.example/scans',
    events: ['parcel.scanned', 'parcel.delivery_failed'],
    description: '',
  });
});

const bearer = (role: string) => ({ authorization: `Bearer ${tokens[role]}` });

async function newParcel(email = 'rita@example.com') {
  const parcel = await insertWithTrackingNumber((trackingNumber) =>
    Parcel.create({
      trackingNumber,
      sender: { name: 'Sender', address: '1 Main St' },
      recipient: { name: 'Rita Recipient', email, address: '2 High St' },
    }),
  );
  return { id: String(parcel._id), trackingNumber: parcel.trackingNumber };
}

function scan(body: unknown, role = 'courier') {
  return callRoute(scansApi, '/api/scans', { method: 'POST', headers: bearer(role), body });
}

async function deliveries(type: WebhookEventType) {
  return WebhookDelivery.find({ type }).lean<{ payload: string }[]>();
}

/** A tracking event posted to the parcel through the API, as the staff user. */
function postEvent(parcelId: string, body: Record<string, unknown>) {
  return callRoute(eventsApi, `/api/tracking/${parcelId}/events`, {
    method: 'POST',
    headers: bearer('staff'),
    params: { parcelId },
    body,
  });
}

describe('depots', () => {
  it('admins add them, couriers and staff read them, others are refused', async () => {
    const body = { name: 'Chicago Hub', address: '1 Depot Rd', timeZone: 'america/chicago' };
    const refused = await callRoute(depotsApiAction, '/api/depots', {
      method: 'POST',
      headers: bearer('staff'),
      body,
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe('This needs the admin role');
    const created = await callRoute(depotsApiAction, '/api/depots', {
      method: 'POST',
      headers: bearer('admin'),
      body,
    });
    expect(created.status).toBe(201);
    const { depot } = await created.json();
    expect(depot).toMatchObject({ name: 'Chicago Hub', timeZone: 'America/Chicago' });
    depotId = depot.id;
    const again = await callRoute(depotsApiAction, '/api/depots', {
      method: 'POST',
      headers: bearer('admin'),
      body,
    });
    expect(again.status).toBe(409);
    const bad = await callRoute(depotsApiAction, '/api/depots', {
      method: 'POST',
      headers: bearer('admin'),
      body: { name: 'Nowhere', timeZone: 'Mars/Olympus' },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).details.timeZone).toBeTruthy();
    const list = await callRoute(depotsApiLoader, '/api/depots', { headers: bearer('courier') });
    expect((await list.json()).depots.map((d: { name: string }) => d.name)).toEqual([
      'Chicago Hub',
    ]);
    // Viewers read everything, depots included.
    const asViewer = await callRoute(depotsApiLoader, '/api/depots', { headers: bearer('viewer') });
    expect(asViewer.status).toBe(200);
    expect((await asViewer.json()).depots).toHaveLength(1);
  });

  it('give an event recorded there their name and zone, in the API and the form', async () => {
    const parcel = await newParcel();
    const res = await postEvent(parcel.id, {
      status: 'Arrived at Facility',
      depotId,
      location: 'ignored',
      timeZone: 'UTC',
    });
    expect(res.status).toBe(201);
    expect((await res.json()).event).toMatchObject({
      location: 'Chicago Hub',
      timeZone: 'America/Chicago',
      depotId,
    });

    // The form: its zone starts as the company's (never the browser's); a depot's wins.
    const form = await callRoute(
      addEventPageLoader,
      `/dashboard/tracking/${parcel.id}/events/new`,
      {
        headers: { cookie: cookies.staff! },
        params: { parcelId: parcel.id },
      },
    );
    const data = await form.json();
    expect(data.timeZone).toBe('America/New_York');
    expect(data.depots).toEqual([
      { id: depotId, name: 'Chicago Hub', timeZone: 'America/Chicago' },
    ]);
    const posted = await callRoute(
      addEventPageAction,
      `/dashboard/tracking/${parcel.id}/events/new`,
      {
        method: 'POST',
        headers: { cookie: cookies.staff! },
        params: { parcelId: parcel.id },
        body: new URLSearchParams({
          status: 'Departed Facility',
          depotId,
          location: '',
          date: '2030-03-01',
          time: '09:00',
          timeZone: 'America/New_York',
        }),
      },
    );
    expect(posted.status).toBe(302);
    const stored = await Parcel.findById(parcel.id).lean();
    const departed = stored!.events.find((e) => e.status === 'Departed Facility')!;
    expect(departed.location).toBe('Chicago Hub');
    expect(departed.timeZone).toBe('America/Chicago');
    // 09:00 in Chicago (CST, UTC−6).
    expect(departed.timestamp.toISOString()).toBe('2030-03-01T15:00:00.000Z');
  });
});

describe('POST /api/scans', () => {
  it('records the event and moves the status, with a parcel.scanned webhook', async () => {
    const parcel = await newParcel();
    const res = await scan({
      trackingNumber: ` ${parcel.trackingNumber.toLowerCase()} `,
      status: 'Out for Delivery',
      depotId,
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.event).toMatchObject({
      status: 'Out for Delivery',
      location: 'Chicago Hub',
      timeZone: 'America/Chicago',
      parcelId: parcel.id,
    });
    expect(body.parcel).toMatchObject({ id: parcel.id, status: 'Out for Delivery' });
    const scanned = await deliveries('parcel.scanned');
    expect(scanned.some((d) => JSON.parse(d.payload).data.event.id === body.event.id)).toBe(true);
  });

  it('a repeated identical scan records nothing new and does not e-mail twice', async () => {
    const parcel = await newParcel('twice@example.com');
    const body = { trackingNumber: parcel.trackingNumber, status: 'Out for Delivery', depotId };
    const first = await scan(body);
    expect(first.status).toBe(201);
    const second = await scan(body);
    expect(second.status).toBe(200);
    const repeated = await second.json();
    expect(repeated.repeated).toBe(true);
    expect(repeated.event.id).toBe((await first.json()).event.id);
    const stored = await Parcel.findById(parcel.id).lean();
    expect(stored!.events).toHaveLength(1);
    expect(await Notification.countDocuments({ recipient: 'twice@example.com' })).toBe(1);
    // Another place is another scan.
    expect((await scan({ ...body, depotId: undefined, location: 'Van 7' })).status).toBe(201);
  });

  it('answers 404 for an unknown number and 400 for a mistyped one, with codes', async () => {
    const unknown = await scan({ trackingNumber: 'ZZZ473124829', status: 'In Transit', depotId });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: 'Tracking number not found',
      code: 'tracking_number_not_found',
    });
    const mistyped = await scan({ trackingNumber: 'ZZZ473124820', status: 'In Transit', depotId });
    expect(mistyped.status).toBe(400);
    expect(await mistyped.json()).toMatchObject({
      error: 'Tracking number not found',
      code: 'tracking_number_mistyped',
    });
  });

  it('refuses a failed attempt without a reason, and "other" without a note', async () => {
    const parcel = await newParcel();
    const noReason = await scan({
      trackingNumber: parcel.trackingNumber,
      status: 'Failed Delivery',
      location: '2 High St',
    });
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).details).toEqual({
      reason: ['Choose why the delivery failed'],
    });
    const noNote = await scan({
      trackingNumber: parcel.trackingNumber,
      status: 'Failed Delivery',
      location: '2 High St',
      reason: 'other',
    });
    expect((await noNote.json()).details).toEqual({
      note: ['Say what happened when the reason is other'],
    });
    const noPlace = await scan({ trackingNumber: parcel.trackingNumber, status: 'In Transit' });
    expect((await noPlace.json()).details).toEqual({
      location: ['Choose a depot or enter a location'],
    });
    expect((await Parcel.findById(parcel.id).lean())!.events).toHaveLength(0);
  });

  it('a failed attempt tells the recipient why and what next, and fires parcel.delivery_failed', async () => {
    const parcel = await newParcel('failed@example.com');
    const res = await scan({
      trackingNumber: parcel.trackingNumber,
      status: 'Failed Delivery',
      location: '2 High St',
      reason: 'recipient_unavailable',
      nextAttemptDate: '2030-05-02',
    });
    expect(res.status).toBe(201);
    const { event, parcel: after } = await res.json();
    expect(after.status).toBe('Failed');
    expect(event).toMatchObject({ reason: 'recipient_unavailable', nextAttemptDate: '2030-05-02' });
    const mail = await Notification.findOne({ recipient: 'failed@example.com' }).lean();
    expect(mail!.message).toContain('What happened: Nobody was available to receive the parcel.');
    expect(mail!.message).toContain('What happens next: We will try again on Thursday, 2 May.');
    const failed = await deliveries('parcel.delivery_failed');
    expect(
      failed.some((d) => {
        const data = JSON.parse(d.payload).data;
        return data.event.id === event.id && data.reason === 'recipient_unavailable';
      }),
    ).toBe(true);

    // Without a next attempt, the e-mail says how to reach us.
    const other = await newParcel('contact@example.com');
    await scan({
      trackingNumber: other.trackingNumber,
      status: 'Failed Delivery',
      location: 'Gate 4',
      reason: 'access_restricted',
    });
    const contact = await Notification.findOne({ recipient: 'contact@example.com' }).lean();
    expect(contact!.message).toMatch(/What happens next: Please contact us at .+ to arrange/);
  });

  it('lets the event API refuse a failed attempt without a reason too', async () => {
    const parcel = await newParcel();
    const res = await postEvent(parcel.id, { status: 'Failed Delivery' });
    expect(res.status).toBe(400);
    expect((await res.json()).details.reason).toEqual(['Choose why the delivery failed']);
  });
});

describe('the courier role', () => {
  it('scans but cannot create or delete parcels, and viewers cannot scan', async () => {
    const parcel = await newParcel();
    const create = await callRoute(parcelsApi, '/api/parcels', {
      method: 'POST',
      headers: bearer('courier'),
      body: { recipient: { name: 'X' } },
    });
    expect(create.status).toBe(403);
    expect((await create.json()).error).toBe('This needs the staff role');
    const remove = await callRoute(parcelApi, `/api/parcels/${parcel.id}`, {
      method: 'DELETE',
      headers: bearer('courier'),
      params: { id: parcel.id },
    });
    expect(remove.status).toBe(403);
    expect(await Parcel.exists({ _id: parcel.id })).toBeTruthy();
    const viewer = await scan(
      { trackingNumber: parcel.trackingNumber, status: 'In Transit', location: 'X' },
      'viewer',
    );
    expect(viewer.status).toBe(403);
    expect((await viewer.json()).error).toBe('This needs the courier role');
    expect(
      (await scan({ trackingNumber: parcel.trackingNumber, status: 'In Transit', location: 'X' }))
        .status,
    ).toBe(201);
  });
});

describe('the scan station page', () => {
  const station = (query: string) => `/dashboard/scan?${query}`;

  async function post(query: string, form: Record<string, string>, role = 'courier') {
    return callRoute(scanPageAction, station(query), {
      method: 'POST',
      headers: { cookie: cookies[role]! },
      body: new URLSearchParams(form),
    });
  }

  it('keeps its settings in the URL and answers each scan with the parcel and its new status', async () => {
    const loaded = await callRoute(
      scanPageLoader,
      station(`status=In%20Transit&depot=${depotId}`),
      {
        headers: { cookie: cookies.courier! },
      },
    );
    const data = await loaded.json();
    expect(data.setup).toMatchObject({ status: 'In Transit', depot: depotId });
    expect(data.depot.name).toBe('Chicago Hub');
    const viewer = await callRoute(scanPageLoader, station(''), {
      headers: { cookie: cookies.viewer! },
    });
    expect(viewer.status).toBe(403);

    const parcel = await newParcel();
    const res = await post(`status=In%20Transit&depot=${depotId}`, {
      trackingNumber: parcel.trackingNumber.toLowerCase(),
      status: 'In Transit',
      depotId,
    });
    expect(res.status).toBe(200);
    const { scan: answer } = await res.json();
    expect(answer).toMatchObject({
      trackingNumber: parcel.trackingNumber,
      outcome: 'recorded',
      status: 'In Transit',
      location: 'Chicago Hub',
      recipientName: 'Rita Recipient',
      deliveryPreferences: null,
    });

    // Undo: the courier's own scan goes, through the same service.
    const undo = await post('', { intent: 'undo', eventId: answer.eventId });
    expect(await undo.json()).toMatchObject({ undone: answer.eventId, error: null });
    const stored = await Parcel.findById(parcel.id).lean();
    expect(stored!.events).toHaveLength(0);
    expect(stored!.status).toBe('Pending');
  });

  it('tells a mistyped number from an unknown one, and asks for a failed attempt’s reason', async () => {
    const mistyped = await post('', {
      trackingNumber: 'ZZZ473124820',
      status: 'In Transit',
      depotId,
    });
    expect(mistyped.status).toBe(400);
    expect((await mistyped.json()).scan).toMatchObject({
      outcome: 'not-found',
      hint: expect.stringContaining('the last digit, 0, does not match the eight before it'),
    });
    const unknown = await post('', {
      trackingNumber: 'ZZZ473124829',
      status: 'In Transit',
      depotId,
    });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).scan).toMatchObject({ outcome: 'not-found', hint: null });

    const parcel = await newParcel();
    const refused = await post('', {
      trackingNumber: parcel.trackingNumber,
      status: 'Failed Delivery',
      depotId,
    });
    expect(refused.status).toBe(400);
    const { result } = await refused.json();
    expect(result.error.reason).toEqual(['Choose why the delivery failed']);
  });

  it('e-mails the recipient and a subscriber once for two identical scans, from the API and the station', async () => {
    const smtp = await startTestSmtpServer();
    env.SMTP_URL = smtp.url;
    try {
      const email = 'scanned-twice@example.com';
      const follower = 'follows-scans@example.com';
      const parcel = await newParcel(email);
      // A subscriber is e-mailed about every event, so a second event would reach them twice.
      const subscription = await openParcelSubscription({
        parcelId: parcel.id,
        trackingNumber: parcel.trackingNumber,
        email: follower,
      });
      await ParcelSubscription.updateOne({ _id: subscription }, { status: 'confirmed' });
      const body = { trackingNumber: parcel.trackingNumber, status: 'Out for Delivery', depotId };
      expect((await scan(body)).status).toBe(201);
      const again = await post(`status=Out%20for%20Delivery&depot=${depotId}`, body);
      expect((await again.json()).scan).toMatchObject({ outcome: 'repeated' });
      // Every queued e-mail, one attempt each, as a worker would send them.
      for (;;) {
        try {
          await attemptDueJob(EMAIL_JOB);
        } catch (error) {
          if (!/is due/.test(String(error))) throw error;
          break;
        }
      }
      const to = (address: string) =>
        smtp.messages.filter((m) =>
          [m.to].flat().some((a) => a?.value.some((v) => v.address === address)),
        );
      expect(to(email)).toHaveLength(1);
      expect(to(follower)).toHaveLength(1);
      for (const message of [...to(email), ...to(follower)])
        expect(message.subject).toContain(parcel.trackingNumber);
    } finally {
      env.SMTP_URL = undefined;
      await smtp.stop();
    }
  });

  it("does not let a courier undo another person's event", async () => {
    const parcel = await newParcel();
    const res = await scan(
      { trackingNumber: parcel.trackingNumber, status: 'In Transit', location: 'Y' },
      'staff',
    );
    const { event } = await res.json();
    const undo = await post('', { intent: 'undo', eventId: event.id });
    expect(undo.status).toBe(403);
    expect((await Parcel.findById(parcel.id).lean())!.events).toHaveLength(1);
    expect(courierId).toBeTruthy();
  });
});

describe('the Exceptions view', () => {
  it("lists today's failed attempts and parcels with no scan for the configured days", async () => {
    const failed = await newParcel();
    await scan({
      trackingNumber: failed.trackingNumber,
      status: 'Failed Delivery',
      location: 'Back door',
      reason: 'business_closed',
    });
    const quiet = await insertWithTrackingNumber((trackingNumber) =>
      Parcel.create({
        trackingNumber,
        recipient: { name: 'Quiet Quinn' },
        createdAt: new Date(Date.now() - 10 * 86_400_000),
        events: [
          {
            status: 'In Transit',
            location: 'Somewhere',
            timestamp: new Date(Date.now() - 5 * 86_400_000),
          },
        ],
      }),
    );
    const recent = await insertWithTrackingNumber((trackingNumber) =>
      Parcel.create({
        trackingNumber,
        recipient: { name: 'Recent Ray' },
        createdAt: new Date(Date.now() - 10 * 86_400_000),
        events: [{ status: 'In Transit', timestamp: new Date(Date.now() - 86_400_000) }],
      }),
    );
    const courier = await callRoute(exceptionsLoader, '/dashboard/exceptions', {
      headers: { cookie: cookies.courier! },
    });
    expect(courier.status).toBe(403);
    const res = await callRoute(exceptionsLoader, '/dashboard/exceptions', {
      headers: { cookie: cookies.staff! },
    });
    const data = await res.json();
    expect(data.staleScanDays).toBe(3);
    const failedNumbers = data.failedToday.map(
      (f: { parcel: { trackingNumber: string } }) => f.parcel.trackingNumber,
    );
    expect(failedNumbers).toContain(failed.trackingNumber);
    const entry = data.failedToday.find(
      (f: { parcel: { trackingNumber: string } }) =>
        f.parcel.trackingNumber === failed.trackingNumber,
    );
    expect(entry.event.reason).toBe('business_closed');
    const quietNumbers = data.quiet.map(
      (q: { parcel: { trackingNumber: string } }) => q.parcel.trackingNumber,
    );
    expect(quietNumbers).toContain(quiet.trackingNumber);
    expect(quietNumbers).not.toContain(recent.trackingNumber);
    expect(quietNumbers).not.toContain(failed.trackingNumber);
  });
});

describe('depot removal', () => {
  it('leaves the events recorded there as they were', async () => {
    const res = await callRoute(depotApiAction, `/api/depots/${depotId}`, {
      method: 'DELETE',
      headers: bearer('admin'),
      params: { id: depotId },
    });
    expect(res.status).toBe(200);
    expect(await Parcel.exists({ 'events.location': 'Chicago Hub' })).toBeTruthy();
  });
});
