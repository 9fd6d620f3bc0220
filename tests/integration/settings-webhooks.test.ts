import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook, WebhookDelivery } from '~/models/webhook.server';
import {
  action as detailAction,
  loader as detailLoader,
} from '~/routes/dashboard.settings.webhooks.$webhookId';
import {
  action as listAction,
  loader as listLoader,
} from '~/routes/dashboard.settings.webhooks._index';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { emitWebhookEvent } from '~/services/webhooks.server';
import { flashStorage } from '~/lib/cookies.server';
import { callRoute } from '../support/api';
import { createUser } from '../support/factories';

let adminCookie: string;
let staffCookie: string;
const savedAllow = env.WEBHOOKS_ALLOW_PRIVATE;

beforeAll(async () => {
  await connectDb();
  ({ cookie: adminCookie } = await createUser('admin', { username: 'set-hooks' }));
  ({ cookie: staffCookie } = await createUser('staff', { username: 'set-staff' }));
});

afterAll(async () => {
  env.WEBHOOKS_ALLOW_PRIVATE = savedAllow;
  await disconnectDb();
});

function post(
  handler: unknown,
  path: string,
  form: Record<string, string | string[]>,
  { cookie = adminCookie, params = {} }: { cookie?: string; params?: Record<string, string> } = {},
) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form))
    for (const v of [value].flat()) body.append(name, v);
  return callRoute(handler, path, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body,
    params,
  });
}

describe('the Settings page for webhooks', () => {
  it('adds a webhook from the form and shows its secret once', async () => {
    env.WEBHOOKS_ALLOW_PRIVATE = 'false';
    const res = await post(listAction, '/dashboard/settings/webhooks', {
      url: 'https://93.184.215.14/hooks',
      description: 'Shop',
      events: ['parcel.created', 'tracking_event.created'],
    });
    expect(res.status).toBe(200);
    const data = await res.json();
    expect(data.created.webhook).toMatchObject({
      url: 'https://93.184.215.14/hooks',
      events: ['parcel.created', 'tracking_event.created'],
      active: true,
    });
    expect(data.created.secret).toMatch(/^whsec_/);
    const page = await (
      await callRoute(listLoader, '/dashboard/settings/webhooks', {
        headers: { Cookie: adminCookie },
      })
    ).json();
    expect(page.webhooks).toHaveLength(1);
    expect(JSON.stringify(page)).not.toContain(data.created.secret);
  });

  it('answers field errors, a private address included', async () => {
    env.WEBHOOKS_ALLOW_PRIVATE = 'false';
    const empty = await post(listAction, '/dashboard/settings/webhooks', { url: '' });
    expect(empty.status).toBe(400);
    expect((await empty.json()).result.error).toMatchObject({
      url: ['URL is required'],
      events: ['Choose at least one event'],
    });
    const loopback = await post(listAction, '/dashboard/settings/webhooks', {
      url: 'http://127.0.0.1:3000/hook',
      events: 'parcel.created',
    });
    expect(loopback.status).toBe(400);
    expect((await loopback.json()).result.error.url[0]).toMatch(/public address/);
  });

  it('pauses, redelivers and deletes a webhook', async () => {
    env.WEBHOOKS_ALLOW_PRIVATE = 'true';
    const webhook = await Webhook.findOne().lean();
    const id = String(webhook!._id);
    const path = `/dashboard/settings/webhooks/${id}`;
    const paused = await post(
      detailAction,
      path,
      { intent: 'update', url: webhook!.url, description: 'Paused shop', events: 'parcel.created' },
      { params: { webhookId: id } },
    );
    expect(paused.status).toBe(302);
    expect(await Webhook.findById(id).lean()).toMatchObject({
      active: false,
      description: 'Paused shop',
      events: ['parcel.created'],
    });

    await Webhook.updateOne({ _id: id }, { $set: { active: true } });
    await emitWebhookEvent('parcel.created', { parcel: { id: 'x' } });
    const delivery = await WebhookDelivery.findOne({ webhookId: id }).lean();
    const detail = await (
      await callRoute(detailLoader, path, {
        headers: { Cookie: adminCookie },
        params: { webhookId: id },
      })
    ).json();
    expect(detail.deliveries.map((d: { id: string }) => d.id)).toEqual([String(delivery!._id)]);
    // Still queued (no worker runs here): a redelivery is refused with a message.
    const refused = await post(
      detailAction,
      path,
      { intent: 'redeliver', deliveryId: String(delivery!._id) },
      { params: { webhookId: id } },
    );
    expect(refused.status).toBe(302);
    const flash = await flashStorage.getSession(refused.headers.get('Set-Cookie')!.split(';')[0]);
    expect(flash.get('toast')).toMatchObject({
      type: 'error',
      title: 'Failed to redeliver',
      description: 'This delivery is already queued',
    });

    const staff = await post(
      detailAction,
      path,
      { intent: 'delete' },
      {
        cookie: staffCookie,
        params: { webhookId: id },
      },
    );
    expect(staff.status).toBe(403);
    const deleted = await post(
      detailAction,
      path,
      { intent: 'delete' },
      { params: { webhookId: id } },
    );
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get('location')).toBe('/dashboard/settings/webhooks');
    expect(await Webhook.countDocuments()).toBe(0);
  });
});
