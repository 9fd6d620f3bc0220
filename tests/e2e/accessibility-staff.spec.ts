import { checkScreens, expectNoViolationsHere, skipBrowserChecks } from './support/accessibility';
import { expect, test } from './support/fixtures';
import { parcelCombobox } from './support/helpers';

// Every dashboard tab and dialog, signed in as the admin. Dialogs are pages without JavaScript,
// the parcel list's bulk bar and the pickers change with it, and the print page has a
// <noscript>: those are checked in both projects.
checkScreens('staff', [
  { path: () => '/dashboard' },
  { path: () => '/dashboard/parcels', withoutJavaScript: true },
  { path: () => '/dashboard/parcels?search=no-such-parcel-anywhere' },
  { path: () => '/dashboard/parcels/new', withoutJavaScript: true },
  { path: () => '/dashboard/parcels/import' },
  { path: () => '/dashboard/inbox' },
  { path: () => '/dashboard/inbox?kind=quote&state=open' },
  { path: () => '/dashboard/inbox?kind=newsletter' },
  { path: (f) => `/dashboard/inbox/newsletter/${f.subscriptionId}` },
  { path: (f) => `/dashboard/parcels/${f.parcelId}`, withoutJavaScript: true },
  { path: (f) => `/dashboard/parcels/${f.parcelId}/edit`, withoutJavaScript: true },
  { path: (f) => `/dashboard/parcels/${f.parcelId}/proof-of-delivery`, withoutJavaScript: true },
  { path: (f) => `/dashboard/parcels/${f.parcelId}/delete`, withoutJavaScript: true },
  { path: (f) => `/dashboard/parcels/delete?ids=${f.parcelId}`, withoutJavaScript: true },
  { path: () => '/dashboard/tracking', withoutJavaScript: true },
  { path: (f) => `/dashboard/tracking/${f.parcelId}` },
  { path: (f) => `/dashboard/tracking/${f.parcelId}/events/new`, withoutJavaScript: true },
  {
    path: (f) => `/dashboard/tracking/${f.parcelId}/events/${f.eventId}/edit`,
    withoutJavaScript: true,
  },
  {
    path: (f) => `/dashboard/tracking/${f.parcelId}/events/${f.eventId}/delete`,
    withoutJavaScript: true,
  },
  { path: () => '/dashboard/notifications' },
  { path: () => '/dashboard/notifications/new', withoutJavaScript: true },
  { path: () => '/dashboard/receipts' },
  { path: () => '/dashboard/receipts/new', withoutJavaScript: true },
  { path: (f) => `/dashboard/receipts/${f.receiptId}/print`, withoutJavaScript: true },
  { path: (f) => `/dashboard/parcels/${f.parcelId}/history`, withoutJavaScript: true },
  { path: () => '/dashboard/notifications/templates' },
  { path: () => '/dashboard/notifications/templates/status-update' },
  { path: () => '/dashboard/notifications/settings' },
  { path: () => '/dashboard/notifications/texts' },
  { path: () => '/dashboard/users' },
  { path: () => '/dashboard/users/new' },
  { path: (f) => `/dashboard/users/${f.userId}` },
  { path: () => '/dashboard/audit' },
  { path: () => '/dashboard/account' },
  { path: () => '/dashboard/settings' },
  { path: () => '/dashboard/settings/api-keys' },
  { path: (f) => `/dashboard/settings/api-keys?revoke=${f.apiKeyId}` },
  { path: () => '/dashboard/settings/webhooks' },
  { path: () => '/dashboard/settings/depots' },
  { path: () => '/dashboard/settings/prices' },
  { path: () => '/dashboard/exceptions' },
  { path: () => '/dashboard/dispatch' },
  { path: () => '/dashboard/pickups' },
  { path: () => '/dashboard/my-run' },
  { path: () => '/dashboard/reports' },
  { path: () => '/dashboard/scan?status=In+Transit&location=Dock+4', withoutJavaScript: true },
  {
    path: (f) => `/dashboard/scan/proof/${f.parcelId}?status=Out+for+Delivery&location=Dock+4`,
    withoutJavaScript: true,
  },
  { path: (f) => `/dashboard/parcels/${f.parcelId}/reopen` },
  { path: (f) => `/dashboard/settings/webhooks/${f.webhookId}` },
  { path: (f) => `/dashboard/settings/webhooks/${f.webhookId}?delete` },
]);

test("the parcel import showing a file's errors, then a file's preview", async ({ page }) => {
  await page.goto('/dashboard/parcels/import');
  const upload = async (rows: string) => {
    await page.getByLabel('CSV file').setInputFiles({
      name: 'axe.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`recipientName,recipientAddress,weight\n${rows}`),
    });
    await page.getByRole('button', { name: 'Upload and preview' }).click();
  };
  await upload('Axe One,1 St,1\n,2 St,heavy');
  await expect(page.getByRole('table', { name: 'Errors by row' })).toBeVisible();
  await expectNoViolationsHere(page);
  await upload('Axe One,1 St,1\nAxe Two,2 St,2');
  await expect(page.getByRole('button', { name: 'Import 2 parcels' })).toBeVisible();
  await expectNoViolationsHere(page);
});

// With JavaScript the pickers are comboboxes; without, the search form and select that the
// screens above check. One test per picker, so each page has the time limit to itself.
for (const [path, label] of [
  ['/dashboard/notifications/new', 'Parcel'],
  ['/dashboard/receipts/new', 'Parcel'],
  ['/dashboard/tracking', 'Search parcels'],
] as const) {
  test(`the parcel picker on ${path} as a combobox with its options open`, async ({ page }) => {
    await page.goto(path);
    const input = await parcelCombobox(page, label);
    await input.press('ArrowDown');
    // Shown once the options (the newest parcels) have arrived.
    await expect(page.getByRole('listbox')).toBeVisible();
    await expect(page.getByRole('option').first()).toBeVisible();
    await input.press('ArrowDown');
    await expectNoViolationsHere(page);
  });
}

test('the create parcel dialog showing its field errors', async ({ page }) => {
  // Without JavaScript the browser's own checks stop the submit.
  await page.goto('/dashboard/parcels/new');
  await skipBrowserChecks(page);
  await page.getByRole('dialog').getByRole('button', { name: 'Create Parcel' }).click();
  await expect(
    page
      .getByRole('dialog')
      .getByText(/is required/)
      .first(),
  ).toBeVisible();
  await expectNoViolationsHere(page);
});
