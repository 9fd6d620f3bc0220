import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job } from '~/models/job.server';
import {
  listNotifications,
  Notification,
  type SerializedNotification,
} from '~/models/notification.server';
import { Parcel } from '~/models/parcel.server';
import {
  action as settingsApiAction,
  loader as settingsApiLoader,
} from '~/routes/api.notification-settings';
import { loader as notificationsApiLoader } from '~/routes/api.notifications';
import {
  action as settingsPageAction,
  loader as settingsPageLoader,
} from '~/routes/dashboard.notifications_.settings';
import { loader as timelineLoader } from '~/routes/dashboard.tracking.$parcelId';
import { connectDb } from '~/lib/db.server';
import { answer as call, requestsAs } from '../support/api';
import { createUsers, type UsersByRole } from '../support/factories';
import { startMailWorker, type MailWorker } from '../support/jobs';
import { queueStatusEmail } from '~/services/notifications.server';
import { addEvent, updateEvent } from '~/services/tracking-events.server';
import type { EventStatus } from '~/schemas/constants';

let users: Pick<UsersByRole, 'admin' | 'viewer'>;
let outbox: MailWorker;
let counter = 0;

const { api, page } = requestsAs(() => users);

/** A tracking event's input: the status and where. */
const ev = (status: EventStatus, location = '') => ({ status, location, description: '' });

async function makeParcel() {
  counter += 1;
  const email = `auto-${counter}@example.com`;
  const parcel = await Parcel.create({
    trackingNumber: `AUT${String(100000000 + counter)}`,
    recipient: { name: `Ava ${counter}`, email },
  });
  return { id: String(parcel._id), trackingNumber: parcel.trackingNumber, email };
}

async function settledFor(email: string, count = 1): Promise<SerializedNotification[]> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { notifications } = await listNotifications({ limit: 100 });
    const mine = notifications.filter((n) => n.recipient === email);
    if (mine.length >= count && mine.every((n) => n.status !== 'pending')) return mine;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
}

beforeAll(async () => {
  await connectDb();
  outbox = await startMailWorker();
  users = await createUsers(['admin', 'viewer'], 'auto');
});

afterAll(async () => {
  await outbox?.stop();
});

describe('automatic status e-mails', () => {
  it('e-mails the recipient once when an event sets Out for Delivery, even when the event is edited', async () => {
    const parcel = await makeParcel();
    await addEvent(parcel.id, ev('In Transit', 'Hub'));
    const event = await addEvent(parcel.id, ev('Out for Delivery', 'Depot'));
    const [notification] = await settledFor(parcel.email);
    expect(notification).toMatchObject({
      status: 'sent',
      automatic: true,
      eventId: event!.id,
      type: 'Status Update',
      title: `Status update for your parcel ${parcel.trackingNumber}`,
      trackingNumber: parcel.trackingNumber,
    });
    const mail = await outbox.smtp.waitForMessage(parcel.email);
    expect(mail.text).toContain('its current status is "Out for Delivery"');
    const data = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(String(mail.html));
    expect(JSON.parse(data![1]!)).toMatchObject({
      '@type': 'ParcelDelivery',
      trackingNumber: parcel.trackingNumber,
      deliveryStatus: { '@type': 'DeliveryEvent', name: 'Out for Delivery' },
      expectedArrivalUntil: expect.any(String),
    });

    // Edited (also to another status that e-mails), the event queues nothing more.
    await updateEvent(event!.id, { description: 'On the van' });
    await updateEvent(event!.id, { status: 'Delivered' });
    await updateEvent(event!.id, { status: 'Out for Delivery' });
    await outbox.worker.idle();
    expect(await Notification.countDocuments({ recipient: parcel.email })).toBe(1);
    expect(
      outbox.smtp.messages.filter((m) => m.subject?.includes(parcel.trackingNumber)),
    ).toHaveLength(1);
    expect(await Job.countDocuments({ uniqueKey: `email:status:${event!.id}` })).toBe(1);

    // A new event that delivers it: the Delivery Confirmation.
    await addEvent(parcel.id, ev('Delivered', 'Door'));
    const both = await settledFor(parcel.email, 2);
    expect(both.map((n) => n.type).sort()).toEqual(['Delivery Confirmation', 'Status Update']);
  });

  it('queues one e-mail when the same status change is reported twice at once', async () => {
    const parcel = await makeParcel();
    const event = await addEvent(parcel.id, ev('In Transit'));
    await Promise.all(
      [1, 2, 3].map(() =>
        queueStatusEmail({ parcelId: parcel.id, eventId: event!.id, status: 'Picked Up' }),
      ),
    );
    const sent = await settledFor(parcel.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.type).toBe('Pickup Confirmation');
    await outbox.worker.idle();
    expect(await Notification.countDocuments({ recipient: parcel.email })).toBe(1);
  });

  it('shows in the Notifications list filters and the parcel timeline as "E-mail sent to …"', async () => {
    const parcel = await makeParcel();
    await addEvent(parcel.id, ev('Failed Delivery', 'Door'));
    await settledFor(parcel.email);
    const res = await call(
      notificationsApiLoader,
      api(
        `/api/notifications?trackingNumber=${parcel.trackingNumber.toLowerCase()}&automatic=true`,
        'viewer',
      ),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.notifications).toHaveLength(1);
    expect(body.notifications[0]).toMatchObject({ recipient: parcel.email, automatic: true });
    const manual = await call(
      notificationsApiLoader,
      api(`/api/notifications?trackingNumber=${parcel.trackingNumber}&automatic=false`, 'viewer'),
    );
    expect((await manual.json()).notifications).toHaveLength(0);
    const bad = await call(
      notificationsApiLoader,
      api('/api/notifications?automatic=maybe', 'viewer'),
    );
    expect(bad.status).toBe(400);

    const timeline = await (
      await call(timelineLoader, page(`/dashboard/tracking/${parcel.id}`, 'viewer'), {
        parcelId: parcel.id,
      })
    ).json();
    expect(timeline.emails).toEqual([
      expect.objectContaining({ recipient: parcel.email, automatic: true }),
    ]);
  });
});

