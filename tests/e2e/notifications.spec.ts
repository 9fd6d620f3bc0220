import type { APIRequestContext, Page } from '@playwright/test';
import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import {
  chooseParcel,
  createParcelThroughApi,
  reloadUntil,
  setSmtpRejecting,
  toastRegion,
  uniqueEmail,
  uniqueName,
  waitForMail,
} from './support/helpers';

type CreatedParcel = { id: string; trackingNumber: string; email: string };

test.describe.configure({ mode: 'serial', timeout: 60_000 });

async function createParcel(
  request: APIRequestContext,
  admin: { Authorization: string },
): Promise<CreatedParcel> {
  const email = uniqueEmail('notify');
  const parcel = await createParcelThroughApi(request, admin, {
    recipient: { name: uniqueName('Nora Notified'), email },
    weight: 1.2,
  });
  return { id: parcel.id, trackingNumber: parcel.trackingNumber, email };
}

const LIST = '/dashboard/notifications';

/**
 * Opens the send dialog (a page without JavaScript) and picks the parcel; the Status Update
 * template is the one chosen first. Without JavaScript nothing fills the form in for the parcel:
 * the server fills the placeholders in when it sends.
 */
async function fillStatusUpdate(page: Page, parcel: CreatedParcel) {
  await page.getByRole('link', { name: 'Send Notification' }).click();
  await expect(page).toHaveURL(/\/dashboard\/notifications\/new/);
  await expect(page.getByRole('heading', { name: 'Send Notification' })).toBeVisible();
  await expect(page.getByLabel('Template', { exact: true })).toHaveValue('Status Update');
  // A combobox with JavaScript (the parcel is found by its tracking number), a select without.
  if (javaScriptOn()) await chooseParcel(page, parcel.trackingNumber, parcel.trackingNumber);
  else await page.getByLabel('Parcel', { exact: true }).selectOption(parcel.id);
  await expect(page.getByLabel('Subject', { exact: true })).toHaveValue(
    'Status update for your parcel {{trackingNumber}}',
  );
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue(
    /current status is "\{\{status\}\}"/,
  );
}

function notificationItem(page: Page, recipient: string) {
  return page
    .getByRole('list', { name: 'Recent Notifications' })
    .getByRole('listitem')
    .filter({ hasText: recipient });
}

test(
  'send a templated notification from the dialog: it is queued, sent, and the e-mail arrives',
  NO_JS,
  async ({ page, request, admin }) => {
    const parcel = await createParcel(request, admin);
    await page.goto(LIST);
    await expect(page.getByRole('heading', { name: 'Email Notifications' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Quick Templates' })).toBeVisible();

    await fillStatusUpdate(page, parcel);
    await page.getByRole('button', { name: 'Send', exact: true }).click();

    await expect(toastRegion(page)).toContainText('Notification sent');
    await expect(toastRegion(page)).toContainText(parcel.email);
    await expect(page).toHaveURL(/\/dashboard\/notifications$/);
    const item = notificationItem(page, parcel.email);
    await expect(item).toHaveCount(1);
    await expect(item).toContainText(parcel.trackingNumber);
    await expect(item).toContainText('Status Update');
    // The worker sends it in the background: the list shows the outcome once recorded.
    await reloadUntil(page, () => expect(item.locator('[data-status="sent"]')).toBeVisible());

    const mail = await waitForMail(parcel.email, (m) =>
      (m.text ?? '').includes(parcel.trackingNumber),
    );
    expect(mail.subject).toBe(`Status update for your parcel ${parcel.trackingNumber}`);
    expect(mail.text).toContain('current status is "Pending"');
    expect(mail.text).not.toContain('{{');
    await expect(item).toContainText(`Status update for your parcel ${parcel.trackingNumber}`);
    expect(String(mail.html)).toContain(`/track?number=${parcel.trackingNumber}`);
  },
);

test('a quick template link opens the dialog with that template chosen', async ({ page }) => {
  await page.goto(LIST);
  await page.getByRole('link', { name: /Delivery Confirmation/ }).click();
  await expect(page.getByRole('heading', { name: 'Send Notification' })).toBeVisible();
  await expect(page.getByLabel('Template', { exact: true })).toHaveValue('Delivery Confirmation');
});

/**
 * Sends the parcel's status update from the list to an address the SMTP server refuses: it is
 * refused on every attempt (MAIL_RETRY_DELAYS is short here) and ends failed. Its list item.
 */
async function sendRefused(page: Page, parcel: CreatedParcel) {
  await page.goto(LIST);
  await fillStatusUpdate(page, parcel);
  const item = notificationItem(page, parcel.email);
  setSmtpRejecting(parcel.email, true);
  try {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(toastRegion(page)).toContainText('Notification sent');
    await reloadUntil(page, () => expect(item.locator('[data-status="failed"]')).toBeVisible());
  } finally {
    setSmtpRejecting(parcel.email, false);
  }
  return item;
}

test(
  'a refused e-mail shows as failed with the error text; Retry sends it',
  NO_JS,
  async ({ page, request, admin }) => {
    const parcel = await createParcel(request, admin);
    const item = await sendRefused(page, parcel);
    await expect(item).toContainText('550');
    await expect(item).toContainText('Mailbox unavailable');
    await expect(item).toContainText('4 attempts');

    await item.getByRole('button', { name: /Retry/ }).click();
    await expect(toastRegion(page)).toContainText('Notification retried');
    await reloadUntil(page, () => expect(item.locator('[data-status="sent"]')).toBeVisible());
    await expect(item).not.toContainText('Mailbox unavailable');
    await expect(item.getByRole('button', { name: /Retry/ })).toHaveCount(0);
    await waitForMail(parcel.email, (m) => (m.text ?? '').includes(parcel.trackingNumber));
  },
);

test('a failed notification can be deleted', NO_JS, async ({ page, request, admin }) => {
  const parcel = await createParcel(request, admin);
  const item = await sendRefused(page, parcel);
  await item.getByRole('button', { name: /Delete/ }).click();
  await expect(toastRegion(page)).toContainText('Notification deleted');
  await expect(notificationItem(page, parcel.email)).toHaveCount(0);
});
