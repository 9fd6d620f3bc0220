import { expect, test, type Page } from '@playwright/test';
import { NO_JS } from './support/fixtures';
import { toastRegion, uniqueName, waitForMail } from './support/helpers';

test('the home tracking box trims the number and goes to the track page', async ({ page }) => {
  await page.goto('/');
  const field = page.getByRole('textbox', { name: 'Tracking number' });
  await expect(field).toHaveAttribute('placeholder', /SWX123456789/);
  await field.fill('  SWX123456789  ');
  await field.press('Enter');
  await expect(page).toHaveURL(/\/track\?number=/);
  const url = new URL(page.url());
  expect(url.searchParams.get('number')?.trim()).toBe('SWX123456789');
});

test('the Track Package button submits the tracking box', NO_JS, async ({ page }) => {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Tracking number' }).fill('abc123456789');
  await page.getByRole('button', { name: 'Track Package' }).click();
  await expect(page).toHaveURL(/\/track\?number=abc123456789$/);
});

test('an empty or blank tracking box does nothing', async ({ page }) => {
  await page.goto('/');
  const field = page.getByRole('textbox', { name: 'Tracking number' });
  await page.getByRole('button', { name: 'Track Package' }).click();
  await field.fill('    ');
  await field.press('Enter');
  await page.getByRole('button', { name: 'Track Package' }).click();
  await page.waitForTimeout(500);
  expect(new URL(page.url()).pathname).toBe('/');
  expect(new URL(page.url()).search).toBe('');
});

test('on a narrow screen the menu opens and its links work', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/');
  const mainNav = page.getByRole('navigation', { name: 'Main' });
  const menuLink = mainNav.locator('details').getByRole('link', { name: 'Services' });
  await expect(menuLink).toBeHidden();
  await mainNav.getByText('Menu').click();
  await expect(menuLink).toBeVisible();
  await menuLink.click();
  await expect(page).toHaveURL(/\/services$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Shipping services built around your deadlines' }),
  ).toBeVisible();
  await expect(menuLink).toBeHidden();
});

