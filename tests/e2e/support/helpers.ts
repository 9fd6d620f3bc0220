import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { E2E_ADMIN, E2E_DIR } from '../../../playwright.config';

export { E2E_ADMIN };

/** Signs in as the seeded admin and lands on the dashboard. */
export async function signIn(page: Page, redirectTo?: string) {
  await page.goto(
    `/management/access${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ''}`,
  );
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(
    redirectTo ? new RegExp(redirectTo.replace(/[?]/g, '\\?')) : /\/dashboard/,
    {
      timeout: 20_000,
    },
  );
}

/** The tracking numbers of the parcels the API lists as the admin for `query` (its search part). */
export async function listedTrackingNumbers(request: APIRequestContext, query: string) {
  const login = await request.post('/api/auth/login', { data: E2E_ADMIN });
  expect(login.ok()).toBeTruthy();
  const { token } = await login.json();
  const list = await request.get(`/api/parcels?${query}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const { parcels } = await list.json();
  return parcels.map((p: { trackingNumber: string }) => p.trackingNumber) as string[];
}

/** A new e-mail address of this test's project, so that the two projects' mail never meets. */
export function uniqueEmail(prefix: string) {
  const name = uniqueName(`${prefix}-${test.info().project.name}`);
  return `${name.replace(/\s+/g, '-').toLowerCase()}@example.com`;
}

type Party = { name?: string; email?: string; phone?: string; address?: string };

/**
 * A parcel made through the API with the admin's `headers`: from Sam Sender in Austin to a new
 * recipient in Boston, weighing 1 kg, unless `data` says otherwise.
 */
export async function createParcelThroughApi(
  request: APIRequestContext,
  headers: Record<string, string>,
  {
    sender,
    recipient,
    ...data
  }: { sender?: Party; recipient?: Party } & Record<string, unknown> = {},
) {
  const created = await request.post('/api/parcels', {
    headers,
    data: {
      sender: {
        name: 'Sam Sender',
        email: 'sam@example.com',
        phone: '555-0100',
        address: '1 Sender Way, Austin',
        ...sender,
      },
      recipient: {
        name: uniqueName('Rita Recipient'),
        email: 'rita@example.com',
        phone: '555-0101',
        address: '9 Elm St, Boston',
        ...recipient,
      },
      weight: 1,
      ...data,
    },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).parcel as { id: string; trackingNumber: string };
}

/** The status region where flash messages show (with or without JavaScript). */
export function toastRegion(page: Page) {
  return page.getByRole('status', { name: 'Notifications' });
}

export function uniqueName(prefix: string) {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Makes the test SMTP server refuse (true) or accept (false) messages to one address, so tests
 * running beside each other are not affected.
 */
export function setSmtpRejecting(address: string, rejecting: boolean) {
  const dir = path.join(E2E_DIR, 'smtp-reject');
  const flag = path.join(dir, address.toLowerCase());
  if (rejecting) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(flag, 'reject');
  } else fs.rmSync(flag, { force: true });
}

/** Waits for a message to `to` that the test SMTP server accepted. */
export async function waitForMail(
  to: string,
  predicate: (m: ParsedMail) => boolean = () => true,
  timeoutMs = 10_000,
) {
  const dir = path.join(E2E_DIR, 'mail');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    for (const file of files.reverse()) {
      const mail = await simpleParser(fs.readFileSync(path.join(dir, file)));
      const recipients = [mail.to]
        .flat()
        .flatMap((a) => a?.value ?? [])
        .map((v) => v.address?.toLowerCase());
      if (recipients.includes(to.toLowerCase()) && predicate(mail)) return mail;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No e-mail to ${to} within ${timeoutMs} ms`);
}

/**
 * Reloads the page until `check` passes: for outcomes a background worker records after the
 * page was rendered (an e-mail sent or failed), with JavaScript on or off.
 */
export async function reloadUntil(page: Page, check: () => Promise<void>, timeoutMs = 20_000) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: timeoutMs, intervals: [250, 500, 1000] });
}

/**
 * Waits until the add-event form can be used: with JavaScript, once hydrated, the 'Custom status'
 * field rendered for the page without JavaScript goes away. Either way the zone is the company's
 * (America/New_York), never the browser's: an event happened where the parcel was.
 */
export async function eventFormReady(page: Page) {
  if (test.info().project.use.javaScriptEnabled !== false)
    await expect(page.getByLabel('Custom status')).toHaveCount(0);
  await expect(page.getByLabel('Time zone')).toHaveValue('America/New_York');
}

/** Adds a tracking event to the parcel through the API, as `headers` authorize; the event. */
export async function addEventThroughApi(
  request: APIRequestContext,
  headers: Record<string, string>,
  parcelId: string,
  event: { status: string; location: string; description?: string },
) {
  const added = await request.post(`/api/tracking/${parcelId}/events`, {
    headers,
    data: { description: '', ...event },
  });
  expect(added.status()).toBe(201);
  return (await added.json()).event as { id: string };
}

/** Adds an event of `status` at `location` from a parcel's tracking page through its dialog. */
export async function addEventFromTrackingPage(page: Page, status: string, location: string) {
  await page.getByRole('link', { name: 'Add Event' }).click();
  await eventFormReady(page);
  await page.getByLabel('Status', { exact: true }).selectOption(status);
  await page.getByLabel('Location').fill(location);
  await page.getByRole('button', { name: 'Add Event' }).click();
  await expect(toastRegion(page)).toContainText('Tracking event added');
}

/**
 * A parcel picker once JavaScript has made it a combobox. Until the page has hydrated, a `<select>`
 * (a combobox too, with the same label) or a search box stands in its place, and keys pressed
 * there do not open the options. The closed combobox says `aria-expanded="false"`; the select
 * has no such attribute.
 */
export async function parcelCombobox(page: Page, label = 'Parcel') {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await expect(input).toHaveAttribute('aria-expanded', 'false');
  return input;
}

/**
 * Chooses a parcel in a parcel combobox (JavaScript on) with the keyboard: types `search`, waits
 * for the server's answer to it, moves to the option of `trackingNumber` with the arrow keys and
 * takes it with Enter. A dialog's combobox then shows the parcel; the Tracking tab's opens it.
 */
export async function chooseParcel(
  page: Page,
  search: string,
  trackingNumber: string,
  label = 'Parcel',
) {
  const input = await parcelCombobox(page, label);
  await input.fill(search);
  await expect(
    page.getByText(new RegExp(`match(es for)? “${escapeRegExp(search)}”`)),
  ).toBeVisible();
  const option = page.getByRole('option', { name: new RegExp(trackingNumber) });
  await expect(option).toBeVisible();
  const optionId = await option.getAttribute('id');
  for (let i = 0; i < 25; i += 1) {
    await input.press('ArrowDown');
    if ((await input.getAttribute('aria-activedescendant')) === optionId) break;
  }
  await expect(input).toHaveAttribute('aria-activedescendant', optionId!);
  await input.press('Enter');
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Draws a stroke on a proof's signature pad (`pad`, its canvas) and waits for it to be taken. */
export async function drawSignature(page: Page, pad: Locator) {
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + 40);
  await page.mouse.down();
  await page.mouse.move(box.x + 120, box.y + 80, { steps: 8 });
  await page.mouse.up();
  await expect(pad).toHaveAttribute('data-signed', 'true');
}
