import AxeBuilder from '@axe-core/playwright';
import type {
  APIRequestContext,
  Browser,
  BrowserContext,
  Page,
  PlaywrightWorkerArgs,
} from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { expect, javaScriptOn, NO_JS, test } from './fixtures';
import { addEventThroughApi, uniqueEmail, uniqueName, waitForMail } from './helpers';

// axe (WCAG 2.1 A and AA rules) on every screen of the app: public pages, sign-in, every
// dashboard tab and every dialog. Each screen is loaded once and checked at a phone's width and a
// desktop's. Screens whose markup differs without JavaScript (dialogs, which are pages then, and
// the parcel pickers) are checked in both projects; the rest with JavaScript only. A new screen is
// added to the lists in accessibility-*.spec.ts when it is built.
const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
export const WIDTHS = [
  { width: 375, height: 740 },
  { width: 1280, height: 900 },
];

export type Fixtures = {
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
  /** A quote at the company's prices, for the visitor's booking form (/book?quote=). */
  quoteId: string;
};

export const PLACEHOLDERS: Fixtures = {
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
  quoteId: ':quoteId',
};

/**
 * A screen, and whether its markup differs without JavaScript (then both projects check it);
 * `slow` for a page so large that axe takes a good part of the time limit (three times as long).
 */
export type Screen = { path: (f: Fixtures) => string; withoutJavaScript?: boolean; slow?: boolean };

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
  const [pending, confirmed] = [uniqueEmail('axe-pending'), uniqueEmail('axe-confirmed')];
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
  await addEventThroughApi(request, headers, parcel.id, {
    status: 'Departed Facility',
    location: 'Boston hub',
  });
  const update = await waitForMail(confirmed, (m) => !isConfirmation(m));
  return {
    confirmPath,
    confirmedPath,
    unsubscribePath: linkIn(update, '/subscriptions/unsubscribe'),
  };
}

/**
 * A parcel of the caller's own, with an event, a receipt, a webhook, an API key, subscription
 * links and a newsletter subscriber, so other specs cannot delete what the screens show. Made as
 * the admin (its session and its token), whether or not the screens are then seen signed in.
 */
/** A small parcel from Portland to Springfield, as /quote's form and POST /api/quotes take it. */
const QUOTED_PARCEL = {
  from: { country: 'US', postalCode: '97201' },
  to: { country: 'US', postalCode: '62701' },
  weight: 0.8,
  dimensions: { length: 20, width: 15, height: 10 },
};

export async function makeFixtures({
  playwright,
  adminState,
  adminToken,
}: Pick<PlaywrightWorkerArgs, 'playwright'> & {
  adminState: Awaited<ReturnType<APIRequestContext['storageState']>>;
  adminToken: string;
}): Promise<Fixtures> {
  const request = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
    storageState: adminState,
  });
  try {
    return await makeFixturesWith(request, { Authorization: `Bearer ${adminToken}` });
  } finally {
    await request.dispose();
  }
}