test('the header and footer links mark the current page and lead to their pages', async ({
  page,
}) => {
  await page.goto('/');
  const mainNav = page.getByRole('navigation', { name: 'Main' });
  const bar = mainNav.locator('ul').first();
  await expect(bar.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
  await bar.getByRole('link', { name: 'About' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(bar.getByRole('link', { name: 'About' })).toHaveAttribute('aria-current', 'page');
  await expect(bar.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  await page
    .getByRole('navigation', { name: 'Legal' })
    .getByRole('link', { name: 'Terms of Service' })
    .click();
  await expect(page).toHaveURL(/\/terms-of-service$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Terms');
  await page
    .getByRole('navigation', { name: 'Quick links' })
    .getByRole('link', { name: 'Get Quote' })
    .click();
  await expect(page).toHaveURL(/\/quote$/);
});

async function faqSummaries(page: Page) {
  const faq = page.locator('[data-faq="faq"]');
  return { faq, items: faq.locator('details') };
}

test('the home FAQ keeps one answer open at a time', async ({ page }) => {
  await page.goto('/');
  const { faq, items } = await faqSummaries(page);
  await expect(items).toHaveCount(6);
  await expect(faq.locator('details[open]')).toHaveCount(1);

  await faq.getByText('How long does delivery take?').click();
  await expect(items.nth(1)).toHaveAttribute('open', '');
  await expect(faq.locator('details[open]')).toHaveCount(1);
  await expect(faq.getByText(/Express delivers in 1-2 business days/)).toBeVisible();

  await faq.getByText('What happens if my parcel is damaged?').click();
  await expect(items.nth(3)).toHaveAttribute('open', '');
  await expect(faq.locator('details[open]')).toHaveCount(1);
  await expect(faq.getByText(/Express delivers in 1-2 business days/)).toBeHidden();
});

/** A slide's title, to check which slides are in view. */
function slideTitle(page: Page, title: string) {
  return page.locator('[data-slide-title]').filter({ hasText: title });
}

/**
 * Waits until the row has come to rest on the given slide (1-based). A smooth scroll passes
 * through the slides in between, and a link clicked while it moves is not where it was a moment
 * ago, so every click waits for the row to stop first.
 */
async function expectRestingOn(page: Page, slide: number, options?: { timeout?: number }) {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const row = document.getElementById('hero-slides');
          if (!row) return null;
          const position = row.scrollLeft / row.clientWidth;
          return Math.abs(position - Math.round(position)) < 0.01 ? Math.round(position) + 1 : null;
        }),
      options,
    )
    .toBe(slide);
}

/** Fakes the page's timers and holds time still until the test moves it with `runFor`. */
async function stopTheClock(page: Page) {
  // Installed, the fake clock runs on its own; pausing a minute later stops it (before any page).
  await page.clock.install({ time: new Date('2026-01-05T09:00:00Z') });
  await page.clock.pauseAt(new Date('2026-01-05T09:01:00Z'));
}

test(
  'every carousel slide is in the page, and its links move the carousel',
  NO_JS,
  async ({ page }) => {
    // The loop waits on a clock the test moves by hand, so it cannot turn the row mid-click.
    await stopTheClock(page);
    await page.goto('/');
    await expect(page.locator('[data-slide-title]')).toHaveCount(3);
    for (const title of ['Fast & Reliable Delivery', 'Worldwide Shipping', 'Track Every Step']) {
      await expect(page.getByRole('heading', { name: title })).toBeAttached();
    }
    await expect(slideTitle(page, 'Fast & Reliable Delivery')).toBeInViewport({ ratio: 0.9 });
    const first = page.locator('#hero-slide-1');
    await expect(first.getByRole('link', { name: /Show slide 1/ })).toHaveAttribute(
      'aria-current',
      'true',
    );
    await first.getByRole('link', { name: /Show slide 3/ }).click();
    await expectRestingOn(page, 3);
    await expect(slideTitle(page, 'Track Every Step')).toBeInViewport({ ratio: 0.9 });
    await expect(slideTitle(page, 'Fast & Reliable Delivery')).not.toBeInViewport();
    // Next from the last slide loops to the first; previous from the first to the last.
    await page.locator('#hero-slide-3').getByRole('link', { name: 'Next slide' }).click();
    await expectRestingOn(page, 1);
    await expect(slideTitle(page, 'Fast & Reliable Delivery')).toBeInViewport({ ratio: 0.9 });
    await first.getByRole('link', { name: 'Previous slide' }).click();
    await expectRestingOn(page, 3);
    await expect(slideTitle(page, 'Track Every Step')).toBeInViewport({ ratio: 0.9 });
    // The page itself stays where it was.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  },
);

test('the carousel advances every 5 seconds and keeps going after a click', async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, 'The loop is the one enhancement that needs JavaScript.');
  await stopTheClock(page);
  /** Slide `from` stays not quite 5 seconds, and then slide `to`, titled `title`, shows. */
  const fiveSecondsOn = async (from: number, to: number, title: string) => {
    await page.clock.runFor(4_900);
    await expectRestingOn(page, from);
    await page.clock.runFor(200);
    await expectRestingOn(page, to);
    await expect(slideTitle(page, title)).toBeInViewport({ ratio: 0.9 });
  };
  await page.goto('/');
  await expectRestingOn(page, 1);
  await fiveSecondsOn(1, 2, 'Worldwide Shipping');
  // A click gives the chosen slide its full 5 seconds.
  await page.clock.runFor(3_000);
  await page.locator('#hero-slide-2').getByRole('link', { name: 'Next slide' }).click();
  await expectRestingOn(page, 3);
  // Interaction does not stop the loop: it goes round to the first slide.
  await fiveSecondsOn(3, 1, 'Fast & Reliable Delivery');
  // Scrolling the row in place of the links' jump leaves the address as it was.
  expect(new URL(page.url()).hash).toBe('');
});

test('the services plans lead to a preselected quote form', async ({ page }) => {
  await page.goto('/services');
  await expect(page.getByText('Most Popular')).toBeVisible();
  await page.getByRole('link', { name: 'Choose Plan: Premium' }).click();
  await expect(page).toHaveURL(/\/quote\?plan=premium$/);
  await expect(
    page.locator('form[action^="/quote"]').getByLabel('Plan', { exact: true }),
  ).toHaveValue('premium');

  await page.goto('/services');
  await page.getByRole('link', { name: 'Contact Sales: Enterprise' }).click();
  await expect(page).toHaveURL(/\/quote\?plan=enterprise$/);
  await expect(
    page.locator('form[action^="/quote"]').getByLabel('Plan', { exact: true }),
  ).toHaveValue('enterprise');
});

test(
  'the contact form shows errors at the fields, then confirms a sent message',
  NO_JS,
  async ({ page }) => {
    await page.goto('/contact');
    const form = page.locator('form[action^="/contact"]');
    // Skip the browser's own checks to see the server's answer.
    await form.evaluate((el) => el.setAttribute('novalidate', ''));
    await form.getByLabel('First name').fill('Marie');
    await form.getByLabel('Email', { exact: true }).fill('marie@@example');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(form.getByText('Enter a valid email address')).toBeVisible();
    await expect(form.getByText('Last name is required')).toBeVisible();
    // The summary at the top of the page links to each refused field.
    await expect(page.getByRole('link', { name: 'Last name is required' })).toBeVisible();
    await expect(form.getByLabel('First name')).toHaveValue('Marie');
    await expect(form.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    const subject = uniqueName('Redirect parcel');
    await form.getByLabel('Last name').fill('Curie');
    await form.getByLabel('Email', { exact: true }).fill('marie@example.com');
    await form.getByLabel('Phone (optional)').fill('+33 1 23 45 67 89');
    await form.getByLabel('Subject').fill(subject);
    await form
      .getByLabel('Message', { exact: true })
      .fill('Please deliver SWX123456789 to my office instead of my home.');
    await form.getByRole('button', { name: 'Send Message' }).click();

    await expect(page).toHaveURL(/\/contact\?sent=1#sent$/);
    await expect(toastRegion(page).getByText('Message sent')).toBeVisible();
    await expect(page.getByText('Thank you! Your message has been sent.')).toBeVisible();

    const mail = await waitForMail('support@swiftship.example', (m) =>
      (m.subject ?? '').includes(subject),
    );
    expect(mail.replyTo?.text).toContain('marie@example.com');
    expect(mail.text).toContain('Please deliver SWX123456789 to my office');
  },
);

test('the footer newsletter confirms a subscription on the same page', NO_JS, async ({ page }) => {
  await page.goto('/about');
  const email = `${uniqueName('reader').replace(/\s+/g, '.')}@example.com`;
  await page.getByRole('contentinfo').getByLabel('Email address').fill(email);
  await page.getByRole('contentinfo').getByRole('button', { name: 'Subscribe' }).click();
  await expect(toastRegion(page).getByText('Subscribed')).toBeVisible();
  await expect(page).toHaveURL(/\/about$/);
});

test('a quote request is confirmed on the page', NO_JS, async ({ page }) => {
  await page.goto('/quote?plan=basic');
  const form = page.locator('form[action^="/quote"]');
  const destination = uniqueName('Toronto');
  await form.getByLabel('Name', { exact: true }).fill('Ines Duarte');
  await form.getByLabel('Email', { exact: true }).fill('ines@example.com');
  await form.getByLabel('Phone', { exact: true }).fill('+1 416 555 0101');
  await form.getByLabel('Shipments per month').selectOption('11-50');
  await form.getByLabel('Origin').fill('Buffalo, USA');
  await form.getByLabel('Destination').fill(destination);
  await form.getByRole('button', { name: 'Request Quote' }).click();

  await expect(page).toHaveURL(/\/quote\?sent=1#sent$/);
  await expect(toastRegion(page).getByText('Quote request received')).toBeVisible();
  const mail = await waitForMail('support@swiftship.example', (m) =>
    (m.text ?? '').includes(destination),
  );
  expect(mail.subject).toContain('Basic');
});
