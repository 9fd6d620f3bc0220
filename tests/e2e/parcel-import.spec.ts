import { expect, NO_JS, test } from './support/fixtures';
import { toastRegion, uniqueName } from './support/helpers';

const HEADER = 'trackingNumber,recipientName,recipientAddress,weight,serviceType';

test(
  'a CSV file with an error is shown with its row and nothing to import; fixed, it imports',
  NO_JS,
  async ({ page }) => {
    test.setTimeout(60_000);
    const name = uniqueName('Imp');
    const file = (rows: string[]) => ({
      name: 'parcels.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from([HEADER, ...rows].join('\n')),
    });
    const good = [`,${name} One,1 Import Way,2.5,Express`, `,${name} Two,2 Import Way,1,Standard`];

    await page.goto('/dashboard/parcels');
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await expect(page).toHaveURL(/\/dashboard\/parcels\/import$/);
    await expect(page.getByRole('heading', { name: 'Import Parcels' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download template' })).toHaveAttribute(
      'href',
      '/dashboard/parcels/import/template.csv',
    );

    // Row 3 (the header is row 1) has a weight that is not a number.
    await page
      .getByLabel('CSV file')
      .setInputFiles(file([good[0]!, `,${name} Two,2 Import Way,heavy,Standard`]));
    await page.getByRole('button', { name: 'Upload and preview' }).click();
    const errors = page.getByRole('table', { name: 'Errors by row' });
    await expect(errors).toBeVisible();
    await expect(errors.getByRole('row')).toHaveCount(2);
    await expect(errors.getByRole('row').nth(1)).toContainText('3');
    await expect(errors.getByRole('row').nth(1)).toContainText('weight');
    await expect(errors.getByRole('row').nth(1)).toContainText('Weight must be a number');
    await expect(page.getByRole('alert').filter({ hasText: '1 error in 1 row' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'All 2 rows' })).toContainText(`${name} One`);
    await expect(page.getByRole('button', { name: /^Import \d+ parcel/ })).toHaveCount(0);

    await page.getByLabel('CSV file').setInputFiles(file(good));
    await page.getByRole('button', { name: 'Upload and preview' }).click();
    await expect(page).toHaveURL(/\/dashboard\/parcels\/import\?id=[a-f\d]{32}$/);
    await expect(page.getByRole('heading', { name: 'parcels.csv: 2 parcels ready' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'All 2 rows' })).toContainText(`${name} Two`);
    await page.getByRole('button', { name: 'Import 2 parcels' }).click();

    await expect(page).toHaveURL(/\/dashboard\/parcels$/);
    await expect(toastRegion(page)).toContainText('Imported 2 parcels');
    await page.getByLabel('Search parcels').fill(name);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/search=/);
    const table = page.getByRole('table');
    await expect(table.getByRole('row', { name: new RegExp(`${name} One`) })).toContainText(
      'Express',
    );
    await expect(table.getByRole('row', { name: new RegExp(`${name} Two`) })).toBeVisible();
  },
);
