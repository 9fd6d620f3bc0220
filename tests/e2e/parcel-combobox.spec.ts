import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { chooseParcel, toastRegion, uniqueName } from './support/helpers';

// With JavaScript the parcel pickers are comboboxes that search on the server as staff type;
// without it they are the GET search form and the select (pickers.spec.ts and the screens' own
// specs). Each test picks a parcel that the combobox does not offer before anything is typed.
type OldParcel = {
  id: string;
  trackingNumber: string;
  senderName: string;
  recipientName: string;
  recipientEmail: string;
};

const NEWER_PARCELS = 21;
let old: OldParcel;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

// The combobox needs JavaScript: the no-js project does not run these.
test.beforeAll(async ({ request, adminToken }) => {
  const headers = { Authorization: `Bearer ${adminToken}` };
  const senderName = uniqueName('Olga Oldsender');
  const recipientName = uniqueName('Otto Oldparcel');
  const recipientEmail = `${uniqueName('otto').replace(/\s+/g, '-')}@example.com`;
  const created = await request.post('/api/parcels', {
    headers,
    data: {
      sender: { name: senderName, email: 'olga@example.com' },
      recipient: { name: recipientName, address: '1 Old Road', email: recipientEmail },
    },
  });
  expect(created.status()).toBe(201);
  const { parcel } = await created.json();
  old = {
    id: parcel.id,
    trackingNumber: parcel.trackingNumber,
    senderName,
    recipientName,
    recipientEmail,
  };
  const event = await request.post(`/api/tracking/${old.id}/events`, {
    headers,
    data: { status: 'Departed Facility', location: 'Old Town hub', description: 'Left early' },
  });
  expect(event.status()).toBe(201);
  // Newer parcels push it out of the newest ones the combobox offers before a search.
  for (let i = 0; i < NEWER_PARCELS; i += 1) {
    const newer = await request.post('/api/parcels', {
      headers,
      data: { recipient: { name: uniqueName('Newer Parcel'), address: `${i} New St` } },
    });
    expect(newer.status()).toBe(201);
  }
});

/** Before anything is typed the combobox offers the newest parcels only: not the old one. */
async function expectNotOfferedUntilSearched(page: Page, label: string) {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await expect(page.getByText(/^Showing the newest 20 parcels\./)).toBeVisible();
  await input.focus();
  await input.press('ArrowDown');
  await expect(page.getByRole('listbox')).toBeVisible();
  await expect(page.getByRole('option')).toHaveCount(20);
  await expect(page.getByRole('option', { name: new RegExp(old.trackingNumber) })).toHaveCount(0);
  // Escape closes the options (and only them).
  await input.press('Escape');
  await expect(page.getByRole('listbox')).toHaveCount(0);
}

test('a notification for an old parcel found by part of its recipient name', async ({ page }) => {
  await page.goto('/dashboard/notifications');
  await page.getByRole('link', { name: 'Send Notification' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Notification' });
  const title = dialog.getByRole('heading', { name: 'Send Notification' });
  await expect(title).toBeVisible();
  await expect(dialog.getByRole('searchbox', { name: 'Find a parcel' })).toHaveCount(0);
  await expectNotOfferedUntilSearched(page, 'Parcel');
  await expect(title).toBeVisible();

  // Sending without a parcel says so next to the combobox, and puts the focus there.
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(dialog.getByText('Please select a parcel')).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Parcel', exact: true })).toBeFocused();

  await chooseParcel(page, old.recipientName.split(' ').slice(1).join(' '), old.trackingNumber);
  const input = dialog.getByRole('combobox', { name: 'Parcel', exact: true });
  await expect(input).toHaveValue(
    `${old.trackingNumber} — ${old.senderName} → ${old.recipientName}`,
  );
  await expect(dialog.getByText('Please select a parcel')).toHaveCount(0);
  await expect(dialog.getByLabel('Recipient email')).toHaveValue(old.recipientEmail);
  await dialog.getByRole('button', { name: 'Send', exact: true }).click();

  await expect(toastRegion(page)).toContainText('Notification sent');
  await expect(toastRegion(page)).toContainText(old.recipientEmail);
  await expect(page).toHaveURL(/\/dashboard\/notifications$/);
  await expect(
    page
      .getByRole('list', { name: 'Recent Notifications' })
      .getByRole('listitem')
      .filter({ hasText: old.recipientEmail }),
  ).toContainText(old.trackingNumber);
});

test('a receipt for an old parcel found by part of its tracking number', async ({ page }) => {
  await page.goto('/dashboard/receipts');
  await page.getByRole('link', { name: 'Generate Receipt' }).click();
  const dialog = page.getByRole('dialog', { name: 'Generate Receipt' });
  await expect(dialog.getByRole('heading', { name: 'Generate Receipt' })).toBeVisible();
  await expectNotOfferedUntilSearched(page, 'Parcel');

  await chooseParcel(page, old.trackingNumber.slice(2), old.trackingNumber);
  await expect(dialog.getByLabel('Customer name')).toHaveValue(old.senderName);
  await expect(dialog.getByLabel('Customer email')).toHaveValue('olga@example.com');
  await dialog.getByRole('button', { name: 'Generate Receipt' }).click();

  await expect(page).toHaveURL(/\/dashboard\/receipts$/);
  await expect(toastRegion(page)).toContainText('Receipt generated');
  await expect(
    page
      .getByRole('list', { name: 'Generated Receipts' })
      .getByRole('listitem')
      .filter({ hasText: old.senderName }),
  ).toHaveCount(1);
});

test("the Tracking tab opens an old parcel found by part of its sender's name", async ({
  page,
}) => {
  await page.goto('/dashboard/tracking');
  await expect(page.getByRole('heading', { name: 'No Parcel Selected' })).toBeVisible();
  await expectNotOfferedUntilSearched(page, 'Search parcels');

  await chooseParcel(
    page,
    old.senderName.split(' ').slice(1).join(' '),
    old.trackingNumber,
    'Search parcels',
  );
  await expect(page).toHaveURL(new RegExp(`/dashboard/tracking/${old.id}$`));
  await expect(page.getByRole('heading', { name: old.trackingNumber })).toBeVisible();
  const timeline = page.getByRole('list', { name: 'Tracking events, newest first' });
  await expect(timeline.getByRole('heading', { name: 'Departed Facility' })).toBeVisible();
  await expect(timeline).toContainText('Old Town hub');
});
