import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { NO_JS } from './support/fixtures';
import { listedTrackingNumbers, signIn } from './support/helpers';

// The seeded demo parcels exist on the fresh e2e database; find one through the public API. The
// oldest In Transit parcel is a demo parcel with its events (other specs make newer ones, some
// with a status but no events).
async function demoTrackingNumber(request: APIRequestContext) {
  const [number] = await listedTrackingNumbers(
    request,
    'status=In%20Transit&sort=createdAt&order=asc&limit=1',
  );
  return number!;
}

/** A demo parcel's result, in a window `width` by `height` px. */
async function openDemoResult(
  page: Page,
  request: APIRequestContext,
  width: number,
  height: number,
) {
  const number = await demoTrackingNumber(request);
  await page.setViewportSize({ width, height });
  await page.goto(`/track?number=${number}`);
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
    await expect(page.getByText('Latest', { exact: true })).toBeVisible();
  });

  test('at 320 px the headline, the latest event and the expected date are on the first screen', async ({
    page,
    request,
  }) => {
    await openDemoResult(page, request, 320, 568);
    const firstScreen = async (text: string | RegExp) => {
      const box = await page.getByText(text).first().boundingBox();
      expect(box, `${text} is shown`).not.toBeNull();
      expect(box!.y + box!.height, `${text} ends within the first screen`).toBeLessThanOrEqual(568);
      expect(box!.x + box!.width).toBeLessThanOrEqual(320);
    };
    await firstScreen(/^Arriving |^Running late/);
    await firstScreen('Latest event');
    await firstScreen('Expected delivery');
    await expect(
      page.getByRole('list', { name: 'Progress' }).locator('[aria-current="step"]'),
    ).toHaveText(/In transit/);
  });

  test('at 375 px every control of a result is a target of 24 px or more, its buttons and fields 44 px', async ({
    page,
    request,
  }) => {
    await openDemoResult(page, request, 375, 812);
    await page.locator('#manage summary').click();
    const sizes = await page.locator('main').evaluate((main) =>
      [...main.querySelectorAll('a, button, input, select, textarea, summary')]
        // A link inside a sentence is exempt (WCAG 2.2, 2.5.8); hidden inputs are not controls.
        // The honeypot is hidden from people and assistive technology alike.
        .filter((el) => !el.closest('p, [aria-hidden="true"]') && el.getClientRects().length > 0)
        .map((el) => {
          const box = el.getBoundingClientRect();
          const primary = el.matches('button, input:not([type=checkbox]), select, textarea');
          return { what: el.outerHTML.slice(0, 80), height: box.height, primary };
        }),
    );
    expect(sizes.length).toBeGreaterThan(5);
    for (const { what, height, primary } of sizes)
      expect(height, what).toBeGreaterThanOrEqual(primary ? 44 : 24);
  });

  test('typing a number in the box looks it up', NO_JS, async ({ page, request }) => {
    const number = await demoTrackingNumber(request);
    await page.goto('/track');
    await page.getByLabel('Tracking number').fill(`  ${number}  `);
    await page.getByRole('button', { name: 'Track' }).click();
    // With JavaScript the box trims before navigating; without, the server trims what it was sent.
    await expect(page).toHaveURL(new RegExp(`number=(\\+|%20)*${number}(\\+|%20)*$`));
    await expect(page.getByRole('heading', { name: number })).toBeVisible();
  });
});

test('the home page’s tracking field is on the first screen at 320 and 375 px', async ({
  page,
}) => {
  for (const [width, height] of [
    [320, 568],
    [375, 667],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/');
    for (const control of [
      page.getByRole('textbox', { name: 'Tracking number' }),
      page.getByRole('button', { name: 'Track Package' }),
    ]) {
      const box = (await control.boundingBox())!;
      expect(box.y + box.height, `at ${width} px`).toBeLessThanOrEqual(height);
    }
  }
});

test('staff pages stay behind sign-in while tracking is public', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/management\/access/);
  await signIn(page);
});

test.describe('tracking several parcels at once', () => {
  test('/track?number=A,B,C shows one summary per number, each leading to its result', async ({
    page,
    request,
  }) => {
    const [a, b] = await listedTrackingNumbers(request, 'limit=2');
    await page.goto(`/track?number=${a},${b!.toLowerCase()},ZZZ999999998,${a}`);
    await expect(page).toHaveTitle('3 tracking numbers · SwiftShip Courier');
    const rows = page.locator('[data-tracking-summary]');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0).getByRole('link', { name: a! })).toBeVisible();
    await expect(rows.nth(0).getByText('Latest event')).toBeVisible();
    await expect(rows.nth(0).locator('[data-headline]')).toHaveText(/\w/);
    await expect(rows.nth(1).getByRole('link', { name: b! })).toBeVisible();
    await expect(rows.nth(2)).toContainText('ZZZ999999998');
    await expect(rows.nth(2)).toContainText('Tracking number not found');
    await expect(rows.nth(2).getByRole('link')).toHaveCount(0);

    await rows.nth(1).getByRole('link', { name: b! }).click();
    await expect(page).toHaveURL(new RegExp(`/track\\?number=${b}$`));
    await expect(page.getByRole('heading', { name: b! })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Tracking history' })).toBeVisible();
  });

  test('the home box takes numbers separated by commas, spaces or new lines', async ({
    page,
    request,
  }) => {
    const [a, b, c] = await listedTrackingNumbers(request, 'limit=3');
    await page.goto('/');
    const field = page.getByRole('textbox', { name: 'Tracking number' });
    // Lines pasted into a one-line field arrive separated by spaces.
    await field.fill(`${a}, ${b}\n${c}`);
    await field.press('Enter');
    await expect(page).toHaveURL(/\/track\?number=/);
    await expect(page.locator('[data-tracking-summary]')).toHaveCount(3);
  });
});
