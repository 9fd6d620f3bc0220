import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { E2E_ADMIN, parcelCombobox, uniqueName, waitForMail } from './support/helpers';

// axe (WCAG 2.1 A and AA rules) on every screen of the app: public pages, sign-in, every
// dashboard tab and every dialog, at a phone's width and a desktop's, in both projects (with and
// without JavaScript). A new screen is added here when it is built.
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const WIDTHS = [
  { name: 'phone', width: 375, height: 740 },
  { name: 'desktop', width: 1280, height: 900 },
];

type Fixtures = {
  parcelId: string;
  trackingNumber: string;
  eventId: string;
  receiptId: string;
  userId: string;
  webhookId: string;
  apiKeyId: string;
  /** A pending subscription's confirmation link, a confirmed one's, and its unsubscribe link. */
  confirmPath: string;
  confirmedPath: string;
  unsubscribePath: string;
  subscriptionId: string;
};

const PUBLIC_SCREENS: Array<(trackingNumber: string) => string> = [
  () => '/',
  () => '/track',
  (number) => `/track?number=${number}`,
  (number) => `/track?number=${number}&subscribe=sent`,
  () => '/subscriptions/confirm?token=not-a-token',
  (number) => `/track?number=${number},XYZ000000000`,
  () => '/track?number=not-a-number',
  () => '/services',
  () => '/about',
  () => '/contact',
  () => '/quote',
  () => '/privacy-policy',
  () => '/terms-of-service',
  () => '/cookie-policy',
  () => '/no-such-page-here',
  () => '/management/access',
  () => '/api/docs',
];

const STAFF_SCREENS: Array<(f: Fixtures) => string> = [
  () => '/dashboard',
  () => '/dashboard/parcels',
  () => '/dashboard/parcels?search=no-such-parcel-anywhere',
  () => '/dashboard/parcels/new',
  () => '/dashboard/parcels/import',
  () => '/dashboard/inbox',
  () => '/dashboard/inbox?kind=quote&state=open',
  () => '/dashboard/inbox?kind=newsletter',
  (f) => `/dashboard/inbox/newsletter/${f.subscriptionId}`,
  (f) => `/dashboard/parcels/${f.parcelId}`,
  (f) => `/dashboard/parcels/${f.parcelId}/edit`,
  (f) => `/dashboard/parcels/${f.parcelId}/delete`,
  (f) => `/dashboard/parcels/delete?ids=${f.parcelId}`,
  () => '/dashboard/tracking',
  (f) => `/dashboard/tracking/${f.parcelId}`,
  (f) => `/dashboard/tracking/${f.parcelId}/events/new`,
  (f) => `/dashboard/tracking/${f.parcelId}/events/${f.eventId}/edit`,
  (f) => `/dashboard/tracking/${f.parcelId}/events/${f.eventId}/delete`,
  () => '/dashboard/notifications',
  () => '/dashboard/notifications/new',
  () => '/dashboard/receipts',
  () => '/dashboard/receipts/new',
  (f) => `/dashboard/receipts/${f.receiptId}/print`,
  (f) => `/dashboard/parcels/${f.parcelId}/history`,
  () => '/dashboard/notifications/templates',
  () => '/dashboard/notifications/templates/status-update',
  () => '/dashboard/notifications/settings',
  () => '/dashboard/users',
  () => '/dashboard/users/new',
  (f) => `/dashboard/users/${f.userId}`,
  () => '/dashboard/audit',
  () => '/dashboard/account',
  () => '/dashboard/settings',
  () => '/dashboard/settings/api-keys',
  (f) => `/dashboard/settings/api-keys?revoke=${f.apiKeyId}`,
  () => '/dashboard/settings/webhooks',
  (f) => `/dashboard/settings/webhooks/${f.webhookId}`,
  (f) => `/dashboard/settings/webhooks/${f.webhookId}?delete`,
];

const PLACEHOLDERS: Fixtures = {
  parcelId: ':parcelId',
  trackingNumber: ':trackingNumber',
  eventId: ':eventId',
  receiptId: ':receiptId',
  userId: ':userId',
  webhookId: ':webhookId',
  apiKeyId: ':apiKeyId',
  confirmPath: ':confirmPath',
  confirmedPath: ':confirmedPath',
  unsubscribePath: ':unsubscribePath',
  subscriptionId: ':subscriptionId',
};

