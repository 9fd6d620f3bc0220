import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKey } from '~/models/api-key.server';
import { Parcel } from '~/models/parcel.server';
import { User } from '~/models/user.server';
import { loader as auditLoader } from '~/routes/api.audit';
import { action as keyAction, loader as keyLoader } from '~/routes/api.api-keys.$id';
import { action as keysAction, loader as keysLoader } from '~/routes/api.api-keys';
import { loader as meLoader } from '~/routes/api.auth.me';
import { action as parcelAction, loader as parcelLoader } from '~/routes/api.parcels.$id';
import { action as parcelsAction, loader as parcelsLoader } from '~/routes/api.parcels';
import { loader as notificationSettingsLoader } from '~/routes/api.notification-settings';
import { action as usersAction, loader as usersLoader } from '~/routes/api.users';
import { action as webhooksAction, loader as webhooksLoader } from '~/routes/api.webhooks';
import {
  action as settingsAction,
  loader as settingsLoader,
} from '~/routes/dashboard.settings.api-keys';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { callRoute } from '../support/api';
import { createUser } from '../support/factories';
import { apiError } from '../support/api-error';

let adminAuth: Record<string, string>;
let staffAuth: Record<string, string>;
let adminId: string;
let adminCookie: string;
let staffCookie: string;

beforeAll(async () => {
  await connectDb();
  const admin = await createUser('admin', { username: 'keys-admin' });
  const staff = await createUser('staff', { username: 'keys-staff' });
  adminId = admin.user.id;
  ({ auth: adminAuth, cookie: adminCookie } = admin);
  ({ auth: staffAuth, cookie: staffCookie } = staff);
});

afterAll(async () => {
  await disconnectDb();
});

const parcelBody = {
  recipient: { name: 'Key Recipient', address: '4 Key St' },
  weight: 2,
};

async function createKey(body: unknown, headers = adminAuth) {
  const res = await callRoute(keysAction, '/api/api-keys', { method: 'POST', headers, body });
  return { status: res.status, body: await res.json() };
}

