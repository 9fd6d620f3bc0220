import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { action as accountsAction, loader as accountsLoader } from '~/routes/api.accounts';
import { action as accountAction, loader as accountLoader } from '~/routes/api.accounts.$id';
import { action as accountKeysAction } from '~/routes/api.accounts.$id.api-keys';
import { action as parcelsAction, loader as parcelsLoader } from '~/routes/api.parcels';
import { loader as parcelLoader } from '~/routes/api.parcels.$id';
import { loader as usersLoader } from '~/routes/api.users';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { ApiKey } from '~/models/api-key.server';
import { recordScan } from '~/services/scans.server';
import type { ScanInput } from '~/schemas/scan';
import { answer, callRoute, pageRequest, toastOf } from '../support/api';
import {
  action as settingsAction,
  loader as settingsLoader,
} from '~/routes/dashboard.settings.accounts';
import { createAccount, createParcel, createUser, type TestUser } from '../support/factories';

let admin: TestUser;
let staff: TestUser;

beforeAll(async () => {
  await connectDb();
  admin = await createUser('admin');
  staff = await createUser('staff');
});

afterAll(async () => {
  await disconnectDb();
});

const address = {
  address: '1 Harbor Rd',
  city: 'Portland',
  region: 'OR',
  postalCode: '97201',
  country: 'US',
};

describe('shipper accounts', () => {
  it('are created, listed, read, changed and suspended by admins only, through the API', async () => {
    const created = await callRoute(accountsAction, '/api/accounts', {
      headers: admin.auth,
      body: { name: 'Acme Books', email: 'Ship@Acme.example', address },
    });
    expect(created.status).toBe(201);
    const { account } = await created.json();
    expect(account).toMatchObject({
      name: 'Acme Books',
      email: 'ship@acme.example',
      pickupAddress: address,
      language: 'en',
      status: 'active',
    });

    const refused = await callRoute(accountsAction, '/api/accounts', {
      headers: staff.auth,
      body: { name: 'X', email: 'x@example.com', address },
    });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('This needs the admin role');

    const invalid = await callRoute(accountsAction, '/api/accounts', {
      headers: admin.auth,
      body: { name: '', email: 'nope', address: { city: 'X' } },
    });
    expect(invalid.status).toBe(400);
    expect(Object.keys((await invalid.json()).details)).toEqual(
      expect.arrayContaining(['name', 'email', 'address.address', 'address.country']),
    );

    const list = await callRoute(accountsLoader, '/api/accounts', { headers: admin.auth });
    expect((await list.json()).accounts.map((a: { id: string }) => a.id)).toContain(account.id);

    const params = { id: account.id };
    const read = await callRoute(accountLoader, `/api/accounts/${account.id}`, {
      headers: admin.auth,
      params,
    });
    expect((await read.json()).account.name).toBe('Acme Books');

    const suspended = await callRoute(accountAction, `/api/accounts/${account.id}`, {
      method: 'PUT',
      headers: admin.auth,
      params,
      body: { status: 'suspended' },
    });
    expect((await suspended.json()).account.status).toBe('suspended');
  });
});

describe('Settings → Accounts', () => {
  it('adds, suspends and reactivates accounts through forms that work without JavaScript', async () => {
    const post = (form: Record<string, string>) =>
      answer(settingsAction, pageRequest('/dashboard/settings/accounts', admin, form));
    const bad = await post({ name: '', email: 'x', 'address.city': 'Portland' });
    expect(bad.status).toBe(400);
    const added = await post({
      name: 'Form Books',
      email: 'form@books.example',
      'address.address': '5 Quay',
      'address.city': 'Portland',
      'address.country': 'US',
    });
    expect(added.status).toBe(302);
    const page = await answer(settingsLoader, pageRequest('/dashboard/settings/accounts', admin));
    const account = (await page.json()).accounts.find(
      (a: { name: string }) => a.name === 'Form Books',
    );
    expect(account).toMatchObject({ status: 'active', pickupAddress: { address: '5 Quay' } });
    const suspend = await post({ intent: 'status', accountId: account.id, status: 'suspended' });
    expect((await toastOf(suspend))?.title).toBe('Account suspended');
    const refused = await answer(
      settingsLoader,
      pageRequest('/dashboard/settings/accounts', staff),
    );
    expect(refused.status).toBe(403);
  });
});

