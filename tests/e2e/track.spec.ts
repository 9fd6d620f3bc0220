import { expect, test, type APIRequestContext } from '@playwright/test';
import { signIn } from './support/helpers';

// The seeded demo parcels exist on the fresh e2e database; find one through the public API.
async function demoTrackingNumber(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', {
    data: { username: 'admin', password: 'e2e-admin-password' },
  });
  expect(login.ok()).toBeTruthy();
  const { token } = await login.json();
  const list = await request.get('/api/parcels?status=In%20Transit&limit=1', {
    headers: { Authorization: `Bearer ${token}` },
  });
  const { parcels } = await list.json();
  return parcels[0].trackingNumber as string;
}

test.describe('tracking a parcel', () => {
  test('the track page shows the finished result from the URL', async ({ page, request }) => {
    const number = await demoTrackingNumber(request);
    await page.goto(`/track?number=${number.toLowerCase()}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Track Package' })).toBeVisible();
    await expect(page.getByRole('heading', { name: number })).toBeVisible();
    await expect(page.getByLabel('Tracking number')).toHaveValue(number.toLowerCase());
    await expect(page.getByText('In Transit').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Tracking history' })).toBeVisible();
    await expect(page.getByText('Latest')).toBeVisible();
  });

  test('typing a number in the box looks it up', async ({ page, request }) => {
    const number = await demoTrackingNumber(request);
    await page.goto('/track');
    await page.getByLabel('Tracking number').fill(`  ${number}  `);
    await page.getByRole('button', { name: 'Track' }).click();
    // With JavaScript the box trims before navigating; without, the server trims what it was sent.
    await expect(page).toHaveURL(new RegExp(`number=(\\+|%20)*${number}(\\+|%20)*$`));
    await expect(page.getByRole('heading', { name: number })).toBeVisible();
  });

  test('an empty box asks for a number', async ({ page }) => {
    await page.goto('/track');
    await page.getByLabel('Tracking number').fill('   ');
    await page.getByRole('button', { name: 'Track' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please enter a tracking number');
  });

  test('an unknown number says so', async ({ page }) => {
    await page.goto('/track');
    await page.getByLabel('Tracking number').fill('ZZZ999999999');
    await page.getByRole('button', { name: 'Track' }).click();
    await expect(page.getByRole('alert')).toHaveText('Tracking number not found');
  });

  test('a malformed number is explained', async ({ page }) => {
    await page.goto('/track');
    await page.getByLabel('Tracking number').fill('SWX12345');
    await page.getByRole('button', { name: 'Track' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Tracking numbers are three letters and nine digits, like ABC123456789',
    );
  });

  test('a parcel without events says there are none yet', async ({ page, request }) => {
    const login = await request.post('/api/auth/login', {
      data: { username: 'admin', password: 'e2e-admin-password' },
    });
    const { token } = await login.json();
    const list = await request.get('/api/parcels?status=Pending&limit=100', {
      headers: { Authorization: `Bearer ${token}` },
    });
    const { parcels } = await list.json();
    const quiet = parcels.find((p: { events?: unknown[] }) => (p.events ?? []).length === 0);
    test.skip(!quiet, 'no parcel without events');
    await page.goto(`/track?number=${quiet.trackingNumber}`);
    await expect(page.getByText('No tracking events found for this package.')).toBeVisible();
  });

  test('the result page needs no JavaScript at all', async ({ browser, request }) => {
    const number = await demoTrackingNumber(request);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`/track?number=${number}`);
    await expect(page.getByRole('heading', { name: number })).toBeVisible();
    await expect(page.getByText('Tracking history')).toBeVisible();
    await context.close();
  });
});

test('staff pages stay behind sign-in while tracking is public', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/management\/access/);
  await signIn(page);
});
