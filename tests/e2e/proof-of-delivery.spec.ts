import type { APIRequestContext } from '@playwright/test';
import sharp from 'sharp';
import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import { drawSignature, uniqueName } from './support/helpers';

async function newParcel(request: APIRequestContext, admin: Record<string, string>) {
  const name = uniqueName('Pat Proof');
  const res = await request.post('/api/parcels', {
    headers: admin,
    data: { recipient: { name, address: '5 Porch Lane' } },
  });
  expect(res.status()).toBe(201);
  return (await res.json()).parcel as { id: string; trackingNumber: string };
}

test(
  'records a proof of delivery with a photo from the parcel details, and shows it',
  NO_JS,
  async ({ page, request, admin }) => {
    const parcel = await newParcel(request, admin);
    const photo = await sharp({
      create: { width: 320, height: 240, channels: 3, background: { r: 30, g: 120, b: 200 } },
    })
      .jpeg()
      .toBuffer();

    await page.goto(`/dashboard/parcels/${parcel.id}`);
    await page.getByRole('link', { name: 'Record proof of delivery' }).click();
    await expect(page).toHaveURL(/\/proof-of-delivery\?destination=0/);
    const form = page.getByRole('dialog').or(page.locator('main'));
    await form.getByLabel('Received by').fill('Pat at the door');
    await form
      .getByLabel(/Photos/)
      .setInputFiles({ name: 'door.jpg', mimeType: 'image/jpeg', buffer: photo });
    if (javaScriptOn()) {
      await drawSignature(page, page.getByRole('img', { name: 'Signature' }));
    } else {
      await form.getByLabel('Typed signature').fill('Pat');
    }
    await form.getByRole('button', { name: 'Record proof of delivery' }).click();

    await expect(page.getByText('Proof of delivery recorded')).toBeVisible();
    const section = page.getByRole('region', { name: 'Proof of delivery' });
    await expect(section.getByText('Pat at the door')).toBeVisible();
    const image = section.getByRole('img', { name: 'Delivery photo 1' });
    await expect(image).toBeVisible();
    // Loaded with the staff session: the photo as stored, 320 px wide.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
    if (javaScriptOn())
      await expect(section.getByRole('img', { name: /^Signature of/ })).toBeVisible();
    else await expect(section.getByText('Pat (typed)')).toBeVisible();

    // The public page says Delivered and links no photo.
    await page.goto(`/track?number=${parcel.trackingNumber}`);
    await expect(page.getByText('Delivered').first()).toBeVisible();
    expect(
      await page.locator('a[href*="proof-of-delivery"], img[src*="proof-of-delivery"]').count(),
    ).toBe(0);
  },
);
