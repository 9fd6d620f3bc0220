import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getNotification, listNotifications } from '~/models/notification.server';
import { Parcel } from '~/models/parcel.server';
import {
  action as templateApiAction,
  loader as templateApiLoader,
} from '~/routes/api.notification-templates.$id';
import { loader as templatesApiLoader } from '~/routes/api.notification-templates';
import { action as notificationsApiAction } from '~/routes/api.notifications';
import { action as sendAction, loader as sendLoader } from '~/routes/dashboard.notifications.new';
import {
  action as editAction,
  loader as editLoader,
} from '~/routes/dashboard.notifications_.templates.$id';
import {
  action as textsAction,
  loader as textsLoader,
} from '~/routes/dashboard.notifications_.texts';
import { automaticEmailTemplate } from '~/services/notification-templates.server';
import { connectDb } from '~/lib/db.server';
import { answer as call, jsonOf, requestsAs } from '../support/api';
import { createUsers, type UsersByRole } from '../support/factories';
import { startMailWorker, type MailWorker } from '../support/jobs';

let users: Pick<UsersByRole, 'admin' | 'staff' | 'viewer'>;
let outbox: MailWorker;
let parcelId: string;

const { api, page } = requestsAs(() => users);

async function sentNotificationTo(email: string) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const { notifications } = await listNotifications({ limit: 100 });
    const n = notifications.find((x) => x.recipient === email);
    if (n && n.status !== 'pending') return n;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
}

beforeAll(async () => {
  await connectDb();
  outbox = await startMailWorker();
  users = await createUsers(['admin', 'staff', 'viewer'], 'tpl');
  const parcel = await Parcel.create({
    trackingNumber: 'TPL123456789',
    status: 'Out for Delivery',
    recipient: { name: 'Tia <Tester>', email: 'tia@example.com' },
    estimatedDelivery: new Date('2030-05-06T12:00:00Z'),
  });
  parcelId = String(parcel._id);
});

afterAll(async () => {
  await outbox?.stop();
});

describe('sending a template without JavaScript', () => {
  it('fills the placeholders on the server even when the template was never applied to the parcel', async () => {
    // Without JavaScript: the dialog opens with no parcel, the staff member picks one and sends
    // without pressing "Apply template".
    const loaded = await (
      await call(sendLoader, page('/dashboard/notifications/new', 'staff'))
    ).json();
    expect(loaded.values.type).toBe('Status Update');
    expect(loaded.values.parcelId).toBe('');
    const res = await call(
      sendAction,
      page('/dashboard/notifications/new', 'staff', {
        parcelId,
        type: 'Status Update',
        title: loaded.values.title,
        message: loaded.values.message,
      }),
    );
    expect(res.status).toBe(302);
    const notification = await sentNotificationTo('tia@example.com');
    expect(notification.status).toBe('sent');
    expect(notification.title).toBe('Status update for your parcel TPL123456789');
    const mail = await outbox.smtp.waitForMessage('tia@example.com');
    expect(mail.subject).toBe('Status update for your parcel TPL123456789');
    expect(mail.text).toContain('Dear Tia <Tester>,');
    expect(mail.text).toContain('its current status is "Out for Delivery"');
    expect(mail.text).toContain('/track?number=TPL123456789');
    expect(mail.text).not.toContain('{{');
    // The template's HTML body, with the values escaped.
    const html = String(mail.html);
    expect(html).toContain('<strong>Out for Delivery</strong>');
    expect(html).toContain('Dear Tia &lt;Tester&gt;,');
    expect(html).not.toContain('{{');
  });

  it('refuses an unknown placeholder in a notification (API 400 with the field)', async () => {
    const res = await call(
      notificationsApiAction,
      api('/api/notifications', 'staff', {
        method: 'POST',
        body: {
          type: 'Custom',
          recipient: 'x@example.com',
          title: 'Hi {{firstName}}',
          message: 'Hello',
          trackingNumber: 'TPL123456789',
        },
      }),
    );
    const body = await jsonOf(res, 400);
    expect(body.details.title[0]).toMatch(/Unknown placeholder \{\{firstName\}\}/);
  });
});

