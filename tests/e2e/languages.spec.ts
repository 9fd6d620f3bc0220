import { expect, test } from '@playwright/test';
import { NO_JS } from './support/fixtures';
import { listedTrackingNumbers } from './support/helpers';

// The footer's language picker is a plain form, and Arabic pages mirror: at 375 px the page is
// right to left, the logo on the right, and nothing runs off the side, marketing pages' bodies included.
test(
  'the footer picker changes the language without JavaScript; the Arabic tracking result, home and services pages mirror at 375 px',
  NO_JS,
  async ({ page, request }) => {
    const [number] = await listedTrackingNumbers(request, 'sort=createdAt&order=asc&limit=1');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`/track?number=${number}`);
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    const logoLeft = (await page.getByRole('link', { name: /home$/ }).boundingBox())!;
    expect(logoLeft.x).toBeLessThan(375 / 2);

    await page.getByLabel('Language').selectOption('ar');
    await page.getByRole('button', { name: 'Change language' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { level: 1, name: 'تتبّع شحنة' })).toBeVisible();
    await expect(page.getByRole('heading', { name: number! })).toBeVisible();
    // Mirrored: the logo starts on the right, and the page is no wider than the screen.
    const logo = (await page.getByRole('link', { name: /^الصفحة الرئيسية/ }).boundingBox())!;
    expect(logo.x + logo.width).toBeGreaterThan(375 / 2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    // The choice stays: the next page is in Arabic too, the home page mirrored as well.
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const homeLogo = (await page.getByRole('link', { name: /^الصفحة الرئيسية/ }).boundingBox())!;
    expect(homeLogo.x + homeLogo.width).toBeGreaterThan(375 / 2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    // A marketing page's body in Arabic too: its table, plans and prices fit the screen.
    await page.goto('/services');
    await expect(
      page.getByRole('heading', { level: 1, name: 'خدمات شحن مصمَّمة حول مواعيدك' }),
    ).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
  },
);
