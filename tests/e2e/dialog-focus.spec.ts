import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { createParcelThroughApi, uniqueName } from './support/helpers';

// A keyboard user who closes a dialog, however it closes, lands on the control that opened it.
// (Without JavaScript dialogs are pages: the no-js project does not run these.)

async function openWithKeyboard(page: Page, name: string, dialogTitle: string) {
  const opener = page.getByRole('link', { name, exact: true }).first();
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: dialogTitle });
  await expect(dialog.getByRole('heading', { name: dialogTitle })).toBeVisible();
  return opener;
}

async function expectFocusOn(page: Page, target: ReturnType<Page['getByRole']>) {
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(target).toBeFocused();
}

test('Escape and Close in the Create Parcel dialog return focus to Create Parcel', async ({
  page,
}) => {
  await page.goto('/dashboard/parcels');
  let opener = await openWithKeyboard(page, 'Create Parcel', 'Create New Parcel');
  // Focus is inside the dialog while it is open.
  await expect
    .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]'))))
    .toBe(true);
  await page.keyboard.press('Escape');
  await expectFocusOn(page, opener);

  opener = await openWithKeyboard(page, 'Create Parcel', 'Create New Parcel');
  await page.getByRole('dialog').getByRole('link', { name: 'Close' }).click();
  await expectFocusOn(page, opener);

  // The next Tab goes on from the opener, not from the top of the page.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).not.toBeFocused();
});

test('Escape in the Add Event dialog returns focus to Add Event', async ({
  page,
  request,
  admin,
}) => {
  // A parcel of this test's own: the newest parcel in the list may be another test's, deleted
  // while this one opens it.
  const recipient = uniqueName('Esme Escape');
  const created = await request.post('/api/parcels', {
    headers: admin,
    data: { recipient: { name: recipient, address: '2 Key Lane' } },
  });
  expect(created.status()).toBe(201);
  const { parcel } = await created.json();
  await page.goto(`/dashboard/tracking?search=${encodeURIComponent(recipient)}`);
  const parcels = page.getByRole('list', { name: 'Parcels to select' });
  await parcels.getByRole('link', { name: new RegExp(parcel.trackingNumber) }).click();
  await expect(page.getByRole('link', { name: 'Add Event' })).toBeVisible();
  const opener = await openWithKeyboard(page, 'Add Event', 'Add Event');
  await page.keyboard.press('Escape');
  await expectFocusOn(page, opener);
});

test('when the opener is gone, focus goes to the page heading', async ({ page }) => {
  await page.goto('/dashboard/parcels');
  await openWithKeyboard(page, 'Create Parcel', 'Create New Parcel');
  // The opener disappears while the dialog is open (as a deleted row's menu does).
  await page.evaluate(() => {
    for (const link of document.querySelectorAll('a'))
      if (link.textContent?.trim() === 'Create Parcel' && !link.closest('[role="dialog"]'))
        link.remove();
  });
  await page.keyboard.press('Escape');
  await expectFocusOn(page, page.getByRole('heading', { level: 1 }));
});

test('a client-side page change is announced by its title', async ({ page }) => {
  await page.goto('/dashboard');
  await page.getByRole('link', { name: 'Parcels', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Parcel Management' })).toBeVisible();
  await expect(page.locator('[data-route-announcer]')).toHaveText(await page.title());
});

test('a submitted Add Event dialog returns focus to Add Event; a cancelled and a confirmed delete to their opener and the heading', async ({
  page,
  request,
  admin,
}) => {
  // A parcel of this test's own.
  const party = { name: 'Kim Keyboard', email: 'kim@example.com', phone: '555-0100' };
  const parcel = await createParcelThroughApi(request, admin, {
    sender: party,
    recipient: party,
    serviceType: 'Standard',
  });

  await page.goto(`/dashboard/tracking/${parcel.id}`);
  let opener = await openWithKeyboard(page, 'Add Event', 'Add Event');
  await page.getByLabel('Status', { exact: true }).selectOption('In Transit');
  await page.getByLabel('Description').fill('Submitted with Enter');
  await page.getByLabel('Location').fill('Keyboard hub');
  await page.getByLabel('Location').press('Enter');
  await expect(page.getByRole('list', { name: 'Tracking events, newest first' })).toContainText(
    'Keyboard hub',
  );
  await expectFocusOn(page, opener);

  // Cancel in the delete confirmation: back on the event's delete control.
  opener = await openWithKeyboard(page, 'Delete event In Transit', 'Delete Event');
  await page.getByRole('dialog').getByRole('link', { name: 'Cancel' }).focus();
  await page.keyboard.press('Enter');
  await expectFocusOn(page, opener);

  // Confirmed: the control is gone with its event, so the page heading takes the focus.
  await openWithKeyboard(page, 'Delete event In Transit', 'Delete Event');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('No tracking events found for this parcel.')).toBeVisible();
  await expectFocusOn(page, page.getByRole('heading', { level: 1 }));
});
