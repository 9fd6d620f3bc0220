import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import { createParcelThroughApi, toastRegion, uniqueName } from './support/helpers';
import type { Page } from '@playwright/test';

function group(page: Page, name: string) {
  return page.getByRole('group', { name, exact: true });
}

async function searchFor(page: Page, text: string, status = '') {
  await page.getByPlaceholder('Search by tracking number, sender, or recipient...').fill(text);
  await page.getByLabel('Filter by status').selectOption(status);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(
    new RegExp(`search=${encodeURIComponent(text).replace(/%20/g, '\\+')}`),
  );
}

async function openMenuItem(
  page: Page,
  trackingNumber: string,
  item: 'View Details' | 'Edit' | 'Delete',
) {
  // A message from the last step may cover the row's menu (without JavaScript it stays until it
  // is closed): close it first, as a person would. With JavaScript it may go by itself meanwhile.
  const close = toastRegion(page).locator('summary[aria-label="Dismiss notification"]');
  if (await close.count()) {
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => expect(close).toHaveCount(0));
  }
  const row = parcelRow(page, trackingNumber);
  await row.locator('summary', { hasText: `Actions for ${trackingNumber}` }).click();
  await row.getByRole('link', { name: item, exact: true }).click();
}

function parcelRow(page: Page, trackingNumber: string) {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: trackingNumber }) });
}

