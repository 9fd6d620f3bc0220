import { expect, NO_JS, test } from './support/fixtures';
import { toastRegion, uniqueName } from './support/helpers';

test(
  'staff read a quote request in the inbox, mark it handled, and export subscribers',
  NO_JS,
  async ({ page, playwright }) => {
    test.setTimeout(60_000);
    const name = uniqueName('Iris Inbox');
    const destination = uniqueName('Halifax');
    // A visitor's quote request, as the public form sends it (signed out: no cookie).
    const visitor = await playwright.request.newContext({
      baseURL: test.info().project.use.baseURL,
      storageState: undefined,
    });
    const sent = await visitor.post('/quote', {
      form: {
        name,
        email: 'iris@example.com',
        phone: '+1 902 555 0101',
        company: 'Iris Imports',
        plan: 'enterprise',
        shipmentsPerMonth: '51-200',
        origin: 'Portland, USA',
        destination,
        message: 'Weekly pallets, please.',
      },
      maxRedirects: 0,
    });
    expect(sent.status()).toBe(302);
    await visitor.dispose();

    await page.goto('/dashboard');
    await page
      .getByRole('navigation', { name: 'Dashboard sections' })
      .getByRole('link', { name: 'Inbox' })
      .click();
    await expect(page.getByRole('heading', { name: 'Inbox' })).toBeVisible();
    await page.getByRole('link', { name: /^Quote requests/ }).click();
    await expect(page).toHaveURL(/kind=quote/);
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('New');
    await row.getByRole('link', { name: new RegExp(name) }).click();

    await expect(page.getByRole('heading', { name: /^Quote request: Enterprise/ })).toBeVisible();
    await expect(page.getByText(destination)).toBeVisible();
    await expect(page.getByText('Weekly pallets, please.')).toBeVisible();
    await expect(page.getByText('Not handled yet')).toBeVisible();
    await page.getByRole('button', { name: 'Mark handled' }).click();
    await expect(toastRegion(page)).toContainText('Marked handled');
    await expect(page.getByText(/Handled by admin on/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Mark unhandled' })).toBeVisible();

    await page.getByRole('link', { name: 'Back to quote requests' }).click();
    await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Handled');
    await page.getByLabel('Show').selectOption('open');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/state=open/);
    await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);

    await page.getByRole('link', { name: /^Newsletter subscribers/ }).click();
    const exportLink = page.getByRole('link', { name: 'Export subscribers' });
    await expect(exportLink).toHaveAttribute('href', '/dashboard/inbox/subscribers.csv');
    const csv = await page.request.get('/dashboard/inbox/subscribers.csv');
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toBe('text/csv; charset=utf-8');
    expect((await csv.text()).split('\n')[0]).toBe('email,source,subscribedAt,handledAt');
  },
);
