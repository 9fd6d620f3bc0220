import { expect, test } from './support/fixtures';
import { toastRegion } from './support/helpers';

// With JavaScript, a form's button says what it is doing from the click until the answer arrives
// (useIsPending). The answer is held back here, so the label is there to be seen.
test('Update Parcel says Updating... and cannot be pressed again until the answer arrives', async ({
  page,
  request,
  admin,
}) => {
  const created = await request.post('/api/parcels', {
    headers: admin,
    data: { recipient: { name: 'Bea Busy', address: '3 Waiting Rd, Reno' }, weight: 1 },
  });
  const { parcel } = await created.json();
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/dashboard/parcels/${parcel.id}/edit*`, async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });

  await page.goto(`/dashboard/parcels/${parcel.id}/edit`);
  // A dialog, not the page that stands in for it: the app has hydrated.
  const dialog = page.getByRole('dialog', { name: `Edit Parcel: ${parcel.trackingNumber}` });
  await dialog.getByRole('button', { name: 'Update Parcel' }).click();
  await expect(dialog.getByRole('button', { name: 'Updating...' })).toBeDisabled();
  release();
  await expect(toastRegion(page)).toContainText('Parcel updated successfully');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
