import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '~/models/api-key.server';
import { issueApiToken } from '~/models/api-token.server';
import { listAudit } from '~/models/audit.server';
import { Parcel } from '~/models/parcel.server';
import { createUser, type PublicUser } from '~/models/user.server';
import { action as loginApi } from '~/routes/api.auth.login';
import { action as logoutApi } from '~/routes/api.auth.logout';
import { loader as meApi } from '~/routes/api.auth.me';
import { action as passwordApi } from '~/routes/api.auth.password';
import { action as parcelsApi, loader as parcelsListApi } from '~/routes/api.parcels';
import { action as usersApi } from '~/routes/api.users';
import { action as userApi } from '~/routes/api.users.$id';
import { action as accountAction, loader as accountLoader } from '~/routes/dashboard.account';
import { loader as parcelsPageLoader } from '~/routes/dashboard.parcels';
import { action as userPageAction } from '~/routes/dashboard.users.$userId';
import { connectDb } from '~/lib/db.server';
import { callRoute } from '../support/api';
import { sessionCookie } from '../support/sign-in';

/**
 * What a password ends: every other session and login token of the user, whoever changes it and
 * however; API keys stay. A temporary password opens nothing but the change. The API takes only
 * Bearer credentials in Authorization.
 */

let admin: { user: PublicUser; token: string; cookie: string };

