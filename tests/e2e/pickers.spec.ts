import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import { chooseParcel, uniqueName } from './support/helpers';

test(
  'a parcel is found for a notification by a server-side search; dialogs open scrolled to their form',
  NO_JS,
  async ({ page, request, admin }) => {
    test.setTimeout(90_000);
    const js = javaScriptOn();
    const sender = uniqueName('Pia Picker');
    const res = await request.post('/api/parcels', {
      headers: admin,
      data: {
        sender: { name: sender },
        recipient: { name: 'Quinn Found', address: '3 Search St', email: 'quinn@example.com' },
      },
    });
    const { parcel } = await res.json();

    // The details dialog leads on to the notification, preselected.
    await page.goto(`/dashboard/parcels/${parcel.id}`);
    await expect(page.getByRole('link', { name: 'Tracking events' })).toHaveAttribute(
      'href',
      `/dashboard/tracking/${parcel.id}`,
    );
    await expect(page.getByRole('link', { name: 'Generate receipt' })).toBeVisible();
    await page.getByRole('link', { name: 'Send notification' }).click();
    await expect(page).toHaveURL(new RegExp(`parcelId=${parcel.id}`));
    // A select without JavaScript, a combobox showing the parcel with it.
    await expect(page.getByLabel('Parcel', { exact: true })).toHaveValue(
      js ? `${parcel.trackingNumber} — ${sender} → Quinn Found` : parcel.id,
    );
    await expect(page.getByLabel('Recipient email')).toHaveValue('quinn@example.com');

    // Search by sender name: the Find button without JavaScript, the combobox with it.
    await page.goto('/dashboard/notifications/new');
    if (js) {
      await expect(page.getByRole('searchbox', { name: 'Find a parcel' })).toHaveCount(0);
      await chooseParcel(page, sender, parcel.trackingNumber);
      await expect(page.getByText(`1 parcel match “${sender}”.`)).toBeVisible();
    } else {
      await page.getByRole('searchbox', { name: 'Find a parcel' }).fill(sender);
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await expect(page).toHaveURL(/parcelSearch=/);
      await expect(page.getByText(`1 parcel match “${sender}”.`)).toBeVisible();
      const options = page.getByLabel('Parcel', { exact: true }).locator('option');
      await expect(options).toHaveCount(2);
      await page.getByLabel('Parcel', { exact: true }).selectOption(parcel.id);
      // Without JavaScript the choice is applied by a round trip that keeps it.
      await page.getByRole('button', { name: 'Apply template' }).click();
      await expect(page.getByLabel('Parcel', { exact: true })).toHaveValue(parcel.id);
    }
    await expect(page.getByLabel('Recipient email')).toHaveValue('quinn@example.com');

    // Without JavaScript the dialog is a page: its link ends with the fragment that scrolls to it.
    await page.goto('/dashboard/parcels');
    await page.getByRole('link', { name: 'Create Parcel' }).click();
    await expect(page).toHaveURL(/\/dashboard\/parcels\/new#dialog$/);
    if (!js) await expect(page.locator('#dialog')).toBeInViewport();
  },
);
