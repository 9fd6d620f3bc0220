import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as usersAction } from '~/routes/api.accounts.$id.users';
import { action as accountAction } from '~/routes/api.accounts.$id';
import { loader as staffUsersLoader } from '~/routes/api.users';
import { action as accessAction, loader as accessLoader } from '~/routes/account_.access.$token';
import { action as requestAccessAction } from '~/routes/account_.access._index';
import { action as signInAction } from '~/routes/account_.sign-in';
import { action as staffSignInAction } from '~/routes/management.access';
import { loader as portalLoader } from '~/routes/account';
import { loader as portalParcelsLoader } from '~/routes/account.parcels._index';
import { loader as portalParcelLoader } from '~/routes/account.parcels.$parcelId';
import { loader as portalCsvLoader } from '~/routes/account.parcels[.]csv';
import { loader as dashboardLoader } from '~/routes/dashboard';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { EMAIL_JOB } from '~/services/email-queue.server';
import { answer, callRoute, pageRequest } from '../support/api';
import { attemptDueJob, startMailServer, type MailServer } from '../support/jobs';
import { createAccount, createParcel, createUser, type TestUser } from '../support/factories';

let admin: TestUser;
let mail: MailServer;

beforeAll(async () => {
  await connectDb();
  mail = await startMailServer();
  admin = await createUser('admin');
});

afterAll(async () => {
  await mail.stop();
  await disconnectDb();
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const post = (url: string, fields: Record<string, string>, cookie = '') =>
  new Request(`http://localhost${url}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    body: form(fields),
  });
const cookieOf = (response: Response) => response.headers.get('Set-Cookie')!.split(';')[0]!;

/** Invites `email` to the account and returns the path of the link e-mailed to them. */
async function invite(accountId: string, email: string, auth = admin.auth) {
  const res = await callRoute(usersAction, `/api/accounts/${accountId}/users`, {
    headers: auth,
    params: { id: accountId },
    body: { name: 'Grace', email },
  });
  if (res.status !== 201) return { status: res.status, link: '' };
  await attemptDueJob(EMAIL_JOB);
  const message = [...mail.smtp.messages]
    .reverse()
    .find((m) => m.text?.includes('/account/access/'));
  const link = message!.text!.match(/\/account\/access\/(\S+)/)![1]!;
  return { status: res.status, link };
}

describe('shipper users and the portal', () => {
  it('are invited by e-mail, choose a password once, sign in and see only their own parcels', async () => {
    const [a, b] = [await createAccount(), await createAccount()];
    const ofA = await createParcel({
      accountId: a.id,
      recipient: { name: 'Own Ada', address: 'x' },
    });
    const ofB = await createParcel({
      accountId: b.id,
      recipient: { name: 'Other Bea', address: 'y' },
    });

    const invited = await invite(a.id, 'grace@shop-a.example');
    expect(invited.status).toBe(201);
    expect((await invite(b.id, 'GRACE@shop-a.example')).status).toBe(409);

    const token = invited.link;
    const opened = await answer(
      accessLoader,
      new Request(`http://localhost/account/access/${token}`),
      {
        token,
      },
    );
    expect((await opened.json()).email).toBe('grace@shop-a.example');
    const chosen = await answer(
      accessAction,
      post(`/account/access/${token}`, { password: 'correct horse', confirm: 'correct horse' }),
      { token },
    );
    expect(chosen.status).toBe(302);
    expect(chosen.headers.get('Location')).toBe('/account');
    // The link works once; a new one is offered.
    const again = await answer(
      accessLoader,
      new Request(`http://localhost/account/access/${token}`),
      {
        token,
      },
    );
    expect((await again.json()).refused).toMatch(/already been used/);

    // Staff credentials do not open the portal, nor the shipper's the dashboard.
    const staffTry = await answer(
      signInAction,
      post('/account/sign-in', {
        email: admin.user.username,
        password: `${admin.user.username}-password`,
      }),
    );
    expect(staffTry.status).toBe(400);
    const shipperAtStaffLogin = await answer(
      staffSignInAction,
      post('/management/access', { username: 'grace@shop-a.example', password: 'correct horse' }),
    );
    expect(shipperAtStaffLogin.status).toBe(400);

    const signIn = await answer(
      signInAction,
      post('/account/sign-in', { email: 'Grace@Shop-A.example', password: 'correct horse' }),
    );
    expect(signIn.status).toBe(302);
    const shipper = { cookie: cookieOf(signIn) };

    const list = await answer(portalParcelsLoader, pageRequest('/account/parcels', shipper));
    expect((await list.json()).parcels.map((p: { id: string }) => p.id)).toEqual([ofA.id]);
    const csv = await answer(portalCsvLoader, pageRequest('/account/parcels.csv', shipper));
    const text = await csv.text();
    expect(text).toContain(ofA.trackingNumber);
    expect(text).not.toContain(ofB.trackingNumber);
    const own = await answer(
      portalParcelLoader,
      pageRequest(`/account/parcels/${ofA.id}`, shipper),
      {
        parcelId: ofA.id,
      },
    );
    expect(own.status).toBe(200);
    const other = await answer(
      portalParcelLoader,
      pageRequest(`/account/parcels/${ofB.id}`, shipper),
      {
        parcelId: ofB.id,
      },
    );
    expect(other.status).toBe(404);

    const dashboard = await answer(dashboardLoader, pageRequest('/dashboard', shipper));
    expect(dashboard.status).toBe(403);
    const staffApi = await answer(
      staffUsersLoader,
      new Request('http://localhost/api/users', { headers: { Cookie: shipper.cookie } }),
    );
    expect(staffApi.status).toBe(403);
    expect((await staffApi.json()).message).toBe('This needs the admin role');
    // A staff session is not signed in to the portal.
    const staffAtPortal = await answer(portalLoader, pageRequest('/account', admin));
    expect(staffAtPortal.status).toBe(302);
    expect(staffAtPortal.headers.get('Location')).toMatch(/^\/account\/sign-in/);

    // A reset sends a new link; suspending the account signs its users out at once.
    await answer(requestAccessAction, post('/account/access', { email: 'grace@shop-a.example' }));
    await attemptDueJob(EMAIL_JOB);
    expect(mail.smtp.messages.at(-1)!.subject).toMatch(/Choose a new password/);
    await callRoute(accountAction, `/api/accounts/${a.id}`, {
      method: 'PUT',
      headers: admin.auth,
      params: { id: a.id },
      body: { status: 'suspended' },
    });
    const after = await answer(portalLoader, pageRequest('/account', shipper));
    expect(after.status).toBe(302);
  });
});
