import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { Webhook as Verifier } from 'standardwebhooks';
import { E2E_ADMIN, signIn, toastRegion, uniqueName } from './support/helpers';

/**
 * What an integrator sees from outside, against the production build: API keys from the
 * dashboard's Settings (with and without JavaScript), keys and their scopes, signed webhooks to
 * a receiver on 127.0.0.1 that fails twice, idempotent creates, and the JSON conventions.
 */

async function adminToken(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', { data: E2E_ADMIN });
  expect(login.ok()).toBeTruthy();
  return (await login.json()).token as string;
}

/** A confirmation takes the focus with JavaScript; without it, its fragment scrolls it into view. */
async function expectBroughtForward(page: Page, confirm: Locator, id: string) {
  if (test.info().project.name === 'js') await expect(confirm.getByRole('heading')).toBeFocused();
  else await expect(page).toHaveURL(new RegExp(`#${id}$`));
  await expect(confirm).toBeInViewport();
}

test('an admin creates and revokes an API key in Settings; the key works until revoked', async ({
  page,
  request,
}) => {
  const name = uniqueName('Key');
  await signIn(page, '/dashboard/settings/api-keys');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Dashboard sections' })).toContainText(
    'Settings',
  );

  // Without a scope the form says so and creates nothing.
  await page.getByLabel('Name').fill(name);
  await page.getByLabel(/^Read:/).uncheck();
  await page.getByRole('button', { name: 'Create API key' }).click();
  await expect(page.getByText('Choose at least one scope')).toBeVisible();

  await page.getByLabel(/^Write:/).check();
  await page.getByLabel(/^Read:/).check();
  await page.getByRole('button', { name: 'Create API key' }).click();
  await expect(page.getByRole('heading', { name: `New API key: ${name}` })).toBeVisible();
  const key = await page.getByLabel('API key', { exact: true }).inputValue();
  expect(key).toMatch(/^sk_/);
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('read, write');
  await expect(row).toContainText(key.slice(0, 11));
  await expect(row).not.toContainText(key);

  const created = await request.post('/api/parcels', {
    headers: { Authorization: `Bearer ${key}` },
    data: { recipient: { name: 'Key Holder', address: '1 Key St' } },
  });
  expect(created.status()).toBe(201);

  // Shown once: a reload shows the list, never the key.
  await page.goto('/dashboard/settings/api-keys');
  await expect(page.getByRole('heading', { name: /New API key/ })).toHaveCount(0);
  await expect(page.getByRole('row', { name: new RegExp(name) })).not.toContainText('Never');

  // Revoking asks first; until it is confirmed, or after Cancel, the key still works.
  await page.getByRole('link', { name: `Revoke ${name}` }).click();
  const confirm = page.getByRole('region', { name: `Revoke the API key “${name}”?` });
  await expect(confirm).toBeVisible();
  await expectBroughtForward(page, confirm, 'revoke-key');
  await confirm.getByRole('link', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  const still = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${key}` } });
  expect(still.status()).toBe(200);
  await page.getByRole('link', { name: `Revoke ${name}` }).click();
  await confirm.getByRole('button', { name: 'Revoke API key' }).click();
  await expect(toastRegion(page)).toContainText('API key revoked');
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
  const after = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${key}` } });
  expect(after.status()).toBe(401);
});

test('an admin adds, pauses and deletes a webhook in Settings', async ({ page }) => {
  await signIn(page, '/dashboard/settings/webhooks');
  const url = `http://127.0.0.1:9/${uniqueName('hook').replace(/\s+/g, '-')}`;
  await page.getByLabel('Endpoint URL').fill(url);
  await page.getByLabel('Description').fill('Nobody listens here');
  await page.getByLabel('parcel.deleted').check();
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await expect(page.getByRole('heading', { name: `New webhook: ${url}` })).toBeVisible();
  await expect(page.getByLabel('Signing secret')).toHaveValue(/^whsec_/);
  await page.getByRole('link', { name: `Manage ${url}` }).click();
  await expect(page.getByRole('heading', { name: `Webhook ${url}` })).toBeVisible();
  await page.getByLabel('Active (deliver events to this endpoint)').uncheck();
  await page.getByRole('button', { name: 'Save webhook' }).click();
  await expect(toastRegion(page)).toContainText('Webhook updated');
  await expect(page.getByLabel('Active (deliver events to this endpoint)')).not.toBeChecked();
  await page.getByRole('link', { name: 'Delete webhook' }).click();
  const confirm = page.getByRole('region', { name: `Delete the webhook ${url}?` });
  await expectBroughtForward(page, confirm, 'delete-webhook');
  await confirm.getByRole('button', { name: 'Delete webhook' }).click();
  await expect(toastRegion(page)).toContainText('Webhook deleted');
  await expect(page.getByRole('link', { name: `Manage ${url}` })).toHaveCount(0);
});

