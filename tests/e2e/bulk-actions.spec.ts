import type { APIRequestContext, Page } from '@playwright/test';
import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import { toastRegion, uniqueName } from './support/helpers';

type Made = { id: string; trackingNumber: string };

test.describe.configure({ timeout: 90_000 });

/**
 * `count` parcels made through the API, each with a recipient named from `name` and a number, and
 * the parcel list searched for them, opened: the parcels and the list's address.
 */
async function openParcels(
  page: Page,
  request: APIRequestContext,
  admin: { Authorization: string },
  name: string,
  count: number,
) {
  const prefix = uniqueName(name);
  const made: Made[] = [];
  for (let i = 1; i <= count; i++) {
    const created = await request.post('/api/parcels', {
      headers: admin,
      data: { recipient: { name: `${prefix} ${i}`, address: `${i} Bulk Row` }, weight: i },
    });
    expect(created.status()).toBe(201);
    made.push((await created.json()).parcel);
  }
  const list = `/dashboard/parcels?search=${encodeURIComponent(prefix)}`;
  await page.goto(list);
  return [made, list] as const;
}

function parcelRow(page: Page, trackingNumber: string) {
  return page
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: trackingNumber }) });
}

const tick = (page: Page, parcel: Made) =>
  page.getByRole('checkbox', { name: `Select ${parcel.trackingNumber}` }).check();

test(
  'select two rows and change their status; select one, confirm and delete it',
  NO_JS,
  async ({ page, request, admin }) => {
    const [[a, b, c]] = await openParcels(page, request, admin, 'Bulk Bea', 3);
    await expect(page.locator('tbody tr')).toHaveCount(3);

    const bar = page.getByRole('form', { name: 'Selected parcels' });
    if (javaScriptOn()) {
      // With JavaScript: a count, buttons that wait for a selection, and "select all on this page".
      await expect(bar).toContainText('0 selected');
      await expect(page.getByRole('button', { name: 'Change status' })).toBeDisabled();
      const all = page.getByRole('checkbox', { name: 'Select all parcels on this page' });
      await all.check();
      await expect(bar).toContainText('3 selected');
      await all.uncheck();
      await expect(bar).toContainText('0 selected');
    } else {
      await expect(
        page.getByRole('checkbox', { name: 'Select all parcels on this page' }),
      ).toHaveCount(0);
    }
    await tick(page, a!);
    await tick(page, b!);
    if (javaScriptOn()) await expect(bar).toContainText('2 selected');
    // No status chosen: the server says so, and nothing changes.
    await page.getByRole('button', { name: 'Change status' }).click();
    await expect(toastRegion(page)).toContainText('Nothing changed');
    await expect(toastRegion(page)).toContainText('Choose the new status.');
    await expect(page).toHaveURL(/search=/);
    await expect(parcelRow(page, a!.trackingNumber)).toContainText('Pending');
    await expect(parcelRow(page, b!.trackingNumber)).toContainText('Pending');
    if (javaScriptOn()) await expect(bar).toContainText('2 selected');
    else {
      await tick(page, a!);
      await tick(page, b!);
    }
    await page.getByLabel('New status').selectOption('In Transit');
    await page.getByRole('button', { name: 'Change status' }).click();
    await expect(toastRegion(page)).toContainText('Status changed for 2 parcels');
    // Back on the same filtered list, with both rows changed and the third as it was.
    await expect(page).toHaveURL(/search=/);
    await expect(parcelRow(page, a!.trackingNumber)).toContainText('In Transit');
    await expect(parcelRow(page, b!.trackingNumber)).toContainText('In Transit');
    await expect(parcelRow(page, c!.trackingNumber)).toContainText('Pending');

    // Delete: a confirmation that lists the parcels, then they are gone.
    await page.reload();
    await tick(page, a!);
    await tick(page, c!);
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await expect(page).toHaveURL(/\/dashboard\/parcels\/delete\?/);
    const listed = page.getByRole('list', { name: 'Parcels to delete' });
    await expect(listed.getByRole('listitem')).toHaveCount(2);
    await expect(listed).toContainText(a!.trackingNumber);
    await expect(listed).toContainText(c!.trackingNumber);
    await page.getByRole('button', { name: 'Delete 2 parcels' }).click();
    await expect(toastRegion(page)).toContainText('2 parcels deleted');
    await expect(page).toHaveURL(/\/dashboard\/parcels\?search=/);
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await expect(parcelRow(page, b!.trackingNumber)).toBeVisible();
  },
);

test(
  'the label link and the bulk sheet answer PDFs; the selection exports as CSV',
  NO_JS,
  async ({ page, request, admin }) => {
    const [[a, b], list] = await openParcels(page, request, admin, 'Label Lou', 2);

    // The row menu and the details dialog link to the label.
    const row = parcelRow(page, a!.trackingNumber);
    await row.locator('summary', { hasText: `Actions for ${a!.trackingNumber}` }).click();
    const menuLink = row.getByRole('link', { name: /^Label \(PDF\)/ });
    await expect(menuLink).toHaveAttribute('href', `/api/parcels/${a!.id}/label.pdf`);
    const label = await page.request.get((await menuLink.getAttribute('href'))!);
    expect(label.status()).toBe(200);
    expect(label.headers()['content-type']).toBe('application/pdf');
    expect(label.headers()['content-disposition']).toContain(a!.trackingNumber);
    expect((await label.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    await page.goto(`/dashboard/parcels/${a!.id}`);
    await expect(page.getByRole('link', { name: /^Shipping label \(PDF\)/ })).toHaveAttribute(
      'href',
      `/api/parcels/${a!.id}/label.pdf`,
    );

    // Print labels of the selection: a new tab with the sheet.
    await page.goto(list);
    await tick(page, a!);
    await tick(page, b!);
    await page.getByLabel('Paper').selectOption('letter');
    const [sheetResponse] = await Promise.all([
      page.context().waitForEvent('response', (r) => r.url().includes('/labels.pdf')),
      page.getByRole('button', { name: 'Print labels' }).click(),
    ]);
    expect(sheetResponse.status()).toBe(200);
    expect(sheetResponse.headers()['content-type']).toBe('application/pdf');
    const sheetUrl = new URL(sheetResponse.url());
    expect(sheetUrl.searchParams.getAll('ids').sort()).toEqual([a!.id, b!.id].sort());
    expect(sheetUrl.searchParams.get('paper')).toBe('letter');

    // Export the selection: a CSV of those two.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export selected' }).click(),
    ]);
    const csv = await download.createReadStream().then(async (stream) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    });
    const rows = csv.trim().split('\n');
    expect(rows).toHaveLength(3);
    expect(csv).toContain(a!.trackingNumber);
    expect(csv).toContain(b!.trackingNumber);
  },
);
