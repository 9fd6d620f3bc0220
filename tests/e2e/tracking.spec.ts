import type { Page } from '@playwright/test';
import { expect, NO_JS, test } from './support/fixtures';
import {
  chooseParcel,
  createParcelThroughApi,
  eventFormReady,
  toastRegion,
  uniqueName,
} from './support/helpers';

type CreatedParcel = { id: string; trackingNumber: string; recipientName: string };

let parcel: CreatedParcel;

// Each project (with and without JavaScript) works on a parcel of its own.
test.beforeAll(async ({ request, adminToken }) => {
  const recipientName = uniqueName('Tracy Tracking');
  const { id, trackingNumber } = await createParcelThroughApi(
    request,
    { Authorization: `Bearer ${adminToken}` },
    {
      recipient: { name: recipientName, email: 'tracy@example.com' },
      weight: 2.5,
      serviceType: 'Express',
    },
  );
  parcel = { id, trackingNumber, recipientName };
});

async function expectPublicPage(
  page: Page,
  check: (result: ReturnType<Page['getByRole']>) => Promise<void>,
) {
  await page.goto(`/track?number=${parcel.trackingNumber}`);
  const result = page.getByRole('article', { name: parcel.trackingNumber });
  await expect(result).toBeVisible();
  await check(result);
}

