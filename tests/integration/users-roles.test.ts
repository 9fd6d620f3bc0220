import { beforeAll, describe, expect, it } from 'vitest';
import { Parcel } from '~/models/parcel.server';
import { SELF_DISABLE_MESSAGE, User, type PublicUser } from '~/models/user.server';
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
import { callRoute } from '../support/api';
import { createUser, type TestUser } from '../support/factories';
import { signedIn } from '../support/sign-in';
import { apiError } from '../support/api-error';

type Who = TestUser;
let admin: Who;
let staff: Who;
let viewer: Who;
let parcelId = '';

beforeAll(async () => {
  await connectDb();
  admin = await createUser('admin', { username: 'boss' });
  staff = await createUser('staff', { username: 'worker' });
  viewer = await createUser('viewer', { username: 'watcher' });
  const parcel = await Parcel.create({
    trackingNumber: 'ROL000000001',
    recipient: { name: 'Role Recipient', address: '1 Role St', email: 'r@example.com' },
  });
  parcelId = String(parcel._id);
});

const parcelBody = { recipient: { name: 'New One', address: '2 New St' } };

describe('roles on the API', () => {
  it("a viewer reads but every write answers 403 naming the role; staff's writes go through", async () => {
    const t = viewer.token;
    expect((await callRoute(parcelsListApi, '/api/parcels', { token: t })).status).toBe(200);
    expect(
      (
        await callRoute(parcelGetApi, `/api/parcels/${parcelId}`, {
          token: t,
          params: { id: parcelId },
        })
      ).status,
    ).toBe(200);

    const writes = [
      callRoute(parcelsApi, '/api/parcels', { token: t, body: parcelBody }),
      callRoute(parcelApi, `/api/parcels/${parcelId}`, {
        token: t,
        method: 'PUT',
        body: { weight: 3 },
        params: { id: parcelId },
      }),
      callRoute(parcelApi, `/api/parcels/${parcelId}`, {
        token: t,
        method: 'DELETE',
        params: { id: parcelId },
      }),
      callRoute(eventsApi, `/api/tracking/${parcelId}/events`, {
        token: t,
        body: { status: 'In Transit' },
        params: { parcelId },
      }),
      callRoute(notificationsApi, '/api/notifications', {
        token: t,
        body: { parcelId, type: 'Custom', subject: 'Hi', message: 'Hello' },
      }),
      callRoute(receiptGenerateApi, `/api/receipts/generate/${parcelId}`, {
        token: t,
        body: {},
        params: { parcelId },
      }),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual(apiError('This needs the staff role', 'forbidden'));
    }
    expect(await Parcel.countDocuments()).toBe(1);
    expect((await Parcel.findById(parcelId).lean())?.events).toHaveLength(0);

    const created = await callRoute(parcelsApi, '/api/parcels', {
      token: staff.token,
      body: parcelBody,
    });
    expect(created.status).toBe(201);
  });

  it('staff cannot list, read or create users; admins can', async () => {
    for (const who of [staff, viewer]) {
      const list = await callRoute(usersListApi, '/api/users', { token: who.token });
      expect(list.status).toBe(403);
      expect((await list.json()).message).toBe('This needs the admin role');
      const create = await callRoute(usersApi, '/api/users', {
        token: who.token,
        body: { username: 'sneaky', role: 'admin' },
      });
      expect(create.status).toBe(403);
      const one = await callRoute(userGetApi, `/api/users/${admin.user.id}`, {
        token: who.token,
        params: { id: admin.user.id },
      });
      expect(one.status).toBe(403);
    }
    expect(await User.countDocuments({ username: 'sneaky' })).toBe(0);

    const list = await callRoute(usersListApi, '/api/users', { token: admin.token });
    expect(list.status).toBe(200);
    const { users } = (await list.json()) as { users: PublicUser[] };
    expect(users.map((u) => u.username)).toEqual(['boss', 'watcher', 'worker']);
    expect(JSON.stringify(users)).not.toContain('passwordHash');
  });
});

describe('roles on pages', () => {
  it('a viewer sees the parcels without changes offered, and page actions answer 403', async () => {
    const page = await callRoute(parcelsPageLoader, '/dashboard/parcels', {
      cookie: viewer.cookie,
    });
    expect(page.status).toBe(200);
    expect((await page.json()).canEdit).toBe(false);

    const form = await callRoute(newParcelLoader, '/dashboard/parcels/new', {
      cookie: viewer.cookie,
    });
    expect(form.status).toBe(403);
    expect(await form.json()).toEqual({ message: 'This needs the staff role' });
    const post = await callRoute(newParcelAction, '/dashboard/parcels/new', {
      cookie: viewer.cookie,
      form: { 'recipient.name': 'X', 'recipient.address': 'Y' },
    });
    expect(post.status).toBe(403);
    const edit = await callRoute(editParcelAction, `/dashboard/parcels/${parcelId}/edit`, {
      cookie: viewer.cookie,
      form: { status: 'Delivered' },
      params: { parcelId },
    });
    expect(edit.status).toBe(403);
    expect((await Parcel.findById(parcelId).lean())?.status).toBe('Pending');

    expect(
      (await callRoute(usersPageLoader, '/dashboard/users', { cookie: staff.cookie })).status,
    ).toBe(403);
    expect(
      (await callRoute(usersPageLoader, '/dashboard/users', { cookie: admin.cookie })).status,
    ).toBe(200);
  });
});

