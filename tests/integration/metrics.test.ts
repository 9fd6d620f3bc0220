import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { register } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import '~/lib/metrics.server';
import { Parcel } from '~/models/parcel.server';
import { createWebhook } from '~/models/webhook.server';
import { checkCredentials, type LoginError } from '~/http/auth.server';
import { registerJobKinds } from '~/services/job-kinds.server';
import { sendMail } from '~/services/mailer.server';
import { emitWebhookEvent, WEBHOOK_JOB } from '~/services/webhooks.server';
import { attemptDueJob } from '../support/jobs';
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp';
import { createUser } from '../support/factories';

/**
 * What the app counts for GET /metrics (app/lib/metrics.server.ts), counted where it happens:
 * e-mails handed to the mail server, webhook attempts, background job runs, refused sign-ins and
 * the database's round trips. (tests/server/operations.test.ts reads them through /metrics.)
 */
async function value(series: string): Promise<number> {
  const text = await register.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** How much `series` grew while `act` ran. */
async function growth(series: string, act: () => Promise<unknown>) {
  const before = await value(series);
  await act();
  return (await value(series)) - before;
}

const message = { to: 'reader@example.com', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' };
let accepting: TestSmtpServer;
let refusing: TestSmtpServer;
let receiver: http.Server;
const savedAllow = env.WEBHOOKS_ALLOW_PRIVATE;

beforeAll(async () => {
  await connectDb();
  registerJobKinds();
  accepting = await startTestSmtpServer();
  refusing = await startTestSmtpServer({ reject: true });
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(req.url === '/fail' ? 500 : 200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  (env as { WEBHOOKS_ALLOW_PRIVATE: string }).WEBHOOKS_ALLOW_PRIVATE = 'true';
});

afterAll(async () => {
  (env as { WEBHOOKS_ALLOW_PRIVATE: string }).WEBHOOKS_ALLOW_PRIVATE = savedAllow;
  await new Promise((resolve) => receiver.close(resolve));
  await accepting.stop();
  await refusing.stop();
  await disconnectDb();
});

describe('the app counts', () => {
  it('e-mails the mail server took, and those it refused', async () => {
    const sent = 'courier_messages_total{channel="email",outcome="sent"}';
    const failed = 'courier_messages_total{channel="email",outcome="failed"}';
    expect(await growth(sent, () => sendMail(message, { smtpUrl: accepting.url }))).toBe(1);
    expect(
      await growth(failed, () => sendMail(message, { smtpUrl: refusing.url }).catch(() => null)),
    ).toBe(1);
    expect(await growth(sent, () => sendMail(message))).toBe(1);
  });

  it('webhook attempts by outcome, and the job runs that made them', async () => {
    const { port } = receiver.address() as AddressInfo;
    // [the receiver's path, the event, the delivery's outcome, the job run's, the event's data]
    const cases = [
      ['ok', 'parcel.deleted', 'succeeded', 'succeeded', { parcel: { id: 'x' } }],
      ['fail', 'parcel.imported', 'retrying', 'retry', { count: 0 }],
    ] as const;
    for (const [path, event, outcome, runOutcome, data] of cases) {
      await createWebhook({
        url: `http://127.0.0.1:${port}/${path}`,
        events: [event],
        description: '',
      });
      const runs = `courier_job_run_duration_seconds_count{kind="${WEBHOOK_JOB}",outcome="${runOutcome}"}`;
      const runsBefore = await value(runs);
      expect(
        await growth(`courier_webhook_deliveries_total{outcome="${outcome}"}`, async () => {
          await emitWebhookEvent(event, data);
          await attemptDueJob(WEBHOOK_JOB);
        }),
        event,
      ).toBe(1);
      expect((await value(runs)) - runsBefore, event).toBe(1);
    }
  });

  it('sign-ins refused for wrong credentials, and those refused while locked out', async () => {
    const { user } = await createUser('staff', { username: 'counted' });
    const wrong = () =>
      checkCredentials({ username: user.username, password: 'not-the-password' }, '10.9.8.7').catch(
        (error: unknown) => (error as LoginError).kind,
      );
    const failures = 'courier_login_failures_total';
    const lockouts = 'courier_login_lockouts_total';
    const failuresBefore = await value(failures);
    const lockoutsBefore = await value(lockouts);
    const kinds = [];
    for (let i = 0; i <= env.LOGIN_MAX_FAILURES; i++) kinds.push(await wrong());
    expect(kinds.at(-1)).toBe('locked');
    expect((await value(failures)) - failuresBefore).toBe(env.LOGIN_MAX_FAILURES);
    expect((await value(lockouts)) - lockoutsBefore).toBe(1);
  });

  it("the database's round trips, by command", async () => {
    const finds = 'courier_db_command_duration_seconds_count{command="find"}';
    expect(await growth(finds, () => Parcel.find({ trackingNumber: 'ABC123456789' }).lean())).toBe(
      1,
    );
  });
});