/** A user with two browser sessions, two login tokens and an API key. */
async function userWithCredentials(username: string, role: 'admin' | 'staff' = 'staff') {
  const password = `${username}-password-1`;
  const user = await createUser({ username, password, role });
  return {
    user,
    password,
    cookies: [await sessionCookie(user.id), await sessionCookie(user.id)],
    tokens: [(await issueApiToken(user.id)).token, (await issueApiToken(user.id)).token],
    key: (await createApiKey({ name: `${username} key`, scopes: ['read'] }, user.id)).key,
  };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The statuses of one read through each credential: the page for cookies, the API for tokens. */
async function reach(credentials: { cookies?: string[]; tokens?: string[] }) {
  const statuses: number[] = [];
  for (const cookie of credentials.cookies ?? [])
    statuses.push(
      (await callRoute(parcelsPageLoader, '/dashboard/parcels', { headers: { Cookie: cookie } }))
        .status,
    );
  for (const token of credentials.tokens ?? [])
    statuses.push(
      (await callRoute(parcelsListApi, '/api/parcels', { headers: bearer(token) })).status,
    );
  return statuses;
}

beforeAll(async () => {
  await connectDb();
  const user = await createUser({ username: 'chief', password: 'chief-password-1', role: 'admin' });
  admin = {
    user,
    token: (await issueApiToken(user.id)).token,
    cookie: await sessionCookie(user.id),
  };
});

/** The audit's record of a password change: the password itself is never kept. */
const passwordChange = (after: string) => ({ field: 'password', before: null, after });

describe('a password change', () => {
  it("of one's own, on the account page, ends the other sessions and login tokens and keeps this one", async () => {
    const who = await userWithCredentials('changer');
    const [here, elsewhere] = who.cookies;
    const res = await callRoute(accountAction, '/dashboard/account', {
      method: 'POST',
      headers: { Cookie: here! },
      body: new URLSearchParams({
        currentPassword: who.password,
        newPassword: 'changer-new-password',
        confirmPassword: 'changer-new-password',
      }),
    });
    expect(res.status).toBe(302);
    expect(await reach({ cookies: [here!] })).toEqual([200]);
    expect(await reach({ cookies: [elsewhere!] })).toEqual([302]);
    expect(await reach({ tokens: who.tokens })).toEqual([401, 401]);
    // API keys are separate.
    expect((await callRoute(meApi, '/api/auth/me', { headers: bearer(who.key) })).status).toBe(200);
    const { entries } = await listAudit({ entity: 'user', entityId: who.user.id });
    expect(entries[0]!.changes).toContainEqual(passwordChange('changed'));
  });

  it("of one's own, through the API, keeps the token sent and ends the others", async () => {
    const who = await userWithCredentials('api-changer');
    const [sent, other] = who.tokens;
    const wrong = await callRoute(passwordApi, '/api/auth/password', {
      method: 'POST',
      headers: bearer(sent!),
      body: { currentPassword: 'not-it', newPassword: 'api-changer-new-pw' },
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).details).toEqual({
      currentPassword: ['The current password is wrong'],
    });
    expect(await reach({ tokens: who.tokens, cookies: who.cookies })).toEqual([200, 200, 200, 200]);

    const res = await callRoute(passwordApi, '/api/auth/password', {
      method: 'POST',
      headers: bearer(sent!),
      body: { currentPassword: who.password, newPassword: 'api-changer-new-pw' },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).user).toMatchObject({ username: 'api-changer' });
    expect(await reach({ tokens: [sent!] })).toEqual([200]);
    expect(await reach({ tokens: [other!], cookies: who.cookies })).toEqual([302, 302, 401]);
    const login = await callRoute(loginApi, '/api/auth/login', {
      method: 'POST',
      body: { username: 'api-changer', password: 'api-changer-new-pw' },
    });
    expect(login.status).toBe(200);

    // An API key has no password of its own to change.
    const byKey = await callRoute(passwordApi, '/api/auth/password', {
      method: 'POST',
      headers: bearer(who.key),
      body: { currentPassword: 'api-changer-new-pw', newPassword: 'another-new-pw' },
    });
    expect(byKey.status).toBe(403);
  });

  it("by an admin through PUT /api/users/:id ends the user's old session and token", async () => {
    const who = await userWithCredentials('reset-by-put');
    const res = await callRoute(userApi, `/api/users/${who.user.id}`, {
      method: 'PUT',
      headers: bearer(admin.token),
      params: { id: who.user.id },
      body: { password: 'set-by-the-admin' },
    });
    expect(res.status).toBe(200);
    const before = await Parcel.countDocuments();
    for (const headers of [{ Cookie: who.cookies[0]! }, bearer(who.tokens[0]!)]) {
      const create = await callRoute(parcelsApi, '/api/parcels', {
        method: 'POST',
        headers,
        body: { recipient: { name: 'Old Session', address: '1 Stale St' } },
      });
      expect(create.status).toBe(401);
    }
    expect(await Parcel.countDocuments()).toBe(before);
    expect((await callRoute(meApi, '/api/auth/me', { headers: bearer(who.key) })).status).toBe(200);
    const { entries } = await listAudit({ entity: 'user', entityId: who.user.id });
    expect(JSON.stringify(entries)).not.toContain('set-by-the-admin');
    expect(entries[0]!.changes).toContainEqual(passwordChange('set by an admin'));
  });

  it("by an admin's reset on the Users page ends every session and token of the user", async () => {
    const who = await userWithCredentials('reset-on-page');
    const res = await callRoute(userPageAction, `/dashboard/users/${who.user.id}`, {
      method: 'POST',
      headers: { Cookie: admin.cookie },
      params: { userId: who.user.id },
      body: new URLSearchParams({ intent: 'reset-password' }),
    });
    expect(res.status).toBe(200);
    expect(await reach({ cookies: who.cookies, tokens: who.tokens })).toEqual([302, 302, 401, 401]);
  });
});

describe('sign out everywhere', () => {
  it('ends every session and login token of the user, this one too, and is audited', async () => {
    const who = await userWithCredentials('leaving');
    const res = await callRoute(accountAction, '/dashboard/account', {
      method: 'POST',
      headers: { Cookie: who.cookies[0]! },
      body: new URLSearchParams({ intent: 'sign-out-everywhere' }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/management/access');
    const cookies = res.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith('__session='))).toMatch(/Expires=Thu, 01 Jan 1970/i);
    expect(cookies.some((c) => c.startsWith('__flash='))).toBe(true);
    expect(await reach({ cookies: who.cookies, tokens: who.tokens })).toEqual([302, 302, 401, 401]);
    expect((await callRoute(meApi, '/api/auth/me', { headers: bearer(who.key) })).status).toBe(200);
    const { entries } = await listAudit({ entity: 'user', entityId: who.user.id });
    expect(entries[0]).toMatchObject({
      actor: { username: 'leaving' },
      changes: [{ field: 'sessions', before: null, after: 'signed out everywhere' }],
    });
  });

  it("does not touch another user's sessions", async () => {
    const one = await userWithCredentials('one-of-two');
    const other = await userWithCredentials('two-of-two');
    await callRoute(accountAction, '/dashboard/account', {
      method: 'POST',
      headers: { Cookie: one.cookies[0]! },
      body: new URLSearchParams({ intent: 'sign-out-everywhere' }),
    });
    expect(await reach({ cookies: other.cookies, tokens: other.tokens })).toEqual([
      200, 200, 200, 200,
    ]);
  });
});

describe('a temporary password', () => {
  it('opens neither reads nor writes until it is changed, on pages or the API', async () => {
    const created = await callRoute(usersApi, '/api/users', {
      method: 'POST',
      headers: bearer(admin.token),
      body: { username: 'newcomer', role: 'staff' },
    });
    expect(created.status).toBe(201);
    const { temporaryPassword } = await created.json();
    const login = await callRoute(loginApi, '/api/auth/login', {
      method: 'POST',
      body: { username: 'newcomer', password: temporaryPassword },
    });
    const { token, user } = await login.json();
    expect(user.mustChangePassword).toBe(true);
    const cookie = await sessionCookie(user.id);

    const before = await Parcel.countDocuments();
    const refused = [
      await callRoute(parcelsListApi, '/api/parcels', { headers: bearer(token) }),
      await callRoute(meApi, '/api/auth/me', { headers: bearer(token) }),
      await callRoute(parcelsListApi, '/api/parcels', { headers: { Cookie: cookie } }),
      await callRoute(parcelsApi, '/api/parcels', {
        method: 'POST',
        headers: bearer(token),
        body: { recipient: { name: 'Too Soon', address: '1 Early St' } },
      }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        code: 'password_change_required',
        error: expect.stringContaining('POST /api/auth/password'),
      });
    }
    expect(await Parcel.countDocuments()).toBe(before);
    // Pages send the user to the account page's form, which answers.
    const page = await callRoute(parcelsPageLoader, '/dashboard/parcels', {
      headers: { Cookie: cookie },
    });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/dashboard/account');
    const account = await callRoute(accountLoader, '/dashboard/account', {
      headers: { Cookie: cookie },
    });
    expect(await account.json()).toMatchObject({ mustChangePassword: true });

    const changed = await callRoute(passwordApi, '/api/auth/password', {
      method: 'POST',
      headers: bearer(token),
      body: { currentPassword: temporaryPassword, newPassword: 'my-own-password' },
    });
    expect(changed.status).toBe(200);
    expect((await changed.json()).user.mustChangePassword).toBe(false);
    expect(await reach({ tokens: [token] })).toEqual([200]);
  });

  it('still lets the user sign out', async () => {
    const created = await callRoute(usersApi, '/api/users', {
      method: 'POST',
      headers: bearer(admin.token),
      body: { username: 'short-stay' },
    });
    const { temporaryPassword } = await created.json();
    const login = await callRoute(loginApi, '/api/auth/login', {
      method: 'POST',
      body: { username: 'short-stay', password: temporaryPassword },
    });
    const { token } = await login.json();
    const out = await callRoute(logoutApi, '/api/auth/logout', {
      method: 'POST',
      headers: bearer(token),
    });
    expect(out.status).toBe(200);
    expect((await callRoute(meApi, '/api/auth/me', { headers: bearer(token) })).status).toBe(401);
  });
});

describe('the Authorization header', () => {
  it('takes Bearer only: any other scheme is a 401 naming Bearer, even beside a valid session cookie', async () => {
    const before = await Parcel.countDocuments();
    for (const authorization of [
      'Basic Y2hpZWY6Y2hpZWYtcGFzc3dvcmQtMQ==',
      'Token abc',
      'Bearer',
      'Bearer ',
      `Bearer ${admin.token} extra`,
      '',
    ]) {
      const res = await callRoute(parcelsApi, '/api/parcels', {
        method: 'POST',
        headers: { Authorization: authorization, Cookie: admin.cookie },
        body: { recipient: { name: 'Not Via Cookie', address: '1 Basic St' } },
      });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('WWW-Authenticate'), authorization).toBe('Bearer realm="api"');
    }
    expect(await Parcel.countDocuments()).toBe(before);
    // Without the header the cookie works; with a bearer token, the token.
    expect(await reach({ tokens: [admin.token] })).toEqual([200]);
    const cookieOnly = await callRoute(parcelsListApi, '/api/parcels', {
      headers: { Cookie: admin.cookie },
    });
    expect(cookieOnly.status).toBe(200);
  });

  it('names Bearer on every API 401, and invalid_token for a token or key that is not valid', async () => {
    const none = await callRoute(meApi, '/api/auth/me');
    expect(none.status).toBe(401);
    expect(none.headers.get('WWW-Authenticate')).toBe('Bearer realm="api"');
    for (const headers of [bearer('made-up-token'), bearer(`sk_${'x'.repeat(43)}`)]) {
      const res = await callRoute(meApi, '/api/auth/me', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('WWW-Authenticate')).toMatch(
        /^Bearer realm="api", error="invalid_token", error_description="Invalid (or expired token|or revoked API key)"$/,
      );
    }
  });
});