test(
  'create a parcel with two extra destinations, find, view, edit and delete it',
  NO_JS,
  async ({ page }) => {
    test.setTimeout(120_000);
    const sender = uniqueName('Sally Sender');
    const recipient = uniqueName('Rick Recipient');
    const stopA = uniqueName('Warehouse Alpha');
    const stopB = uniqueName('Depot Beta');

    await page.goto('/dashboard/parcels');
    await expect(page.getByRole('heading', { name: 'Parcel Management' })).toBeVisible();

    await page.getByRole('link', { name: 'Create Parcel' }).click();
    await expect(page).toHaveURL(/\/dashboard\/parcels\/new/);

    await group(page, 'Sender Information').getByLabel('Name').fill(sender);
    await group(page, 'Sender Information').getByLabel('Email').fill('sally@example.com');
    await group(page, 'Sender Information').getByLabel('Address').fill('1 Origin Road, Austin');
    await group(page, 'Recipient Information').getByLabel('Name').fill(recipient);
    await group(page, 'Recipient Information').getByLabel('Email').fill('rick@example.com');
    await group(page, 'Recipient Information')
      .getByLabel('Address')
      .fill('2 Target Avenue, Boston');

    // Without JavaScript each click is a round trip that keeps what was typed.
    await page.getByRole('button', { name: 'Add Destination' }).click();
    await expect(group(page, 'Destination 1')).toBeVisible();
    await page.getByRole('button', { name: 'Add Destination' }).click();
    await expect(group(page, 'Destination 2')).toBeVisible();
    await page.getByRole('button', { name: 'Add Destination' }).click();
    await expect(group(page, 'Destination 3')).toBeVisible();
    await page.getByRole('button', { name: 'Remove destination 3' }).click();
    await expect(group(page, 'Destination 3')).toHaveCount(0);
    await expect(group(page, 'Sender Information').getByLabel('Name')).toHaveValue(sender);
    await expect(group(page, 'Destination 1').getByLabel('Country')).toHaveValue('USA');

    await group(page, 'Destination 1').getByLabel('Name').fill(stopA);
    await group(page, 'Destination 1').getByLabel('Address').fill('10 First Street');
    await group(page, 'Destination 1').getByLabel('City').fill('Chicago');
    await group(page, 'Destination 2').getByLabel('Name').fill(stopB);
    await group(page, 'Destination 2').getByLabel('City').fill('Denver');
    await page.getByLabel('Weight (kg)').fill('3.5');
    await page.getByLabel('Length (cm)').fill('40');
    await page.getByLabel('Service Type').selectOption('Express');
    await page.getByLabel('Priority').selectOption('High');
    await page.getByRole('button', { name: 'Create Parcel' }).click();

    await expect(toastRegion(page)).toContainText('Parcel created successfully');
    const toastText = (await toastRegion(page).textContent()) ?? '';
    const trackingNumber = /[A-Z]{3}\d{9}/.exec(toastText)?.[0];
    expect(trackingNumber, toastText).toBeTruthy();
    await expect(page).toHaveURL(/\/dashboard\/parcels$/);

    // Found by search (sender name) and by status filter.
    await searchFor(page, sender);
    const row = parcelRow(page, trackingNumber!);
    await expect(row).toBeVisible();
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await expect(row).toContainText(recipient);
    await expect(row).toContainText('Pending');
    await expect(row).toContainText('Chicago');
    await expect(row).toContainText('Express');

    // The card layout shows every destination.
    await page.getByRole('link', { name: 'Cards', exact: true }).click();
    const card = page.getByRole('article', { name: trackingNumber! });
    await expect(card).toContainText(stopA);
    await expect(card).toContainText(stopB);
    await page.getByRole('link', { name: 'Table', exact: true }).click();
    await expect(page).not.toHaveURL(/view=cards/);

    await searchFor(page, recipient.toUpperCase(), 'Pending');
    await expect(parcelRow(page, trackingNumber!)).toBeVisible();
    await searchFor(page, recipient, 'Delivered');
    await expect(page.getByText('No parcels found matching your criteria.')).toBeVisible();

    // Details show both destinations.
    await searchFor(page, trackingNumber!);
    // With JavaScript the card links navigate in the page (no reload), closing their menu.
    const js = javaScriptOn();
    if (js) await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await openMenuItem(page, trackingNumber!, 'View Details');
    await expect(page).toHaveURL(/\/dashboard\/parcels\/[a-f\d]{24}\?search=/);
    if (js) {
      expect(
        await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
      ).toBe(true);
      await expect(parcelRow(page, trackingNumber!).locator('details')).not.toHaveAttribute('open');
    }
    const details = page.getByRole('region', { name: 'Destinations' });
    await expect(details).toContainText(stopA);
    await expect(details).toContainText(stopB);
    await expect(page.getByRole('region', { name: 'Recipient' })).toContainText('rick@example.com');
    await page.getByRole('link', { name: 'Done' }).click();
    await expect(page).toHaveURL(/\/dashboard\/parcels\?search=/);

    // Edit the status.
    await openMenuItem(page, trackingNumber!, 'Edit');
    await expect(page.getByText(`Edit Parcel: ${trackingNumber}`)).toBeVisible();
    await expect(group(page, 'Recipient Information').getByLabel('Name')).toHaveValue(recipient);
    await page.getByLabel('Status', { exact: true }).selectOption('In Transit');
    await page.getByRole('button', { name: 'Update Parcel' }).click();
    await expect(toastRegion(page)).toContainText('Parcel updated successfully');
    await expect(parcelRow(page, trackingNumber!)).toContainText('In Transit');

    // Delete it.
    await openMenuItem(page, trackingNumber!, 'Delete');
    await expect(
      page.getByText('This will also delete all associated tracking events'),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(toastRegion(page)).toContainText('Parcel deleted successfully');
    await searchFor(page, sender);
    await expect(page.getByText('No parcels found matching your criteria.')).toBeVisible();
  },
);

test('destination rows are added and removed, keeping what was typed in the other rows', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const recipient = uniqueName('Rhoda Rows');
  await page.goto('/dashboard/parcels/new');
  await group(page, 'Recipient Information').getByLabel('Name').fill(recipient);
  await group(page, 'Recipient Information').getByLabel('Address').fill('7 Row Lane, Tulsa');

  // Without JavaScript each click is a round trip to the action; with it, conform adds the row here.
  const cities = ['Austin', 'Boston', 'Chicago'];
  for (const [index, city] of cities.entries()) {
    await page.getByRole('button', { name: 'Add Destination' }).click();
    const row = group(page, `Destination ${index + 1}`);
    await expect(row.getByLabel('Country')).toHaveValue('USA');
    await row.getByLabel('City').fill(city);
  }
  await page.getByRole('button', { name: 'Remove destination 2' }).click();
  await expect(group(page, 'Destination 3')).toHaveCount(0);
  await expect(group(page, 'Destination 1').getByLabel('City')).toHaveValue('Austin');
  await expect(group(page, 'Destination 2').getByLabel('City')).toHaveValue('Chicago');
  await expect(group(page, 'Recipient Information').getByLabel('Name')).toHaveValue(recipient);
  await page.getByRole('button', { name: 'Create Parcel' }).click();

  await expect(toastRegion(page)).toContainText('Parcel created successfully');
  const trackingNumber = /[A-Z]{3}\d{9}/.exec((await toastRegion(page).textContent()) ?? '')?.[0];
  expect(trackingNumber).toBeTruthy();
  await searchFor(page, trackingNumber!);
  await openMenuItem(page, trackingNumber!, 'View Details');
  const destinations = page.getByRole('region', { name: 'Destinations' });
  await expect(destinations).toContainText('Austin');
  await expect(destinations).toContainText('Chicago');
  await expect(destinations).not.toContainText('Boston');
  await page.getByRole('link', { name: 'Done' }).click();

  // Removing every row when editing leaves the recipient's address as the one destination.
  await openMenuItem(page, trackingNumber!, 'Edit');
  await expect(group(page, 'Destination 2')).toBeVisible();
  await page.getByRole('button', { name: 'Remove destination 2' }).click();
  await expect(group(page, 'Destination 2')).toHaveCount(0);
  await page.getByRole('button', { name: 'Remove destination 1' }).click();
  await expect(group(page, 'Destination 1')).toHaveCount(0);
  await page.getByRole('button', { name: 'Update Parcel' }).click();
  await expect(toastRegion(page)).toContainText('Parcel updated successfully');
  await openMenuItem(page, trackingNumber!, 'View Details');
  await expect(destinations).toContainText('7 Row Lane, Tulsa');
  await expect(destinations).not.toContainText('Austin');
});

