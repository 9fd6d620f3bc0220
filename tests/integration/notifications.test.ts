import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiToken } from '~/models/api-token.server';
import {
  createAndSendNotification,
  deleteNotification,
  getNotification,
  listNotifications,
  Notification,
  NotificationStateError,
  retryNotification,
} from '~/models/notification.server';
import { Parcel } from '~/models/parcel.server';
import { createUser } from '~/models/user.server';
import { action as retryAction, loader as retryLoader } from '~/routes/api.notifications.$id.retry';
import { action as itemAction, loader as itemLoader } from '~/routes/api.notifications.$id';
import { action as listAction, loader as listLoader } from '~/routes/api.notifications';
import { action as pageAction, loader as pageLoader } from '~/routes/dashboard.notifications';
import { action as sendAction, loader as sendLoader } from '~/routes/dashboard.notifications.new';
import { USER_SESSION_KEY } from '~/services/auth.server';
import { connectDb } from '~/services/db.server';
import { flashStorage, sessionStorage } from '~/services/session.server';
import { outboxDir } from '~/services/mailer.server';
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp';

let accepting: TestSmtpServer;
let rejecting: TestSmtpServer;
let token: string;
let cookie: string;

const context = { clientAddress: '10.1.2.3' };
const base = 'http://localhost';

function input(overrides: Record<string, unknown> = {}) {
  return {
    type: 'Status Update' as const,
    recipient: `customer-${Math.random().toString(36).slice(2, 8)}@example.com`,
    title: 'Your parcel is on its way',
    message: 'Hello,\n\nYour parcel ABC123456789 is in transit.',
    trackingNumber: 'ABC123456789',
    ...overrides,
  };
}

function apiRequest(
  url: string,
  init: { method?: string; body?: unknown; auth?: string | null } = {},
) {
  const headers: Record<string, string> = {};
  const auth = init.auth === undefined ? token : init.auth;
  if (auth) headers.Authorization = `Bearer ${auth}`;
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  return new Request(`${base}${url}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
}

const call = (
  fn: (args: never) => Promise<Response> | Response,
  request: Request,
  params: Record<string, string> = {},
) => fn({ request, params, context } as never) as Promise<Response>;

beforeAll(async () => {
  accepting = await startTestSmtpServer();
  rejecting = await startTestSmtpServer({ reject: true });
  await connectDb();
  const user = await createUser({
    username: 'notify-admin',
    password: 'a-long-password',
    role: 'admin',
  });
  token = (await issueApiToken(user.id)).token;
  const session = await sessionStorage.getSession();
  session.set(USER_SESSION_KEY, user.id);
  cookie = (await sessionStorage.commitSession(session)).split(';')[0]!;
});

afterAll(async () => {
  await accepting?.stop();
  await rejecting?.stop();
});

describe('sending notifications', () => {
  it('sends through an accepting SMTP server: recipient, subject, text and HTML parts, tracking link, escaped HTML', async () => {
    const data = input({
      title: 'Delivery <b>notice</b>',
      message: 'Hi <script>alert("x")</script>\n\nSee you soon & thanks',
    });
    const notification = await createAndSendNotification(data, { smtpUrl: accepting.url });
    expect(notification.status).toBe('sent');
    expect(notification.emailResult.messageId).toBeTruthy();
    expect(notification.emailResult.error).toBeNull();
    expect(notification.emailResult.sentAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(notification.id).toBe(notification._id);

    const mail = await accepting.waitForMessage(data.recipient);
    expect(mail.subject).toBe('Delivery <b>notice</b>');
    expect([mail.to].flat()[0]?.value[0]?.address).toBe(data.recipient);
    expect(mail.text).toContain('Hi <script>alert("x")</script>');
    expect(mail.text).toContain('/track?number=ABC123456789');
    const html = String(mail.html);
    expect(html).toContain('/track?number=ABC123456789');
    expect(html).toContain('SwiftShip Courier');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('Delivery &lt;b&gt;notice&lt;/b&gt;');

    const stored = await getNotification(notification.id);
    expect(stored?.status).toBe('sent');
  });

  it("records a refused message as failed with the server's error text, and a retry against an accepting server sends it", async () => {
    const data = input();
    const failed = await createAndSendNotification(data, { smtpUrl: rejecting.url });
    expect(failed.status).toBe('failed');
    expect(failed.emailResult.error).toMatch(/550/);
    expect(failed.emailResult.error).toContain('Mailbox unavailable');
    expect(failed.emailResult.attempts).toBe(1);

    const retried = await retryNotification(failed.id, { smtpUrl: accepting.url });
    expect(retried?.id).toBe(failed.id);
    expect(retried?.status).toBe('sent');
    expect(retried?.emailResult.error).toBeNull();
    expect(retried?.emailResult.attempts).toBe(2);
    const mail = await accepting.waitForMessage(data.recipient);
    expect(mail.subject).toBe(data.title);

    const { notifications } = await listNotifications({ page: 1, limit: 100 });
    expect(notifications.filter((n) => n.recipient === data.recipient)).toHaveLength(1);

    await expect(retryNotification(failed.id, { smtpUrl: accepting.url })).rejects.toBeInstanceOf(
      NotificationStateError,
    );
    await expect(deleteNotification(failed.id)).rejects.toBeInstanceOf(NotificationStateError);
  });

  it('gives up on a server that accepts the connection but never answers', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const started = Date.now();
      const notification = await createAndSendNotification(input(), {
        smtpUrl: `smtp://127.0.0.1:${port}`,
        timeoutMs: 400,
      });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(notification.status).toBe('failed');
      expect(notification.emailResult.error).toMatch(/time/i);
    } finally {
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('writes a readable .eml into the outbox when no SMTP server is configured', async () => {
    const data = input({ message: 'Outbox message body' });
    const notification = await createAndSendNotification(data);
    expect(notification.status).toBe('sent');
    const dir = outboxDir();
    expect(dir.startsWith(path.resolve(process.env.DATA_DIR!))).toBe(true);
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.eml'));
    const mails = await Promise.all(
      files.map(async (f) => simpleParser(fs.readFileSync(path.join(dir, f)))),
    );
    const mail = mails.find((m) => [m.to].flat()[0]?.value[0]?.address === data.recipient);
    expect(mail?.subject).toBe(data.title);
    expect(mail?.text).toContain('Outbox message body');
    expect(String(mail?.html)).toContain('/track?number=ABC123456789');
  });

  it('links the notification to the parcel with that tracking number', async () => {
    const parcel = await Parcel.create({
      trackingNumber: 'LNK123456789',
      recipient: { name: 'Ann', email: 'ann@example.com' },
    });
    const notification = await createAndSendNotification(input({ trackingNumber: 'lnk123456789' }));
    expect(notification.trackingNumber).toBe('LNK123456789');
    expect(notification.parcelId).toBe(String(parcel._id));
  });
});

