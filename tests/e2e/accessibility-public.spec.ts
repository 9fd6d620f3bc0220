import {
  checkScreens,
  expectNoViolations,
  expectNoViolationsHere,
  skipBrowserChecks,
} from './support/accessibility';
import { makeShipper, signInShipper } from './support/portal';
import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';

// The public site and the pages a subscriber reaches from e-mails, seen signed out. They load
// none of the framework's JavaScript, so they are the same without it: checked once.
const made = checkScreens('public', [
  { path: () => '/' },
  { path: () => '/track' },
  { path: (f) => `/track?number=${f.trackingNumber}` },
  { path: (f) => `/track?number=${f.trackingNumber}&subscribe=sent` },
  // Right to left.
  { path: (f) => `/track?number=${f.trackingNumber}&lang=ar` },
  { path: () => '/subscriptions/confirm?token=not-a-token' },
  { path: (f) => `/track?number=${f.trackingNumber},XYZ000000000` },
  { path: () => '/track?number=not-a-number' },
  { path: () => '/services' },
  { path: () => '/about' },
  { path: () => '/contact' },
  { path: () => '/quote' },
  // Card payment is offered on the browser suite's server: each price has Book and pay.
  {
    path: () =>
      '/quote?fromCountry=US&fromPostalCode=97201&toCountry=US&toPostalCode=62701&weight=0.8&length=20&width=15&height=10',
  },
  { path: (f) => `/book?quote=${f.quoteId}` },
  { path: () => '/privacy-policy' },
  { path: () => '/terms-of-service' },
  { path: () => '/cookie-policy' },
  { path: () => '/no-such-page-here' },
  // The sign-in page keeps the framework: its no-JavaScript render is checked too.
  { path: () => '/management/access', withoutJavaScript: true },
  { path: () => '/account/sign-in' },
  // The whole API reference in one page: axe reads thousands of elements at each width.
  { path: () => '/api/docs', slow: true },
  { path: (f) => f.confirmPath },
  { path: (f) => f.confirmedPath },
  { path: (f) => f.unsubscribePath },
]);

test.use({ storageState: { cookies: [], origins: [] } });

test('the subscribe form under a result showing its field error', async ({ page }) => {
  // Without JavaScript the browser's own checks stop the submit.
  await page.goto(`/track?number=${made.fixtures.trackingNumber}`);
  await skipBrowserChecks(page);
  await page.getByLabel('Your e-mail address').fill('not-an-address');
  await page.getByRole('button', { name: 'Subscribe to updates' }).click();
  await expect(page.getByText('Enter a valid email address')).toBeVisible();
  await expectNoViolationsHere(page);
});

test('the sign-in page with its error showing', NO_JS, async ({ page }) => {
  await page.goto('/management/access');
  await page.getByLabel('Username').fill('nobody');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Invalid credentials')).toBeVisible();
  await expectNoViolationsHere(page);
});

test('the contact form showing its field errors', async ({ page }) => {
  // Without JavaScript the browser's own checks stop the submit.
  await page.goto('/contact');
  await skipBrowserChecks(page);
  await page.getByRole('button', { name: 'Send Message' }).click();
  const form = page.getByRole('form', { name: 'Send us a message' });
  await expect(form.getByText('First name is required')).toBeVisible();
  await expect(page.getByRole('link', { name: 'First name is required' })).toBeVisible();
  await expectNoViolationsHere(page);
});

// The portal's pages are the server's markup, the same with JavaScript or without: checked once,
// without it (axe then reads one copy of each page for both widths).
test("the portal's screens, signed in as a shipper", NO_JS, async ({ page, admin }) => {
  test.skip(javaScriptOn(), 'checked without JavaScript');
  test.setTimeout(60_000);
  const shipper = await makeShipper(page.request, admin);
  await signInShipper(page, shipper);
  for (const path of [
    '/account',
    '/account/parcels',
    `/account/parcels/${shipper.ownParcelId}`,
    '/account/users',
    '/account/api-keys',
    '/account/webhooks',
    '/account/send/bulk',
  ])
    await expectNoViolations(page, path);
});
