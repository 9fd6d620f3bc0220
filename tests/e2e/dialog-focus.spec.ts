import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/helpers';

// A keyboard user who closes a dialog, however it closes, lands on the control that opened it.
test.beforeEach(() => {
  test.skip(test.info().project.name !== 'js', 'dialogs are pages without JavaScript');
});

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
  await signIn(page, '/dashboard/parcels');
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

test('Escape in the Add Event dialog returns focus to Add Event', async ({ page }) => {
  await signIn(page, '/dashboard/tracking');
  const parcels = page.getByRole('list', { name: 'Parcels to select' });
  await parcels.getByRole('link').first().click();
  await expect(page.getByRole('link', { name: 'Add Event' })).toBeVisible();
  const opener = await openWithKeyboard(page, 'Add Event', 'Add Event');
  await page.keyboard.press('Escape');
  await expectFocusOn(page, opener);
});

test('when the opener is gone, focus goes to the page heading', async ({ page }) => {
  await signIn(page, '/dashboard/parcels');
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
  await signIn(page, '/dashboard');
  await page.getByRole('link', { name: 'Parcels', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Parcel Management' })).toBeVisible();
  await expect(page.locator('[data-route-announcer]')).toHaveText(await page.title());
});
