import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deleteUserSessions } from '~/models/session.server';
import { createUser } from '~/models/user.server';
import { action as loginApi } from '~/routes/api.auth.login';
import { action as logoutApi } from '~/routes/api.auth.logout';
import { loader as meApi } from '~/routes/api.auth.me';
import { loader as dashboardLoader } from '~/routes/dashboard';
import { action as logoutAction, loader as logoutLoader } from '~/routes/logout';
import { action as loginPageAction, loader as loginPageLoader } from '~/routes/management.access';
import { loginFailures, requireUser } from '~/http/auth.server';
import { connectDb } from '~/lib/db.server';
import { apiError } from '../support/api-error';

const PASSWORD = 'correct-horse-battery';

async function call(
  handler: unknown,
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: BodyInit;
    address?: string;
  } = {},
): Promise<Response> {
  const request = new Request(new URL(url, 'http://localhost'), {
    method: init.method ?? 'GET',
    headers: init.headers,
    body: init.body,
  });
  try {
    return await (handler as (args: unknown) => Promise<Response>)({
      request,
      params: {},
      context: { clientAddress: init.address ?? '10.0.0.1' },
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

function postJson(
  handler: unknown,
  url: string,
  body: unknown,
  address?: string,
  headers: Record<string, string> = {},
) {
  return call(handler, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    address,
  });
}

function postForm(
  handler: unknown,
  url: string,
  fields: Record<string, string>,
  address?: string,
  cookie?: string,
) {
  return call(handler, url, {
    method: 'POST',
    headers: cookie ? { cookie } : {},
    body: new URLSearchParams(fields),
    address,
  });
}

/** POST /api/auth/login with this body, from `address`. */
const apiLogin = (body: unknown, address?: string) =>
  postJson(loginApi, '/api/auth/login', body, address);

/** The staff login form sent to /management/access, from `address`. */
const formLogin = (fields: Record<string, string>, address?: string, cookie?: string) =>
  postForm(loginPageAction, '/management/access', fields, address, cookie);

/** The cookie pairs a browser would send back after these Set-Cookie headers. */
function cookiesFrom(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

beforeAll(async () => {
  await connectDb();
  await createUser({ username: 'Alice', password: PASSWORD, name: 'Alice Staff', role: 'admin' });
  await createUser({ username: 'bob', password: PASSWORD, role: 'staff' });
});

beforeEach(() => loginFailures.clear());

describe('POST /api/auth/login', () => {
  it('returns a token and the user without the password hash', async () => {
    const res = await apiLogin({
      username: 'alice',
      password: PASSWORD,
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(typeof body.token).toBe('string');
    expect(body.token.length).toBeGreaterThan(20);
    expect(body.user).toMatchObject({ username: 'alice', name: 'Alice Staff', role: 'admin' });
    expect(body.user.id).toBe(body.user._id);
    expect(JSON.stringify(body)).not.toMatch(/passwordHash|scrypt/);
  });

  it('refuses a missing field or an operator object with 400 and details', async () => {
    const missing = await apiLogin({ username: 'alice' });
    expect(missing.status).toBe(400);
    const missingBody = await missing.json();
    expect(missingBody.error).toBe('Validation failed');
    expect(missingBody.details.password).toBeDefined();

    const injected = await apiLogin({
      username: { $gt: '' },
      password: { $gt: '' },
    });
    expect(injected.status).toBe(400);
    const injectedBody = await injected.json();
    expect(Object.keys(injectedBody.details)).toEqual(
      expect.arrayContaining(['username', 'password']),
    );
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await call(loginApi, '/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=alice&password=x',
    });
    expect(res.status).toBe(415);
  });

  it('answers wrong credentials with 401 and the same message for an unknown user', async () => {
    const wrong = await apiLogin({ username: 'alice', password: 'nope-nope' }, '10.0.1.1');
    const unknown = await apiLogin({ username: 'nobody', password: 'nope-nope' }, '10.0.1.2');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const wrongBody = await wrong.json();
    expect(wrongBody).toEqual(apiError('Invalid credentials', 'authentication_required'));
    expect(await unknown.json()).toEqual(wrongBody);
  });

  it('locks a username from one address after 5 failures with 429 and Retry-After, even with the right password', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await apiLogin({ username: 'bob', password: `wrong-${i}` }, '10.0.2.1');
      expect(res.status).toBe(401);
    }
    const locked = await apiLogin({ username: 'bob', password: PASSWORD }, '10.0.2.1');
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await locked.json()).message).toMatch(/Too many failed sign-in attempts/);

    // The same person from another address, and another account from this one, are not affected.
    const elsewhere = await apiLogin({ username: 'bob', password: PASSWORD }, '10.0.2.2');
    expect(elsewhere.status).toBe(200);
    const colleague = await apiLogin({ username: 'alice', password: PASSWORD }, '10.0.2.1');
    expect(colleague.status).toBe(200);
  });

  it('checks at most the limit of 40 wrong passwords sent at once: the rest are refused unchecked', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        apiLogin({ username: 'bob', password: `wrong-${i}` }, '10.0.3.3'),
      ),
    );
    const statuses = answers.map((res) => res.status);
    // A 401 is a password that was checked; a 429 was refused before any check.
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    // The refused attempts gave their counts back: the username is not locked elsewhere for them,
    // only from this address.
    for (const [address, status] of [
      ['10.0.3.4', 200],
      ['10.0.3.3', 429],
    ] as const) {
      const res = await apiLogin({ username: 'bob', password: PASSWORD }, address);
      expect(res.status, address).toBe(status);
    }
  });

  it('locks a username after 20 failures spread over many addresses', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await apiLogin({ username: 'bob', password: `wrong-${i}` }, `10.0.5.${i}`);
      expect(res.status).toBe(401);
    }
    const locked = await apiLogin({ username: 'bob', password: PASSWORD }, '10.0.5.99');
    expect(locked.status).toBe(429);
  });

  it("lets an office's address fail across usernames 100 times before it locks the address", async () => {
    for (let i = 0; i < 100; i++) {
      const res = await apiLogin({ username: `guess${i % 25}`, password: `x${i}` }, '10.0.4.4');
      expect(res.status).toBe(401);
    }
    const locked = await apiLogin({ username: 'alice', password: PASSWORD }, '10.0.4.4');
    expect(locked.status).toBe(429);
    const fromElsewhere = await apiLogin({ username: 'alice', password: PASSWORD }, '10.0.4.5');
    expect(fromElsewhere.status).toBe(200);
  }, 120_000);
});