test('an edit over a change someone else saved meanwhile says so and shows the parcel as it is now', async ({
  page,
  request,
  admin,
}) => {
  const parcel = await createParcelThroughApi(request, admin);
  await page.goto(`/dashboard/parcels/${parcel.id}/edit`);
  // Hydrated: the form is a dialog, and its answer comes back through the scripts (without them,
  // tests/server/staff-screens.test.ts).
  await expect(
    page
      .getByRole('dialog')
      .getByRole('heading', { name: `Edit Parcel: ${parcel.trackingNumber}` }),
  ).toBeVisible();
  const weight = page.getByLabel('Weight (kg)');
  await expect(weight).toHaveValue('1');
  // Someone else saves a change while the form is open.
  const other = await request.put(`/api/parcels/${parcel.id}`, {
    headers: admin,
    data: { weight: 4 },
  });
  expect(other.status()).toBe(200);
  await weight.fill('9');
  await page.getByRole('button', { name: 'Update Parcel' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'This parcel was changed by someone else while you were editing.',
  );
  await expect(weight).toHaveValue('4');
  // Saved again over what is stored now, the change goes through.
  await weight.fill('9');
  await page.getByRole('button', { name: 'Update Parcel' }).click();
  await expect(toastRegion(page)).toContainText('Parcel updated successfully');
});

test('the create form shows field errors at the fields and keeps the values', async ({ page }) => {
  const sender = uniqueName('Errol Error');
  await page.goto('/dashboard/parcels/new');
  await group(page, 'Sender Information').getByLabel('Name').fill(sender);
  await group(page, 'Sender Information').getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Create Parcel' }).click();
  await expect(group(page, 'Recipient Information')).toContainText('Recipient name is required');
  await expect(group(page, 'Recipient Information')).toContainText('Recipient address is required');
  await expect(group(page, 'Sender Information')).toContainText('Invalid email address');
  await expect(group(page, 'Sender Information').getByLabel('Name')).toHaveValue(sender);

  await page.goto(`/dashboard/parcels?search=${encodeURIComponent(sender)}`);
  await expect(page.getByText('No parcels found matching your criteria.')).toBeVisible();
});

test('what was typed into a dialog before the scripts arrived is kept once they run', async ({
  page,
  request,
  admin,
}) => {
  test.skip(!javaScriptOn(), 'the scripts are what this is about');
  // A parcel in the list behind the dialog: its bulk bar says "0 selected" once hydrated.
  const created = await request.post('/api/parcels', {
    headers: admin,
    data: { sender: { name: 'Early Typist' }, recipient: { name: 'Anyone', address: '1 Road' } },
  });
  expect(created.status()).toBe(201);

  let release!: () => void;
  const scriptsMayLoad = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/build/**/*.js', async (route) => {
    await scriptsMayLoad;
    await route.continue();
  });
  const sender = uniqueName('Early Typist');
  // Module scripts hold back DOMContentLoaded: the page is usable from its first bytes.
  await page.goto('/dashboard/parcels/new', { waitUntil: 'commit' });
  await group(page, 'Sender Information').getByLabel('Name').fill(sender);
  release();
  await expect(page.getByText(/^\d+ selected$/)).toBeVisible();

  // The form stayed where it was typed into, and it is the hydrated form: its own checks answer.
  await expect(group(page, 'Sender Information').getByLabel('Name')).toHaveValue(sender);
  await expect(group(page, 'Sender Information').getByLabel('Name')).toBeFocused();
  await page.evaluate(() => ((window as { stayed?: boolean }).stayed = true));
  await page.getByRole('button', { name: 'Create Parcel' }).click();
  await expect(group(page, 'Recipient Information')).toContainText('Recipient name is required');
  await expect(group(page, 'Sender Information').getByLabel('Name')).toHaveValue(sender);
  expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true);
});

