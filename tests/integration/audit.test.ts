import { beforeAll, describe, expect, it } from 'vitest';
import { AuditEntry, changedFields, listAudit } from '~/models/audit.server';
import { action as apiKeyApi } from '~/routes/api.api-keys.$id';
import { action as apiKeysApi } from '~/routes/api.api-keys';
import { action as auditAction, loader as auditLoader } from '~/routes/api.audit';
import { action as templateApi } from '~/routes/api.notification-templates.$id';
import { action as settingsApi } from '~/routes/api.notification-settings';
import { action as notificationsApi } from '~/routes/api.notifications';
import { action as receiptApi } from '~/routes/api.receipts.$id';
import { action as generateReceiptApi } from '~/routes/api.receipts.generate.$parcelId';
import { action as webhookApi } from '~/routes/api.webhooks.$id';
import { action as webhooksApi } from '~/routes/api.webhooks';
import { action as parcelApi } from '~/routes/api.parcels.$id';
import { action as parcelsApi } from '~/routes/api.parcels';
import { action as eventsApi } from '~/routes/api.tracking.$parcelId.events';
import { action as userApi } from '~/routes/api.users.$id';
import { action as editPage } from '~/routes/dashboard.parcels.$parcelId.edit';
import { loader as historyPage } from '~/routes/dashboard.parcels.$parcelId.history';
import { connectDb } from '~/lib/db.server';
import { callRoute } from '../support/api';
import { createUser, type TestUser } from '../support/factories';

type Who = TestUser;
let admin: Who;
let staff: Who;
let viewer: Who;

beforeAll(async () => {
  await connectDb();
  admin = await createUser('admin', { username: 'auditor' });
  staff = await createUser('staff', { username: 'clerk' });
  viewer = await createUser('viewer', { username: 'onlooker' });
});

type Entries = {
  entries: Array<{
    action: string;
    entity: string;
    entityId: string;
    actor: { username: string };
    address: string;
    via: string;
    changes: Array<{ field: string; before: unknown; after: unknown }>;
  }>;
};

/** A record changed with `body` and then deleted through its API route, as the holder of `token`. */
async function changeThenDelete(
  route: Parameters<typeof callRoute>[0],
  path: string,
  id: string,
  token: string,
  body: Record<string, unknown>,
) {
  await callRoute(route, path, { token, method: 'PUT', body, params: { id } });
  await callRoute(route, path, { token, method: 'DELETE', params: { id } });
}

