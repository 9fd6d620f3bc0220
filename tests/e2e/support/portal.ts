import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { uniqueEmail, uniqueName, waitForMail } from './helpers';

/**
 * A shipper of a new account, made through the staff's API (`headers`, the admin's) and the
 * invitation's link as the shipper uses it, with a parcel of the account's own and one of another
 * account's: what the portal's specs start from.
 */
export type Shipper = {
  email: string;
  password: string;
  ownRecipient: string;
  otherRecipient: string;
  ownParcelId: string;
};

export async function makeShipper(
  request: APIRequestContext,
  headers: Record<string, string>,
): Promise<Shipper> {
  const account = async (name: string) => {
    const made = await request.post('/api/accounts', {
      headers,
      data: {
        name,
        email: uniqueEmail('account'),
        address: { address: '1 Dock Rd', city: 'Portland', country: 'US' },
      },
    });
    expect(made.status()).toBe(201);
    return ((await made.json()) as { account: { id: string } }).account.id;
  };
  const [own, other] = [await account(uniqueName('Shop')), await account(uniqueName('Other'))];
  const email = uniqueEmail('shipper');
  const invited = await request.post(`/api/accounts/${own}/users`, {
    headers,
    data: { name: 'Sam Shipper', email },
  });
  expect(invited.status()).toBe(201);
  const mail = await waitForMail(email);
  const link = /https?:\/\/\S+(\/account\/access\/\S+)/.exec(mail.text ?? '')![1]!;
  const password = 'shipper-e2e-password';
  const chosen = await request.post(link, {
    form: { password, confirm: password },
    headers: { origin: test.info().project.use.baseURL! },
    maxRedirects: 0,
  });
  expect(chosen.status()).toBe(302);
  const parcel = async (accountId: string, recipient: string) => {
    const made = await request.post('/api/parcels', {
      headers,
      data: { accountId, recipient: { name: recipient, address: '2 High St, Portland' } },
    });
    expect(made.status()).toBe(201);
    return ((await made.json()) as { parcel: { id: string } }).parcel.id;
  };
  const [ownRecipient, otherRecipient] = [uniqueName('Own Ada'), uniqueName('Other Bea')];
  const ownParcelId = await parcel(own, ownRecipient);
  await parcel(other, otherRecipient);
  return { email, password, ownRecipient, otherRecipient, ownParcelId };
}

/** Signs the shipper in to the portal through the sign-in form's action, for the page's browser. */
export async function signInShipper(page: Page, shipper: Shipper) {
  const signedIn = await page.request.post('/account/sign-in', {
    form: { email: shipper.email, password: shipper.password },
    headers: { origin: test.info().project.use.baseURL! },
    maxRedirects: 0,
  });
  expect(signedIn.status()).toBe(302);
}