async function makeFixturesWith(
  request: APIRequestContext,
  headers: { Authorization: string },
): Promise<Fixtures> {
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
  const event = await addEventThroughApi(request, headers, parcel.id, {
    status: 'In Transit',
    location: 'Boston hub',
    description: 'Arrived at the hub',
  });
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
  const subscriptionId = await newsletterSubscriber(request);
  const quoted = await request.post('/api/quotes', {
    headers,
    data: { ...QUOTED_PARCEL, serviceType: 'Express' },
  });
  expect(quoted.status()).toBe(201);
  const { quotes } = (await quoted.json()) as { quotes: { id: string }[] };
  return {
    quoteId: quotes[0]!.id,
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
}

/**
 * A newsletter subscriber for the inbox's item page: one that is there already, or one made as a
 * visitor makes it. (The public forms allow 5 submissions per address in 10 minutes, and every
 * worker of both projects makes these fixtures.)
 */
async function newsletterSubscriber(request: APIRequestContext) {
  const listed = async () => {
    const inbox = await request.get(
      '/dashboard/inbox?kind=newsletter&_data=routes%2Fdashboard.inbox',
    );
    expect(inbox.status()).toBe(200);
    return ((await inbox.json()) as { items: Array<{ id: string; email: string }> }).items;
  };
  const existing = await listed();
  if (existing.length > 0) return existing[0]!.id;
  const subscriber = `axe.${uniqueName('news').replace(/\s+/g, '-')}@example.com`;
  const subscribed = await request.post('/newsletter', {
    form: { email: subscriber, redirectTo: '/' },
    headers: { origin: test.info().project.use.baseURL! },
    maxRedirects: 0,
  });
  expect(subscribed.status()).toBe(302);
  return (await listed()).find((item) => item.email === subscriber)!.id;
}

/** Loads the screen once, then checks it at each width. */
/**
 * One test per screen, named `${kind} screen` and its number, each checked with axe at every
 * width against fixtures made once for the file (`made.fixtures`, for its other tests too); the
 * no-JavaScript project runs the screens marked withoutJavaScript.
 */
export function checkScreens(kind: string, screens: Screen[]): { fixtures: Fixtures } {
  const made = {} as { fixtures: Fixtures };
  // Both workers share the screens; axe takes a few seconds a width on a busy machine.
  test.describe.configure({ mode: 'parallel', timeout: 60_000 });
  test.beforeAll(async ({ playwright, adminState, adminToken }) => {
    made.fixtures = await makeFixtures({ playwright, adminState, adminToken });
  });
  for (const [index, screen] of screens.entries()) {
    test(
      `${kind} screen ${index + 1}: ${screen.path(PLACEHOLDERS)}`,
      screen.withoutJavaScript ? NO_JS : {},
      async ({ page }) => {
        test.slow(screen.slow === true);
        await expectNoViolations(page, screen.path(made.fixtures));
      },
    );
  }
  return made;
}

export async function expectNoViolations(page: Page, path: string) {
  await page.setViewportSize(WIDTHS[0]!);
  const response = await page.goto(path);
  expect(response?.status(), path).toBeLessThan(500);
  // With JavaScript, wait for network idle: by then the app has usually hydrated, so its dialogs are
  // what axe sees. Idle does not promise hydration; a page checked before it is the server's render,
  // which the project without JavaScript checks too where it differs. Without JavaScript, the load
  // event the navigation waited for is the finished page, and "network idle" after it (the browser
  // starts and drops the script preloads) once never came within the time limit.
  if (javaScriptOn()) await page.waitForLoadState('networkidle');
  await expectNoViolationsHere(page, path);
}

/** Checks the page as it is now at each width, the phone's first. */
export async function expectNoViolationsHere(page: Page, path = page.url()) {
  // Without JavaScript the document is the same at every width: one copy serves them all.
  const shared = javaScriptOn() ? undefined : await scriptlessCopy(page, await page.content());
  try {
    for (const size of WIDTHS) {
      if (page.viewportSize()?.width !== size.width) await page.setViewportSize(size);
      if (shared) await shared.page.setViewportSize(size);
      const { violations } = shared ? await axe(shared.page).analyze() : await analyze(page);
      const found = violations.map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
      );
      expect(found, `${path} at ${size.width}px`).toEqual([]);
    }
  } finally {
    await shared?.close();
  }
}

/**
 * axe's default run checks each frame apart and then gathers the results in a new blank page with
 * a second copy of axe, which costs as much as the check itself. A page without frames has
 * nothing to gather: axe checks it in one run in the page (axe-core's "legacy mode", the same
 * rules and results without the cross-origin frames it adds), about twice as fast.
 */
function axe(page: Page) {
  const builder = new AxeBuilder({ page }).withTags(WCAG);
  return page.frames().length > 1 ? builder : builder.setLegacyMode();
}

/**
 * axe runs as a script in the page. A sandboxed frame (the receipt preview) runs no script, axe's
 * included, so a page with one is analysed in a copy, as every page rendered without JavaScript is.
 */
async function analyze(page: Page) {
  const rendered = await page.content();
  if (!/<iframe[^>]*\ssandbox=""/.test(rendered)) return axe(page).analyze();
  const copy = await scriptlessCopy(page, rendered);
  try {
    return await axe(copy.page).analyze();
  } finally {
    await copy.close();
  }
}

/**
 * The document `rendered` in a second page: scripts removed and `<noscript>` content shown, from
 * the same address so its stylesheets load, with scripts allowed in a sandboxed frame (it has
 * none of its own), so that axe can run there.
 */
async function scriptlessCopy(page: Page, rendered: string) {
  const html = rendered
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<\/?noscript>/gi, '')
    .replace(/(<iframe[^>]*\s)sandbox=""/g, '$1sandbox="allow-scripts"');
  const copy = await (await copiesContext(page.context().browser()!)).newPage();
  try {
    await copy.setViewportSize(page.viewportSize()!);
    const url = page.url();
    await copy.route(
      (address) => address.href === url,
      (route) =>
        route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
    );
    // Nothing but styles and images: no script of the app's may run in the copy.
    await copy.route(/\.m?js(\?|$)/, (route) => route.abort());
    await copy.goto(url);
    return { page: copy, close: () => copy.close() };
  } catch (error) {
    await copy.close();
    throw error;
  }
}

/**
 * The copies' context, one per browser (a worker's) with JavaScript on: each copy is a page of its
 * own with its own routes, and the stylesheets and images load once for them all.
 */
const copies = new WeakMap<Browser, Promise<BrowserContext>>();
function copiesContext(browser: Browser) {
  let context = copies.get(browser);
  if (!context) copies.set(browser, (context = browser.newContext({ javaScriptEnabled: true })));
  return context;
}

/** Lets a form reach the server with empty required fields, as a tampered browser would. */
export async function skipBrowserChecks(page: Page) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => {
    for (const form of document.querySelectorAll('form')) form.noValidate = true;
  });
}