describe('API keys', () => {
  it('are created by an admin, shown once, stored hashed, and listed without the key', async () => {
    const created = await createKey({ name: 'Warehouse sync', scopes: ['write', 'read', 'read'] });
    expect(created.status).toBe(201);
    const { apiKey, key } = created.body;
    expect(key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toEqual({
      id: expect.stringMatching(/^[a-f\d]{24}$/),
      _id: apiKey.id,
      name: 'Warehouse sync',
      scopes: ['read', 'write'],
      prefix: key.slice(0, 11),
      createdAt: expect.any(String),
      lastUsedAt: null,
      accountId: null,
      livemode: true,
    });
    const stored = await ApiKey.findById(apiKey.id).lean();
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(String(stored!.userId)).toBe(adminId);

    const list = await callRoute(keysLoader, '/api/api-keys', { headers: adminAuth });
    const body = await list.json();
    expect(body.apiKeys).toContainEqual(apiKey);
    expect(JSON.stringify(body)).not.toContain(key);
    const one = await callRoute(keyLoader, `/api/api-keys/${apiKey.id}`, {
      headers: adminAuth,
      params: { id: apiKey.id },
    });
    expect((await one.json()).apiKey).toEqual(apiKey);
  });

  it('answer 400 with per-field details for a bad body', async () => {
    const bad = await createKey({ name: ' ', scopes: ['owner'] });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual({
      name: ['Name is required'],
      'scopes.0': ['Scope must be one of: read, write, admin'],
    });
    const none = await createKey({ name: 'x', scopes: [] });
    expect(none.body.details).toEqual({ scopes: ['Choose at least one scope'] });
  });

  it('are managed by admins only', async () => {
    const res = await createKey({ name: 'Not mine', scopes: ['read'] }, staffAuth);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('This needs the admin role');
    const list = await callRoute(keysLoader, '/api/api-keys', { headers: staffAuth });
    expect(list.status).toBe(403);
    const anonymous = await callRoute(keysLoader, '/api/api-keys');
    expect(anonymous.status).toBe(401);
  });

  it('let a write key create a parcel and record when they were last used', async () => {
    const { body } = await createKey({ name: 'Shop', scopes: ['read', 'write'] });
    const auth = { Authorization: `Bearer ${body.key}` };
    const me = await callRoute(meLoader, '/api/auth/me', { headers: auth });
    expect((await me.json()).user.username).toBe('keys-admin');
    const created = await callRoute(parcelsAction, '/api/parcels', {
      method: 'POST',
      headers: auth,
      body: parcelBody,
    });
    expect(created.status).toBe(201);
    const { parcel } = await created.json();
    expect(await Parcel.countDocuments({ _id: parcel.id })).toBe(1);
    const used = await ApiKey.findById(body.apiKey.id).lean();
    expect(used!.lastUsedAt).toBeInstanceOf(Date);
    const listed = await callRoute(keysLoader, '/api/api-keys', { headers: adminAuth });
    const entry = (await listed.json()).apiKeys.find(
      (k: { id: string }) => k.id === body.apiKey.id,
    );
    expect(entry.lastUsedAt).toBe(used!.lastUsedAt!.toISOString());
  });

  it('give a read key every GET and 403 on every write', async () => {
    const { body } = await createKey({ name: 'Reporting', scopes: ['read'] });
    const auth = { Authorization: `Bearer ${body.key}` };
    const parcel = await Parcel.findOne().lean();
    const id = String(parcel!._id);
    expect((await callRoute(parcelsLoader, '/api/parcels', { headers: auth })).status).toBe(200);
    const one = await callRoute(parcelLoader, `/api/parcels/${id}`, {
      headers: auth,
      params: { id },
    });
    expect(one.status).toBe(200);
    const before = await Parcel.countDocuments();
    const writes = [
      callRoute(parcelsAction, '/api/parcels', { method: 'POST', headers: auth, body: parcelBody }),
      callRoute(parcelAction, `/api/parcels/${id}`, {
        method: 'PUT',
        headers: auth,
        params: { id },
        body: { weight: 9 },
      }),
      callRoute(parcelAction, `/api/parcels/${id}`, {
        method: 'DELETE',
        headers: auth,
        params: { id },
      }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect((await res.json()).error).toMatch(/read scope only/);
    }
    expect(await Parcel.countDocuments()).toBe(before);
    expect((await Parcel.findById(id).lean())!.weight).toBe(parcel!.weight);
  });

  it('stop working when revoked, and an unknown key is a 401', async () => {
    const { body } = await createKey({ name: 'Short-lived', scopes: ['read'] });
    const auth = { Authorization: `Bearer ${body.key}` };
    expect((await callRoute(meLoader, '/api/auth/me', { headers: auth })).status).toBe(200);
    const revoked = await callRoute(keyAction, `/api/api-keys/${body.apiKey.id}`, {
      method: 'DELETE',
      headers: adminAuth,
      params: { id: body.apiKey.id },
    });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ success: true, apiKey: { id: body.apiKey.id } });
    const after = await callRoute(meLoader, '/api/auth/me', { headers: auth });
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual(
      apiError('Invalid or revoked API key', 'authentication_required'),
    );
    const again = await callRoute(keyAction, `/api/api-keys/${body.apiKey.id}`, {
      method: 'DELETE',
      headers: adminAuth,
      params: { id: body.apiKey.id },
    });
    expect(again.status).toBe(404);
    const made = await callRoute(meLoader, '/api/auth/me', {
      headers: { Authorization: `Bearer sk_${'x'.repeat(43)}` },
    });
    expect(made.status).toBe(401);
  });
});

