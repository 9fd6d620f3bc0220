import { expect, NO_JS, test } from './support/fixtures';
import { toastRegion, uniqueEmail, waitForMail } from './support/helpers';
import { makeShipper } from './support/portal';

// The shipper portal signed in as a shipper (no staff session): the sign-in form, the account's
// own parcels, and the Users page's invitation, with JavaScript and without.
test.use({ storageState: { cookies: [], origins: [] } });

test(
  'a shipper signs in, sees only its own parcels and invites a user, who chooses a password',
  NO_JS,
  async ({ page, request, admin }) => {
    const shipper = await makeShipper(request, admin);
    await page.goto('/account/sign-in');
    await page.getByLabel('Email').fill(shipper.email);
    await page.getByLabel('Password').fill(shipper.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();

    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Parcels' })
      .click();
    const table = page.getByRole('table', { name: 'Parcels' });
    await expect(table.getByRole('cell', { name: shipper.ownRecipient })).toBeVisible();
    await expect(page.getByText(shipper.otherRecipient)).toHaveCount(0);

    await page
      .getByRole('navigation', { name: 'Account' })
      .getByRole('link', { name: 'Users' })
      .click();
    const invitee = uniqueEmail('invitee');
    await page.getByLabel('Name').fill('Ivy Invitee');
    await page.getByLabel('Email').fill(invitee);
    await page.getByRole('button', { name: 'Invite user' }).click();
    await expect(toastRegion(page).getByText('Invitation sent')).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Users' }).getByRole('cell', { name: invitee, exact: true }),
    ).toBeVisible();

    // The invitation's link, as the invitee opens it: the page that must not pass its token on
    // still lets its own form through the server's same-origin check.
    const mail = await waitForMail(invitee);
    const link = /https?:\/\/\S+(\/account\/access\/\S+)/.exec(mail.text ?? '')![1]!;
    await page.context().clearCookies();
    await page.goto(link);
    await page.getByLabel('Password', { exact: true }).fill('invitee-e2e-password');
    await page.getByLabel('Repeat the password').fill('invitee-e2e-password');
    await page.getByRole('button', { name: 'Save and sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  },
);
