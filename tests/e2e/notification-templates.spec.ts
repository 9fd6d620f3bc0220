import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import { toastRegion, uniqueName, waitForMail } from './support/helpers';

test.describe.configure({ timeout: 60_000 });

test(
  'an admin edits a template, previews it for a parcel, sends it, and resets it',
  NO_JS,
  async ({ page, request, admin }, testInfo) => {
    // Each project edits its own template, so the two can run side by side.
    const type = javaScriptOn() ? 'Custom' : 'Delivery Confirmation';
    const email = `${uniqueName(`tpl-${testInfo.project.name}`).replace(/\s+/g, '-').toLowerCase()}@example.com`;
    const created = await request.post('/api/parcels', {
      headers: admin,
      data: {
        sender: { name: 'Sam', email: 'sam@example.com', phone: '555-0100', address: '1 Way' },
        recipient: { name: 'Tom Template', email, phone: '555-0101', address: '9 Elm St' },
        weight: 1,
      },
    });
    const { parcel } = await created.json();

    await page.goto('/dashboard/notifications');
    await page.getByRole('link', { name: 'Edit e-mail templates' }).click();
    await expect(page.getByRole('heading', { name: 'E-mail templates' })).toBeVisible();
    await page.getByRole('link', { name: `Edit the ${type} template` }).click();
    await expect(page.getByRole('heading', { name: `${type} template` })).toBeVisible();

    // An unknown placeholder is refused, with the field's error.
    await page.getByLabel('Subject').fill('Hello {{firstName}}');
    await page.getByLabel('Text body').fill('Dear {{recipientName}}, your parcel is {{status}}.');
    await page.getByLabel('HTML body').fill('<p>Dear {{recipientName}}: <b>{{status}}</b></p>');
    await page.getByRole('button', { name: 'Save template' }).click();
    await expect(page.getByText(/Unknown placeholder \{\{firstName\}\}/)).toBeVisible();

    // A preview for the parcel, without saving.
    await page.getByLabel('Subject').fill('News on {{trackingNumber}}');
    await page.getByLabel('Preview with parcel').selectOption(parcel.id);
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect(page.getByTestId('preview-subject')).toContainText(
      `News on ${parcel.trackingNumber}`,
    );
    await expect(page.getByLabel('Text body preview')).toContainText(
      'Dear Tom Template, your parcel is Pending.',
    );
    await expect(
      page.frameLocator('iframe[title="HTML body preview"]').getByText('Dear Tom Template:'),
    ).toBeVisible();

    await page.getByRole('button', { name: 'Save template' }).click();
    await expect(toastRegion(page)).toContainText('Template saved');
    await expect(page.getByRole('heading', { name: 'E-mail templates' })).toBeVisible();

    // Sent from the dialog, the saved template is filled in for the parcel.
    await page.goto(
      `/dashboard/notifications/new?${new URLSearchParams({ type, parcelId: parcel.id })}`,
    );
    await expect(page.getByLabel('Subject', { exact: true })).toHaveValue(
      'News on {{trackingNumber}}',
    );
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(toastRegion(page)).toContainText('Notification sent');
    const mail = await waitForMail(email);
    expect(mail.subject).toBe(`News on ${parcel.trackingNumber}`);
    expect(String(mail.html)).toContain('<b>Pending</b>');

    // Reset to default.
    await page.goto('/dashboard/notifications/templates');
    await page.getByRole('link', { name: `Edit the ${type} template` }).click();
    await page.getByRole('button', { name: 'Reset to default' }).click();
    await expect(toastRegion(page)).toContainText('Template reset');
    await expect(page.getByText('This is the default template.')).toBeVisible();
  },
);

test(
  'an admin saves a text template in a language, an unknown placeholder refused beside the field',
  NO_JS,
  async ({ page }) => {
    // Each project edits its own language's template, so the two can run side by side.
    const language = javaScriptOn() ? 'de' : 'fr';
    await page.goto(`/dashboard/notifications/texts?event=delivered&language=${language}`);
    const text = page.getByLabel('Text', { exact: true });
    await text.fill('{{companyName}}: {{trackingNumber}} livré à {{prenom}}.');
    await page.getByRole('button', { name: 'Save text' }).click();
    await expect(page.getByText(/Unknown placeholder \{\{prenom\}\}/)).toBeVisible();

    const body = '{{companyName}}: {{trackingNumber}} est arrivé, reçu par {{receivedBy}}.';
    await text.fill(body);
    // The count is live with JavaScript; without it, the server counts what was saved.
    if (javaScriptOn()) await expect(page.getByTestId('sms-count')).toContainText('(UCS-2)');
    await page.getByRole('button', { name: 'Save text' }).click();
    await expect(toastRegion(page)).toContainText('Text template saved');
    await expect(text).toHaveValue(body);
    await expect(page.getByTestId('sms-count')).toContainText(
      `${body.length} characters · 2 messages (UCS-2)`,
    );
    // Opened again, without the toast over the buttons: back to the default text.
    await page.goto(`/dashboard/notifications/texts?event=delivered&language=${language}`);
    await page.getByRole('button', { name: 'Reset to default' }).click();
    await expect(toastRegion(page)).toContainText('Text template reset');
  },
);