describe('managing users', () => {
  it('creates a user with a temporary password shown once, to be changed at the first sign-in', async () => {
    const res = await callRoute(usersApi, '/api/users', {
      token: admin.token,
      body: {
        username: 'New.Person',
        name: 'New Person',
        email: 'new@example.com',
        role: 'viewer',
      },
      clientAddress: '10.9.9.9',
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
    const login = await callRoute(loginApi, '/api/auth/login', {
      body: { username: 'new.person', password: body.temporaryPassword },
    });
    expect(login.status).toBe(200);
    const who = await signedIn(body.user);
    const sent = await callRoute(parcelsPageLoader, '/dashboard/parcels', { cookie: who.cookie });
    expect(sent.status).toBe(302);
    expect(sent.headers.get('Location')).toBe('/dashboard/account');
    expect(
      (await callRoute(accountLoader, '/dashboard/account', { cookie: who.cookie })).status,
    ).toBe(200);

    const wrong = await callRoute(accountAction, '/dashboard/account', {
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

    const changed = await callRoute(accountAction, '/dashboard/account', {
      cookie: who.cookie,
      form: {
        currentPassword: body.temporaryPassword,
        newPassword: 'my-own-password-1',
        confirmPassword: 'my-own-password-1',
      },
    });
    expect(changed.status).toBe(302);
    expect(
      (await callRoute(parcelsPageLoader, '/dashboard/parcels', { cookie: who.cookie })).status,
    ).toBe(200);
    const again = await callRoute(loginApi, '/api/auth/login', {
      body: { username: 'new.person', password: 'my-own-password-1' },
    });
    expect(again.status).toBe(200);
  });

  it('takes a password when given, refuses bad input with details and a taken username with 409', async () => {
    const ok = await callRoute(usersApi, '/api/users', {
      token: admin.token,
      body: { username: 'withpass', password: 'given-password-1' },
    });
    expect(ok.status).toBe(201);
    const body = await ok.json();
    expect(body.temporaryPassword).toBeUndefined();
    expect(body.user).toMatchObject({ role: 'staff', mustChangePassword: false });

    const bad = await callRoute(usersApi, '/api/users', {
      token: admin.token,
      body: { username: 'x', email: 'nope', role: 'owner', password: 'short' },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys((await bad.json()).details).sort()).toEqual([
      'email',
      'password',
      'role',
      'username',
    ]);
    const taken = await callRoute(usersApi, '/api/users', {
      token: admin.token,
      body: { username: 'WithPass' },
    });
    expect(taken.status).toBe(409);

    // The page form says the same at the field.
    const page = await callRoute(newUserPageAction, '/dashboard/users/new', {
      cookie: admin.cookie,
      form: { username: 'withpass', role: 'staff' },
    });
    expect(page.status).toBe(409);
    expect((await page.json()).reply.error.username[0]).toMatch(/taken/);
  });

  it('changes roles through PUT, but the last active admin keeps the role and stays enabled', async () => {
    const id = staff.user.id;
    const put = await callRoute(userApi, `/api/users/${id}`, {
      token: admin.token,
      method: 'PUT',
      body: { role: 'viewer', name: 'Demoted Worker' },
      params: { id },
    });
    expect(put.status).toBe(200);
    expect((await put.json()).user).toMatchObject({ role: 'viewer', name: 'Demoted Worker' });
    await callRoute(userApi, `/api/users/${id}`, {
      token: admin.token,
      method: 'PUT',
      body: { role: 'staff' },
      params: { id },
    });

    const demote = await callRoute(userApi, `/api/users/${admin.user.id}`, {
      token: admin.token,
      method: 'PUT',
      body: { role: 'staff' },
      params: { id: admin.user.id },
    });
    expect(demote.status).toBe(409);
    expect((await demote.json()).message).toMatch(/last active admin/);
    const disable = await callRoute(disableApi, `/api/users/${admin.user.id}/disable`, {
      token: admin.token,
      method: 'POST',
      params: { id: admin.user.id },
    });
    expect(disable.status).toBe(409);
    const page = await callRoute(userPageAction, `/dashboard/users/${admin.user.id}`, {
      cookie: admin.cookie,
      form: { intent: 'update', name: 'Boss', email: '', role: 'viewer' },
      params: { userId: admin.user.id },
    });
    expect(page.status).toBe(409);
    expect((await User.findById(admin.user.id).lean())?.role).toBe('admin');

    expect(
      (
        await callRoute(userApi, `/api/users/0123456789abcdef01234567`, {
          token: admin.token,
          method: 'PUT',
          body: { name: 'Nobody' },
          params: { id: '0123456789abcdef01234567' },
        })
      ).status,
    ).toBe(404);
  });

  it('no admin can disable their own account, even with another admin left', async () => {
    const deputy = await createUser('admin', { username: 'deputy' });
    const api = await callRoute(disableApi, `/api/users/${deputy.user.id}/disable`, {
      token: deputy.token,
      method: 'POST',
      params: { id: deputy.user.id },
    });
    expect(api.status).toBe(409);
    expect((await api.json()).message).toBe(SELF_DISABLE_MESSAGE);
    const page = await callRoute(userPageAction, `/dashboard/users/${deputy.user.id}`, {
      cookie: deputy.cookie,
      form: { intent: 'disable' },
      params: { userId: deputy.user.id },
    });
    expect(page.status).toBe(409);
    expect(JSON.stringify(await page.json())).toContain(SELF_DISABLE_MESSAGE);
    expect((await User.findById(deputy.user.id).lean())?.disabled).not.toBe(true);
    // Their session and token still work; another admin can disable them.
    expect((await callRoute(parcelsListApi, '/api/parcels', { token: deputy.token })).status).toBe(
      200,
    );
    const byOther = await callRoute(disableApi, `/api/users/${deputy.user.id}/disable`, {
      token: admin.token,
      method: 'POST',
      params: { id: deputy.user.id },
    });
    expect(byOther.status).toBe(200);
    expect((await callRoute(parcelsListApi, '/api/parcels', { token: deputy.token })).status).toBe(
      401,
    );
  });

  it("disabling ends the user's cookie and token at once; enabling lets them sign in again", async () => {
    const who = await createUser('staff', { username: 'leaver', password: 'leaver-password-1' });
    const { user } = who;
    expect((await callRoute(parcelsListApi, '/api/parcels', { token: who.token })).status).toBe(
      200,
    );
    expect(
      (await callRoute(parcelsPageLoader, '/dashboard/parcels', { cookie: who.cookie })).status,
    ).toBe(200);

    const res = await callRoute(disableApi, `/api/users/${user.id}/disable`, {
      token: admin.token,
      method: 'POST',
      params: { id: user.id },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).user.disabled).toBe(true);

    expect((await callRoute(parcelsListApi, '/api/parcels', { token: who.token })).status).toBe(
      401,
    );
    expect((await callRoute(parcelsListApi, '/api/parcels', { cookie: who.cookie })).status).toBe(
      401,
    );
    const page = await callRoute(parcelsPageLoader, '/dashboard/parcels', { cookie: who.cookie });
    expect(page.status).toBe(302);
    expect(page.headers.get('Location')).toMatch(/^\/management\/access/);
    const login = await callRoute(loginApi, '/api/auth/login', {
      body: { username: 'leaver', password: 'leaver-password-1' },
    });
    expect(login.status).toBe(401);

    const enabled = await callRoute(enableApi, `/api/users/${user.id}/enable`, {
      token: admin.token,
      method: 'POST',
      params: { id: user.id },
    });
    expect((await enabled.json()).user.disabled).toBe(false);
    const back = await callRoute(loginApi, '/api/auth/login', {
      body: { username: 'leaver', password: 'leaver-password-1' },
    });
    expect(back.status).toBe(200);
    // The old token stays revoked.
    expect((await callRoute(parcelsListApi, '/api/parcels', { token: who.token })).status).toBe(
      401,
    );
  });

  it('an admin resets a password on the page: a temporary one, shown once', async () => {
    const { user } = await createUser('staff', {
      username: 'forgetful',
      password: 'forgetful-password-1',
    });
    const res = await callRoute(userPageAction, `/dashboard/users/${user.id}`, {
      cookie: admin.cookie,
      form: { intent: 'reset-password' },
      params: { userId: user.id },
    });
    expect(res.status).toBe(200);
    const { temporaryPassword } = (await res.json()) as { temporaryPassword: string };
    expect(temporaryPassword).toBeTruthy();
    const login = await callRoute(loginApi, '/api/auth/login', {
      body: { username: 'forgetful', password: temporaryPassword },
    });
    expect(login.status).toBe(200);
    expect((await login.json()).user.mustChangePassword).toBe(true);
    const old = await callRoute(loginApi, '/api/auth/login', {
      body: { username: 'forgetful', password: 'forgetful-password-1' },
    });
    expect(old.status).toBe(401);
  });
});