describe('GET /api/auth/me and POST /api/auth/logout', () => {
  it('returns the user for a token, 401 without one, and 401 once the token is revoked', async () => {
    const login = await apiLogin({
      username: 'alice',
      password: PASSWORD,
    });
    const { token } = await login.json();
    const auth = { authorization: `Bearer ${token}` };

    const me = await call(meApi, '/api/auth/me', { headers: auth });
    expect(me.status).toBe(200);
    const meBody = await me.json();
    expect(meBody.user).toMatchObject({ username: 'alice', role: 'admin' });
    expect(meBody.user).not.toHaveProperty('passwordHash');

    const anonymous = await call(meApi, '/api/auth/me');
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error).toBeTruthy();

    const logout = await call(logoutApi, '/api/auth/logout', { method: 'POST', headers: auth });
    expect(logout.status).toBe(200);
    expect(await logout.json()).toEqual({ success: true });

    const after = await call(meApi, '/api/auth/me', { headers: auth });
    expect(after.status).toBe(401);
  });

  it('rejects a made-up token', async () => {
    const res = await call(meApi, '/api/auth/me', {
      headers: { authorization: 'Bearer not-a-real-token' },
    });
    expect(res.status).toBe(401);
  });
});

describe('requireUser', () => {
  it('redirects a signed-out visitor to the login page with redirectTo', async () => {
    let thrown: unknown;
    try {
      await requireUser(new Request('http://localhost/dashboard/parcels?status=Pending'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(
      `/management/access?redirectTo=${encodeURIComponent('/dashboard/parcels?status=Pending')}`,
    );
  });

  it('comes back to the page alone when its query is longer than any page makes', async () => {
    const locationFor = async (url: string) => {
      const thrown = await requireUser(new Request(url)).catch((error: unknown) => error);
      return (thrown as Response).headers.get('location')!;
    };
    const long = `http://localhost/dashboard/parcels?search=${'[a]'.repeat(5_000)}`;
    expect(await locationFor(long)).toBe('/management/access?redirectTo=%2Fdashboard%2Fparcels');
    const deep = `http://localhost/dashboard/${'a/'.repeat(5_000)}`;
    expect(await locationFor(deep)).toBe('/management/access?redirectTo=%2Fdashboard');
  });
});

describe('the staff login page', () => {
  it('signs in, sets an HttpOnly SameSite=Lax session cookie and a toast, and goes to redirectTo', async () => {
    const res = await formLogin({
      username: 'alice',
      password: PASSWORD,
      redirectTo: '/dashboard/parcels',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard/parcels');
    const cookies = res.headers.getSetCookie();
    const session = cookies.find((c) => c.startsWith('__session='));
    expect(session).toBeDefined();
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).not.toMatch(/Secure/i);
    expect(cookies.some((c) => c.startsWith('__flash='))).toBe(true);

    // The cookie opens the dashboard.
    const dashboard = await call(dashboardLoader, '/dashboard', {
      headers: { cookie: cookiesFrom(res) },
    });
    expect(dashboard.status).toBe(200);
    expect((await dashboard.json()).user).toMatchObject({
      username: 'alice',
      name: 'Alice Staff',
      role: 'admin',
    });
  });

  it('marks the cookie Secure over https', async () => {
    const res = await postForm(loginPageAction, 'https://courier.example/management/access', {
      username: 'alice',
      password: PASSWORD,
    });
    expect(res.status).toBe(302);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('__session='))).toMatch(/Secure/i);
  });

  /** Targets that a browser would read as another site's, once normalised or as written. */
  const OFFSITE = [
    'https://evil.example',
    '//evil.example/x',
    '/.//evil.example/x',
    '/a/..//evil.example/x',
    '/%2e//evil.example/x',
    '/\\evil.example/x',
    '/./\\evil.example/x',
    '/\t/evil.example/x',
  ];

  it('never leaves the site for redirectTo when signing in, however it is written', async () => {
    for (const redirectTo of OFFSITE) {
      const res = await postForm(
        loginPageAction,
        `/management/access?${new URLSearchParams({ redirectTo })}`,
        {
          username: 'alice',
          password: PASSWORD,
          redirectTo,
        },
      );
      expect(res.status, redirectTo).toBe(302);
      expect(res.headers.get('location'), redirectTo).toBe('/dashboard');
    }
  });

  it('never leaves the site for redirectTo when already signed in', async () => {
    const login = await formLogin({
      username: 'alice',
      password: PASSWORD,
    });
    const cookie = cookiesFrom(login);
    for (const redirectTo of OFFSITE) {
      const res = await call(
        loginPageLoader,
        `/management/access?${new URLSearchParams({ redirectTo })}`,
        { headers: { cookie } },
      );
      expect(res.status, redirectTo).toBe(302);
      expect(res.headers.get('location'), redirectTo).toBe('/dashboard');
    }
    const home = await call(
      loginPageLoader,
      '/management/access?redirectTo=%2Fdashboard%2Fparcels',
      {
        headers: { cookie },
      },
    );
    expect(home.headers.get('location')).toBe('/dashboard/parcels');
  });

  it('gives the same message for a wrong password and an unknown user, keeping the username', async () => {
    const wrong = await formLogin({ username: 'alice', password: 'bad-password' }, '10.0.5.1');
    const unknown = await formLogin({ username: 'ghost', password: 'bad-password' }, '10.0.5.2');
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(wrong.headers.getSetCookie().some((c) => c.startsWith('__session='))).toBe(false);
    const wrongBody = await wrong.json();
    expect(wrongBody.status).toBe('error');
    expect(wrongBody.error).toEqual({ '': ['Invalid credentials. Please try again.'] });
    // The username goes back to the form; the password never does.
    expect(wrongBody.initialValue).toEqual({ username: 'alice' });
    expect((await unknown.json()).error).toEqual(wrongBody.error);
  });

  it('shows field errors when a field is empty', async () => {
    const res = await formLogin({
      username: '',
      password: '',
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.username).toEqual(['Username is required']);
    expect(body.error.password).toEqual(['Password is required']);
  });

  it('counts failures per username and client address and locks with 429', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await formLogin({ username: 'alice', password: `x${i}` }, '10.0.6.6');
      expect(res.status).toBe(400);
    }
    const locked = await formLogin({ username: 'alice', password: PASSWORD }, '10.0.6.6');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await locked.json()).error[''][0]).toMatch(/Too many failed sign-in attempts/);

    // Someone at another address still gets in.
    const elsewhere = await formLogin({ username: 'alice', password: PASSWORD }, '10.0.7.7');
    expect(elsewhere.status).toBe(302);
  });

  it('sends a signed-in user from the login page to the dashboard', async () => {
    const login = await formLogin({
      username: 'alice',
      password: PASSWORD,
    });
    const res = await call(loginPageLoader, '/management/access', {
      headers: { cookie: cookiesFrom(login) },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard');
  });
});

describe('logout', () => {
  it('POST destroys the session and goes to the login page; GET does not sign out', async () => {
    const login = await formLogin({
      username: 'alice',
      password: PASSWORD,
    });
    const cookie = cookiesFrom(login);

    const viaGet = await call(logoutLoader, '/logout', { headers: { cookie } });
    expect(viaGet.status).toBe(302);
    expect(viaGet.headers.get('location')).toBe('/dashboard');
    expect(viaGet.headers.getSetCookie()).toEqual([]);

    const res = await call(logoutAction, '/logout', { method: 'POST', headers: { cookie } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/management/access');
    const cleared = cookiesFrom(res);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('__session='))).toMatch(
      /Expires=Thu, 01 Jan 1970/i,
    );

    const after = await call(dashboardLoader, '/dashboard', { headers: { cookie: cleared } });
    expect(after.status).toBe(302);
    expect(after.headers.get('location')).toMatch(/^\/management\/access\?redirectTo=/);
  });

  it('ends the session on the server: a copy of the cookie taken before logout opens nothing', async () => {
    const login = await formLogin({
      username: 'alice',
      password: PASSWORD,
    });
    const copied = cookiesFrom(login);
    expect(
      (await call(dashboardLoader, '/dashboard', { headers: { cookie: copied } })).status,
    ).toBe(200);
    await call(logoutAction, '/logout', { method: 'POST', headers: { cookie: copied } });
    const replayed = await call(dashboardLoader, '/dashboard', { headers: { cookie: copied } });
    expect(replayed.status).toBe(302);
    expect(replayed.headers.get('location')).toMatch(/^\/management\/access/);
    const me = await call(meApi, '/api/auth/me', { headers: { cookie: copied } });
    expect(me.status).toBe(401);
  });

  it("gives every sign-in a new session id, and can end all of a user's sessions", async () => {
    const sign = () => formLogin({ username: 'alice', password: PASSWORD });
    const first = await sign();
    const second = await sign();
    const sessionOf = (res: Response) =>
      res.headers
        .getSetCookie()
        .find((c) => c.startsWith('__session='))!
        .split(';')[0];
    expect(sessionOf(first)).not.toBe(sessionOf(second));
    // The cookie holds an id, not the user.
    expect(decodeURIComponent(sessionOf(first)!)).not.toMatch(/userId|alice/);

    const me = await call(meApi, '/api/auth/me', { headers: { cookie: cookiesFrom(first) } });
    const { user } = await me.json();
    expect(await deleteUserSessions(user.id)).toBeGreaterThanOrEqual(2);
    for (const res of [first, second]) {
      const after = await call(dashboardLoader, '/dashboard', {
        headers: { cookie: cookiesFrom(res) },
      });
      expect(after.status).toBe(302);
    }
  });
});
