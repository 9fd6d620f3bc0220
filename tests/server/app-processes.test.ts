import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { Job } from '~/models/job.server';
import { Notification } from '~/models/notification.server';
import { ParcelCreateSchema } from '~/schemas/parcel';
import { DAY_BEFORE_JOB } from '~/services/day-before-emails.server';
import { EMAIL_JOB } from '~/services/email-queue.server';
import { createParcel } from '~/services/parcels.server';
import { addDays, dayIn } from '~/utils/delivery-headline';
import { until } from '../support/jobs';
import { startTestSmtpServer, type TestSmtpServer } from '../support/smtp';

/**
 * Two app processes of the production build started at once on one database, as server.js
 * starts them (or two machines behind a load balancer): every planned e-mail due then goes out
 * once, whichever process takes it and whatever each does at start (taking back leases, queueing
 * the e-mails a stop left behind). Needs `npm run build` first.
 */
const PARCELS = 60;
const ENTRY = path.resolve(process.env.BUILD_DIR || 'build', 'index.js');

// One app process: the build's entry as server.js uses it, without HTTP. It starts its worker
// when told to on its standard input, so that the test chooses when each process starts.
const APP_PROCESS = `
const { pathToFileURL } = await import('node:url');
const entry = (await import(pathToFileURL(process.env.APP_ENTRY).href)).entry.module;
await entry.ready();
process.on('SIGTERM', () => entry.shutdown().then(() => process.exit(0)));
console.log('loaded');
process.stdin.once('data', () => {
  entry.startWorkers();
  console.log('started');
});
`;

/** A zone where it is now mid-afternoon: the day-before e-mails of tomorrow's parcels are due. */
function afternoonZone(now = new Date()) {
  let offset = 15 - now.getUTCHours();
  if (offset > 14) offset -= 24;
  return offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

let smtp: TestSmtpServer;
const processes: ChildProcess[] = [];

function startAppProcess(zone: string) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', APP_PROCESS], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      APP_ENTRY: ENTRY,
      SMTP_URL: smtp.url,
      COMPANY_TIMEZONE: zone,
      JOBS_POLL_MS: '50',
      JOBS_CONCURRENCY: '16',
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  processes.push(child);
  return {
    child,
    output: () => output,
    start: () => child.stdin!.write('start\n'),
  };
}

function stop(child: ChildProcess) {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

beforeAll(async () => {
  await connectDb();
  smtp = await startTestSmtpServer();
});

afterAll(async () => {
  for (const child of processes) if (child.exitCode === null) child.kill('SIGKILL');
  await smtp?.stop();
});

it('two app processes started together send each day-before e-mail once', async () => {
  const zone = afternoonZone();
  env.COMPANY_TIMEZONE = zone;
  const tomorrow = addDays(dayIn(new Date(), zone), 1);
  const emails: string[] = [];
  for (let i = 0; i < PARCELS; i++) {
    const email = `tomorrow-${i}@example.com`;
    emails.push(email);
    await createParcel(
      ParcelCreateSchema.parse({
        recipient: { name: `Recipient ${i}`, address: `${i} Elm St`, email },
        estimatedDelivery: tomorrow,
      }),
    );
  }
  expect(await Job.countDocuments({ type: DAY_BEFORE_JOB, runAt: { $lte: new Date() } })).toBe(
    PARCELS,
  );

  const apps = [startAppProcess(zone), startAppProcess(zone)];
  const all = (word: string) =>
    until(async () => apps.every((app) => app.output().includes(word)), 30_000).catch(() => {
      throw new Error(
        `The app processes did not start:\n${apps.map((a) => a.output()).join('\n')}`,
      );
    });
  await all('loaded');
  // The second starts while the first is queueing the e-mails: the moment two processes
  // started a few milliseconds apart meet.
  apps[0]!.start();
  await until(async () => (await Notification.countDocuments({})) > 0, 30_000);
  apps[1]!.start();
  await all('started');
  // Every planned e-mail sent, and nothing left to run.
  await until(async () => {
    const sent = await Notification.countDocuments({ status: 'sent' });
    const open = await Job.countDocuments({
      type: { $in: [DAY_BEFORE_JOB, EMAIL_JOB] },
      status: { $in: ['queued', 'running'] },
    });
    return sent >= PARCELS && open === 0;
  }, 30_000);
  await Promise.all(processes.map(stop));

  const received = emails.map(
    (email) =>
      smtp.messages.filter((m) =>
        [m.to].flat().some((to) => to?.value.some((v) => v.address === email)),
      ).length,
  );
  expect(received).toEqual(emails.map(() => 1));
  expect(new Set(smtp.messages.map((m) => m.messageId)).size).toBe(smtp.messages.length);
  expect(await Notification.countDocuments({})).toBe(PARCELS);
}, 90_000);
