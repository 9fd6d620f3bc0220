import { beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '~/models/api-token.server';
import { AuditEntry, changedFields, listAudit } from '~/models/audit.server';
import { createUser, type PublicUser } from '~/models/user.server';
import { action as auditAction, loader as auditLoader } from '~/routes/api.audit';
import { action as parcelApi } from '~/routes/api.parcels.$id';
import { action as parcelsApi } from '~/routes/api.parcels';
import { action as eventsApi } from '~/routes/api.tracking.$parcelId.events';
import { action as userApi } from '~/routes/api.users.$id';
import { action as editPage } from '~/routes/dashboard.parcels.$parcelId.edit';
import { loader as historyPage } from '~/routes/dashboard.parcels.$parcelId.history';
import { USER_SESSION_KEY } from '~/services/auth.server';
import { connectDb } from '~/services/db.server';
import { sessionStorage } from '~/services/session.server';

type Who = { user: PublicUser; token: string; cookie: string };
let admin: Who;
let staff: Who;
let viewer: Who;

async function signedIn(user: PublicUser): Promise<Who> {
  const session = await sessionStorage.getSession();
  session.set(USER_SESSION_KEY, user.id);
  const cookie = (await sessionStorage.commitSession(session)).split(';')[0]!;
  return { user, token: (await issueApiToken(user.id)).token, cookie };
}

beforeAll(async () => {
  await connectDb();
  admin = await signedIn(
    await createUser({ username: 'auditor', password: 'auditor-pass-1', role: 'admin' }),
  );
  staff = await signedIn(await createUser({ username: 'clerk', password: 'clerk-password-1' }));
  viewer = await signedIn(
    await createUser({ username: 'onlooker', password: 'onlooker-pass-1', role: 'viewer' }),
  );
});

async function run(
  handler: unknown,
  path: string,
  init: {
    method?: string;
    json?: unknown;
    form?: Record<string, string>;
    token?: string;
    cookie?: string;
    params?: Record<string, string>;
    address?: string;
  } = {},
) {
  const headers: Record<string, string> = {};
  let body: BodyInit | undefined;
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  if (init.form) body = new URLSearchParams(init.form);
  try {
    return await (handler as (args: unknown) => Promise<Response>)({
      request: new Request(`http://localhost${path}`, {
        method: init.method ?? (body ? 'POST' : 'GET'),
        headers,
        body,
      }),
      params: init.params ?? {},
      context: { clientAddress: init.address ?? '10.0.0.7' },
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

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

describe('the audit trail', () => {
  it('records a parcel created and updated through the API with who, where and the fields before and after', async () => {
    const created = await run(parcelsApi, '/api/parcels', {
      token: staff.token,
      json: { recipient: { name: 'Audit Me', address: '1 Trail Rd' }, weight: 2 },
      address: '203.0.113.9',
    });
    const { parcel } = await created.json();
    const put = await run(parcelApi, `/api/parcels/${parcel.id}`, {
      token: staff.token,
      method: 'PUT',
      json: { weight: 5, recipient: { phone: '555-0199' } },
      params: { id: parcel.id },
      address: '203.0.113.9',
    });
    expect(put.status).toBe(200);

    const res = await run(auditLoader, `/api/audit?entity=parcel&entityId=${parcel.id}`, {
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
    const created = await run(parcelsApi, '/api/parcels', {
      token: staff.token,
      json: { recipient: { name: 'History Person', address: '2 Trail Rd' } },
    });
    const { parcel } = await created.json();
    await run(eventsApi, `/api/tracking/${parcel.id}/events`, {
      token: staff.token,
      json: { status: 'In Transit', location: 'Hub' },
      params: { parcelId: parcel.id },
    });
    const edit = await run(editPage, `/dashboard/parcels/${parcel.id}/edit`, {
      cookie: staff.cookie,
      form: {
        'recipient.name': 'History Person',
        'recipient.address': '2 Trail Rd',
        priority: 'High',
      },
      params: { parcelId: parcel.id },
      address: '198.51.100.4',
    });
    expect(edit.status).toBe(302);

    const page = await run(historyPage, `/dashboard/parcels/${parcel.id}/history`, {
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
    expect((await run(auditLoader, '/api/audit', { token: staff.token })).status).toBe(403);
    const all = await run(auditLoader, '/api/audit?entity=parcel&action=create&actor=clerk', {
      token: admin.token,
    });
    expect(all.status).toBe(200);
    const { entries } = (await all.json()) as Entries;
    expect(entries.length).toBeGreaterThanOrEqual(2);
    expect(entries.every((e) => e.action === 'create' && e.actor.username === 'clerk')).toBe(true);
    const bad = await run(auditLoader, '/api/audit?entity=spaceship&limit=500', {
      token: admin.token,
    });
    expect(bad.status).toBe(400);
    for (const method of ['POST', 'PUT', 'DELETE'])
      expect((await run(auditAction, '/api/audit', { method, token: admin.token })).status).toBe(
        405,
      );
  });

  it('records user changes without passwords', async () => {
    const id = viewer.user.id;
    await run(userApi, `/api/users/${id}`, {
      token: admin.token,
      method: 'PUT',
      json: { name: 'Renamed Onlooker', password: 'a-secret-password' },
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
});