/** The pages a subscriber reaches from the links in e-mails. */
const SUBSCRIPTION_SCREENS: Array<(f: Fixtures) => string> = [
  (f) => f.confirmPath,
  (f) => f.confirmedPath,
  (f) => f.unsubscribePath,
];

function linkIn(mail: ParsedMail, path: string): string {
  const match = new RegExp(`https?://\\S+${path}\\S*`).exec(mail.text ?? '');
  expect(match, path).not.toBeNull();
  const url = new URL(match![0]);
  return url.pathname + url.search;
}

/** Two visitors follow the parcel: one confirms and gets an update, the other has not confirmed. */
async function subscriptionLinks(
  request: APIRequestContext,
  parcel: { id: string; trackingNumber: string },
  headers: Record<string, string>,
) {
  const address = (who: string) =>
    `${uniqueName(`axe-${who}-${test.info().project.name}`).replace(/\s+/g, '-').toLowerCase()}@example.com`;
  const [pending, confirmed] = [address('pending'), address('confirmed')];
  for (const email of [pending, confirmed]) {
    const asked = await request.post(`/api/tracking/track/${parcel.trackingNumber}/subscriptions`, {
      data: { email },
    });
    expect(asked.status()).toBe(202);
  }
  const isConfirmation = (m: ParsedMail) => m.subject?.startsWith('Confirm') ?? false;
  const confirmPath = linkIn(await waitForMail(pending, isConfirmation), '/subscriptions/confirm');
  const confirmedPath = linkIn(
    await waitForMail(confirmed, isConfirmation),
    '/subscriptions/confirm',
  );
  const done = await request.post(confirmedPath, {
    headers: { origin: test.info().project.use.baseURL! },
    maxRedirects: 0,
  });
  expect(done.status()).toBe(302);
  const added = await request.post(`/api/tracking/${parcel.id}/events`, {
    headers,
    data: { status: 'Departed Facility', location: 'Boston hub', description: '' },
  });
  expect(added.status()).toBe(201);
  const update = await waitForMail(confirmed, (m) => !isConfirmation(m));
  return {
    confirmPath,
    confirmedPath,
    unsubscribePath: linkIn(update, '/subscriptions/unsubscribe'),
  };
}

// axe takes a few seconds on a long page of a busy machine.
test.describe.configure({ timeout: 60_000 });

let fixtures: Fixtures;

async function apiToken(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: E2E_ADMIN });
  return ((await login.json()) as { token: string }).token;
}

// A parcel of this file's own, with an event and a receipt, so other specs cannot delete it.
test.beforeAll(async ({ request }) => {
  const headers = { Authorization: `Bearer ${await apiToken(request)}` };
  const party = { name: 'Ada Access', email: 'ada@example.com', phone: '555-0100' };
  const created = await request.post('/api/parcels', {
    headers,
    data: {
      sender: { ...party, address: '1 Sender Way, Austin' },
      recipient: { ...party, address: '9 Elm St, Boston' },
      weight: 2,
      serviceType: 'Express',
    },
  });
  expect(created.status()).toBe(201);
  const { parcel } = (await created.json()) as { parcel: { id: string; trackingNumber: string } };
  const added = await request.post(`/api/tracking/${parcel.id}/events`, {
    headers,
    data: { status: 'In Transit', location: 'Boston hub', description: 'Arrived at the hub' },
  });
  expect(added.status()).toBe(201);
  const { event } = (await added.json()) as { event: { id: string } };
  const generated = await request.post(`/api/receipts/generate/${parcel.id}`, {
    headers,
    data: {},
  });
  expect(generated.status()).toBe(201);
  const { receipt } = (await generated.json()) as { receipt: { id: string } };
  const { user } = (await (await request.get('/api/auth/me', { headers })).json()) as {
    user: { id: string };
  };
  const hooked = await request.post('/api/webhooks', {
    headers,
    data: { url: 'http://127.0.0.1:9/hook', events: ['parcel.created'], description: 'Axe' },
  });
  expect(hooked.status()).toBe(201);
  const { webhook } = (await hooked.json()) as { webhook: { id: string } };
  // Paused: the other specs' parcels are not delivered to it.
  const paused = await request.put(`/api/webhooks/${webhook.id}`, {
    headers,
    data: { active: false },
  });
  expect(paused.status()).toBe(200);
  const keyed = await request.post('/api/api-keys', {
    headers,
    data: { name: 'Axe key', scopes: ['read'] },
  });
  expect(keyed.status()).toBe(201);
  const { apiKey } = (await keyed.json()) as { apiKey: { id: string } };
  const links = await subscriptionLinks(request, parcel, headers);
  // A newsletter subscription, as a visitor sends it, for the inbox's item page. (Quote requests
  // and contact messages are rate-limited per address, and other specs send those.)
  const subscriber = `axe.${Date.now().toString(36)}@example.com`;
  const subscribed = await request.post('/newsletter', {
    form: { email: subscriber, redirectTo: '/' },
    maxRedirects: 0,
  });
  expect(subscribed.status()).toBe(302);
  const signedIn = await request.post('/management/access', {
    form: E2E_ADMIN,
    headers: { origin: test.info().project.use.baseURL! },
    maxRedirects: 0,
  });
  expect(signedIn.status()).toBe(302);
  const inbox = await request.get(
    '/dashboard/inbox?kind=newsletter&_data=routes%2Fdashboard.inbox',
  );
  const { items } = (await inbox.json()) as { items: Array<{ id: string; email: string }> };
  const subscriptionId = items.find((item) => item.email === subscriber)!.id;
  fixtures = {
    ...links,
    subscriptionId,
    parcelId: parcel.id,
    trackingNumber: parcel.trackingNumber,
    eventId: event.id,
    receiptId: receipt.id,
    userId: user.id,
    webhookId: webhook.id,
    apiKeyId: apiKey.id,
  };
});

