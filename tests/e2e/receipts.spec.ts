import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import { chooseParcel, toastRegion, uniqueName, waitForMail } from './support/helpers';

test.describe.configure({ timeout: 180_000 });

type CreatedParcel = {
  id: string;
  trackingNumber: string;
  senderName: string;
  senderEmail: string;
};

async function createParcel(
  request: APIRequestContext,
  admin: { Authorization: string },
): Promise<CreatedParcel> {
  const project = test.info().project.name;
  const senderName = uniqueName('Rita Receipt');
  const senderEmail = `${uniqueName(`receipt-${project}`).replace(/\s+/g, '-').toLowerCase()}@example.com`;
  const res = await request.post('/api/parcels', {
    headers: admin,
    data: {
      sender: {
        name: senderName,
        email: senderEmail,
        phone: '555-0100',
        address: '1 Sender Way, Austin',
      },
      recipient: {
        name: 'Rob Recipient',
        email: 'rob@example.com',
        phone: '555-0101',
        address: '9 Elm St, Boston',
      },
      weight: 2,
    },
  });
  expect(res.status()).toBe(201);
  const { parcel } = await res.json();
  return { id: parcel.id, trackingNumber: parcel.trackingNumber, senderName, senderEmail };
}

/**
 * Each step waits for its own toast, told apart by the receipt number it names. A toast with the
 * same title from the step before may still be showing: a step that went on at that sight would
 * send its request while the previous one's page data is still loading, and the flash cookie that
 * the previous load clears can then take the new toast with it.
 */
function toastFor(title: string, detail: string) {
  return new RegExp(`${title}\\s*${detail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
}

/** Generates a receipt through the dialog (a page without JavaScript) and returns its number. */
async function generateReceipt(
  page: Page,
  parcel: CreatedParcel,
  format: 'pdf' | 'html' | 'txt',
  javaScriptEnabled: boolean,
  earlier: string[],
) {
  await page.getByRole('link', { name: 'Generate Receipt' }).click();
  await expect(page).toHaveURL(/\/dashboard\/receipts\/new/);
  await expect(page.getByRole('heading', { name: 'Generate Receipt' })).toBeVisible();
  // A combobox with JavaScript (the parcel is found by its tracking number), a select without.
  if (javaScriptEnabled) {
    await chooseParcel(page, parcel.trackingNumber, parcel.trackingNumber);
  } else {
    await page.getByLabel('Parcel', { exact: true }).selectOption(parcel.id);
    await page.getByRole('button', { name: 'Use parcel details' }).click();
  }
  await expect(page.getByLabel('Customer name')).toHaveValue(parcel.senderName);
  await expect(page.getByLabel('Customer email')).toHaveValue(parcel.senderEmail);
  await expect(page.getByLabel('Payment method')).toHaveValue('Credit Card');
  await page.getByLabel('Format').selectOption(format);
  await page.getByRole('button', { name: 'Generate Receipt' }).click();

  await expect(page).toHaveURL(/\/dashboard\/receipts$/);
  // The number is only known from the toast: wait for one naming a receipt not seen before.
  let receiptNumber = '';
  await expect(async () => {
    const text = (await toastRegion(page).textContent()) ?? '';
    receiptNumber = /Receipt generated\s*(RCP-\d{4}-\d{4,})/.exec(text)?.[1] ?? '';
    expect(receiptNumber, text).not.toBe('');
    expect(earlier).not.toContain(receiptNumber);
  }).toPass();
  await expect(
    page
      .getByRole('list', { name: 'Generated Receipts' })
      .getByRole('listitem')
      .filter({ hasText: receiptNumber! }),
  ).toHaveCount(1);
  return receiptNumber!;
}

test(
  'generate receipts, download each format, print and e-mail one',
  NO_JS,
  async ({ page, request, admin }) => {
    const javaScriptEnabled = javaScriptOn();
    const parcel = await createParcel(request, admin);
    await page.goto('/dashboard/receipts');
    await expect(page.getByRole('heading', { name: 'Receipt Generation', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Generated Receipts' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Receipt template preview' })).toBeVisible();
    await expect(
      page
        .frameLocator('iframe[title="Receipt template preview"]')
        .getByText('Receipt', { exact: true }),
    ).toBeVisible();

    const numbers: Record<'pdf' | 'html' | 'txt', string> = { pdf: '', html: '', txt: '' };
    for (const format of ['pdf', 'html', 'txt'] as const) {
      numbers[format] = await generateReceipt(
        page,
        parcel,
        format,
        javaScriptEnabled,
        Object.values(numbers),
      );
    }
    const item = page
      .getByRole('list', { name: 'Generated Receipts' })
      .getByRole('listitem')
      .filter({ hasText: numbers.pdf });
    await expect(item).toContainText(parcel.senderName);
    await expect(item).toContainText(parcel.trackingNumber);
    await expect(item).toContainText('$25.99');

    // Download: a real file in the receipt's format.
    for (const format of ['pdf', 'html', 'txt'] as const) {
      const number = numbers[format];
      const downloadPromise = page.waitForEvent('download');
      await page.getByRole('link', { name: `Download ${number}`, exact: true }).click();
      const download = await downloadPromise;
      expect(download.suggestedFilename()).toBe(`receipt-${number}.${format}`);
      const bytes = fs.readFileSync((await download.path())!);
      if (format === 'pdf') expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      if (format === 'html') expect(bytes.toString('utf8')).toContain(number);
      if (format === 'txt') expect(bytes.toString('utf8')).toContain('$');
      if (javaScriptEnabled) {
        await expect(toastRegion(page)).toContainText(toastFor('Receipt downloaded', number));
      }
    }

    // The same receipt in another format keeps its number.
    const otherFormat = page.waitForEvent('download');
    await page.getByRole('link', { name: `Download ${numbers.pdf} as Text` }).click();
    const asText = await otherFormat;
    expect(asText.suggestedFilename()).toBe(`receipt-${numbers.pdf}.txt`);
    expect(fs.readFileSync((await asText.path())!).toString('utf8')).toContain(numbers.pdf);

    // Print: a print-ready page in a new tab.
    const popupPromise = page.waitForEvent('popup');
    await page.getByRole('link', { name: `Print ${numbers.html}` }).click();
    // Checked first: the toast dismisses itself after a few seconds while the print tab loads.
    if (javaScriptEnabled) {
      await expect(toastRegion(page)).toContainText(
        toastFor('Print receipt', `${numbers.html} opened for printing`),
      );
    }
    const printPage = await popupPromise;
    await expect(printPage.getByText(numbers.html)).toBeVisible();
    await expect(printPage.getByRole('button', { name: 'Print' })).toBeVisible();
    await printPage.close();

    // E-mail: really sent to the customer with the receipt attached.
    await page.getByRole('button', { name: `Email ${numbers.pdf}` }).click();
    await expect(toastRegion(page)).toContainText(
      toastFor('Receipt emailed', `${numbers.pdf} queued for ${parcel.senderEmail}`),
    );
    const mail = await waitForMail(parcel.senderEmail, (m) =>
      (m.subject ?? '').includes(numbers.pdf),
    );
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]!.filename).toBe(`receipt-${numbers.pdf}.pdf`);
    expect(mail.attachments[0]!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  },
);
