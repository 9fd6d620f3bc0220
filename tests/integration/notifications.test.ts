import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimJob,
  enqueueJob,
  getJob,
  Job,
  newWorkerId,
  releaseLeasesOfDeadWorkers,
} from '~/models/job.server';
import {
  getNotification,
  listNotifications,
  Notification,
  NotificationStateError,
  type SerializedNotification,
} from '~/models/notification.server';
import { Parcel } from '~/models/parcel.server';
import { action as retryAction, loader as retryLoader } from '~/routes/api.notifications.$id.retry';
import { action as itemAction, loader as itemLoader } from '~/routes/api.notifications.$id';
import { action as listAction, loader as listLoader } from '~/routes/api.notifications';
import { action as pageAction, loader as pageLoader } from '~/routes/dashboard.notifications';
import { action as sendAction, loader as sendLoader } from '~/routes/dashboard.notifications.new';
import { connectDb } from '~/lib/db.server';
import { EMAIL_JOB } from '~/services/email-queue.server';
import { env } from '~/lib/env.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { startJobWorker, type JobWorker } from '~/services/jobs.server';
import {
  createNotification,
  deleteNotification,
  resumeNotificationSends,
  retryNotification,
  UnknownParcelError,
} from '~/services/notifications.server';
import { outboxDir, sendMail } from '~/services/mailer.server';
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp';
import { until } from '../support/jobs';
import { createUser } from '../support/factories';
import { answer, apiRequest as apiRequestAs, toastOf, expectToast } from '../support/api';

let accepting: TestSmtpServer;
let rejecting: TestSmtpServer;
let token: string;
let cookie: string;
let worker: JobWorker;

const PARCEL_NUMBER = 'ABC123456789';

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

/** An API request as the admin, or with the token `auth` (null: none). */
const apiRequest = (
  url: string,
  { auth = token, ...init }: Parameters<typeof apiRequestAs>[2] & { auth?: string | null } = {},
) => apiRequestAs(url, auth === null ? null : { token: auth }, init);

/** Where the worker sends: a test server's URL, or undefined for the outbox. */
function sendVia(url: string | undefined) {
  env.SMTP_URL = url;
}

/** Waits until the worker is done with the notification: sent, or failed after every retry. */
async function settled(id: string): Promise<SerializedNotification> {
  return until(async () => {
    const n = await getNotification(id);
    return n && n.status !== 'pending' ? n : null;
  });
}

/** Creates the notification (queued) and waits for its outcome through the given server. */
async function sendThrough(url: string | undefined, overrides: Record<string, unknown> = {}) {
  sendVia(url);
  const created = await createNotification(input(overrides));
  expect(created.status).toBe('pending');
  return settled(created.id);
}

beforeAll(async () => {
  accepting = await startTestSmtpServer();
  rejecting = await startTestSmtpServer({ reject: true });
  await connectDb();
  registerJobKinds();
  // Retries a few hundredths of a second apart, so a refusing server fails a send quickly.
  env.MAIL_RETRY_DELAYS = [0.05, 0.05, 0.05];
  worker = startJobWorker({ pollMs: 20 });
  await Parcel.create({
    trackingNumber: PARCEL_NUMBER,
    status: 'In Transit',
    recipient: { name: 'Abe', email: 'abe@example.com' },
  });
  ({ token, cookie } = await createUser('admin', { username: 'notify-admin' }));
});

afterAll(async () => {
  await worker?.stop();
  sendVia(undefined);
  await accepting?.stop();
  await rejecting?.stop();
});

