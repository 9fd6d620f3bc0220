import { expect, test } from '@playwright/test';
import { PUBLIC_PAGES } from '../support/public-pages';
import { NO_JS } from './support/fixtures';
import { listedTrackingNumbers, toastRegion } from './support/helpers';

test.describe('the home page', () => {
  test('nothing moves once the home page has loaded', async ({ page, javaScriptEnabled }) => {
    test.skip(!javaScriptEnabled, 'Layout shifts are measured by a script in the page.');
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/');
    await page.waitForTimeout(1_000);
    const shift = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
              total += entry.value;
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(total), 500);
        }),
    );
    expect(shift).toBe(0);
  });
});

test.describe('narrow screens', () => {
  for (const width of [320, 375]) {
    test(`nothing overflows sideways at ${width} px`, async ({ page, request }) => {
      const numbers = await listedTrackingNumbers(request, 'limit=3');
      await page.setViewportSize({ width, height: 720 });
      for (const path of [
        ...PUBLIC_PAGES,
        `/track?number=${numbers[0]}`,
        `/track?number=${numbers.join(',')},ZZZ000000000,bad`,
        '/management/access',
      ]) {
        await page.goto(path);
        const widths = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          inner: window.innerWidth,
        }));
        expect(widths.scroll, path).toBeLessThanOrEqual(widths.inner);
      }
      // The figures fit inside their cards.
      for (const path of ['/', '/about', '/services']) {
        await page.goto(path);
        const spilled = await page
          .locator('dd')
          .evaluateAll((nodes) =>
            nodes
              .filter((node) => node.scrollWidth > node.clientWidth + 1)
              .map((node) => node.textContent),
          );
        expect(spilled, path).toEqual([]);
      }
    });
  }
});

/**
 * A flash message on a public page (here the newsletter's refusal of a malformed address, which
 * counts against no limit): shown once, never stored, full width on a phone, closable without
 * JavaScript.
 */
test(
  'a flash message shows on a page the browser had kept, spans a phone, and closes',
  NO_JS,
  async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 720 });
    await page.goto('/privacy-policy');
    const footer = page.getByRole('contentinfo');
    await footer
      .locator('form[action="/newsletter"]')
      .evaluate((form) => form.setAttribute('novalidate', ''));
    await footer.getByLabel('Email address').fill('not-an-address');
    const answer = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/privacy-policy' && response.status() === 200,
    );
    await footer.getByRole('button', { name: 'Subscribe' }).click();
    // The page had been kept by the browser for five minutes, yet it is asked for again
    // (Vary: Cookie) and the answer, which clears the message, is not stored.
    expect((await answer).headers()['cache-control']).toBe('private, no-store');
    const toast = toastRegion(page).locator('[data-toast-type]');
    await expect(toast).toContainText('Subscription failed');

    const box = (await toast.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(8);
    expect(box.x).toBeLessThanOrEqual(16);
    expect(Math.round(375 - box.x - box.width)).toBe(Math.round(box.x));

    await toast.getByLabel('Dismiss notification').click();
    await expect(toastRegion(page).getByText('Subscription failed')).toBeHidden();
  },
);
