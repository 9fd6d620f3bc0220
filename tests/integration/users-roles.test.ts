import { beforeAll, describe, expect, it } from 'vitest';
import { Parcel } from '~/models/parcel.server';
import { createUser, SELF_DISABLE_MESSAGE, User, type PublicUser } from '~/models/user.server';
import { action as loginApi } from '~/routes/api.auth.login';
import { action as eventsApi } from '~/routes/api.tracking.$parcelId.events';
import { action as notificationsApi } from '~/routes/api.notifications';
import { action as parcelApi, loader as parcelGetApi } from '~/routes/api.parcels.$id';
import { action as parcelsApi, loader as parcelsListApi } from '~/routes/api.parcels';
import { action as receiptGenerateApi } from '~/routes/api.receipts.generate.$parcelId';
import { action as usersApi, loader as usersListApi } from '~/routes/api.users';
import { action as userApi, loader as userGetApi } from '~/routes/api.users.$id';
import { action as disableApi } from '~/routes/api.users.$id.disable';
import { action as enableApi } from '~/routes/api.users.$id.enable';
import { action as accountAction, loader as accountLoader } from '~/routes/dashboard.account';
import { loader as parcelsPageLoader } from '~/routes/dashboard.parcels';
import { action as editParcelAction } from '~/routes/dashboard.parcels.$parcelId.edit';
import {
  action as newParcelAction,
  loader as newParcelLoader,
} from '~/routes/dashboard.parcels.new';
import { loader as usersPageLoader } from '~/routes/dashboard.users._index';
import { action as userPageAction } from '~/routes/dashboard.users.$userId';
import { action as newUserPageAction } from '~/routes/dashboard.users.new';
import { connectDb } from '~/lib/db.server';
import { type SignedIn, signedIn } from '../support/sign-in';

type Who = SignedIn;
let admin: Who;
let staff: Who;
let viewer: Who;
let parcelId = '';