describe('sending notifications through the queue', () => {
  it('answers at once with a pending notification; the worker sends it: recipient, subject, text and HTML parts, tracking link, escaped HTML', async () => {
    const data = input({
      title: 'Delivery <b>notice</b>',
      message: 'Hi <script>alert("x")</script>\n\nSee you soon & thanks',
    });
    sendVia(accepting.url);
    const created = await createNotification(data);
    expect(created).toMatchObject({ status: 'pending', emailResult: { attempts: 0 } });
    expect(created.id).toBe(created._id);
    const job = await Job.findOne({ uniqueKey: `email:notification:${created.id}` }).lean();
    expect(job?.type).toBe(EMAIL_JOB);
    expect(job?.retryDelays).toEqual([0.05, 0.05, 0.05]);

    const notification = await settled(created.id);
    expect(notification.status).toBe('sent');
    expect(notification.emailResult.messageId).toBeTruthy();
    expect(notification.emailResult.error).toBeNull();
    expect(notification.emailResult.attempts).toBe(1);
    expect(notification.emailResult.sentAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const mail = await accepting.waitForMessage(data.recipient);
    expect(mail.messageId).toBe(`<notification-${created.id}@localhost>`);
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
    // Sent once: the job succeeded and is never run again. The worker marks the job done after
    // the notification, so its status is read once it has left 'running'.
    expect(accepting.messages.filter((m) => m.subject === data.title)).toHaveLength(1);
    const finished = await until(async () => {
      const found = await getJob(String(job!._id));
      return found?.status !== 'running' && found;
    });
    expect(finished.status).toBe('succeeded');
  });

  it('retries a server that refuses twice and ends sent on the third attempt', async () => {
    const flaky = await startTestSmtpServer({ rejectFirst: 2 });
    try {
      sendVia(flaky.url);
      const created = await createNotification(input());
      // While it waits for its next attempt, it stays pending with the refusal on record.
      const waiting = await until(async () => {
        const n = await getNotification(created.id);
        return n?.emailResult.error ? n : null;
      });
      expect(waiting.status).toBe('pending');
      expect(waiting.emailResult.error).toMatch(/550/);
      const notification = await settled(created.id);
      expect(notification).toMatchObject({ status: 'sent', emailResult: { error: null } });
      expect(notification.emailResult.attempts).toBe(3);
      expect(flaky.refusals()).toBe(2);
      expect(flaky.messages).toHaveLength(1);
    } finally {
      await flaky.stop();
    }
  });

  it("fails after the last retry with the server's error text, and a manual retry queues it again and sends it", async () => {
    const data = input();
    const failed = await sendThrough(rejecting.url, data);
    expect(failed.status).toBe('failed');
    expect(failed.emailResult.error).toMatch(/550/);
    expect(failed.emailResult.error).toContain('Mailbox unavailable');
    // The first attempt and MAIL_RETRY_DELAYS' three retries.
    expect(failed.emailResult.attempts).toBe(4);

    sendVia(accepting.url);
    const retried = await retryNotification(failed.id);
    expect(retried).toMatchObject({ id: failed.id, status: 'pending' });
    const sent = await settled(failed.id);
    expect(sent.status).toBe('sent');
    expect(sent.emailResult.error).toBeNull();
    expect(sent.emailResult.attempts).toBe(5);
    const mail = await accepting.waitForMessage(data.recipient);
    expect(mail.subject).toBe(data.title);
    expect(accepting.messages.filter((m) => m.subject === data.title)).toHaveLength(1);

    const { notifications } = await listNotifications({ page: 1, limit: 100 });
    expect(notifications.filter((n) => n.recipient === data.recipient)).toHaveLength(1);

    await expect(retryNotification(failed.id)).rejects.toBeInstanceOf(NotificationStateError);
    await expect(deleteNotification(failed.id)).rejects.toBeInstanceOf(NotificationStateError);
  });

  it('gives up on a server that accepts the connection but never answers', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const timeout = env.SMTP_TIMEOUT_MS;
    env.SMTP_TIMEOUT_MS = 300;
    try {
      const notification = await sendThrough(`smtp://127.0.0.1:${port}`);
      expect(notification.status).toBe('failed');
      // The transport's own timeouts and the hard cap around it end at the same moment; whichever
      // comes first, staff read the same opening words.
      expect(notification.emailResult.error).toMatch(
        /^Timed out after 300 ms waiting for the mail server/,
      );
      expect(notification.emailResult.attempts).toBe(4);

      // The transport alone adds its own words for the step that never finished: the greeting,
      // or (its idle timer ends a moment later) any reply at all.
      await expect(
        sendMail(
          { to: 'someone@example.com', subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' },
          { smtpUrl: `smtp://127.0.0.1:${port}`, timeoutMs: 300 },
        ),
      ).rejects.toThrow(
        /^Timed out after 300 ms waiting for the mail server \((Greeting never received|Timeout)\)$/,
      );
    } finally {
      env.SMTP_TIMEOUT_MS = timeout;
      sockets.forEach((s) => s.destroy());
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a send cut off by a crash is taken again after the restart and arrives once', async () => {
    sendVia(accepting.url);
    // The crashed process: it stored the notification, queued it and took the job, then died.
    await worker.stop();
    const data = input({ title: 'Sent after a crash' });
    const created = await createNotification(data);
    const job = await claimJob([EMAIL_JOB], 'crashed-process', 200);
    expect(job?.payload).toMatchObject({ notificationId: created.id });
    expect(accepting.messages.some((m) => m.subject === data.title)).toBe(false);

    // The restarted process: its worker takes the job once the dead one's lease ends.
    worker = startJobWorker({ pollMs: 20 });
    const sent = await settled(created.id);
    expect(sent.status).toBe('sent');
    await accepting.waitForMessage(data.recipient);
    // Looking again changes nothing: the job succeeded and the notification is sent.
    await until(async () => (await getJob(job!.id))?.status === 'succeeded');
    await worker.idle();
    expect(accepting.messages.filter((m) => m.subject === data.title)).toHaveLength(1);
  });

  it('after a restart, a job held by a process of this machine that is gone is taken again at once', async () => {
    sendVia(accepting.url);
    await worker.stop();
    const data = input({ title: 'Sent right after a restart' });
    const created = await createNotification(data);
    // The killed process held it with a ten-minute lease.
    const job = await claimJob([EMAIL_JOB], `${os.hostname()}:999999999:gone`, 600_000);
    expect(job?.payload).toMatchObject({ notificationId: created.id });
    // Leases of live processes, and of other machines, are left alone.
    const alive = await enqueueJob('test.alive', {});
    await claimJob(['test.alive'], `${os.hostname()}:${process.ppid}:alive`, 600_000);
    const elsewhere = await enqueueJob('test.elsewhere', {});
    await claimJob(['test.elsewhere'], 'another-host:999999999:gone', 600_000);

    expect(await releaseLeasesOfDeadWorkers(newWorkerId())).toBe(1);
    worker = startJobWorker({ pollMs: 20 });
    expect((await settled(created.id)).status).toBe('sent');
    expect(accepting.messages.filter((m) => m.subject === data.title)).toHaveLength(1);
    expect((await Job.findById(alive.id).lean())?.lockedUntil?.getTime()).toBeGreaterThan(
      Date.now(),
    );
    expect((await Job.findById(elsewhere.id).lean())?.lockedUntil?.getTime()).toBeGreaterThan(
      Date.now(),
    );
    await Job.deleteMany({ type: { $in: ['test.alive', 'test.elsewhere'] } });
  });

  it('after a restart, queues a pending notification that never got its job, and fails one whose job failed', async () => {
    sendVia(accepting.url);
    await worker.stop();
    const orphan = await Notification.create({
      type: 'Custom',
      recipient: 'orphan@example.com',
      title: 'Never queued',
      message: 'The process stopped before queueing this.',
      trackingNumber: PARCEL_NUMBER,
      status: 'pending',
    });
    const failedJob = await Job.create({
      type: EMAIL_JOB,
      payload: { kind: 'notification', notificationId: 'x' },
      status: 'failed',
      runAt: new Date(),
      lastError: '550 refused for good',
      finishedAt: new Date(),
    });
    const stuck = await Notification.create({
      type: 'Custom',
      recipient: 'stuck@example.com',
      title: 'Failed job',
      message: 'The process stopped before recording the failure.',
      trackingNumber: PARCEL_NUMBER,
      status: 'pending',
      jobId: failedJob._id,
    });
    expect(await resumeNotificationSends()).toEqual({ queued: 1, failed: 1 });
    expect(await getNotification(String(stuck._id))).toMatchObject({
      status: 'failed',
      emailResult: { error: '550 refused for good' },
    });
    worker = startJobWorker({ pollMs: 20 });
    expect((await settled(String(orphan._id))).status).toBe('sent');
    await accepting.waitForMessage('orphan@example.com');
    // Resuming again queues nothing twice.
    expect(await resumeNotificationSends()).toEqual({ queued: 0, failed: 0 });
    await worker.idle();
    expect(accepting.messages.filter((m) => m.subject === 'Never queued')).toHaveLength(1);
  });

  it('writes a readable .eml into the outbox when no SMTP server is configured', async () => {
    const data = input({ message: 'Outbox message body' });
    const notification = await sendThrough(undefined, data);
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

  it("writes outbox files for the app's user only, whatever the umask, into a folder that exists", async () => {
    fs.mkdirSync(outboxDir(), { recursive: true, mode: 0o755 });
    const umask = process.umask(0);
    try {
      const { outboxFile } = await sendMail(
        { to: 'private@example.com', subject: 'Private', text: 'Private', html: '<p>Private</p>' },
        { smtpUrl: '' },
      );
      expect(fs.statSync(outboxFile!).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(umask);
    }
  });

  it('links the notification to the parcel with that tracking number, and refuses one that matches no parcel', async () => {
    const parcel = await Parcel.create({
      trackingNumber: 'LNK123456789',
      recipient: { name: 'Ann', email: 'ann@example.com' },
    });
    const notification = await sendThrough(accepting.url, { trackingNumber: 'lnk123456789' });
    expect(notification.trackingNumber).toBe('LNK123456789');
    expect(notification.parcelId).toBe(String(parcel._id));
    const before = await Notification.countDocuments();
    await expect(
      createNotification(input({ trackingNumber: 'ZZZ999999999' })),
    ).rejects.toBeInstanceOf(UnknownParcelError);
    expect(await Notification.countDocuments()).toBe(before);
  });
});

describe('GET /api/notifications', () => {
  it('lists newest first with pagination and filters', async () => {
    const a = await sendThrough(accepting.url, { type: 'Pickup Confirmation' });
    const b = await sendThrough(rejecting.url, { type: 'Pickup Confirmation' });

    const res = await answer(listLoader, apiRequest('/api/notifications?page=1&limit=2'));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.notifications).toHaveLength(2);
    expect(body.notifications[0].id).toBe(b.id);
    expect(body.notifications[1].id).toBe(a.id);
    expect(body.pagination).toMatchObject({ currentPage: 1, limit: 2 });
    expect(body.pagination.totalItems).toBeGreaterThanOrEqual(2);
    expect(body.pagination.totalPages).toBe(Math.ceil(body.pagination.totalItems / 2));

    const filtered = await (
      await answer(
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
    expect(
      (await answer(listLoader, apiRequest('/api/notifications', { auth: null }))).status,
    ).toBe(401);
    const res = await answer(listLoader, apiRequest('/api/notifications', { auth: 'not-a-token' }));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: 'Invalid or expired token' });
  });

  it('answers 400 for a bad query', async () => {
    for (const query of ['limit=101', 'page=0', 'status=done', 'type=Spam', 'page=abc']) {
      const res = await answer(listLoader, apiRequest(`/api/notifications?${query}`));
      expect(res.status, query).toBe(400);
      expect((await res.json()).details, query).toBeDefined();
    }
  });
});

describe('POST /api/notifications', () => {
  it('stores the notification as pending and answers 201 at once; the worker then sends it', async () => {
    const data = input();
    sendVia(accepting.url);
    const res = await answer(
      listAction,
      apiRequest('/api/notifications', { method: 'POST', body: data }),
    );
    expect(res.status).toBe(201);
    const { notification } = await res.json();
    expect(notification).toMatchObject({
      type: data.type,
      recipient: data.recipient,
      title: data.title,
      status: 'pending',
    });
    expect(notification.id).toBe(notification._id);
    expect(new Date(notification.createdAt).toISOString()).toBe(notification.createdAt);
    expect((await settled(notification.id)).status).toBe('sent');
    await accepting.waitForMessage(data.recipient);
  });

  it('answers 400 with a field error for a tracking number that matches no parcel, and stores nothing', async () => {
    const data = input({ trackingNumber: 'NOP123456789' });
    const res = await answer(
      listAction,
      apiRequest('/api/notifications', { method: 'POST', body: data }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: 'Validation failed',
      details: { trackingNumber: ['No parcel has this tracking number'] },
    });
    expect(await Notification.countDocuments({ recipient: data.recipient })).toBe(0);
  });

  it('answers 401 without a token and stores nothing', async () => {
    const data = input();
    const res = await answer(
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
      const res = await answer(
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
    expect((await answer(listAction, notJson)).status).toBe(415);
    expect((await listNotifications({ limit: 1 })).pagination.totalItems).toBe(before);
  });
});

describe('/api/notifications/:id', () => {
  it('GET returns the notification; 404 unknown, 400 malformed, 401 without token', async () => {
    const n = await sendThrough(accepting.url);
    const res = await answer(itemLoader, apiRequest(`/api/notifications/${n.id}`), { id: n.id });
    expect(res.status).toBe(200);
    expect((await res.json()).notification).toMatchObject({ id: n.id, status: 'sent' });
    expect(
      (
        await answer(itemLoader, apiRequest('/api/notifications/0123456789abcdef01234567'), {
          id: '0123456789abcdef01234567',
        })
      ).status,
    ).toBe(404);
    expect(
      (await answer(itemLoader, apiRequest('/api/notifications/xyz'), { id: 'xyz' })).status,
    ).toBe(400);
    expect(
      (
        await answer(itemLoader, apiRequest(`/api/notifications/${n.id}`, { auth: null }), {
          id: n.id,
        })
      ).status,
    ).toBe(401);
  });

  it('PUT cannot change the status (409) nor anything else (400); 404 unknown, 401 without token', async () => {
    const n = await sendThrough(accepting.url);
    const put = (id: string, body: unknown, auth?: string | null) =>
      answer(itemAction, apiRequest(`/api/notifications/${id}`, { method: 'PUT', body, auth }), {
        id,
      });

    for (const status of ['failed', 'pending', 'sent', 'delivered']) {
      const res = await put(n.id, { status });
      expect(res.status, status).toBe(409);
      expect((await res.json()).error).toMatch(/cannot be changed/);
    }
    expect((await getNotification(n.id))?.status).toBe('sent');
    // So a sent notification can never be made deletable.
    const del = await answer(
      itemAction,
      apiRequest(`/api/notifications/${n.id}`, { method: 'DELETE' }),
      { id: n.id },
    );
    expect(del.status).toBe(409);

    expect((await put(n.id, { title: 'New' })).status).toBe(400);
    expect((await put('0123456789abcdef01234567', { status: 'sent' })).status).toBe(404);
    expect((await put('bad-id', { status: 'sent' })).status).toBe(400);
    expect((await put(n.id, { status: 'sent' }, null)).status).toBe(401);
  });

  it('DELETE removes a failed notification, 409 for a sent one, 404 unknown, 401 without token', async () => {
    const sent = await sendThrough(accepting.url);
    const failed = await sendThrough(rejecting.url);
    const del = (id: string, auth?: string | null) =>
      answer(itemAction, apiRequest(`/api/notifications/${id}`, { method: 'DELETE', auth }), {
        id,
      });

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
  it('queues a failed notification again and returns the same record, pending; it is then sent', async () => {
    const failed = await sendThrough(rejecting.url);
    sendVia(accepting.url);
    const res = await answer(
      retryAction,
      apiRequest(`/api/notifications/${failed.id}/retry`, { method: 'POST' }),
      { id: failed.id },
    );
    expect(res.status).toBe(200);
    const { notification } = await res.json();
    expect(notification).toMatchObject({ id: failed.id, status: 'pending' });
    const sent = await settled(failed.id);
    expect(sent.status).toBe('sent');
    expect(sent.emailResult.attempts).toBe(5);
  });

  it('answers 409 for a sent notification, 404 unknown, 400 malformed, 401 without token, 405 for GET', async () => {
    const sent = await sendThrough(accepting.url);
    const retry = (id: string, auth?: string | null) =>
      answer(retryAction, apiRequest(`/api/notifications/${id}/retry`, { method: 'POST', auth }), {
        id,
      });
    const conflict = await retry(sent.id);
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({
      error: 'Only failed notifications can be retried.',
    });
    expect((await getNotification(sent.id))?.emailResult.attempts).toBe(1);
    expect((await getNotification(sent.id))?.status).toBe('sent');
    expect((await retry('0123456789abcdef01234567')).status).toBe(404);
    expect((await retry('123')).status).toBe(400);
    expect((await retry(sent.id, null)).status).toBe(401);
    expect(
      (
        await answer(retryLoader, apiRequest(`/api/notifications/${sent.id}/retry`), {
          id: sent.id,
        })
      ).status,
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

describe('dashboard: Notifications tab', () => {
  it('sends the staff to the login page without a session', async () => {
    const request = new Request(`${base}/dashboard/notifications`);
    const res = await answer(pageLoader, request).catch((e: Response) => e);
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
      await answer(
        sendLoader,
        pageRequest(`/dashboard/notifications/new?parcelId=${id}&type=Status%20Update`),
      )
    ).json();
    expect(loaded.parcels.some((p: { id: string }) => p.id === id)).toBe(true);
    expect(loaded.values).toMatchObject({ parcelId: id, type: 'Status Update' });
    // The template as it is: the server fills its placeholders in when it sends.
    expect(loaded.values.title).toBe('Status update for your parcel {{trackingNumber}}');
    expect(loaded.values.message).toContain('its current status is "{{status}}"');

    const custom = await (
      await answer(
        sendLoader,
        pageRequest(`/dashboard/notifications/new?parcelId=${id}&type=Custom`),
      )
    ).json();
    expect(custom.values).toMatchObject({ title: '', message: '' });

    sendVia(accepting.url);
    const res = await answer(
      sendAction,
      pageRequest('/dashboard/notifications/new', {
        parcelId: id,
        type: 'Status Update',
        title: loaded.values.title,
        message: loaded.values.message,
      }),
    );
    await expectToast(
      res,
      {
        type: 'success',
        title: 'Notification sent',
        description: 'E-mail to dora@example.com queued for delivery.',
      },
      '/dashboard/notifications',
    );
    const { notifications } = await listNotifications({ limit: 1 });
    expect(notifications[0]).toMatchObject({
      recipient: 'dora@example.com',
      trackingNumber: 'DLG123456789',
      parcelId: id,
    });
    expect((await settled(notifications[0]!.id)).status).toBe('sent');
    const mail = await accepting.waitForMessage('dora@example.com');
    expect(mail.subject).toBe('Status update for your parcel DLG123456789');
    expect(mail.text).toContain('Dear Dora,');
    expect(mail.text).toContain('its current status is "In Transit"');
    expect(notifications[0]!.title).toBe('Status update for your parcel DLG123456789');
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
      const res = await answer(sendAction, pageRequest('/dashboard/notifications/new', form));
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.status).toBe('error');
      expect(body.error[field]).toBeDefined();
      expect(body.initialValue.message).toBe('There');
    }
    expect((await listNotifications({ limit: 1 })).pagination.totalItems).toBe(before);
  });

  it('retries and deletes only failed notifications, with the spec toasts', async () => {
    const sent = await sendThrough(accepting.url);
    const failed = await sendThrough(rejecting.url);

    let res = await answer(
      pageAction,
      pageRequest('/dashboard/notifications?page=2', { intent: 'retry', notificationId: sent.id }),
    );
    expect(res.headers.get('Location')).toBe('/dashboard/notifications?page=2');
    expect(await toastOf(res)).toMatchObject({
      title: 'Cannot retry notification',
      description: 'Only failed notifications can be retried.',
    });
    res = await answer(
      pageAction,
      pageRequest('/dashboard/notifications', { intent: 'delete', notificationId: sent.id }),
    );
    expect(await toastOf(res)).toMatchObject({
      title: 'Cannot delete notification',
      description: 'Only failed notifications can be deleted.',
    });
    expect(await getNotification(sent.id)).not.toBeNull();

    sendVia(accepting.url);
    res = await answer(
      pageAction,
      pageRequest('/dashboard/notifications', { intent: 'retry', notificationId: failed.id }),
    );
    expect(await toastOf(res)).toMatchObject({ type: 'success', title: 'Notification retried' });
    expect((await settled(failed.id)).status).toBe('sent');

    const another = await sendThrough(rejecting.url);
    res = await answer(
      pageAction,
      pageRequest('/dashboard/notifications', { intent: 'delete', notificationId: another.id }),
    );
    expect(await toastOf(res)).toMatchObject({ type: 'success', title: 'Notification deleted' });
    expect(await getNotification(another.id)).toBeNull();

    const page = await (await answer(pageLoader, pageRequest('/dashboard/notifications'))).json();
    expect(page.pagination.limit).toBe(20);
    expect(page.notifications[0].createdAt >= page.notifications[1].createdAt).toBe(true);
  });
});
