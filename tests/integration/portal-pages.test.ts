import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loader as layoutLoader } from '~/routes/account';
import { action as usersAction, loader as usersLoader } from '~/routes/account.users';
import { action as keysAction, loader as keysLoader } from '~/routes/account.api-keys';
import { action as hooksAction, loader as hooksLoader } from '~/routes/account.webhooks._index';
import { action as hookAction, loader as hookLoader } from '~/routes/account.webhooks.$webhookId';
import { loader as parcelsLoader } from '~/routes/account.parcels._index';
import { loader as csvLoader } from '~/routes/account.parcels[.]csv';
import { loader as fileLoader } from '~/routes/api.proof-of-delivery.files.$fileId';
import { action as logoutAction } from '~/routes/logout';
import {
  action as newParcelAction,
  loader as newParcelLoader,
} from '~/routes/dashboard.parcels.new';
import { action as editParcelAction } from '~/routes/dashboard.parcels.$parcelId.edit';
import { loader as parcelPageLoader } from '~/routes/dashboard.parcels.$parcelId._index';
import { loader as parcelTableLoader } from '~/routes/dashboard.parcels';
import { Parcel } from '~/models/parcel.server';
import { updateAccount } from '~/services/accounts.server';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { authenticateApiKey } from '~/models/api-key.server';
import { createWebhook } from '~/models/webhook.server';
import { recordProofOfDelivery } from '~/services/proof-of-delivery.server';
import { ACCOUNT_ADMIN_ONLY, PORTAL_SIGN_IN, LOGIN_PATH } from '~/http/auth.server';
import { EMAIL_IN_USE } from '~/services/account-users.server';
import { answer, expectToast, pageRequest } from '../support/api';
import { sessionCookie } from '../support/sign-in';
import { fileOf, signaturePng } from '../support/images';
import {
  createAccount,
  createAccountKey,
  createParcel,
  createShipper,
  createUser,
  type TestUser,
} from '../support/factories';

/**
 * The portal's Users, API keys and Webhooks pages (an account's admin changes, a member reads
 * Users only), its parcels' days, its proof images and its sign-out.
 */
type Shipper = Awaited<ReturnType<typeof createShipper>>;
let staff: TestUser;
let a: { id: string };
let b: { id: string };
let admin: Shipper;
let member: Shipper;
let other: Shipper;

beforeAll(async () => {
  await connectDb();
  env.WEBHOOKS_ALLOW_PRIVATE = 'false';
  staff = await createUser('admin');
  [a, b] = [await createAccount(), await createAccount()];
  admin = await createShipper(a, 'admin');
  member = await createShipper(a, 'member');
  other = await createShipper(b, 'admin');
});

afterAll(async () => {
  await disconnectDb();
});

const page = (url: string, who: { cookie: string }, form?: Record<string, string>) =>
  pageRequest(url, who, form);
/** The Users page's Disable or Enable button, as the account's admin presses it. */
const setDisabled = (userId: string, disabled: boolean) =>
  answer(
    usersAction,
    page('/account/users', admin, {
      intent: 'user-status',
      userId,
      disabled: String(disabled),
    }),
  );