test.describe('the API from outside', () => {
  // Plain HTTP: one run is enough.
  test.skip(() => test.info().project.name !== 'js', 'no browser involved');
  test.describe.configure({ timeout: 60_000 });

  test('keys with scopes, signed webhooks that retry, idempotent creates, JSON conventions', async ({
    request,
  }) => {
    const token = await adminToken(request);
    const admin = { Authorization: `Bearer ${token}` };
    const makeKey = async (scopes: string[]) => {
      const res = await request.post('/api/api-keys', {
        headers: admin,
        data: { name: uniqueName('outside'), scopes },
      });
      expect(res.status()).toBe(201);
      return { Authorization: `Bearer ${(await res.json()).key}` };
    };
    const writer = await makeKey(['read', 'write']);
    let trackingNumber = '';
    const reader = await makeKey(['read']);

    // A receiver that fails the first two attempts of every message.
    const seen: Array<{ headers: Record<string, string>; body: string; status: number }> = [];
    const tries = new Map<string, number>();
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        tries.set(id, (tries.get(id) ?? 0) + 1);
        const status = tries.get(id)! <= 2 ? 500 : 200;
        seen.push({ headers: req.headers as Record<string, string>, body, status });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const hook = await request.post('/api/webhooks', {
        headers: admin,
        data: {
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`,
          events: ['parcel.created', 'tracking_event.created'],
        },
      });
      expect(hook.status()).toBe(201);
      const { webhook, secret } = await hook.json();

      const created = await request.post('/api/parcels', {
        headers: writer,
        data: { recipient: { name: 'Outside In', address: '9 Edge Rd' } },
      });
      expect(created.status()).toBe(201);
      const { parcel } = await created.json();
      trackingNumber = parcel.trackingNumber;
      const refused = await request.post('/api/parcels', {
        headers: reader,
        data: { recipient: { name: 'Read Only', address: '0 Nope' } },
      });
      expect(refused.status()).toBe(403);
      expect((await request.get(`/api/parcels/${parcel.id}`, { headers: reader })).status()).toBe(
        200,
      );
      const event = await request.post(`/api/tracking/${parcel.id}/events`, {
        headers: writer,
        data: { status: 'In Transit', location: 'Hub' },
      });
      expect(event.status()).toBe(201);

      const verifier = new Verifier(secret);
      // Only this parcel's events: parcels that tests running beside this one create meanwhile
      // are announced to this endpoint too.
      const ours = (s: { body: string }) => s.body.includes(parcel.trackingNumber);
      await expect
        .poll(
          () =>
            seen
              .filter((s) => s.status === 200 && ours(s))
              .map((s) => (verifier.verify(s.body, s.headers) as { type: string }).type)
              .sort(),
          { timeout: 20_000 },
        )
        .toEqual(['parcel.created', 'tracking_event.created']);
      // Each event failed twice and arrived on the third attempt, as one message.
      const ourIds = new Set(seen.filter(ours).map((s) => s.headers['webhook-id']));
      expect(ourIds.size).toBe(2);
      for (const id of ourIds)
        expect(seen.filter((s) => s.headers['webhook-id'] === id).map((s) => s.status)).toEqual([
          500, 500, 200,
        ]);
      const deliveries = await request.get(`/api/webhooks/${webhook.id}/deliveries`, {
        headers: admin,
      });
      const { deliveries: list } = await deliveries.json();
      const ourDeliveries = list.filter((d: { messageId: string }) => ourIds.has(d.messageId));
      expect(ourDeliveries).toHaveLength(2);
      expect(ourDeliveries.every((d: { status: string }) => d.status === 'succeeded')).toBe(true);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }

    // Thirty concurrent creates with one key make one parcel; another body gets 422.
    const key = uniqueName('idem').replace(/\s+/g, '-');
    const name = uniqueName('Idem');
    const body = { recipient: { name, address: '30 Times Sq' } };
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        request.post('/api/parcels', {
          headers: { ...writer, 'Idempotency-Key': key },
          data: body,
        }),
      ),
    );
    expect(answers.every((a) => [201, 409].includes(a.status()))).toBe(true);
    const search = await request.get(`/api/parcels?search=${encodeURIComponent(name)}`, {
      headers: writer,
    });
    expect((await search.json()).pagination.totalItems).toBe(1);
    const other = await request.post('/api/parcels', {
      headers: { ...writer, 'Idempotency-Key': key },
      data: { recipient: { name: 'Different', address: '1 Other St' } },
    });
    expect(other.status()).toBe(422);

    // JSON everywhere, request ids, rate-limit headers, the document.
    const nope = await request.get('/api/nope');
    expect(nope.status()).toBe(404);
    expect(await nope.json()).toMatchObject({
      error: expect.any(String),
      message: expect.any(String),
    });
    expect(nope.headers()['x-request-id']).toBeTruthy();
    const echoed = await request.get('/api/health', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(echoed.headers()['x-request-id']).toBe('trace-123');
    const wrong = await request.fetch('/api/health', { method: 'PATCH' });
    expect(wrong.status()).toBe(405);
    expect(wrong.headers()['allow']).toBe('GET');
    const track = await request.get(`/api/tracking/track/${trackingNumber}`);
    expect(track.headers()['ratelimit-limit']).toBeTruthy();
    expect(track.headers()['ratelimit-remaining']).toBeTruthy();
    expect(track.headers()['ratelimit-reset']).toBeTruthy();
    const again = await request.get(`/api/tracking/track/${trackingNumber}`, {
      headers: { 'If-None-Match': track.headers()['etag']! },
    });
    expect(again.status()).toBe(304);
    const openapi = await (await request.get('/api/openapi.json')).json();
    expect(openapi.openapi).toBe('3.1.0');
    expect(openapi.paths['/api/parcels'].post).toBeTruthy();
    const docs = await request.get('/api/docs');
    expect(await docs.text()).toContain('/api/webhooks/{id}/deliveries');
  });
});
