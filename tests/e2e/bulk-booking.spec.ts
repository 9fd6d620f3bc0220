import { expect, NO_JS, test } from './support/fixtures';
import { toastRegion } from './support/helpers';
import { makeShipper, signInShipper } from './support/portal';

// A shipper's browser: no staff session.
test.use({ storageState: { cookies: [], origins: [] } });

test(
  'a shipper uploads a CSV, previews its prices and books every parcel with their labels',
  NO_JS,
  async ({ page, admin }) => {
    const shipper = await makeShipper(page.request, admin);
    await signInShipper(page, shipper);

    await page.goto('/account/send');
    await page.getByRole('link', { name: 'Book many from a CSV' }).click();
    await expect(page.getByRole('heading', { name: 'Book parcels from a CSV' })).toBeVisible();
    await page.getByLabel('Or a CSV file').setInputFiles({
      name: 'parcels.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          'recipientName,recipientAddress,recipientPostalCode,weight,length,width,height,serviceType,reference',
          'Ada Bulk,12 Analytical Way,62701,0.8,20,15,10,Standard,BULK-1',
          'Grace Bulk,1 Navy Rd,10001,0.5,10,10,10,Premium,BULK-2',
        ].join('\n'),
      ),
    });
    await page.getByRole('button', { name: 'Preview prices' }).click();
    await expect(page.getByRole('heading', { name: '2 parcels ready: $29.98' })).toBeVisible();
    const preview = page.getByRole('table', { name: /^Preview/ });
    await expect(preview.getByRole('row', { name: /Grace Bulk/ })).toContainText('$19.99');

    await page.getByRole('button', { name: 'Book all 2 parcels' }).click();
    await expect(toastRegion(page)).toContainText('Booked 2 parcels');
    await expect(page.getByRole('heading', { name: 'Booked 2 parcels' })).toBeVisible();
    const booked = page.getByRole('table', { name: 'Booked parcels' });
    await expect(booked.getByRole('row')).toHaveCount(3);
    await expect(booked.getByRole('row', { name: /Ada Bulk/ })).toContainText('BULK-1');
    await expect(page.getByRole('link', { name: 'Download labels (PDF)' })).toHaveAttribute(
      'href',
      /\/account\/send\/bulk\/[0-9a-f]{24}\/labels\.pdf$/,
    );
  },
);