test('unknown parcels show the section error with Try Again and Reload Page', async ({ page }) => {
  await page.goto('/dashboard/parcels/0123456789abcdef01234567');
  await expect(page.getByText('Something went wrong')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Try Again' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Reload Page' })).toBeVisible();
});

test('the table sorts by its column headers, changes rows per page, and a page past the end goes to the last', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/dashboard/parcels');
  const header = page.getByRole('columnheader', { name: /Recipient/ });
  await header.getByRole('link').click();
  await expect(page).toHaveURL(/sort=recipient&order=asc/);
  await expect(page.getByRole('columnheader', { name: /Recipient/ })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  const names = await page.locator('tbody tr td[data-label="Recipient"]').allTextContents();
  expect(names.length).toBeGreaterThan(1);
  expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  await page
    .getByRole('columnheader', { name: /Recipient/ })
    .getByRole('link')
    .click();
  await expect(page).toHaveURL(/sort=recipient&order=desc/);
  await expect(page.getByRole('columnheader', { name: /Recipient/ })).toHaveAttribute(
    'aria-sort',
    'descending',
  );

  // Rows per page: with JavaScript as soon as it changes (without, the Search button sends it).
  await page.getByLabel('Rows per page').selectOption('25');
  await expect(page).toHaveURL(/limit=25/);
  await expect(page).toHaveURL(/sort=recipient&order=desc/);
  // The address bar changes as the new page's data arrives, a moment before the rows are drawn.
  await expect.poll(() => page.locator('tbody tr').count()).toBeLessThanOrEqual(25);

  await page.goto('/dashboard/parcels?limit=25&page=99');
  await expect(page).not.toHaveURL(/page=99/);
  const last = new URL(page.url()).searchParams.get('page') ?? '1';
  await expect(page.locator('tbody tr').first()).toBeVisible();
  if (last !== '1')
    await expect(page.getByRole('link', { name: `Page ${last}` })).toHaveAttribute(
      'aria-current',
      'page',
    );
});
