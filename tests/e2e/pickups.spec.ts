import { expect, NO_JS, test } from './support/fixtures';
import { toastRegion, uniqueEmail, uniqueName, waitForMail } from './support/helpers';

// A shipper's browser: no staff session, which choosing a password would end for every other spec.
test.use({ storageState: { cookies: [], origins: [] } });

test(
  'a shipper requests a pickup in the portal',
  NO_JS,
  async ({ page, request, admin, baseURL }) => {
    const accountRes = await request.post('/api/accounts', {
      headers: admin,
      data: {
        name: uniqueName('Pickup Shop'),
        email: uniqueEmail('pickup-billing'),
        address: { address: '5 Dock Rd', city: 'Portland', country: 'US' },
      },
    });
    const { account } = (await accountRes.json()) as { account: { id: string } };
    const email = uniqueEmail('pickup-shipper');
    const invite = await request.post(`/api/accounts/${account.id}/users`, {
      headers: admin,
      data: { name: 'Pat Shipper', email },
    });
    expect(invite.status()).toBe(201);
    const mail = await waitForMail(email);
    const link = /https?:\/\/\S+\/account\/access\/\S+/.exec(mail.text ?? '')![0];

    // The password is chosen through the link's form (set up here); the shipper signs in.
    const chosen = await request.post(new URL(link).pathname, {
      form: { password: 'pickup-password-1', confirm: 'pickup-password-1' },
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
    expect(chosen.status()).toBe(302);
    await page.goto('/account/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('pickup-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/account$/);

    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Pickups' })
      .click();
    await expect(page).toHaveURL(/\/account\/pickups$/);
    await page.getByLabel('Parcels', { exact: true }).fill('4');
    await page.getByLabel('Notes (optional)').fill('Ring at the loading bay');
    await page.getByRole('button', { name: 'Request pickup' }).click();
    await expect(toastRegion(page)).toContainText('Pickup requested');
    const listed = page.getByRole('region', { name: 'Your pickups' }).getByRole('listitem');
    await expect(listed).toHaveCount(1);
    await expect(listed).toContainText('0 of 4 parcels in');
    await expect(listed).toContainText('5 Dock Rd, Portland');
  },
);