async function expectNoViolations(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(500);
  // With JavaScript, wait for network idle: by then the app has usually hydrated, so its dialogs are
  // what axe sees. Idle does not promise hydration; a page checked before it is the server's render,
  // which the project without JavaScript checks too. Without JavaScript, the load event the
  // navigation waited for is the finished page, and "network idle" after it (the browser starts and
  // drops the script preloads) once never came within the time limit.
  if (javaScript()) await page.waitForLoadState('networkidle');
  await expectNoViolationsHere(page, path);
}

/**
 * axe runs as a script in the page. Without JavaScript it cannot, so the page the browser
 * rendered without JavaScript is analysed in a second page: the same document, scripts removed
 * and `<noscript>` content shown, from the same address so its stylesheets load.
 */
function axe(page: Page) {
  return new AxeBuilder({ page }).withTags(WCAG);
}

async function analyze(page: Page) {
  const rendered = await page.content();
  // A sandboxed frame (the receipt preview) runs no script, axe's included: it is analysed in
  // the copy too, with scripts allowed in the frame (it has none of its own).
  const sandboxed = /<iframe[^>]*\ssandbox=""/.test(rendered);
  if (javaScript() && !sandboxed) return axe(page).analyze();
  const html = rendered
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<\/?noscript>/gi, '')
    .replace(/(<iframe[^>]*\s)sandbox=""/g, '$1sandbox="allow-scripts"');
  const context = await page.context().browser()!.newContext({
    javaScriptEnabled: true,
    viewport: page.viewportSize(),
  });
  try {
    const copy = await context.newPage();
    const url = page.url();
    await copy.route(
      (address) => address.href === url,
      (route) =>
        route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
    );
    // Nothing but styles and images: no script of the app's may run in the copy.
    await copy.route(/\.m?js(\?|$)/, (route) => route.abort());
    await copy.goto(url);
    return await axe(copy).analyze();
  } finally {
    await context.close();
  }
}

async function expectNoViolationsHere(page: Page, path = page.url()) {
  const { violations } = await analyze(page);
  const found = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
  expect(found, `${path} at ${page.viewportSize()?.width}px`).toEqual([]);
}

function javaScript() {
  return test.info().project.name === 'js';
}

/** Lets a form reach the server with empty required fields, as a tampered browser would. */
async function skipBrowserChecks(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => {
    for (const form of document.querySelectorAll('form')) form.noValidate = true;
  });
}