describe('the admin scope', () => {
  const newAdmin = (username: string) => ({ username, role: 'admin', password: 'new-admin-pw-1' });

  it('keeps a write key out of users, API keys and webhooks, and nothing else it could do', async () => {
    const { body } = await createKey({ name: 'Writer', scopes: ['read', 'write'] });
    const auth = { Authorization: `Bearer ${body.key}` };
    const users = await User.countDocuments();
    const keys = await ApiKey.countDocuments();
    const refused = [
      await callRoute(usersAction, '/api/users', {
        method: 'POST',
        headers: auth,
        body: newAdmin('made-by-key'),
      }),
      await callRoute(usersLoader, '/api/users', { headers: auth }),
      await callRoute(keysAction, '/api/api-keys', {
        method: 'POST',
        headers: auth,
        body: { name: 'Another', scopes: ['read', 'write', 'admin'] },
      }),
      await callRoute(keysLoader, '/api/api-keys', { headers: auth }),
      await callRoute(webhooksAction, '/api/webhooks', {
        method: 'POST',
        headers: auth,
        body: { url: 'https://hooks.example.test/key', events: ['parcel.created'] },
      }),
      await callRoute(webhooksLoader, '/api/webhooks', { headers: auth }),
      // Their histories and the whole trail too.
      await callRoute(auditLoader, `/api/audit?entity=user&entityId=${adminId}`, {
        headers: auth,
      }),
      await callRoute(auditLoader, '/api/audit', { headers: auth }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe(
        'Users, API keys and webhooks need an API key with the admin scope',
      );
    }
    expect(await User.countDocuments()).toBe(users);
    expect(await ApiKey.countDocuments()).toBe(keys);
    // Parcels and the admin's other settings stay open to it.
    const parcel = await callRoute(parcelsAction, '/api/parcels', {
      method: 'POST',
      headers: auth,
      body: parcelBody,
    });
    expect(parcel.status).toBe(201);
    const settings = await callRoute(notificationSettingsLoader, '/api/notification-settings', {
      headers: auth,
    });
    expect(settings.status).toBe(200);
    const { parcel: created } = await parcel.json();
    const history = await callRoute(
      auditLoader,
      `/api/audit?entity=parcel&entityId=${created.id}`,
      { headers: auth },
    );
    expect(history.status).toBe(200);
  });

  it('opens them to a key with the admin scope; changing them still needs write', async () => {
    const { body } = await createKey({ name: 'Provisioning', scopes: ['read', 'write', 'admin'] });
    expect(body.apiKey.scopes).toEqual(['read', 'write', 'admin']);
    const auth = { Authorization: `Bearer ${body.key}` };
    const created = await callRoute(usersAction, '/api/users', {
      method: 'POST',
      headers: auth,
      body: newAdmin('made-by-admin-key'),
    });
    expect(created.status).toBe(201);
    expect((await callRoute(webhooksLoader, '/api/webhooks', { headers: auth })).status).toBe(200);

    const { body: readOnly } = await createKey({ name: 'Auditor', scopes: ['read', 'admin'] });
    const readAuth = { Authorization: `Bearer ${readOnly.key}` };
    expect((await callRoute(usersLoader, '/api/users', { headers: readAuth })).status).toBe(200);
    const write = await callRoute(usersAction, '/api/users', {
      method: 'POST',
      headers: readAuth,
      body: newAdmin('made-by-read-key'),
    });
    expect(write.status).toBe(403);
    expect((await write.json()).error).toMatch(/read scope only/);
  });
});

describe('the Settings page for API keys', () => {
  const post = (form: Record<string, string | string[]>, cookie = adminCookie) => {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form))
      for (const v of [value].flat()) body.append(name, v);
    return callRoute(settingsAction, '/dashboard/settings/api-keys', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
  };

  it('creates a key from the form (one scope, two or all three) and shows it once', async () => {
    const res = await post({ intent: 'create', name: 'From the form', scopes: 'read' });
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data.created.apiKey).toMatchObject({ name: 'From the form', scopes: ['read'] });
    expect(data.created.key).toMatch(/^sk_/);
    const both = await post({ intent: 'create', name: 'Both', scopes: ['read', 'write'] });
    expect((await both.json()).created.apiKey.scopes).toEqual(['read', 'write']);
    const admin = await post({ intent: 'create', name: 'All', scopes: ['admin', 'read', 'write'] });
    expect((await admin.json()).created.apiKey.scopes).toEqual(['read', 'write', 'admin']);
    // The list shows the prefix, never the key.
    const page = await callRoute(settingsLoader, '/dashboard/settings/api-keys', {
      headers: { Cookie: adminCookie },
    });
    const listed = await page.json();
    expect(listed.apiKeys.map((k: { name: string }) => k.name)).toContain('From the form');
    expect(JSON.stringify(listed)).not.toContain(data.created.key);
  });

  it('answers field errors for a form without a name or a scope', async () => {
    const res = await post({ intent: 'create', name: '' });
    expect(res.status).toBe(400);
    const data = await res.json();
    expect(data.created).toBeNull();
    expect(data.result.error).toMatchObject({
      name: ['Name is required'],
      scopes: ['Choose at least one scope'],
    });
  });

  it('revokes a key and says so on the next page', async () => {
    const { body } = await createKey({ name: 'To revoke', scopes: ['read'] });
    const res = await post({ intent: 'revoke', keyId: body.apiKey.id });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard/settings/api-keys');
    expect(await ApiKey.findById(body.apiKey.id)).toBeNull();
  });

  it('is for admins only', async () => {
    const page = await callRoute(settingsLoader, '/dashboard/settings/api-keys', {
      headers: { Cookie: staffCookie },
    });
    expect(page.status).toBe(403);
    expect(await page.json()).toEqual({ message: 'This needs the admin role' });
    const before = await ApiKey.countDocuments();
    const res = await post({ intent: 'create', name: 'Sneaky', scopes: 'write' }, staffCookie);
    expect(res.status).toBe(403);
    expect(await ApiKey.countDocuments()).toBe(before);
    const anonymous = await callRoute(settingsLoader, '/dashboard/settings/api-keys');
    expect(anonymous.status).toBe(302);
  });
});
