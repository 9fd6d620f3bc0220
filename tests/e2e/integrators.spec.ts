import type { Locator, Page } from '@playwright/test';
import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import { toastRegion, uniqueName } from './support/helpers';

/**
 * API keys and webhooks from the dashboard's Settings (with and without JavaScript), against the
 * production build. What an integrator sees over HTTP is checked without a browser, in
 * tests/server/api-from-outside.test.ts.
 */

/** A confirmation takes the focus with JavaScript; without it, its fragment scrolls it into view. */
async function expectBroughtForward(page: Page, confirm: Locator, id: string) {
  if (javaScriptOn()) await expect(confirm.getByRole('heading')).toBeFocused();
  else await expect(page).toHaveURL(new RegExp(`#${id}$`));
  await expect(confirm).toBeInViewport();
}

test(
  'an admin creates and revokes an API key in Settings; the key works until revoked',
  NO_JS,
  async ({ page, playwright }) => {
    const name = uniqueName('Key');
    // The integrator's own client: no session cookie, only the key.
    const request = await playwright.request.newContext({
      baseURL: test.info().project.use.baseURL,
      storageState: undefined,
    });
    await page.goto('/dashboard/settings/api-keys');
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Dashboard sections' })).toContainText(
      'Settings',
    );

    // Without a scope the form says so and creates nothing.
    await page.getByLabel('Name').fill(name);
    await page.getByLabel(/^Read:/).uncheck();
    await page.getByRole('button', { name: 'Create API key' }).click();
    await expect(page.getByText('Choose at least one scope')).toBeVisible();

    await page.getByLabel(/^Write:/).check();
    await page.getByLabel(/^Read:/).check();
    await page.getByRole('button', { name: 'Create API key' }).click();
    await expect(page.getByRole('heading', { name: `New API key: ${name}` })).toBeVisible();
    const key = await page.getByLabel('API key', { exact: true }).inputValue();
    expect(key).toMatch(/^sk_/);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('read, write');
    await expect(row).toContainText(key.slice(0, 11));
    await expect(row).not.toContainText(key);

    const created = await request.post('/api/parcels', {
      headers: { Authorization: `Bearer ${key}` },
      data: { recipient: { name: 'Key Holder', address: '1 Key St' } },
    });
    expect(created.status()).toBe(201);

    // Shown once: a reload shows the list, never the key.
    await page.goto('/dashboard/settings/api-keys');
    await expect(page.getByRole('heading', { name: /New API key/ })).toHaveCount(0);
    await expect(page.getByRole('row', { name: new RegExp(name) })).not.toContainText('Never');

    // Revoking asks first; until it is confirmed, or after Cancel, the key still works.
    await page.getByRole('link', { name: `Revoke ${name}` }).click();
    const confirm = page.getByRole('region', { name: `Revoke the API key “${name}”?` });
    await expect(confirm).toBeVisible();
    await expectBroughtForward(page, confirm, 'revoke-key');
    await confirm.getByRole('link', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    const still = await request.get('/api/auth/me', {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(still.status()).toBe(200);
    await page.getByRole('link', { name: `Revoke ${name}` }).click();
    await confirm.getByRole('button', { name: 'Revoke API key' }).click();
    await expect(toastRegion(page)).toContainText('API key revoked');
    await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
    const after = await request.get('/api/auth/me', {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(after.status()).toBe(401);
    await request.dispose();
  },
);

test('an admin adds, pauses and deletes a webhook in Settings', NO_JS, async ({ page }) => {
  await page.goto('/dashboard/settings/webhooks');
  const url = `http://127.0.0.1:9/${uniqueName('hook').replace(/\s+/g, '-')}`;
  await page.getByLabel('Endpoint URL').fill(url);
  await page.getByLabel('Description').fill('Nobody listens here');
  await page.getByLabel('parcel.deleted').check();
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await expect(page.getByRole('heading', { name: `New webhook: ${url}` })).toBeVisible();
  await expect(page.getByLabel('Signing secret')).toHaveValue(/^whsec_/);
  await page.getByRole('link', { name: `Manage ${url}` }).click();
  await expect(page.getByRole('heading', { name: `Webhook ${url}` })).toBeVisible();
  await page.getByLabel('Active (deliver events to this endpoint)').uncheck();
  await page.getByRole('button', { name: 'Save webhook' }).click();
  await expect(toastRegion(page)).toContainText('Webhook updated');
  await expect(page.getByLabel('Active (deliver events to this endpoint)')).not.toBeChecked();
  await page.getByRole('link', { name: 'Delete webhook' }).click();
  const confirm = page.getByRole('region', { name: `Delete the webhook ${url}?` });
  await expectBroughtForward(page, confirm, 'delete-webhook');
  await confirm.getByRole('button', { name: 'Delete webhook' }).click();
  await expect(toastRegion(page)).toContainText('Webhook deleted');
  await expect(page.getByRole('link', { name: `Manage ${url}` })).toHaveCount(0);
});