describe('the portal', () => {
  it("lists the account's users to everyone in it; only its admins invite and disable", async () => {
    const list = await answer(usersLoader, page('/account/users', member));
    const seen = await list.json();
    expect(seen.canManage).toBe(false);
    expect(seen.users.map((u: { id: string }) => u.id).sort()).toEqual(
      [admin.user.id, member.user.id].sort(),
    );
    expect((await answer(usersLoader, page('/account/users', admin))).status).toBe(200);
    expect(
      (await (await answer(usersLoader, page('/account/users', admin))).json()).canManage,
    ).toBe(true);
    // The layout shows admins the keys and webhooks links.
    expect((await (await answer(layoutLoader, page('/account', member))).json()).isAdmin).toBe(
      false,
    );

    const byMember = await answer(
      usersAction,
      page('/account/users', member, { name: 'X', email: 'x@shop.example' }),
    );
    expect(byMember.status).toBe(403);
    expect((await byMember.json()).message).toBe(ACCOUNT_ADMIN_ONLY);

    const invited = await answer(
      usersAction,
      page('/account/users', admin, { name: 'Ada', email: 'ada@shop-a.example' }),
    );
    await expectToast(invited, { title: 'Invitation sent' }, '/account/users');
    const again = await answer(
      usersAction,
      page('/account/users', admin, { name: 'Ada', email: 'ADA@shop-a.example' }),
    );
    expect(again.status).toBe(409);
    expect((await again.json()).error.email).toEqual([EMAIL_IN_USE]);
    const blank = await answer(
      usersAction,
      page('/account/users', admin, { name: '', email: 'x' }),
    );
    expect(blank.status).toBe(400);
    expect(Object.keys((await blank.json()).error).sort()).toEqual(['email', 'name']);

    // Another account's user is not there; disabling one's own ends their sessions at once.
    const foreign = await setDisabled(other.user.id, true);
    expect(foreign.status).toBe(404);
    expect((await answer(layoutLoader, page('/account', other))).status).toBe(200);
    const disabled = await setDisabled(member.user.id, true);
    await expectToast(disabled, { title: 'User disabled' });
    expect((await answer(layoutLoader, page('/account', member))).status).toBe(302);
    const enabled = await setDisabled(member.user.id, false);
    await expectToast(enabled, { title: 'User enabled' });
    // Enabled again, they sign in anew.
    member = { ...member, cookie: await sessionCookie(member.user.id) };
    expect((await answer(layoutLoader, page('/account', member))).status).toBe(200);
  });

  it("makes an account's keys for its admins only, shows a key once and revokes only its own", async () => {
    expect((await answer(keysLoader, page('/account/api-keys', member))).status).toBe(403);
    expect(
      (
        await answer(
          keysAction,
          page('/account/api-keys', member, { name: 'K', scopes: 'read', mode: 'live' }),
        )
      ).status,
    ).toBe(403);

    const made = await answer(
      keysAction,
      page('/account/api-keys', admin, { name: 'Shop', scopes: 'read', mode: 'test' }),
    );
    const { created } = await made.json();
    expect(created.key).toMatch(/^sk_test_/);
    expect(created.apiKey).toMatchObject({ accountId: a.id, livemode: false, scopes: ['read'] });
    const listed = await (await answer(keysLoader, page('/account/api-keys', admin))).text();
    expect(listed).toContain(created.apiKey.id);
    expect(listed).not.toContain(created.key);
    const bad = await answer(
      keysAction,
      page('/account/api-keys', admin, { name: '', scopes: 'admin', mode: 'x' }),
    );
    expect(bad.status).toBe(400);
    const fields = Object.keys((await bad.json()).result.error);
    expect(fields).toEqual(expect.arrayContaining(['mode', 'name']));
    expect(fields.some((field) => field.startsWith('scopes'))).toBe(true);

    // B's key is not among A's: revoking it is refused, and it still works.
    const ofB = await createAccountKey(b, staff);
    expect(listed).not.toContain(ofB.apiKey.id);
    const foreign = await answer(
      keysAction,
      page('/account/api-keys', admin, { intent: 'revoke', keyId: ofB.apiKey.id }),
    );
    expect(foreign.status).toBe(404);
    expect(await authenticateApiKey(ofB.key)).not.toBeNull();
    const revoked = await answer(
      keysAction,
      page('/account/api-keys', admin, { intent: 'revoke', keyId: created.apiKey.id }),
    );
    await expectToast(revoked, { title: 'API key revoked' }, '/account/api-keys');
    expect(await authenticateApiKey(created.key)).toBeNull();
  });

  it("adds an account's webhooks (its admins only), shows the secret once, and never opens another's", async () => {
    expect((await answer(hooksLoader, page('/account/webhooks', member))).status).toBe(403);
    const made = await answer(
      hooksAction,
      page('/account/webhooks', admin, {
        url: 'https://93.184.215.14/hooks-a',
        events: 'parcel.created',
      }),
    );
    const { created } = await made.json();
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.webhook.accountId).toBe(a.id);
    const local = await answer(
      hooksAction,
      page('/account/webhooks', admin, { url: 'http://127.0.0.1/x', events: 'parcel.created' }),
    );
    expect(local.status).toBe(400);
    expect((await local.json()).result.error.url).toBeTruthy();

    const ofB = await createWebhook(
      { url: 'https://93.184.215.14/hooks-b', events: ['parcel.created'], description: '' },
      b.id,
    );
    const listed = await (await answer(hooksLoader, page('/account/webhooks', admin))).text();
    expect(listed).toContain(created.webhook.id);
    expect(listed).not.toContain(created.secret);
    expect(listed).not.toContain('hooks-b');
    const id = ofB.webhook.id;
    const foreign = page(`/account/webhooks/${id}`, admin);
    expect((await answer(hookLoader, foreign, { webhookId: id })).status).toBe(404);
    const deleteForeign = page(`/account/webhooks/${id}`, admin, { intent: 'delete' });
    expect((await answer(hookAction, deleteForeign, { webhookId: id })).status).toBe(404);

    const own = created.webhook.id;
    const opened = await answer(hookLoader, page(`/account/webhooks/${own}`, admin), {
      webhookId: own,
    });
    expect((await opened.json()).webhook.url).toBe('https://93.184.215.14/hooks-a');
    const deleted = await answer(
      hookAction,
      page(`/account/webhooks/${own}`, admin, { intent: 'delete' }),
      { webhookId: own },
    );
    await expectToast(deleted, { title: 'Webhook deleted' }, '/account/webhooks');
  });

  it("filters the account's parcels by the company's days and finds them by reference, and its CSV keeps the filters", async () => {
    env.COMPANY_TIMEZONE = 'America/New_York';
    // 03:30 UTC on the 2nd is still the 1st in New York.
    const late = await createParcel({
      accountId: a.id,
      createdAt: new Date('2026-03-02T03:30:00Z'),
    });
    const next = await createParcel({
      accountId: a.id,
      createdAt: new Date('2026-03-02T15:00:00Z'),
    });
    const ids = async (query: string) =>
      (
        await (await answer(parcelsLoader, page(`/account/parcels?${query}`, admin))).json()
      ).parcels.map((p: { id: string }) => p.id);
    expect(await ids('from=2026-03-01&to=2026-03-01')).toEqual([late.id]);
    // The shipper's own reference is searched, as the number and the recipient are.
    const ordered = await createParcel({ accountId: a.id, reference: 'ORD-77812' });
    await createParcel({ accountId: b.id, reference: 'ORD-77812' });
    expect(await ids('search=ord-778')).toEqual([ordered.id]);
    expect(await ids('from=2026-03-02&to=')).toContain(next.id);
    expect(await ids('from=2026-03-02')).not.toContain(late.id);
    const csv = await answer(
      csvLoader,
      page('/account/parcels.csv?from=2026-03-02&to=2026-03-02', admin),
    );
    const text = await csv.text();
    expect(text).toContain(next.trackingNumber);
    expect(text).not.toContain(late.trackingNumber);
    const list = await (
      await answer(parcelsLoader, page('/account/parcels?from=2026-03-02&status=Pending', admin))
    ).json();
    expect(list.csv).toBe('status=Pending&from=2026-03-02');
    const bad = await (
      await answer(parcelsLoader, page('/account/parcels?from=2026-03-05&to=2026-03-01', admin))
    ).json();
    expect(bad.problem).toBe('The last day comes after the first');
  });

  it("serves a proof's signature to its parcel's account only", async () => {
    const parcel = await createParcel({ accountId: a.id });
    const { proof } = await recordProofOfDelivery(parcel.id, {
      receivedBy: 'Ada',
      destination: 0,
      note: '',
      signatureName: '',
      photo: [],
      signature: fileOf(await signaturePng(), 'signature.png', 'image/png'),
    });
    const fileId = proof.signature!.id;
    const get = (who: { cookie: string }) =>
      answer(fileLoader, page(`/api/proof-of-delivery/files/${fileId}`, who), { fileId });
    expect((await get(admin)).status).toBe(200);
    expect((await get(member)).status).toBe(200);
    expect((await get(staff)).status).toBe(200);
    expect((await get(other)).status).toBe(404);
  });

  it('signs a shipper out to the portal’s sign-in and staff to theirs', async () => {
    // Sessions of their own: signing out ends them.
    const out = async (userId: string) =>
      (
        await answer(logoutAction, page('/logout', { cookie: await sessionCookie(userId) }, {}))
      ).headers.get('Location');
    expect(await out(other.user.id)).toBe(PORTAL_SIGN_IN);
    expect(await out(staff.user.id)).toBe(LOGIN_PATH);
  });
});

