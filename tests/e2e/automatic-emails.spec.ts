import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import {
  addEventFromTrackingPage,
  reloadUntil,
  toastRegion,
  uniqueName,
  waitForMail,
} from './support/helpers';

test.describe.configure({ timeout: 90_000 });

test('an event that sets Out for Delivery e-mails the recipient once, shown in the timeline', async ({
  page,
  request,
  admin: headers,
}, testInfo) => {
  const email = `${uniqueName(`auto-${testInfo.project.name}`).replace(/\s+/g, '-').toLowerCase()}@example.com`;
  const created = await request.post('/api/parcels', {
    headers,
    data: {
      sender: { name: 'Sam', email: 'sam@example.com', phone: '555-0100', address: '1 Way' },
      recipient: { name: 'Otto Auto', email, phone: '555-0101', address: '9 Elm St' },
      weight: 1,
    },
  });
  const { parcel } = await created.json();

  await page.goto(`/dashboard/tracking/${parcel.id}`);
  await addEventFromTrackingPage(page, 'Out for Delivery', 'Depot');

  const mail = await waitForMail(email);
  expect(mail.subject).toBe(`Status update for your parcel ${parcel.trackingNumber}`);
  expect(mail.text).toContain('"Out for Delivery"');
  const timeline = page.getByRole('list', { name: 'Tracking events, newest first' });
  await reloadUntil(page, () => expect(timeline).toContainText(`E-mail sent to ${email}`));

  // Editing the event queues nothing more.
  await page.getByRole('link', { name: 'Edit event Out for Delivery' }).click();
  await page.getByLabel('Description').fill('On the van');
  await page.getByRole('button', { name: 'Update Event' }).click();
  await expect(toastRegion(page)).toContainText('Tracking event updated');
  const list = await request.get(
    `/api/notifications?trackingNumber=${parcel.trackingNumber}&automatic=true`,
    { headers },
  );
  const { notifications } = await list.json();
  expect(notifications).toHaveLength(1);
  expect(notifications[0]).toMatchObject({ recipient: email, automatic: true });
});

test(
  'admins choose which statuses e-mail automatically',
  NO_JS,
  async ({ page, request, admin: headers }) => {
    // Each project changes a row of its own: only the rows changed in a form are saved.
    const status = javaScriptOn() ? 'Returned' : 'Pending';
    await page.goto('/dashboard/notifications');
    await page.getByRole('link', { name: 'Automatic e-mails' }).click();
    await expect(page.getByRole('heading', { name: 'Automatic e-mails' })).toBeVisible();
    const box = page.getByLabel(`E-mail the recipient when the parcel is ${status}`, {
      exact: true,
    });
    await expect(box).not.toBeChecked();
    await expect(
      page.getByLabel('E-mail the recipient when the parcel is Out for Delivery'),
    ).toBeChecked();
    await box.check();
    await page.getByLabel(`Template for ${status}`, { exact: true }).selectOption('Custom');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toastRegion(page)).toContainText('Automatic e-mails saved');

    const read = async () =>
      (
        (await (await request.get('/api/notification-settings', { headers })).json()).settings
          .rules as Array<{ status: string; enabled: boolean; template: string }>
      ).find((r) => r.status === status);
    expect(await read()).toEqual({ status, enabled: true, template: 'Custom' });

    // Back as it was.
    await page.reload();
    await box.uncheck();
    await page.getByLabel(`Template for ${status}`, { exact: true }).selectOption('Status Update');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toastRegion(page)).toContainText('Automatic e-mails saved');
    expect(await read()).toEqual({ status, enabled: false, template: 'Status Update' });
  },
);
