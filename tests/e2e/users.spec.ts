import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import { toastRegion, uniqueName } from './support/helpers';

test(
  'an admin adds a viewer with a temporary password; the viewer changes it and can only read',
  NO_JS,
  async ({ page, browser }) => {
    test.setTimeout(120_000);
    const username = uniqueName('viewer').replace(/\s+/g, '-').toLowerCase();
    await page.goto('/dashboard/users');
    await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
    await page.getByRole('link', { name: 'Add User' }).click();
    await page.getByLabel('Username', { exact: true }).fill(username);
    await page.getByLabel('Name', { exact: true }).fill('Vera Viewer');
    await page.getByLabel('Role').selectOption('viewer');
    await page.getByRole('button', { name: 'Add User' }).click();
    const shown = page.getByTestId('temporary-password');
    await expect(shown).toBeVisible();
    const temporary = (await shown.textContent())!.trim();
    expect(temporary.length).toBeGreaterThanOrEqual(12);

    await page.getByRole('link', { name: 'Back to users' }).click();
    const row = page.getByRole('row').filter({ hasText: username });
    await expect(row).toContainText('viewer');
    await expect(row).toContainText('Temporary password');

    // The new user signs in in another browser, must choose a password, then only reads.
    const context = await browser.newContext({
      javaScriptEnabled: javaScriptOn(),
      storageState: undefined,
    });
    const other = await context.newPage();
    await other.goto('/management/access');
    await other.getByLabel('Username', { exact: true }).fill(username);
    await other.getByLabel('Password').fill(temporary);
    await other.getByRole('button', { name: 'Sign In' }).click();
    await expect(other).toHaveURL(/\/dashboard\/account$/);
    await expect(other.getByText('You signed in with a temporary password.')).toBeVisible();
    await other.getByLabel('Current password').fill(temporary);
    await other.getByLabel('New password', { exact: true }).fill('vera-own-password');
    await other.getByLabel('Repeat new password').fill('vera-own-password');
    await other.getByRole('button', { name: 'Change password' }).click();
    await expect(toastRegion(other)).toContainText('Password changed');

    await other.goto('/dashboard/parcels');
    await expect(other.getByRole('heading', { name: 'Parcel Management' })).toBeVisible();
    await expect(other.getByRole('link', { name: 'Create Parcel' })).toHaveCount(0);
    await expect(other.getByRole('link', { name: 'Users' })).toHaveCount(0);
    await other.goto('/dashboard/parcels/new');
    await expect(other.getByText('This needs the staff role')).toBeVisible();

    // Disabled: the next request is signed out.
    await page.getByRole('link', { name: username }).click();
    await page.getByRole('button', { name: 'Disable user' }).click();
    await expect(toastRegion(page)).toContainText('User disabled');
    await other.goto('/dashboard/parcels');
    await expect(other).toHaveURL(/\/management\/access/);
    await context.close();

    await page.getByRole('button', { name: 'Enable user' }).click();
    await expect(toastRegion(page)).toContainText('User enabled');
  },
);