beforeAll(async () => {
  await connectDb();
  admin = await signedIn(
    await createUser({ username: 'boss', password: 'boss-password-1', role: 'admin' }),
  );
  staff = await signedIn(
    await createUser({ username: 'worker', password: 'worker-password-1', role: 'staff' }),
  );
  viewer = await signedIn(
    await createUser({ username: 'watcher', password: 'watcher-password-1', role: 'viewer' }),
  );
  const parcel = await Parcel.create({
    trackingNumber: 'ROL000000001',
    recipient: { name: 'Role Recipient', address: '1 Role St', email: 'r@example.com' },
  });
  parcelId = String(parcel._id);
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
  } = {},
): Promise<Response> {
  const headers: Record<string, string> = {};
  let body: BodyInit | undefined;
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  if (init.cookie) headers.Cookie = init.cookie;
  if (init.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  if (init.form) body = new URLSearchParams(init.form);
  const request = new Request(`http://localhost${path}`, {
    method: init.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
  });
  try {
    return await (handler as (args: unknown) => Promise<Response>)({
      request,
      params: init.params ?? {},
      context: { clientAddress: '10.9.9.9' },
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const parcelBody = { recipient: { name: 'New One', address: '2 New St' } };

describe('roles on the API', () => {
  it("a viewer reads but every write answers 403 naming the role; staff's writes go through", async () => {
    const t = viewer.token;
    expect((await run(parcelsListApi, '/api/parcels', { token: t })).status).toBe(200);
    expect(
      (await run(parcelGetApi, `/api/parcels/${parcelId}`, { token: t, params: { id: parcelId } }))
        .status,
    ).toBe(200);

    const writes = [
      run(parcelsApi, '/api/parcels', { token: t, json: parcelBody }),
      run(parcelApi, `/api/parcels/${parcelId}`, {
        token: t,
        method: 'PUT',
        json: { weight: 3 },
        params: { id: parcelId },
      }),
      run(parcelApi, `/api/parcels/${parcelId}`, {
        token: t,
        method: 'DELETE',
        params: { id: parcelId },
      }),
      run(eventsApi, `/api/tracking/${parcelId}/events`, {
        token: t,
        json: { status: 'In Transit' },
        params: { parcelId },
      }),
      run(notificationsApi, '/api/notifications', {
        token: t,
        json: { parcelId, type: 'Custom', subject: 'Hi', message: 'Hello' },
      }),
      run(receiptGenerateApi, `/api/receipts/generate/${parcelId}`, {
        token: t,
        json: {},
        params: { parcelId },
      }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        error: 'This needs the staff role',
        message: 'This needs the staff role',
        code: 'forbidden',
      });
    }
    expect(await Parcel.countDocuments()).toBe(1);
    expect((await Parcel.findById(parcelId).lean())?.events).toHaveLength(0);

    const created = await run(parcelsApi, '/api/parcels', { token: staff.token, json: parcelBody });
    expect(created.status).toBe(201);
  });

  it('staff cannot list, read or create users; admins can', async () => {
    for (const who of [staff, viewer]) {
      const list = await run(usersListApi, '/api/users', { token: who.token });
      expect(list.status).toBe(403);
      expect((await list.json()).message).toBe('This needs the admin role');
      const create = await run(usersApi, '/api/users', {
        token: who.token,
        json: { username: 'sneaky', role: 'admin' },
      });
      expect(create.status).toBe(403);
      const one = await run(userGetApi, `/api/users/${admin.user.id}`, {
        token: who.token,
        params: { id: admin.user.id },
      });
      expect(one.status).toBe(403);
    }
    expect(await User.countDocuments({ username: 'sneaky' })).toBe(0);

    const list = await run(usersListApi, '/api/users', { token: admin.token });
    expect(list.status).toBe(200);
    const { users } = (await list.json()) as { users: PublicUser[] };
    expect(users.map((u) => u.username)).toEqual(['boss', 'watcher', 'worker']);
    expect(JSON.stringify(users)).not.toContain('passwordHash');
  });
});

describe('roles on pages', () => {
  it('a viewer sees the parcels without changes offered, and page actions answer 403', async () => {
    const page = await run(parcelsPageLoader, '/dashboard/parcels', { cookie: viewer.cookie });
    expect(page.status).toBe(200);
    expect((await page.json()).canEdit).toBe(false);

    const form = await run(newParcelLoader, '/dashboard/parcels/new', { cookie: viewer.cookie });
    expect(form.status).toBe(403);
    expect(await form.json()).toEqual({ message: 'This needs the staff role' });
    const post = await run(newParcelAction, '/dashboard/parcels/new', {
      cookie: viewer.cookie,
      form: { 'recipient.name': 'X', 'recipient.address': 'Y' },
    });
    expect(post.status).toBe(403);
    const edit = await run(editParcelAction, `/dashboard/parcels/${parcelId}/edit`, {
      cookie: viewer.cookie,
      form: { status: 'Delivered' },
      params: { parcelId },
    });
    expect(edit.status).toBe(403);
    expect((await Parcel.findById(parcelId).lean())?.status).toBe('Pending');

    expect((await run(usersPageLoader, '/dashboard/users', { cookie: staff.cookie })).status).toBe(
      403,
    );
    expect((await run(usersPageLoader, '/dashboard/users', { cookie: admin.cookie })).status).toBe(
      200,
    );
  });
});

describe('managing users', () => {
  it('creates a user with a temporary password shown once, to be changed at the first sign-in', async () => {
    const res = await run(usersApi, '/api/users', {
      token: admin.token,
      json: {
        username: 'New.Person',
        name: 'New Person',
        email: 'new@example.com',
        role: 'viewer',
      },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { user: PublicUser; temporaryPassword: string };
    expect(body.user).toMatchObject({
      username: 'new.person',
      role: 'viewer',
      mustChangePassword: true,
      disabled: false,
    });
    expect(body.temporaryPassword).toMatch(/^\S{12,}$/);
    const stored = await User.findById(body.user.id).select('+passwordHash').lean();
    expect(stored?.passwordHash).not.toContain(body.temporaryPassword);

    // The temporary password signs in, and every page but the account page sends there.
    const login = await run(loginApi, '/api/auth/login', {
      json: { username: 'new.person', password: body.temporaryPassword },
    });
    expect(login.status).toBe(200);
    const who = await signedIn(body.user);
    const sent = await run(parcelsPageLoader, '/dashboard/parcels', { cookie: who.cookie });
    expect(sent.status).toBe(302);
    expect(sent.headers.get('Location')).toBe('/dashboard/account');
    expect((await run(accountLoader, '/dashboard/account', { cookie: who.cookie })).status).toBe(
      200,
    );

    const wrong = await run(accountAction, '/dashboard/account', {
      cookie: who.cookie,
      form: {
        currentPassword: 'not-it-at-all',
        newPassword: 'my-own-password-1',
        confirmPassword: 'my-own-password-1',
      },
    });
    expect(wrong.status).toBe(400);
    const reply = (await wrong.json()) as { error: Record<string, string[]> };
    expect(reply.error.currentPassword).toEqual(['The current password is wrong']);
    expect(JSON.stringify(reply)).not.toContain('my-own-password-1');

    const changed = await run(accountAction, '/dashboard/account', {
      cookie: who.cookie,
      form: {
        currentPassword: body.temporaryPassword,
        newPassword: 'my-own-password-1',
        confirmPassword: 'my-own-password-1',
      },
    });
    expect(changed.status).toBe(302);
    expect(
      (await run(parcelsPageLoader, '/dashboard/parcels', { cookie: who.cookie })).status,
    ).toBe(200);
    const again = await run(loginApi, '/api/auth/login', {
      json: { username: 'new.person', password: 'my-own-password-1' },
    });
    expect(again.status).toBe(200);
  });

  it('takes a password when given, refuses bad input with details and a taken username with 409', async () => {
    const ok = await run(usersApi, '/api/users', {
      token: admin.token,
      json: { username: 'withpass', password: 'given-password-1' },
    });
    expect(ok.status).toBe(201);
    const body = await ok.json();
    expect(body.temporaryPassword).toBeUndefined();
    expect(body.user).toMatchObject({ role: 'staff', mustChangePassword: false });

    const bad = await run(usersApi, '/api/users', {
      token: admin.token,
      json: { username: 'x', email: 'nope', role: 'owner', password: 'short' },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((await bad.json()).details).sort()).toEqual([
      'email',
      'password',
      'role',
      'username',
    ]);
    const taken = await run(usersApi, '/api/users', {
      token: admin.token,
      json: { username: 'WithPass' },
    });
    expect(taken.status).toBe(409);

    // The page form says the same at the field.
    const page = await run(newUserPageAction, '/dashboard/users/new', {
      cookie: admin.cookie,
      form: { username: 'withpass', role: 'staff' },
    });
    expect(page.status).toBe(409);
    expect((await page.json()).reply.error.username[0]).toMatch(/taken/);
  });

  it('changes roles through PUT, but the last active admin keeps the role and stays enabled', async () => {
    const id = staff.user.id;
    const put = await run(userApi, `/api/users/${id}`, {
      token: admin.token,
      method: 'PUT',
      json: { role: 'viewer', name: 'Demoted Worker' },
      params: { id },
    });
    expect(put.status).toBe(200);
    expect((await put.json()).user).toMatchObject({ role: 'viewer', name: 'Demoted Worker' });
    await run(userApi, `/api/users/${id}`, {
      token: admin.token,
      method: 'PUT',
      json: { role: 'staff' },
      params: { id },
    });

    const demote = await run(userApi, `/api/users/${admin.user.id}`, {
      token: admin.token,
      method: 'PUT',
      json: { role: 'staff' },
      params: { id: admin.user.id },
    });
    expect(demote.status).toBe(409);
    expect((await demote.json()).message).toMatch(/last active admin/);
    const disable = await run(disableApi, `/api/users/${admin.user.id}/disable`, {
      token: admin.token,
      method: 'POST',
      params: { id: admin.user.id },
    });
    expect(disable.status).toBe(409);
    const page = await run(userPageAction, `/dashboard/users/${admin.user.id}`, {
      cookie: admin.cookie,
      form: { intent: 'update', name: 'Boss', email: '', role: 'viewer' },
      params: { userId: admin.user.id },
    });
    expect(page.status).toBe(409);
    expect((await User.findById(admin.user.id).lean())?.role).toBe('admin');

    expect(
      (
        await run(userApi, `/api/users/0123456789abcdef01234567`, {
          token: admin.token,
          method: 'PUT',
          json: { name: 'Nobody' },
          params: { id: '0123456789abcdef01234567' },
        })
      ).status,
    ).toBe(404);
  });

  it('no admin can disable their own account, even with another admin left', async () => {
    const deputy = await signedIn(
      await createUser({ username: 'deputy', password: 'deputy-password-1', role: 'admin' }),
    );
    const api = await run(disableApi, `/api/users/${deputy.user.id}/disable`, {
      token: deputy.token,
      method: 'POST',
      params: { id: deputy.user.id },
    });
    expect(api.status).toBe(409);
    expect((await api.json()).message).toBe(SELF_DISABLE_MESSAGE);
    const page = await run(userPageAction, `/dashboard/users/${deputy.user.id}`, {
      cookie: deputy.cookie,
      form: { intent: 'disable' },
      params: { userId: deputy.user.id },
    });
    expect(page.status).toBe(409);
    expect(JSON.stringify(await page.json())).toContain(SELF_DISABLE_MESSAGE);
    expect((await User.findById(deputy.user.id).lean())?.disabled).not.toBe(true);
    // Their session and token still work; another admin can disable them.
    expect((await run(parcelsListApi, '/api/parcels', { token: deputy.token })).status).toBe(200);
    const byOther = await run(disableApi, `/api/users/${deputy.user.id}/disable`, {
      token: admin.token,
      method: 'POST',
      params: { id: deputy.user.id },
    });
    expect(byOther.status).toBe(200);
    expect((await run(parcelsListApi, '/api/parcels', { token: deputy.token })).status).toBe(401);
  });

  it("disabling ends the user's cookie and token at once; enabling lets them sign in again", async () => {
    const user = await createUser({ username: 'leaver', password: 'leaver-password-1' });
    const who = await signedIn(user);
    expect((await run(parcelsListApi, '/api/parcels', { token: who.token })).status).toBe(200);
    expect(
      (await run(parcelsPageLoader, '/dashboard/parcels', { cookie: who.cookie })).status,
    ).toBe(200);

    const res = await run(disableApi, `/api/users/${user.id}/disable`, {
      token: admin.token,
      method: 'POST',
      params: { id: user.id },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).user.disabled).toBe(true);

    expect((await run(parcelsListApi, '/api/parcels', { token: who.token })).status).toBe(401);
    expect((await run(parcelsListApi, '/api/parcels', { cookie: who.cookie })).status).toBe(401);
    const page = await run(parcelsPageLoader, '/dashboard/parcels', { cookie: who.cookie });
    expect(page.status).toBe(302);
    expect(page.headers.get('Location')).toMatch(/^\/management\/access/);
    const login = await run(loginApi, '/api/auth/login', {
      json: { username: 'leaver', password: 'leaver-password-1' },
    });
    expect(login.status).toBe(401);

    const enabled = await run(enableApi, `/api/users/${user.id}/enable`, {
      token: admin.token,
      method: 'POST',
      params: { id: user.id },
    });
    expect((await enabled.json()).user.disabled).toBe(false);
    const back = await run(loginApi, '/api/auth/login', {
      json: { username: 'leaver', password: 'leaver-password-1' },
    });
    expect(back.status).toBe(200);
    // The old token stays revoked.
    expect((await run(parcelsListApi, '/api/parcels', { token: who.token })).status).toBe(401);
  });

  it('an admin resets a password on the page: a temporary one, shown once', async () => {
    const user = await createUser({ username: 'forgetful', password: 'forgetful-password-1' });
    const res = await run(userPageAction, `/dashboard/users/${user.id}`, {
      cookie: admin.cookie,
      form: { intent: 'reset-password' },
      params: { userId: user.id },
    });
    expect(res.status).toBe(200);
    const { temporaryPassword } = (await res.json()) as { temporaryPassword: string };
    expect(temporaryPassword).toBeTruthy();
    const login = await run(loginApi, '/api/auth/login', {
      json: { username: 'forgetful', password: temporaryPassword },
    });
    expect(login.status).toBe(200);
    expect((await login.json()).user.mustChangePassword).toBe(true);
    const old = await run(loginApi, '/api/auth/login', {
      json: { username: 'forgetful', password: 'forgetful-password-1' },
    });
    expect(old.status).toBe(401);
  });
});
