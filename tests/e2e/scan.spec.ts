import type { APIRequestContext, Page } from '@playwright/test';
import { expect, NO_JS, test } from './support/fixtures';
import { uniqueName } from './support/helpers';

async function newParcel(request: APIRequestContext, admin: { Authorization: string }) {
  const res = await request.post('/api/parcels', {
    headers: admin,
    data: {
      sender: { name: 'Sam Sender', address: '1 Sender Way, Austin' },
      recipient: { name: uniqueName('Scan Recipient'), address: '9 Elm St, Boston' },
    },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).parcel as { id: string; trackingNumber: string };
}

async function newDepot(request: APIRequestContext, admin: { Authorization: string }) {
  const name = uniqueName('North Depot');
  const res = await request.post('/api/depots', {
    headers: admin,
    data: { name, address: '5 Yard Rd', timeZone: 'America/Chicago' },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).depot as { id: string; name: string };
}

/** Visible controls smaller than 24 px either way (WCAG 2.2 2.5.8), by their markup. */
function smallTargets(page: Page) {
  return page.evaluate(() =>
    [
      ...document.querySelectorAll(
        'a[href], button, input:not([type="hidden"]), select, textarea, summary',
      ),
    ]
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      // Skip links and other visually hidden controls are 1 px until focused.
      .filter(({ box }) => box.width > 1 && box.height > 1)
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(({ element }) => element.outerHTML.slice(0, 120)),
  );
}

test('a scanner types numbers one after another on a phone; each can be undone', async ({
  page,
  request,
  admin,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const depot = await newDepot(request, admin);
  const first = await newParcel(request, admin);
  const second = await newParcel(request, admin);
  await page.goto(`/dashboard/scan?status=Arrived+at+Facility&depot=${depot.id}`);
  const field = page.getByLabel('Tracking number');
  await expect(field).toBeFocused();
  // Hydrated: the answers come without leaving the page from here on.
  await expect(page.getByText('Each scan of this session is listed below')).toBeVisible();

  await field.pressSequentially(first.trackingNumber);
  await field.press('Enter');
  const answer = page.getByRole('status').filter({ hasText: first.trackingNumber });
  await expect(answer).toContainText(`Now In Transit · Arrived at Facility at ${depot.name}`);
  await expect(field).toHaveValue('');
  await expect(field).toBeFocused();

  await field.pressSequentially(second.trackingNumber);
  await field.press('Enter');
  const list = page.getByRole('region', { name: 'This session’s scans' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(field).toBeFocused();

  await list.getByRole('button', { name: `Undo ${first.trackingNumber}` }).click();
  await expect(list.getByRole('listitem').filter({ hasText: first.trackingNumber })).toContainText(
    'Undone',
  );
  await expect(field).toBeFocused();
  const events = await request.get(`/api/tracking/${first.id}/events`, { headers: admin });
  expect((await events.json()).events).toEqual([]);

  // Nothing sits beside the station at 375 px: no sideways scrolling.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
});

test(
  'without JavaScript: choose once, then type a number and Enter',
  NO_JS,
  async ({ page, request, admin }) => {
    const depot = await newDepot(request, admin);
    const parcel = await newParcel(request, admin);
    await page.goto('/dashboard/scan');
    await page.getByLabel('Status', { exact: true }).selectOption('Out for Delivery');
    await page.getByLabel('Depot', { exact: true }).selectOption(depot.id);
    await page.getByRole('button', { name: 'Use these settings' }).click();
    await expect(page).toHaveURL(new RegExp(`depot=${depot.id}`));

    const field = page.getByLabel('Tracking number');
    await field.fill(parcel.trackingNumber.toLowerCase());
    await field.press('Enter');
    const answer = page.getByRole('status').filter({ hasText: parcel.trackingNumber });
    await expect(answer).toContainText('Now Out for Delivery');
    // The settings stay for the next scan.
    await expect(page.getByRole('button', { name: 'Record Out for Delivery' })).toBeVisible();
    const res = await request.get(`/api/parcels/${parcel.id}`, { headers: admin });
    expect((await res.json()).parcel.status).toBe('Out for Delivery');
  },
);

test(
  'a courier at the door on a phone: the scan answer’s Delivered opens the proof, one tap each',
  NO_JS,
  async ({ page, request, admin, baseURL }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const courier = {
      username: `door${test.info().project.name.replace(/\W/g, '')}${Date.now() % 1_000_000}`,
      password: 'door-courier-password',
    };
    const made = await request.post('/api/users', {
      headers: admin,
      data: {
        ...courier,
        name: 'Door Courier',
        email: `${courier.username}@example.com`,
        role: 'courier',
      },
    });
    expect(made.status()).toBe(201);
    // This page's session becomes the courier's. Without the worker's admin cookie: a sign-in
    // ends the session it was sent with, and the other tests of this worker still use that one.
    await page.context().clearCookies();
    const signedIn = await page.request.post('/management/access', {
      form: courier,
      headers: { origin: baseURL! },
      maxRedirects: 0,
    });
    expect(signedIn.status()).toBe(302);
    const parcel = await newParcel(request, admin);

    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/dashboard\/scan$/);
    await page.goto('/dashboard/scan?status=Out+for+Delivery&location=Van+7');
    const field = page.getByLabel('Tracking number');
    await field.fill(parcel.trackingNumber);
    await field.press('Enter');
    const answer = page.getByRole('status').filter({ hasText: parcel.trackingNumber });
    await expect(answer).toContainText('Now Out for Delivery');

    // Thumb-sized: the primary actions 44 px high, every control at least 24 px.
    const delivered = answer.getByRole('link', { name: 'Delivered' });
    const reason = answer.getByRole('button', { name: 'Recipient unavailable' });
    for (const target of [delivered, reason])
      expect((await target.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await smallTargets(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );

    await delivered.click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/scan/proof/${parcel.id}\\?`));
    await expect(page.getByLabel('Received by')).toBeFocused();
    expect(await smallTargets(page)).toEqual([]);
    await page.keyboard.type('Jo Porch');
    await page.getByRole('button', { name: 'Record proof of delivery' }).click();

    await expect(page.getByText('Proof of delivery recorded')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/scan\?status=Out\+for\+Delivery&location=Van\+7$/);
    await expect(page.getByLabel('Tracking number')).toBeVisible();
    const res = await request.get(`/api/parcels/${parcel.id}`, { headers: admin });
    expect((await res.json()).parcel.status).toBe('Delivered');
  },
);

test(
  'an admin allows Delivered by scan, a courier records one, and staff reopen the parcel with a reason',
  NO_JS,
  async ({ page, request, admin }) => {
    // No other spec scans Delivered: the setting is left on.
    await page.goto('/dashboard/settings/depots');
    await page.getByLabel(/Couriers may record Delivered with a scan/).check();
    await page
      .getByRole('region', { name: 'Deliveries' })
      .getByRole('button', { name: 'Save' })
      .click();
    await expect(page.getByText('Settings saved')).toBeVisible();

    const parcel = await newParcel(request, admin);
    await page.goto('/dashboard/scan?status=Delivered&location=Porch');
    await page.getByLabel('Received by').fill('Jo Porch');
    const field = page.getByLabel('Tracking number');
    await field.fill(parcel.trackingNumber);
    await field.press('Enter');
    const answer = page.getByRole('status').filter({ hasText: parcel.trackingNumber });
    await expect(answer).toContainText('Now Delivered');

    await page.goto(`/dashboard/parcels/${parcel.id}`);
    await page.getByRole('link', { name: 'Reopen' }).click();
    await page.getByLabel('Reason').fill('Left at the neighbour’s by mistake');
    await page.getByRole('button', { name: 'Reopen parcel' }).click();
    await expect(page.getByText('Parcel reopened')).toBeVisible();
    const res = await request.get(`/api/parcels/${parcel.id}`, { headers: admin });
    const { parcel: after } = await res.json();
    expect(after.status).toBe('In Transit');
    expect(after.events[0].description).toBe('Reopened: Left at the neighbour’s by mistake');
  },
);