describe('GET /api/notifications', () => {
  it('lists newest first with pagination and filters', async () => {
    const a = await createAndSendNotification(input({ type: 'Pickup Confirmation' }), {
      smtpUrl: accepting.url,
    });
    const b = await createAndSendNotification(input({ type: 'Pickup Confirmation' }), {
      smtpUrl: rejecting.url,
    });

    const res = await call(listLoader, apiRequest('/api/notifications?page=1&limit=2'));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.notifications).toHaveLength(2);
    expect(body.notifications[0].id).toBe(b.id);
    expect(body.notifications[1].id).toBe(a.id);
    expect(body.pagination).toMatchObject({ currentPage: 1, limit: 2 });
    expect(body.pagination.totalItems).toBeGreaterThanOrEqual(2);
    expect(body.pagination.totalPages).toBe(Math.ceil(body.pagination.totalItems / 2));

    const filtered = await (
      await call(
        listLoader,
        apiRequest('/api/notifications?type=Pickup%20Confirmation&status=failed'),
      )
    ).json();
    expect(filtered.notifications.map((n: { id: string }) => n.id)).toEqual([b.id]);
    expect(filtered.notifications[0]).toMatchObject({
      _id: b.id,
      status: 'failed',
      type: 'Pickup Confirmation',
    });
    expect(filtered.notifications[0].emailResult.error).toMatch(/550/);
  });

  it('answers 401 without a valid token', async () => {
    expect((await call(listLoader, apiRequest('/api/notifications', { auth: null }))).status).toBe(
      401,
    );
    const res = await call(listLoader, apiRequest('/api/notifications', { auth: 'not-a-token' }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'Invalid or expired token' });
  });

  it('answers 400 for a bad query', async () => {
    for (const query of ['limit=101', 'page=0', 'status=done', 'type=Spam', 'page=abc']) {
      const res = await call(listLoader, apiRequest(`/api/notifications?${query}`));
      expect(res.status, query).toBe(400);
      expect((await res.json()).details, query).toBeDefined();
    }
  });
});

