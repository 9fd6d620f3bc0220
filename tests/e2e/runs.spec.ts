import { expect, javaScriptOn, NO_JS, test } from './support/fixtures';
import { uniqueName } from './support/helpers';

/** The company's day (America/New_York unless COMPANY_TIMEZONE says otherwise). */
const today = new Intl.DateTimeFormat('en-CA', {
  timeZone: process.env.COMPANY_TIMEZONE ?? 'America/New_York',
}).format(new Date());

test(
  'staff plan a run in a chosen order; the courier sees it in that order and starts it; the recipient sees their stop',
  NO_JS,
  async ({ page, request, admin }) => {
    const depotRes = await request.post('/api/depots', {
      headers: admin,
      data: { name: uniqueName('Run Depot'), timeZone: 'America/New_York' },
    });
    const depot = (await depotRes.json()).depot as { id: string };
    const parcels: { id: string; trackingNumber: string }[] = [];
    for (const [postalCode, street] of [
      ['10001', '1 Alpha St'],
      ['10002', '2 Beta St'],
      ['10003', '3 Gamma St'],
    ]) {
      const res = await request.post('/api/parcels', {
        headers: admin,
        data: {
          recipient: { name: uniqueName('Run Recipient'), address: street, postalCode },
          estimatedDelivery: `${today}T12:00:00.000Z`,
        },
      });
      const { parcel } = await res.json();
      await request.post('/api/scans', {
        headers: admin,
        data: {
          trackingNumber: parcel.trackingNumber,
          status: 'Arrived at Facility',
          depotId: depot.id,
        },
      });
      parcels.push(parcel);
    }
    const [first, second, third] = parcels as [
      (typeof parcels)[0],
      (typeof parcels)[0],
      (typeof parcels)[0],
    ];

    // Dispatch: tick all three for the courier, then put the third before the second.
    await page.goto(`/dashboard/dispatch?date=${today}&depot=${depot.id}`);
    for (const parcel of parcels) await page.getByLabel(parcel.trackingNumber).check();
    const me = (await (await request.get('/api/auth/me', { headers: admin })).json()).user;
    await page.getByLabel('Courier', { exact: true }).selectOption(me.id);
    await page.getByRole('button', { name: 'Add to run' }).click();
    await expect(page.getByText('No parcels left to dispatch for this day.')).toBeVisible();
    if (javaScriptOn()) {
      // Dragged with the keyboard: Space picks the stop up, the arrow moves it, Space drops it.
      // Each key waits for what a screen reader hears: the stop is over its own place once the
      // list is measured, and an arrow pressed before that moves nothing.
      const heard = page.locator('[id^="DndLiveRegion"]');
      const handle = page.getByRole('button', { name: `Drag ${third.trackingNumber}` });
      await handle.focus();
      await handle.press('Space');
      await expect(heard).toContainText(`${third.trackingNumber} over stop 3.`);
      await page.keyboard.press('ArrowUp');
      await expect(heard).toContainText(`${third.trackingNumber} over stop 2.`);
      await page.keyboard.press('Space');
    } else {
      // Without JavaScript the toast covers the corner the button is in: the keyboard presses it.
      await page.getByRole('button', { name: `Move ${third.trackingNumber} up` }).press('Enter');
    }
    await expect(page.getByRole('status').filter({ hasText: 'Stop moved' })).toBeVisible();

    // The courier's run in that order, then started: all three out for delivery.
    await page.goto('/dashboard/my-run');
    // The admin is this test's courier; the other project's run of the day is theirs too.
    const run = page
      .getByRole('region', { name: 'Run of 3 stops' })
      .filter({ hasText: first.trackingNumber });
    await expect(run.getByText(/^[A-Z]{3}\d{9}$/)).toHaveText([
      first.trackingNumber,
      third.trackingNumber,
      second.trackingNumber,
    ]);
    await run.getByRole('button', { name: 'Start run' }).click();
    await expect(page.getByRole('status')).toContainText('Run started');
    await expect(run.getByRole('heading', { name: 'Next stop: Stop 1' })).toBeVisible();

    await page.goto(`/track?number=${second.trackingNumber}`);
    await expect(
      page.getByText(/Your parcel is on its way — you are stop 3 of 3, expected between/),
    ).toBeVisible();
  },
);