describe('the rules', () => {
  it('GET/PUT /api/notification-settings: defaults, admin-only changes, validation', async () => {
    const read = await (
      await call(settingsApiLoader, api('/api/notification-settings', 'viewer'))
    ).json();
    expect(
      read.settings.rules
        .filter((r: { enabled: boolean }) => r.enabled)
        .map((r: { status: string }) => r.status),
    ).toEqual(['Out for Delivery', 'Delivered', 'Picked Up', 'Failed']);
    expect(read.settings.dayBefore).toEqual({ enabled: true, template: 'Delivery Reminder' });

    const put = (role: keyof typeof users, body: unknown) =>
      call(settingsApiAction, api('/api/notification-settings', role, { method: 'PUT', body }));
    expect((await put('viewer', { rules: [] })).status).toBe(403);
    for (const body of [
      { rules: [{ status: 'Lost', enabled: true, template: 'Custom' }] },
      { rules: [{ status: 'In Transit', enabled: 'yes', template: 'Custom' }] },
      { rules: [{ status: 'In Transit', enabled: true, template: 'Spam' }] },
      {
        rules: [
          { status: 'In Transit', enabled: true, template: 'Custom' },
          { status: 'In Transit', enabled: false, template: 'Custom' },
        ],
      },
      { rules: 'all' },
      { dayBefore: { enabled: 'yes', template: 'Custom' } },
      { dayBefore: { enabled: true, template: 'Spam' } },
    ]) {
      const res = await put('admin', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).details).toBeDefined();
    }
    const saved = await put('admin', {
      rules: [
        { status: 'Out for Delivery', enabled: false, template: 'Status Update' },
        { status: 'In Transit', enabled: true, template: 'Status Update' },
      ],
    });
    expect(saved.status).toBe(200);
    const rules = (await saved.json()).settings.rules;
    expect(rules.find((r: { status: string }) => r.status === 'Out for Delivery').enabled).toBe(
      false,
    );
    expect(rules.find((r: { status: string }) => r.status === 'Delivered').enabled).toBe(true);
    const dayBefore = await put('admin', { dayBefore: { enabled: false, template: 'Custom' } });
    expect((await dayBefore.json()).settings).toMatchObject({
      dayBefore: { enabled: false, template: 'Custom' },
      rules,
    });

    // Out for Delivery no longer e-mails; In Transit does.
    const parcel = await makeParcel();
    await addEvent(parcel.id, ev('Out for Delivery'));
    await outbox.worker.idle();
    expect(await Notification.countDocuments({ recipient: parcel.email })).toBe(0);
    await addEvent(parcel.id, ev('In Transit'));
    expect((await settledFor(parcel.email))[0]!.automatic).toBe(true);
  });

  it('the dashboard form (admins only) saves ticks and templates without JavaScript', async () => {
    expect(
      (await call(settingsPageLoader, page('/dashboard/notifications/settings', 'viewer'))).status,
    ).toBe(403);
    const loaded = await (
      await call(settingsPageLoader, page('/dashboard/notifications/settings', 'admin'))
    ).json();
    const form = new URLSearchParams();
    loaded.settings.rules.forEach((rule: { status: string; template: string }, i: number) => {
      form.set(`rules[${i}].status`, rule.status);
      form.set(`rules[${i}].template`, rule.status === 'Returned' ? 'Custom' : rule.template);
      // Only Returned and Delivered ticked: an unticked box sends nothing.
      if (rule.status === 'Returned' || rule.status === 'Delivered')
        form.set(`rules[${i}].enabled`, 'on');
    });
    form.set('dayBefore.enabled', 'on');
    form.set('dayBefore.template', 'Delivery Reminder');
    form.set('dayBefore.wasEnabled', String(loaded.settings.dayBefore.enabled));
    form.set('dayBefore.wasTemplate', loaded.settings.dayBefore.template);
    const res = await call(
      settingsPageAction,
      page('/dashboard/notifications/settings', 'admin', form),
    );
    expect(res.status).toBe(302);
    const after = await (
      await call(settingsApiLoader, api('/api/notification-settings', 'viewer'))
    ).json();
    expect(after.settings.rules.filter((r: { enabled: boolean }) => r.enabled)).toEqual([
      { status: 'Delivered', enabled: true, template: 'Delivery Confirmation' },
      { status: 'Returned', enabled: true, template: 'Custom' },
    ]);
    expect(after.settings.dayBefore).toEqual({ enabled: true, template: 'Delivery Reminder' });
    const bad = new URLSearchParams({ 'rules[0].status': 'Lost', 'rules[0].template': 'Custom' });
    expect(
      (await call(settingsPageAction, page('/dashboard/notifications/settings', 'admin', bad)))
        .status,
    ).toBe(400);

    // A row left as it was loaded is not saved: another admin's change to it since stands.
    await call(
      settingsApiAction,
      api('/api/notification-settings', 'admin', {
        method: 'PUT',
        body: { rules: [{ status: 'Pending', enabled: true, template: 'Custom' }] },
      }),
    );
    const stale = new URLSearchParams({
      'rules[0].status': 'Pending',
      'rules[0].template': 'Status Update',
      'rules[0].wasEnabled': 'false',
      'rules[0].wasTemplate': 'Status Update',
      'rules[1].status': 'Failed',
      'rules[1].template': 'Status Update',
      'rules[1].enabled': 'on',
      'rules[1].wasEnabled': 'false',
      'rules[1].wasTemplate': 'Status Update',
    });
    expect(
      (await call(settingsPageAction, page('/dashboard/notifications/settings', 'admin', stale)))
        .status,
    ).toBe(302);
    const merged = (
      await (await call(settingsApiLoader, api('/api/notification-settings', 'viewer'))).json()
    ).settings.rules;
    expect(merged.find((r: { status: string }) => r.status === 'Pending')).toMatchObject({
      enabled: true,
      template: 'Custom',
    });
    expect(merged.find((r: { status: string }) => r.status === 'Failed').enabled).toBe(true);

    // An empty Custom template: the Status Update one stands in.
    const parcel = await makeParcel();
    await addEvent(parcel.id, ev('Returned to Sender'));
    const [n] = await settledFor(parcel.email);
    expect(n!.title).toBe(`Status update for your parcel ${parcel.trackingNumber}`);
    expect(n!.message).toContain('"Returned"');
  });
});