describe('POST /api/notifications', () => {
  it('creates and sends: 201 with the notification', async () => {
    const data = input();
    const res = await call(
      listAction,
      apiRequest('/api/notifications', { method: 'POST', body: data }),
    );
    expect(res.status).toBe(201);
    const { notification } = await res.json();
    // The test environment has no SMTP_URL: the e-mail goes to the outbox.
    expect(notification).toMatchObject({
      type: data.type,
      recipient: data.recipient,
      title: data.title,
      status: 'sent',
    });
    expect(notification.id).toBe(notification._id);
    expect(new Date(notification.createdAt).toISOString()).toBe(notification.createdAt);
  });

  it('answers 401 without a token and stores nothing', async () => {
    const data = input();
    const res = await call(
      listAction,
      apiRequest('/api/notifications', { method: 'POST', body: data, auth: null }),
    );
    expect(res.status).toBe(401);
    const { notifications } = await listNotifications({ limit: 100 });
    expect(notifications.some((n) => n.recipient === data.recipient)).toBe(false);
  });

  it('answers 400 for invalid bodies (including operator objects) and stores nothing', async () => {
    const before = (await listNotifications({ limit: 1 })).pagination.totalItems;
    const bodies = [
      input({ recipient: 'not-an-email' }),
      input({ recipient: { $gt: '' } }),
      input({ type: 'Spam' }),
      input({ title: '' }),
      input({ message: '   ' }),
      input({ trackingNumber: 'nope' }),
      { ...input(), title: undefined },
    ];
    for (const body of bodies) {
      const res = await call(
        listAction,
        apiRequest('/api/notifications', { method: 'POST', body }),
      );
      expect(res.status, JSON.stringify(body)).toBe(400);
      const json = await res.json();
      expect(json.error).toBe('Validation failed');
      expect(json.details).toBeDefined();
    }
    const notJson = new Request(`${base}/api/notifications`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    expect((await call(listAction, notJson)).status).toBe(415);
    expect((await listNotifications({ limit: 1 })).pagination.totalItems).toBe(before);
  });
});

describe('/api/notifications/:id', () => {
  it('GET returns the notification; 404 unknown, 400 malformed, 401 without token', async () => {
    const n = await createAndSendNotification(input(), { smtpUrl: accepting.url });
    const res = await call(itemLoader, apiRequest(`/api/notifications/${n.id}`), { id: n.id });
    expect(res.status).toBe(200);
    expect((await res.json()).notification).toMatchObject({ id: n.id, status: 'sent' });
    expect(
      (
        await call(itemLoader, apiRequest('/api/notifications/0123456789abcdef01234567'), {
          id: '0123456789abcdef01234567',
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(itemLoader, apiRequest('/api/notifications/xyz'), { id: 'xyz' })).status,
    ).toBe(400);
    expect(
      (
        await call(itemLoader, apiRequest(`/api/notifications/${n.id}`, { auth: null }), {
          id: n.id,
        })
      ).status,
    ).toBe(401);
  });

  it('PUT updates the status; 400 for a bad status, 404 unknown, 401 without token', async () => {
    const n = await createAndSendNotification(input(), { smtpUrl: accepting.url });
    const put = (id: string, body: unknown, auth?: string | null) =>
      call(itemAction, apiRequest(`/api/notifications/${id}`, { method: 'PUT', body, auth }), {
        id,
      });

    const res = await put(n.id, { status: 'failed' });
    expect(res.status).toBe(200);
    expect((await res.json()).notification).toMatchObject({ id: n.id, status: 'failed' });
    expect((await getNotification(n.id))?.status).toBe('failed');

    expect((await put(n.id, { status: 'delivered' })).status).toBe(400);
    expect((await put(n.id, { status: { $ne: 'x' } })).status).toBe(400);
    expect((await getNotification(n.id))?.status).toBe('failed');
    expect((await put('0123456789abcdef01234567', { status: 'sent' })).status).toBe(404);
    expect((await put('bad-id', { status: 'sent' })).status).toBe(400);
    expect((await put(n.id, { status: 'sent' }, null)).status).toBe(401);
  });

  it('DELETE removes a failed notification, 409 for a sent one, 404 unknown, 401 without token', async () => {
    const sent = await createAndSendNotification(input(), { smtpUrl: accepting.url });
    const failed = await createAndSendNotification(input(), { smtpUrl: rejecting.url });
    const del = (id: string, auth?: string | null) =>
      call(itemAction, apiRequest(`/api/notifications/${id}`, { method: 'DELETE', auth }), { id });

    const conflict = await del(sent.id);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({
      message: 'Only failed notifications can be deleted.',
    });
    expect(await getNotification(sent.id)).not.toBeNull();

    expect((await del(failed.id, null)).status).toBe(401);
    expect(await getNotification(failed.id)).not.toBeNull();

    const ok = await del(failed.id);
    expect(ok.status).toBe(200);
    expect((await ok.json()).notification.id).toBe(failed.id);
    expect(await getNotification(failed.id)).toBeNull();
    expect((await del(failed.id)).status).toBe(404);
    expect((await del('nope')).status).toBe(400);
  });
});

describe('POST /api/notifications/:id/retry', () => {
  it('ends a send cut off by a crash: still pending past the send time limit, it becomes failed and can be retried', async () => {
    // As a crash mid-send leaves it: pending, last changed long before the time limit ran out.
    const stale = new Date(Date.now() - 60 * 60 * 1000);
    const { insertedId } = await Notification.collection.insertOne({
      type: 'custom',
      recipient: 'crash@example.com',
      title: 'Cut off',
      message: 'The process died while sending this.',
      trackingNumber: 'ABC123456789',
      status: 'pending',
      emailResult: { attempts: 1 },
      createdAt: stale,
      updatedAt: stale,
    });
    const id = String(insertedId);
    const sending = await Notification.collection.insertOne({
      type: 'custom',
      recipient: 'busy@example.com',
      title: 'Being sent',
      message: 'Another process is sending this right now.',
      trackingNumber: 'ABC123456789',
      status: 'pending',
      emailResult: { attempts: 1 },
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    const read = await call(itemLoader, apiRequest(`/api/notifications/${id}`), { id });
    const { notification } = await read.json();
    expect(notification).toMatchObject({ status: 'failed' });
    expect(notification.emailResult.error).toBe('Interrupted before it was sent');
    // A send still within its time limit is left alone.
    expect((await Notification.findById(sending.insertedId).lean())!.status).toBe('pending');
    await Notification.deleteOne({ _id: sending.insertedId });

    const retried = await call(
      retryAction,
      apiRequest(`/api/notifications/${id}/retry`, { method: 'POST' }),
      { id },
    );
    expect(retried.status).toBe(200);
    expect((await retried.json()).notification.status).toBe('sent');
  });

  it('re-sends a failed notification (outbox here) and returns the same record as sent', async () => {
    const failed = await createAndSendNotification(input(), { smtpUrl: rejecting.url });
    const res = await call(
      retryAction,
      apiRequest(`/api/notifications/${failed.id}/retry`, { method: 'POST' }),
      { id: failed.id },
    );
    expect(res.status).toBe(200);
    const { notification } = await res.json();
    expect(notification).toMatchObject({ id: failed.id, status: 'sent' });
    expect(notification.emailResult.attempts).toBe(2);
  });

  it('answers 409 for a sent notification, 404 unknown, 400 malformed, 401 without token, 405 for GET', async () => {
    const sent = await createAndSendNotification(input(), { smtpUrl: accepting.url });
    const retry = (id: string, auth?: string | null) =>
      call(retryAction, apiRequest(`/api/notifications/${id}/retry`, { method: 'POST', auth }), {
        id,
      });
    const conflict = await retry(sent.id);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({
      error: 'Only failed notifications can be retried.',
    });
    expect((await getNotification(sent.id))?.emailResult.attempts).toBe(1);
    expect((await retry('0123456789abcdef01234567')).status).toBe(404);
    expect((await retry('123')).status).toBe(400);
    expect((await retry(sent.id, null)).status).toBe(401);
    expect(
      (await call(retryLoader, apiRequest(`/api/notifications/${sent.id}/retry`), { id: sent.id }))
        .status,
    ).toBe(405);
  });
});

function pageRequest(url: string, form?: Record<string, string>) {
  return new Request(`${base}${url}`, {
    method: form ? 'POST' : 'GET',
    headers: {
      Cookie: cookie,
      ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form) : undefined,
  });
}

async function toastOf(res: Response) {
  const setCookie = res.headers.get('Set-Cookie') ?? '';
  const flash = await flashStorage.getSession(setCookie.split(';')[0]);
  return flash.get('toast') as { type: string; title: string; description?: string } | undefined;
}

describe('dashboard: Notifications tab', () => {
  it('sends the staff to the login page without a session', async () => {
    const request = new Request(`${base}/dashboard/notifications`);
    const res = await call(pageLoader, request).catch((e: Response) => e);
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toMatch(/^\/management\/access/);
  });

  it('fills a template with the parcel tracking number and status, and sends to the parcel recipient', async () => {
    const parcel = await Parcel.create({
      trackingNumber: 'DLG123456789',
      status: 'In Transit',
      recipient: { name: 'Dora', email: 'dora@example.com' },
    });
    const id = String(parcel._id);
    const loaded = await (
      await call(
        sendLoader,
        pageRequest(`/dashboard/notifications/new?parcelId=${id}&type=Status%20Update`),
      )
    ).json();
    expect(loaded.parcels.some((p: { id: string }) => p.id === id)).toBe(true);
    expect(loaded.values).toMatchObject({ parcelId: id, type: 'Status Update' });
    expect(loaded.values.title).toContain('DLG123456789');
    expect(loaded.values.message).toContain('In Transit');

    const custom = await (
      await call(sendLoader, pageRequest(`/dashboard/notifications/new?parcelId=${id}&type=Custom`))
    ).json();
    expect(custom.values).toMatchObject({ title: '', message: '' });

    const res = await call(
      sendAction,
      pageRequest('/dashboard/notifications/new', {
        parcelId: id,
        type: 'Status Update',
        title: loaded.values.title,
        message: loaded.values.message,
      }),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('Location')).toBe('/dashboard/notifications');
    expect(await toastOf(res)).toMatchObject({
      type: 'success',
      title: 'Notification sent',
      description: 'E-mail sent to dora@example.com.',
    });
    const { notifications } = await listNotifications({ limit: 1 });
    expect(notifications[0]).toMatchObject({
      recipient: 'dora@example.com',
      trackingNumber: 'DLG123456789',
      parcelId: id,
      status: 'sent',
    });
  });

  it('refuses a missing parcel, a parcel without recipient e-mail and an empty subject, storing nothing', async () => {
    const before = (await listNotifications({ limit: 1 })).pagination.totalItems;
    const noEmail = await Parcel.create({
      trackingNumber: 'NOE123456789',
      recipient: { name: 'No Mail' },
    });
    const cases: Array<[Record<string, string>, string]> = [
      [{ parcelId: '', type: 'Custom', title: 'Hi', message: 'There' }, 'parcelId'],
      [
        { parcelId: String(noEmail._id), type: 'Custom', title: 'Hi', message: 'There' },
        'parcelId',
      ],
      [{ parcelId: String(noEmail._id), type: 'Custom', title: '', message: 'There' }, 'title'],
    ];
    for (const [form, field] of cases) {
      const res = await call(sendAction, pageRequest('/dashboard/notifications/new', form));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.status).toBe('error');
      expect(body.error[field]).toBeDefined();
      expect(body.initialValue.message).toBe('There');
    }
    expect((await listNotifications({ limit: 1 })).pagination.totalItems).toBe(before);
  });

  it('retries and deletes only failed notifications, with the spec toasts', async () => {
    const sent = await createAndSendNotification(input(), { smtpUrl: accepting.url });
    const failed = await createAndSendNotification(input(), { smtpUrl: rejecting.url });

    let res = await call(
      pageAction,
      pageRequest('/dashboard/notifications?page=2', { intent: 'retry', notificationId: sent.id }),
    );
    expect(res.headers.get('Location')).toBe('/dashboard/notifications?page=2');
    expect(await toastOf(res)).toMatchObject({
      title: 'Cannot retry notification',
      description: 'Only failed notifications can be retried.',
    });
    res = await call(
      pageAction,
      pageRequest('/dashboard/notifications', { intent: 'delete', notificationId: sent.id }),
    );
    expect(await toastOf(res)).toMatchObject({
      title: 'Cannot delete notification',
      description: 'Only failed notifications can be deleted.',
    });
    expect(await getNotification(sent.id)).not.toBeNull();

    // Test env has no SMTP_URL: the retry goes to the outbox and succeeds.
    res = await call(
      pageAction,
      pageRequest('/dashboard/notifications', { intent: 'retry', notificationId: failed.id }),
    );
    expect(await toastOf(res)).toMatchObject({ type: 'success', title: 'Notification retried' });
    expect((await getNotification(failed.id))?.status).toBe('sent');

    const another = await createAndSendNotification(input(), { smtpUrl: rejecting.url });
    res = await call(
      pageAction,
      pageRequest('/dashboard/notifications', { intent: 'delete', notificationId: another.id }),
    );
    expect(await toastOf(res)).toMatchObject({ type: 'success', title: 'Notification deleted' });
    expect(await getNotification(another.id)).toBeNull();

    const page = await (await call(pageLoader, pageRequest('/dashboard/notifications'))).json();
    expect(page.pagination.limit).toBe(20);
    expect(page.notifications[0].createdAt >= page.notifications[1].createdAt).toBe(true);
  });
});
