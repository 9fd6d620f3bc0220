import type { ParsedMail } from 'mailparser';
import { expect, NO_JS, test } from './support/fixtures';
import {
  addEventFromTrackingPage,
  addEventThroughApi,
  createParcelThroughApi,
  uniqueEmail,
  waitForMail,
} from './support/helpers';

test.describe.configure({ timeout: 90_000 });

/** The link in a message's text whose path starts with `path`. */
function linkIn(mail: ParsedMail, path: string): string {
  const match = new RegExp(`https?://\\S+${path}\\S*`).exec(mail.text ?? '');
  expect(match, `a ${path} link in "${mail.subject}"`).not.toBeNull();
  const url = new URL(match![0]);
  return url.pathname + url.search;
}

function rawHeader(mail: ParsedMail, name: string): string | undefined {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line?.slice(line.indexOf(':') + 1).trim();
}

test(
  'a visitor subscribes under a tracking result, confirms, gets the next event and unsubscribes',
  NO_JS,
  async ({ page, request, admin }, testInfo) => {
    const contact = { name: 'Fern Follow', email: 'fern@example.com', phone: '555-0100' };
    const parcel = await createParcelThroughApi(request, admin, {
      sender: contact,
      recipient: contact,
    });
    const email = uniqueEmail('follow');

    // The form under the result: a plain HTML form, the same with JavaScript or without.
    await page.goto(`/track?number=${parcel.trackingNumber}`);
    const section = page.getByRole('region', { name: 'Get e-mail updates' });
    await section.getByLabel('Your e-mail address').fill(email);
    await section.getByRole('button', { name: 'Subscribe to updates' }).click();
    await expect(page).toHaveURL(/subscribe=sent#subscribe$/);
    await expect(section.getByRole('status')).toContainText(
      'we have e-mailed you a link to confirm',
    );
    await expect(page.getByRole('heading', { name: parcel.trackingNumber })).toBeVisible();

    // The confirmation e-mail's link shows a button; the button confirms.
    const confirmation = await waitForMail(email, (m) => m.subject?.startsWith('Confirm') ?? false);
    expect(confirmation.subject).toBe(`Confirm e-mail updates for parcel ${parcel.trackingNumber}`);
    await page.goto(linkIn(confirmation, '/subscriptions/confirm\\?token='));
    await expect(page.getByText(email)).toBeVisible();
    await page.getByRole('button', { name: 'Confirm e-mail updates' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Subscribed' })).toContainText(
      parcel.trackingNumber,
    );

    // Staff add an event: the subscriber hears of it, with one-click unsubscribe.
    await page.goto(`/dashboard/tracking/${parcel.id}`);
    await expect(page.getByText('E-mail subscribers: 1', { exact: true })).toBeVisible();
    await addEventFromTrackingPage(page, 'Arrived at Facility', 'Memphis hub');
    const update = await waitForMail(email, (m) => m.subject?.startsWith('Status update') ?? false);
    expect(update.subject).toBe(`Status update for your parcel ${parcel.trackingNumber}`);
    expect(update.text).toContain('Latest update: Arrived at Facility · Memphis hub');
    const unsubscribe = linkIn(update, '/subscriptions/unsubscribe\\?token=');
    expect(rawHeader(update, 'List-Unsubscribe')).toBe(
      `<${new URL(unsubscribe.replace('/unsubscribe?', '/one-click?'), testInfo.project.use.baseURL).href}>`,
    );
    expect(rawHeader(update, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    // The visible link: a page with a button.
    await page.goto(unsubscribe);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'unsubscribed' })).toContainText(
      parcel.trackingNumber,
    );
    await page.reload();
    await expect(page.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);
  },
);

test('a mail client unsubscribes in one click, without cookies (RFC 8058)', async ({
  playwright,
  request,
  admin: headers,
}, testInfo) => {
  const contact = { name: 'Olga One-Click', email: 'olga@example.com', phone: '555-0100' };
  const parcel = await createParcelThroughApi(request, headers, {
    sender: contact,
    recipient: contact,
  });
  const email = uniqueEmail('oneclick');
  const asked = await request.post(`/api/tracking/track/${parcel.trackingNumber}/subscriptions`, {
    data: { email },
  });
  expect(asked.status()).toBe(202);
  const confirmation = await waitForMail(email, (m) => m.subject?.startsWith('Confirm') ?? false);
  const baseURL = testInfo.project.use.baseURL!;
  const confirmed = await request.post(linkIn(confirmation, '/subscriptions/confirm\\?token='), {
    headers: { origin: baseURL },
    maxRedirects: 0,
  });
  expect(confirmed.status()).toBe(302);
  await addEventThroughApi(request, headers, parcel.id, {
    status: 'In Transit',
    location: 'Denver',
  });
  const update = await waitForMail(email, (m) => m.subject?.startsWith('Status update') ?? false);

  // What a mail provider does with the header: a POST from elsewhere, no cookie, that body.
  const provider = await playwright.request.newContext();
  const target = rawHeader(update, 'List-Unsubscribe')!.replace(/^<|>$/g, '');
  const oneClick = await provider.fetch(target, {
    method: 'POST',
    headers: {
      origin: 'https://mail.example',
      'content-type': 'application/x-www-form-urlencoded',
    },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(oneClick.status()).toBe(200);
  await provider.dispose();

  await addEventThroughApi(request, headers, parcel.id, {
    status: 'Out for Delivery',
    location: 'Boston',
  });
  // The recipient's own automatic e-mail for Out for Delivery is sent after the event: once it
  // has arrived, the subscriber's would have too.
  await waitForMail(contact.email, (m) => m.subject?.includes(parcel.trackingNumber) ?? false);
  await expect(
    waitForMail(email, (m) => m.text?.includes('Latest update: Out for Delivery') ?? false, 3_000),
  ).rejects.toThrow(/No e-mail/);
});
