import { expect, test, type Page } from '@playwright/test';
import { NO_JS, test as signedIn } from './support/fixtures';
import { E2E_ADMIN, toastRegion } from './support/helpers';

// Signing in hashes the password on purpose (scrypt), which is slow on a busy machine.
const SIGN_IN_TIMEOUT = { timeout: 20_000 };
test.describe.configure({ timeout: 60_000 });

async function fillLogin(page: Page, username: string, password: string) {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test(
  'a wrong password shows the message; the right one opens the dashboard with a toast',
  NO_JS,
  async ({ page }) => {
    await page.goto('/management/access');
    await expect(page.getByLabel('Username')).toHaveAttribute('required', '');
    await expect(page.getByLabel('Password')).toHaveAttribute('required', '');

    await fillLogin(page, E2E_ADMIN.username, 'definitely-not-the-password');
    await expect(
      page.getByRole('alert').filter({ hasText: 'Invalid credentials. Please try again.' }),
    ).toBeVisible(SIGN_IN_TIMEOUT);
    await expect(page).toHaveURL(/\/management\/access/);
    await expect(page.getByLabel('Username')).toHaveValue(E2E_ADMIN.username);

    await fillLogin(page, E2E_ADMIN.username, E2E_ADMIN.password);
    await expect(page).toHaveURL(/\/dashboard$/, SIGN_IN_TIMEOUT);
    await expect(toastRegion(page)).toContainText('Login successful');
    await expect(toastRegion(page)).toContainText('Welcome to the management dashboard!');

    const header = page.getByRole('banner');
    await expect(header).toContainText('Management');
    await expect(header).toContainText('Admin Dashboard');
    await expect(page.getByTestId('current-user')).toContainText('Administrator');
    await expect(page.getByTestId('current-user')).toContainText(/admin/i);
    await expect(header.getByRole('button', { name: 'Logout' })).toBeVisible();
  },
);

test('the guard sends a signed-out visitor to the login page and back afterwards', async ({
  page,
}) => {
  await page.goto('/dashboard/parcels');
  await expect(page).toHaveURL(/\/management\/access\?redirectTo=%2Fdashboard%2Fparcels$/);
  await fillLogin(page, E2E_ADMIN.username, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard\/parcels$/, SIGN_IN_TIMEOUT);
  await expect(page.getByRole('link', { name: 'Parcels' })).toHaveAttribute('aria-current', 'page');
});

signedIn(
  'the overview shows the four figures, their change and recent activity',
  async ({ page }) => {
    await page.goto('/dashboard');

    const tabs = page.getByRole('navigation', { name: 'Dashboard sections' });
    for (const name of ['Overview', 'Parcels', 'Tracking', 'Notifications', 'Receipts']) {
      await expect(tabs.getByRole('link', { name })).toBeVisible();
    }
    await expect(tabs.getByRole('link', { name: 'Overview' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    for (const title of ['Total Parcels', 'Active Parcels', 'Delivered Parcels', 'Total Revenue']) {
      await expect(page.getByText(title, { exact: true })).toBeVisible();
    }
    await expect(page.getByText('from last month')).toHaveCount(4);
    await expect(page.getByText(/^\$\d[\d,]*\.\d{2}$/)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();
    await expect(page.getByText('Failed to load dashboard statistics')).toHaveCount(0);
  },
);

test('Logout signs out and the dashboard asks for a sign-in again', NO_JS, async ({ page }) => {
  // A session of its own: the other tests' shared one must outlive this.
  await page.goto('/management/access');
  await fillLogin(page, E2E_ADMIN.username, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/, SIGN_IN_TIMEOUT);

  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/management\/access$/);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();

  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/management\/access\?redirectTo=%2Fdashboard$/);
});

signedIn('the tabs scroll sideways on a phone instead of wrapping', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/dashboard');
  const list = page.getByRole('navigation', { name: 'Dashboard sections' }).getByRole('list');
  const overflow = await list.evaluate((el) => getComputedStyle(el).overflowX);
  expect(overflow).toBe('auto');
  const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(pageWidth).toBeLessThanOrEqual(360);
});
