import { expect, test } from '@playwright/test';
import { NO_JS } from './support/fixtures';

test(
  'the header’s Get Quote leads to /quote, which prices a parcel per service',
  NO_JS,
  async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Get Quote' }).first().click();
    await expect(page).toHaveURL(/\/quote$/);
    const to = page.getByRole('group', { name: 'To' });
    await to.getByLabel('Country (2-letter code)').fill('US');
    await to.getByLabel('Postcode').fill('62701');
    await page.getByLabel('Weight (kg)').fill('0.8');
    await page.getByLabel('Length (cm)').fill('20');
    await page.getByLabel('Width (cm)').fill('15');
    await page.getByLabel('Height (cm)').fill('10');
    await page.getByRole('button', { name: 'Show prices' }).click();
    const prices = page.getByRole('heading', { name: 'Prices for your parcel' });
    await expect(prices).toBeVisible();
    const service = (name: string) =>
      page.locator('#prices').getByRole('listitem').filter({ hasText: name });
    await expect(service('Standard')).toContainText('$9.99');
    await expect(service('Premium')).toContainText('$19.99');
    // The request form for freight and custom work stays.
    await expect(page.getByRole('button', { name: 'Request Quote' })).toBeVisible();
  },
);