describe('the audit trail', () => {
  it('records a parcel created and updated through the API with who, where and the fields before and after', async () => {
    const created = await callRoute(parcelsApi, '/api/parcels', {
      token: staff.token,
      body: { recipient: { name: 'Audit Me', address: '1 Trail Rd' }, weight: 2 },
      clientAddress: '203.0.113.9',
    });
    const { parcel } = await created.json();
    const put = await callRoute(parcelApi, `/api/parcels/${parcel.id}`, {
      token: staff.token,
      method: 'PUT',
      body: { weight: 5, recipient: { phone: '555-0199' } },
      params: { id: parcel.id },
      clientAddress: '203.0.113.9',
    });
    expect(put.status).toBe(200);

    const res = await callRoute(auditLoader, `/api/audit?entity=parcel&entityId=${parcel.id}`, {
      token: viewer.token,
    });
    expect(res.status).toBe(200);
    const { entries } = (await res.json()) as Entries;
    expect(entries.map((e) => e.action)).toEqual(['update', 'create']);
    const [update] = entries;
    expect(update).toMatchObject({
      entity: 'parcel',
      entityId: parcel.id,
      actor: { username: 'clerk' },
      address: '203.0.113.9',
      via: 'api',
    });
    expect(update!.changes).toEqual([
      { field: 'recipient.phone', before: '', after: '555-0199' },
      { field: 'weight', before: 2, after: 5 },
    ]);
  });

  it("a parcel's History shows its own changes and its events'; page edits record the address", async () => {
    const created = await callRoute(parcelsApi, '/api/parcels', {
      token: staff.token,
      body: { recipient: { name: 'History Person', address: '2 Trail Rd' } },
    });
    const { parcel } = await created.json();
    await callRoute(eventsApi, `/api/tracking/${parcel.id}/events`, {
      token: staff.token,
      body: { status: 'In Transit', location: 'Hub' },
      params: { parcelId: parcel.id },
    });
    const edit = await callRoute(editPage, `/dashboard/parcels/${parcel.id}/edit`, {
      cookie: staff.cookie,
      form: {
        'recipient.name': 'History Person',
        'recipient.address': '2 Trail Rd',
        priority: 'High',
      },
      params: { parcelId: parcel.id },
      clientAddress: '198.51.100.4',
    });
    expect(edit.status).toBe(302);

    const page = await callRoute(historyPage, `/dashboard/parcels/${parcel.id}/history`, {
      cookie: viewer.cookie,
      params: { parcelId: parcel.id },
    });
    const { entries } = (await page.json()) as Entries;
    expect(entries.map((e) => `${e.action} ${e.entity}`)).toEqual([
      'update parcel',
      'create event',
      'create parcel',
    ]);
    expect(entries[0]).toMatchObject({ address: '198.51.100.4', via: 'page' });
    expect(entries[0]!.changes).toContainEqual({
      field: 'priority',
      before: 'Standard',
      after: 'High',
    });
  });

  it('browsing everything needs the admin role; entries cannot be changed through the API', async () => {
    expect((await callRoute(auditLoader, '/api/audit', { token: staff.token })).status).toBe(403);
    const all = await callRoute(auditLoader, '/api/audit?entity=parcel&action=create&actor=clerk', {
      token: admin.token,
    });
    expect(all.status).toBe(200);
    const { entries } = (await all.json()) as Entries;
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(entries.every((e) => e.action === 'create' && e.actor.username === 'clerk')).toBe(true);
    const bad = await callRoute(auditLoader, '/api/audit?entity=spaceship&limit=500', {
      token: admin.token,
    });
    expect(bad.status).toBe(400);
    for (const method of ['POST', 'PUT', 'DELETE'])
      expect(
        (await callRoute(auditAction, '/api/audit', { method, token: admin.token })).status,
      ).toBe(405);
  });

  it("opens one record's history only to the roles that may read the record", async () => {
    const id = '0123456789abcdef01234567';
    const history = (entity: string, who: Who) =>
      callRoute(auditLoader, `/api/audit?entity=${entity}&entityId=${id}`, { token: who.token });
    const readers: Record<string, Who[]> = {
      parcel: [viewer, staff, admin],
      event: [viewer, staff, admin],
      notification: [viewer, staff, admin],
      receipt: [viewer, staff, admin],
      inquiry: [staff, admin],
      subscription: [staff, admin],
      user: [admin],
      key: [admin],
      webhook: [admin],
    };
    for (const [entity, allowed] of Object.entries(readers)) {
      for (const who of [viewer, staff, admin]) {
        const res = await history(entity, who);
        const expected = allowed.includes(who) ? 200 : 403;
        expect(res.status, `${entity} by ${who.user.role}`).toBe(expected);
        if (expected === 403) expect((await res.json()).error).toMatch(/^This needs the \w+ role$/);
      }
    }
  });

  it('records user changes without passwords', async () => {
    const id = viewer.user.id;
    await callRoute(userApi, `/api/users/${id}`, {
      token: admin.token,
      method: 'PUT',
      body: { name: 'Renamed Onlooker', password: 'a-secret-password' },
      params: { id },
    });
    const { entries } = await listAudit({ entity: 'user', entityId: id });
    expect(entries[0]!.actor.username).toBe('auditor');
    expect(entries[0]!.changes).toContainEqual({
      field: 'name',
      before: '',
      after: 'Renamed Onlooker',
    });
    expect(JSON.stringify(await AuditEntry.find().lean())).not.toContain('a-secret-password');
  });

  it('records e-mails, receipts, templates, API keys and webhooks, never their secrets', async () => {
    const { parcel } = await (
      await callRoute(parcelsApi, '/api/parcels', {
        token: staff.token,
        body: {
          recipient: { name: 'Paper Trail', address: '2 Trail Rd', email: 'trail@example.com' },
        },
      })
    ).json();
    const kinds = async (entity: string, entityId: string) =>
      (await listAudit({ entity: entity as 'parcel', entityId })).entries.map((e) => e.action);

    const sent = await callRoute(notificationsApi, '/api/notifications', {
      token: staff.token,
      body: {
        type: 'Status Update',
        recipient: 'trail@example.com',
        title: 'On its way',
        message: 'Your parcel is on its way.',
        trackingNumber: parcel.trackingNumber,
      },
    });
    expect(sent.status).toBe(201);
    const { notification } = await sent.json();
    expect(await kinds('notification', notification.id)).toEqual(['create']);

    const generated = await callRoute(generateReceiptApi, `/api/receipts/generate/${parcel.id}`, {
      token: staff.token,
      body: {},
      params: { parcelId: parcel.id },
    });
    expect(generated.status).toBe(201);
    const { receipt } = await generated.json();
    await changeThenDelete(receiptApi, `/api/receipts/${receipt.id}`, receipt.id, staff.token, {
      customerName: 'Trail Buyer',
    });
    expect(await kinds('receipt', receipt.id)).toEqual(['delete', 'update', 'create']);
    const [receiptUpdate] = (
      await listAudit({ entity: 'receipt', entityId: receipt.id })
    ).entries.filter((e) => e.action === 'update');
    expect(receiptUpdate!.changes).toContainEqual(
      expect.objectContaining({ field: 'customerName', after: 'Trail Buyer' }),
    );

    // The parcel's History gathers its e-mail and receipt entries too.
    const history = await listAudit({ parcelId: parcel.id });
    expect(new Set(history.entries.map((e) => e.entity))).toEqual(
      new Set(['parcel', 'notification', 'receipt']),
    );

    const template = await callRoute(templateApi, '/api/notification-templates/status-update', {
      token: admin.token,
      method: 'PUT',
      body: { subject: 'News about {{trackingNumber}}', text: 'Now {{status}}.' },
      params: { id: 'status-update' },
    });
    expect(template.status).toBe(200);
    const [templateEntry] = (await listAudit({ entity: 'template' })).entries;
    expect(templateEntry!.changes).toContainEqual(
      expect.objectContaining({ field: 'subject', after: 'News about {{trackingNumber}}' }),
    );

    const keyAnswer = await callRoute(apiKeysApi, '/api/api-keys', {
      token: admin.token,
      body: { name: 'Audited key', scopes: ['read'] },
    });
    expect(keyAnswer.status).toBe(201);
    const { apiKey, key } = await keyAnswer.json();
    await callRoute(apiKeyApi, `/api/api-keys/${apiKey.id}`, {
      token: admin.token,
      method: 'DELETE',
      params: { id: apiKey.id },
    });
    expect(await kinds('key', apiKey.id)).toEqual(['delete', 'create']);

    // A public address written out, so that the check of where it points needs no DNS.
    const hookAnswer = await callRoute(webhooksApi, '/api/webhooks', {
      token: admin.token,
      body: { url: 'https://93.184.215.14/audit', events: ['parcel.created'] },
    });
    expect(hookAnswer.status).toBe(201);
    const { webhook, secret } = await hookAnswer.json();
    await changeThenDelete(webhookApi, `/api/webhooks/${webhook.id}`, webhook.id, admin.token, {
      url: 'https://93.184.215.14/audited',
    });
    expect(await kinds('webhook', webhook.id)).toEqual(['delete', 'update', 'create']);

    const everything = JSON.stringify(await AuditEntry.find().lean());
    expect(everything).not.toContain(key);
    expect(everything).not.toContain(secret);
  });

  it('compares nested fields, dates and lists', () => {
    expect(
      changedFields(
        { a: { b: 1, c: 'x' }, d: new Date('2024-01-01'), list: [1, 2], createdAt: 1 },
        { a: { b: 2, c: 'x' }, d: new Date('2024-01-01'), list: [1, 3], createdAt: 2 },
      ),
    ).toEqual([
      { field: 'a.b', before: 1, after: 2 },
      { field: 'list', before: [1, 2], after: [1, 3] },
    ]);
  });

  it('records the automatic e-mail rules changed, with the rule before and after', async () => {
    const put = await callRoute(settingsApi, '/api/notification-settings', {
      token: admin.token,
      method: 'PUT',
      body: { rules: [{ status: 'In Transit', enabled: true, template: 'Status Update' }] },
    });
    expect(put.status).toBe(200);
    const entry = await AuditEntry.findOne({ entity: 'settings', entityId: 'automatic-emails' })
      .sort({ at: -1 })
      .lean<{ action: string; via: string; changes: Array<{ field: string }> }>();
    expect(entry).toMatchObject({ action: 'update', via: 'api' });
    expect(entry!.changes.map((c) => c.field)).toContain('rules');
  });
});