async function signInWithCookie(page: Page) {
  const baseURL = test.info().project.use.baseURL!;
  const answer = await page.request.post('/management/access', {
    form: E2E_ADMIN,
    headers: { origin: baseURL },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(302);
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    for (const [index, screen] of PUBLIC_SCREENS.entries()) {
      test(`public screen ${index + 1}: ${screen('…')}`, async ({ page }) => {
        await expectNoViolations(page, screen(fixtures.trackingNumber));
      });
    }

    for (const [index, screen] of SUBSCRIPTION_SCREENS.entries()) {
      test(`subscription screen ${index + 1}: ${screen(PLACEHOLDERS)}`, async ({ page }) => {
        await expectNoViolations(page, screen(fixtures));
      });
    }

    test('the subscribe form under a result showing its field error', async ({ page }) => {
      test.skip(!javaScript(), "without JavaScript the browser's own checks stop the submit");
      await page.goto(`/track?number=${fixtures.trackingNumber}`);
      await skipBrowserChecks(page);
      await page.getByLabel('Your e-mail address').fill('not-an-address');
      await page.getByRole('button', { name: 'Subscribe to updates' }).click();
      await expect(page.getByText('Enter a valid email address')).toBeVisible();
      await expectNoViolationsHere(page);
    });

    for (const [index, screen] of STAFF_SCREENS.entries()) {
      test(`staff screen ${index + 1}: ${screen(PLACEHOLDERS)}`, async ({ page }) => {
        await signInWithCookie(page);
        await expectNoViolations(page, screen(fixtures));
      });
    }

    test('the sign-in page with its error showing', async ({ page }) => {
      await page.goto('/management/access');
      await page.getByLabel('Username').fill('nobody');
      await page.getByLabel('Password').fill('wrong-password');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page.getByText('Invalid credentials')).toBeVisible();
      await expectNoViolationsHere(page);
    });

    test('the contact form showing its field errors', async ({ page }) => {
      test.skip(!javaScript(), "without JavaScript the browser's own checks stop the submit");
      await page.goto('/contact');
      await skipBrowserChecks(page);
      await page.getByRole('button', { name: 'Send Message' }).click();
      await expect(page.getByText('First name is required')).toBeVisible();
      await expectNoViolationsHere(page);
    });

    test("the parcel import showing a file's errors, then a file's preview", async ({ page }) => {
      await signInWithCookie(page);
      await page.goto('/dashboard/parcels/import');
      const upload = async (rows: string) => {
        await page.getByLabel('CSV file').setInputFiles({
          name: 'axe.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(`recipientName,recipientAddress,weight\n${rows}`),
        });
        await page.getByRole('button', { name: 'Upload and preview' }).click();
      };
      await upload('Axe One,1 St,1\n,2 St,heavy');
      await expect(page.getByRole('table', { name: 'Errors by row' })).toBeVisible();
      await expectNoViolationsHere(page);
      await upload('Axe One,1 St,1\nAxe Two,2 St,2');
      await expect(page.getByRole('button', { name: 'Import 2 parcels' })).toBeVisible();
      await expectNoViolationsHere(page);
    });

    // One test per picker: on a busy two-core machine one page's checks take up to half a minute,
    // so each page has the time limit to itself.
    for (const [path, label] of [
      ['/dashboard/notifications/new', 'Parcel'],
      ['/dashboard/receipts/new', 'Parcel'],
      ['/dashboard/tracking', 'Search parcels'],
    ] as const) {
      test(`the parcel picker on ${path} as a combobox with its options open`, async ({ page }) => {
        test.skip(!javaScript(), 'without JavaScript the pickers are a search form and a select');
        await signInWithCookie(page);
        await page.goto(path);
        const input = await parcelCombobox(page, label);
        await input.press('ArrowDown');
        // Shown once the options (the newest parcels) have arrived.
        await expect(page.getByRole('listbox')).toBeVisible();
        await expect(page.getByRole('option').first()).toBeVisible();
        await input.press('ArrowDown');
        await expectNoViolationsHere(page);
      });
    }

    test('the create parcel dialog showing its field errors', async ({ page }) => {
      test.skip(!javaScript(), "without JavaScript the browser's own checks stop the submit");
      await signInWithCookie(page);
      await page.goto('/dashboard/parcels/new');
      await skipBrowserChecks(page);
      await page.getByRole('dialog').getByRole('button', { name: 'Create Parcel' }).click();
      await expect(
        page
          .getByRole('dialog')
          .getByText(/is required/)
          .first(),
      ).toBeVisible();
      await expectNoViolationsHere(page);
    });
  });
}
