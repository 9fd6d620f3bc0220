import { expect, test } from './support/fixtures';
import { uniqueName } from './support/helpers';

test("a parcel's History shows its changes before and after; the list exports as CSV", async ({
  page,
  request,
  admin,
}) => {
  test.setTimeout(90_000);
  const name = uniqueName('Hal History');
  const created = await request.post('/api/parcels', {
    headers: admin,
    data: { recipient: { name, address: '4 Log Lane' }, weight: 1 },
  });
  const { parcel } = await created.json();
  await request.put(`/api/parcels/${parcel.id}`, {
    headers: admin,
    data: { weight: 9 },
  });

  await page.goto(`/dashboard/parcels/${parcel.id}`);
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/parcels/${parcel.id}/history`));
  const entries = page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText(`admin changed parcel ${parcel.trackingNumber}`);
  const weight = entries.first().getByRole('row', { name: /Weight/ });
  await expect(weight).toContainText('1');
  await expect(weight).toContainText('9');
  await expect(entries.last()).toContainText(`admin created parcel ${parcel.trackingNumber}`);

  await page.goto(`/dashboard/parcels?search=${encodeURIComponent(name)}`);
  const exportLink = page.getByRole('link', { name: 'Export CSV' });
  await expect(exportLink).toHaveAttribute(
    'href',
    `/api/parcels/export.csv?search=${encodeURIComponent(name).replace(/%20/g, '+')}`,
  );
  const csv = await page.request.get((await exportLink.getAttribute('href'))!);
  expect(csv.status()).toBe(200);
  const lines = (await csv.text()).trimEnd().split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(parcel.trackingNumber);
});