test(
  'select a parcel, then add, edit and delete a tracking event; the public page follows',
  NO_JS,
  async ({ page, javaScriptEnabled }) => {
    // A long walk through three dialogs and three public page loads.
    test.setTimeout(150_000);
    const location = uniqueName('Springfield Depot');

    await page.goto('/dashboard/tracking');
    await expect(page.getByRole('heading', { name: 'Tracking History' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'No Parcel Selected' })).toBeVisible();

    // The search form filters the list without JavaScript; with it, the combobox opens the parcel.
    const opened = new RegExp(
      `/dashboard/tracking/${parcel.id}${javaScriptEnabled ? '$' : '\\?search='}`,
    );
    if (javaScriptEnabled) {
      await chooseParcel(page, parcel.recipientName, parcel.trackingNumber, 'Search parcels');
    } else {
      await page.getByLabel('Search parcels').fill(parcel.recipientName);
      await page.getByRole('button', { name: 'Search' }).click();
      const list = page.getByRole('list', { name: 'Parcels to select' });
      await expect(list.getByRole('link')).toHaveCount(1);
      await list.getByRole('link', { name: new RegExp(parcel.trackingNumber) }).click();
    }

    await expect(page).toHaveURL(opened);
    await expect(page.getByRole('heading', { name: parcel.trackingNumber })).toBeVisible();
    await expect(page.getByText('No tracking events found for this parcel.')).toBeVisible();

    // Add
    await page.getByRole('link', { name: 'Add Event' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/tracking/${parcel.id}/events/new`));
    await eventFormReady(page);
    await page.getByLabel('Status', { exact: true }).selectOption('Out for Delivery');
    await page.getByLabel('Location').fill(location);
    await page.getByLabel('Description').fill('On the van since morning');
    await page.getByRole('button', { name: 'Add Event' }).click();
    await expect(toastRegion(page)).toContainText('Tracking event added');
    await expect(page).toHaveURL(opened);
    const timeline = page.getByRole('list', { name: 'Tracking events, newest first' });
    await expect(timeline.getByRole('heading', { name: 'Out for Delivery' })).toBeVisible();
    await expect(timeline).toContainText(location);
    await expect(
      page.locator('section[aria-labelledby="selected-parcel-heading"] [data-status]').first(),
    ).toHaveText('Out for Delivery');

    await expectPublicPage(page, async (result) => {
      await expect(result.locator('header')).toContainText('Out for Delivery');
      await expect(result).toContainText(location);
      await expect(result).toContainText('On the van since morning');
    });

    // Edit
    await page.goto(`/dashboard/tracking/${parcel.id}`);
    await page.getByRole('link', { name: 'Edit event Out for Delivery' }).click();
    await expect(page.getByLabel('Location')).toHaveValue(location);
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('Out for Delivery');
    await page.getByLabel('Status', { exact: true }).selectOption('Delivered');
    await page.getByLabel('Description').fill('Left with the neighbour');
    await page.getByRole('button', { name: 'Update Event' }).click();
    await expect(toastRegion(page)).toContainText('Tracking event updated');
    await expect(timeline.getByRole('heading', { name: 'Delivered' })).toBeVisible();
    await expect(timeline.getByRole('heading', { name: 'Out for Delivery' })).toHaveCount(0);

    await expectPublicPage(page, async (result) => {
      await expect(result.locator('header')).toContainText('Delivered');
      await expect(result).toContainText('Left with the neighbour');
      await expect(result).not.toContainText('Out for Delivery');
    });

    // Delete
    await page.goto(`/dashboard/tracking/${parcel.id}`);
    await page.getByRole('link', { name: 'Delete event Delivered' }).click();
    await expect(
      page.getByText('Are you sure you want to delete the tracking event'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(toastRegion(page)).toContainText('Tracking event deleted');
    await expect(page.getByText('No tracking events found for this parcel.')).toBeVisible();

    await expectPublicPage(page, async (result) => {
      await expect(result).toContainText('No tracking events found for this package.');
      await expect(result).not.toContainText(location);
    });
  },
);

test('a custom status is stored as typed; invalid input is explained', async ({ page }) => {
  test.slow();
  await page.goto(`/dashboard/tracking/${parcel.id}/events/new`);
  await eventFormReady(page);
  await page.getByLabel('Status', { exact: true }).selectOption('Custom Status');
  await page.getByLabel('Date', { exact: true }).fill('');
  await page.getByLabel('Time', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Add Event' }).click();
  await expect(page.getByText('Enter the custom status')).toBeVisible();
  await expect(page.getByLabel('Status', { exact: true })).toHaveValue('Custom Status');

  const custom = uniqueName('Held at customs');
  await page.getByLabel('Custom status').fill(custom);
  await page.getByLabel('Date', { exact: true }).fill('2024-12-15');
  await page.getByLabel('Time', { exact: true }).fill('09:30');
  await page.getByLabel('Time zone').selectOption('UTC');
  await page.getByRole('button', { name: 'Add Event' }).click();
  await expect(toastRegion(page)).toContainText('Tracking event added');
  const timeline = page.getByRole('list', { name: 'Tracking events, newest first' });
  await expect(timeline.getByRole('heading', { name: custom })).toBeVisible();
  await expect(timeline).toContainText('15 Dec 2024, 9:30 am UTC');
});

test(
  'a search without matches says so, and an unknown parcel is not found',
  NO_JS,
  async ({ page, javaScriptEnabled }) => {
    test.slow();
    await page.goto('/dashboard/tracking');
    const nobody = uniqueName('nobody-at-all');
    if (javaScriptEnabled) {
      await page.getByRole('combobox', { name: 'Search parcels' }).fill(nobody);
      await expect(page.getByText(`No parcels match “${nobody}”.`)).toBeVisible();
    } else {
      await page.getByLabel('Search parcels').fill(nobody);
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByText('No parcels found matching your search.')).toBeVisible();
    }
    await page.goto('/dashboard/tracking/0123456789abcdef01234567');
    await expect(page.getByRole('heading', { name: 'Parcel not found' })).toBeVisible();
  },
);

test.describe('time zones', () => {
  // The browser is somewhere other than the company (America/New_York).
  test.use({ timezoneId: 'Asia/Tokyo' });

  test('an event is entered and shown in the zone where it happened', NO_JS, async ({ page }) => {
    test.slow();
    await page.goto(`/dashboard/tracking/${parcel.id}/events/new`);
    const zone = page.getByLabel('Time zone');
    // Never the browser's zone (Tokyo): the company's, until one is chosen.
    await eventFormReady(page);
    await expect(zone).toHaveValue('America/New_York');

    const location = uniqueName('Chicago Hub');
    await page.getByLabel('Status', { exact: true }).selectOption('Arrived at Facility');
    await page.getByLabel('Location').fill(location);
    await page.getByLabel('Date', { exact: true }).fill('2026-11-22');
    await page.getByLabel('Time', { exact: true }).fill('15:15');
    await zone.selectOption('America/Chicago');
    await page.getByRole('button', { name: 'Add Event' }).click();
    await expect(toastRegion(page)).toContainText('Tracking event added');
    const timeline = page.getByRole('list', { name: 'Tracking events, newest first' });
    await expect(timeline).toContainText('22 Nov 2026, 3:15 pm CST');

    await expectPublicPage(page, async (result) => {
      const item = result.getByRole('listitem').filter({ hasText: location });
      await expect(item).toContainText('Sunday, 22 November, 3:15 pm CST');
      await expect(item.locator('time')).toHaveAttribute('datetime', '2026-11-22T21:15:00.000Z');
    });

    const res = await page.request.get(`/api/tracking/track/${parcel.trackingNumber}`);
    const { events } = await res.json();
    expect(events.find((e: { location: string }) => e.location === location)).toMatchObject({
      timestamp: '2026-11-22T21:15:00.000Z',
      timeZone: 'America/Chicago',
    });
  });
});