describe('staff and accounts', () => {
  it('give a parcel to an account in its form, show it on its page and filter the table by it', async () => {
    const suspended = await createAccount({ name: 'Closed Shop' });
    await updateAccount(suspended.id, { status: 'suspended' });
    const choices = await (
      await answer(newParcelLoader, page('/dashboard/parcels/new', staff))
    ).json();
    const names = choices.accounts.map((account: { id: string }) => account.id);
    expect(names).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(names).not.toContain(suspended.id);

    const fields = {
      'recipient.name': 'Of An Account',
      'recipient.address': '1 Shop St',
      serviceType: 'Standard',
      priority: 'Standard',
      accountId: b.id,
    };
    const made = await answer(newParcelAction, page('/dashboard/parcels/new', staff, fields));
    expect(made.status).toBe(302);
    const stored = await Parcel.findOne({ 'recipient.name': 'Of An Account' }).lean();
    expect(String(stored!.accountId)).toBe(b.id);
    const id = String(stored!._id);

    const shown = await (
      await answer(parcelPageLoader, page(`/dashboard/parcels/${id}`, staff), { parcelId: id })
    ).json();
    expect(shown.account).toEqual({ id: b.id, name: expect.any(String) });
    const table = async (account: string) =>
      (
        await (
          await answer(parcelTableLoader, page(`/dashboard/parcels?account=${account}`, staff))
        ).json()
      ).parcels.map((p: { id: string }) => p.id);
    expect(await table(b.id)).toContain(id);
    // An account's test parcel stays out of the staff's table, its account's filter included.
    const testParcel = await createParcel({ accountId: b.id, livemode: false });
    expect(await table(b.id)).not.toContain(testParcel.id);
    expect(await table(a.id)).not.toContain(id);
    expect(await table('none')).not.toContain(id);

    // "None" makes it the company's own again.
    const edited = await answer(
      editParcelAction,
      page(`/dashboard/parcels/${id}/edit`, staff, { ...fields, status: 'Pending', accountId: '' }),
      { parcelId: id },
    );
    expect(edited.status).toBe(302);
    expect((await Parcel.findById(id).lean())!.accountId).toBeNull();
    expect(await table('none')).toContain(id);
  });
});