describe('editing templates', () => {
  it('lists the templates with the placeholders', async () => {
    const res = await call(templatesApiLoader, api('/api/notification-templates', 'viewer'));
    const body = await jsonOf(res, 200);
    expect(body.templates.map((t: { id: string }) => t.id)).toEqual([
      'status-update',
      'delivery-confirmation',
      'pickup-confirmation',
      'custom',
      'delivery-reminder',
    ]);
    expect(body.placeholders).toEqual(
      expect.arrayContaining(['estimatedDelivery', 'deliveryWindow']),
    );
    expect(body.templates[0]).toMatchObject({ type: 'Status Update', customized: false });
  });

  it('saves an admin edit (API), refuses unknown placeholders and other roles, and resets', async () => {
    const put = (role: keyof typeof users, body: unknown) =>
      call(
        templateApiAction,
        api('/api/notification-templates/pickup-confirmation', role, { method: 'PUT', body }),
        { id: 'pickup-confirmation' },
      );
    const edit = {
      subject: '{{companyName}} has {{trackingNumber}}',
      text: 'Hello {{recipientName}}, expected {{estimatedDelivery}}.',
      html: '<p>Hello {{recipientName}}</p>',
    };
    expect((await put('staff', edit)).status).toBe(403);
    expect((await put('viewer', edit)).status).toBe(403);
    const bad = await put('admin', { ...edit, text: 'Hi {{nope}} and {{ status }}' });
    const badBody = await jsonOf(bad, 400);
    expect(badBody.details.text[0]).toMatch(/Unknown placeholder \{\{nope\}\}/);
    expect((await put('admin', { ...edit, subject: '' })).status).toBe(400);

    const saved = await put('admin', edit);
    expect(saved.status).toBe(200);
    expect((await saved.json()).template).toMatchObject({ customized: true, ...edit });
    const read = await call(
      templateApiLoader,
      api('/api/notification-templates/pickup-confirmation', 'viewer'),
      { id: 'pickup-confirmation' },
    );
    expect((await read.json()).template.subject).toBe(edit.subject);
    expect(
      (
        await call(templateApiLoader, api('/api/notification-templates/nope', 'viewer'), {
          id: 'nope',
        })
      ).status,
    ).toBe(404);

    // The send dialog offers the edited template; the e-mail is filled in from it.
    const loaded = await (
      await call(
        sendLoader,
        page('/dashboard/notifications/new?type=Pickup%20Confirmation', 'staff'),
      )
    ).json();
    expect(loaded.values.title).toBe(edit.subject);
    const other = await Parcel.create({
      trackingNumber: 'TPL223456789',
      recipient: { name: 'Pat', email: 'pat@example.com' },
    });
    await Parcel.updateOne({ _id: other._id }, { $unset: { estimatedDelivery: 1 } });
    await call(
      sendAction,
      page('/dashboard/notifications/new', 'staff', {
        parcelId: String(other._id),
        type: 'Pickup Confirmation',
        title: loaded.values.title,
        message: loaded.values.message,
      }),
    );
    const n = await sentNotificationTo('pat@example.com');
    expect(n.title).toBe('SwiftShip Courier has TPL223456789');
    expect((await getNotification(n.id))?.message).toBe('Hello Pat, expected to be confirmed.');
    const mail = await outbox.smtp.waitForMessage('pat@example.com');
    expect(String(mail.html)).toContain('<p>Hello Pat</p>');

    const reset = await call(
      templateApiAction,
      api('/api/notification-templates/pickup-confirmation', 'admin', { method: 'DELETE' }),
      { id: 'pickup-confirmation' },
    );
    expect((await reset.json()).template).toMatchObject({
      customized: false,
      subject: 'Your parcel {{trackingNumber}} has been picked up',
    });
  });

  it('the dashboard editor: admins only, previews against a parcel, saves, refuses unknown placeholders, resets', async () => {
    const url = '/dashboard/notifications/templates/status-update';
    const params = { id: 'status-update' };
    expect((await call(editLoader, page(url, 'staff'), params)).status).toBe(403);
    expect((await call(editAction, page(url, 'staff', { intent: 'reset' }), params)).status).toBe(
      403,
    );
    const loaded = await (await call(editLoader, page(url, 'admin'), params)).json();
    expect(loaded.template.subject).toBe('Status update for your parcel {{trackingNumber}}');

    const fields = {
      subject: 'Now: {{status}} for {{trackingNumber}}',
      text: 'Dear {{recipientName}}, by {{estimatedDelivery}}.',
      html: '<p>{{status}}</p>',
    };
    const preview = await call(
      editAction,
      page(url, 'admin', { intent: 'preview', parcelId, ...fields }),
      params,
    );
    expect(preview.status).toBe(200);
    const previewed = (await preview.json()).preview;
    expect(previewed.subject).toBe('Now: Out for Delivery for TPL123456789');
    expect(previewed.text).toContain('Dear Tia <Tester>, by Monday, 6 May.');
    expect(previewed.html).toContain('<p>Out for Delivery</p>');
    // Previewing saves nothing.
    expect(
      (await (await call(editLoader, page(url, 'admin'), params)).json()).template.customized,
    ).toBe(false);

    const refused = await call(
      editAction,
      page(url, 'admin', { intent: 'save', ...fields, subject: 'Hi {{who}}' }),
      params,
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).result.error.subject[0]).toMatch(/Unknown placeholder/);

    const saved = await call(editAction, page(url, 'admin', { intent: 'save', ...fields }), params);
    expect(saved.status).toBe(302);
    const after = await (await call(editLoader, page(url, 'admin'), params)).json();
    expect(after.template).toMatchObject({ customized: true, ...fields });

    const reset = await call(editAction, page(url, 'admin', { intent: 'reset' }), params);
    expect(reset.status).toBe(302);
    const back = await (await call(editLoader, page(url, 'admin'), params)).json();
    expect(back.template.customized).toBe(false);
  });

  it('keeps a version per language: English stands in where one has none, and says so; the same placeholders everywhere', async () => {
    const url = (language: string) =>
      `/dashboard/notifications/templates/custom?language=${language}`;
    const params = { id: 'custom' };
    // The Custom template is shipped in no language: French falls back to English, and says so.
    const french = await (await call(editLoader, page(url('fr'), 'admin'), params)).json();
    expect(french.template).toMatchObject({ language: 'fr', translated: false, customized: false });
    const text = 'Bonjour {{recipientName}}.';
    const fields = { subject: 'Colis {{trackingNumber}}', text, html: '' };
    const refused = await call(
      editAction,
      page(url('fr'), 'admin', { intent: 'save', ...fields, text: 'Bonjour {{prenom}}.' }),
      params,
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).result.error.text[0]).toMatch(
      /Unknown placeholder \{\{prenom\}\}/,
    );
    const saved = await call(
      editAction,
      page(url('fr'), 'admin', { intent: 'save', ...fields }),
      params,
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get('Location')).toBe('/dashboard/notifications/templates');
    const after = await (await call(editLoader, page(url('fr'), 'admin'), params)).json();
    expect(after.template).toMatchObject({ translated: true, customized: true, ...fields });
    // English is untouched; a French recipient's automatic e-mail is made with the French one.
    const english = await (await call(editLoader, page(url('en'), 'admin'), params)).json();
    expect(english.template).toMatchObject({ subject: '', translated: true });
    expect((await automaticEmailTemplate('Custom', 'fr')).subject).toBe(fields.subject);
    // The API reads and changes each language's version, and refuses an unknown placeholder.
    const apiUrl = '/api/notification-templates/status-update?language=de';
    const shipped = await (
      await call(templateApiLoader, api(apiUrl, 'viewer'), { id: 'status-update' })
    ).json();
    expect(shipped.template).toMatchObject({ language: 'de', translated: true, customized: false });
    expect(shipped.template.subject).toMatch(/Paket \{\{trackingNumber\}\}/);
    const bad = await call(
      templateApiAction,
      api(apiUrl, 'admin', { method: 'PUT', body: { subject: '{{Sendungsnummer}}', text: 'x' } }),
      { id: 'status-update' },
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).details.subject[0]).toMatch(/Unknown placeholder/);
    const unknownLanguage = await call(
      templateApiLoader,
      api('/api/notification-templates/status-update?language=it', 'viewer'),
      { id: 'status-update' },
    );
    expect(unknownLanguage.status).toBe(400);
    await call(editAction, page(url('fr'), 'admin', { intent: 'reset' }), params);
    expect((await automaticEmailTemplate('Custom', 'fr')).subject).not.toBe(fields.subject);
  });

  it('the text templates refuse an unknown placeholder beside the field', async () => {
    const url = '/dashboard/notifications/texts?event=delivered&language=es';
    const refused = await call(
      textsAction,
      page(url, 'admin', {
        event: 'delivered',
        language: 'es',
        intent: 'save',
        body: 'Hola {{nombre}}',
      }),
    );
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.body[0]).toMatch(/Unknown placeholder \{\{nombre\}\}/);
    const loaded = await (await call(textsLoader, page(url, 'admin'))).json();
    expect(loaded.body).not.toContain('nombre');
  });
});