describe("an account's API keys", () => {
  it('act for the account alone: its parcels, 404 for any other, 403 for staff routes, 401 once suspended', async () => {
    const [a, b] = [await createAccount(), await createAccount()];
    const issue = async (account: { id: string }, mode: 'live' | 'test') => {
      const res = await callRoute(accountKeysAction, `/api/accounts/${account.id}/api-keys`, {
        headers: admin.auth,
        params: { id: account.id },
        body: { name: `${mode} key`, scopes: ['read', 'write'], mode },
      });
      expect(res.status).toBe(201);
      const { key, apiKey } = await res.json();
      expect(key).toMatch(new RegExp(`^sk_${mode}_`));
      expect(apiKey).toMatchObject({ accountId: account.id, livemode: mode === 'live' });
      expect(await ApiKey.countDocuments({ keyHash: key })).toBe(0);
      return { Authorization: `Bearer ${key}` };
    };
    const keyA = await issue(a, 'live');
    const testKeyA = await issue(a, 'test');

    const ofA = await createParcel({ accountId: a.id });
    const ofB = await createParcel({ accountId: b.id });
    const company = await createParcel();

    // A parcel made with A's live key is A's, sent from A's pickup address.
    const made = await callRoute(parcelsAction, '/api/parcels', {
      headers: keyA,
      body: { recipient: { name: 'Ada', address: '12 Analytical Way' }, accountId: b.id },
    });
    expect(made.status).toBe(201);
    const { parcel } = await made.json();
    expect(parcel).toMatchObject({ accountId: a.id, livemode: true });
    expect(parcel.sender).toMatchObject({ name: a.name, address: a.pickupAddress.address });

    const testMade = await callRoute(parcelsAction, '/api/parcels', {
      headers: testKeyA,
      body: { recipient: { name: 'Test Ada', address: '12 Analytical Way' } },
    });
    const testParcel = (await testMade.json()).parcel;
    expect(testParcel).toMatchObject({ accountId: a.id, livemode: false });

    const listed = async (auth: Record<string, string>, query = '') => {
      const res = await callRoute(parcelsLoader, `/api/parcels?limit=100${query}`, {
        headers: auth,
      });
      return (await res.json()).parcels.map((p: { id: string }) => p.id);
    };
    expect((await listed(keyA)).sort()).toEqual([ofA.id, parcel.id].sort());
    expect(await listed(testKeyA)).toEqual([testParcel.id]);
    // Staff see every live parcel, and test ones only when they ask.
    const staffList = await listed(staff.auth);
    expect(staffList).toEqual(expect.arrayContaining([ofA.id, ofB.id, company.id, parcel.id]));
    expect(staffList).not.toContain(testParcel.id);
    expect(await listed(staff.auth, '&mode=test')).toEqual([testParcel.id]);
    expect(await listed(staff.auth, `&account=${b.id}`)).toEqual([ofB.id]);
    // Nor does the scan station know a test parcel.
    const scan = (trackingNumber: string) =>
      recordScan({ trackingNumber, status: 'In Transit', location: 'Hub' } as ScanInput, {
        user: staff.user,
        context: {},
      });
    expect((await scan(testParcel.trackingNumber)).kind).toBe('not-found');
    expect((await scan(parcel.trackingNumber)).kind).not.toBe('not-found');

    const read = (auth: Record<string, string>, id: string) =>
      callRoute(parcelLoader, `/api/parcels/${id}`, { headers: auth, params: { id } });
    expect((await read(keyA, ofA.id)).status).toBe(200);
    expect((await read(keyA, ofA.trackingNumber)).status).toBe(200);
    for (const other of [ofB.id, company.id, testParcel.id, ofB.trackingNumber]) {
      const res = await read(keyA, other);
      expect(res.status).toBe(404);
      expect((await res.json()).code).toMatch(/not_found/);
    }
    expect((await read(testKeyA, parcel.id)).status).toBe(404);

    const users = await callRoute(usersLoader, '/api/users', { headers: keyA });
    expect(users.status).toBe(403);
    expect((await users.json()).message).toBe('This needs the admin role');

    await callRoute(accountAction, `/api/accounts/${a.id}`, {
      method: 'PUT',
      headers: admin.auth,
      params: { id: a.id },
      body: { status: 'suspended' },
    });
    expect((await read(keyA, ofA.id)).status).toBe(401);
    expect((await read(testKeyA, testParcel.id)).status).toBe(401);
  });
});
