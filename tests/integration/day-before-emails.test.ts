import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { Job } from '~/models/job.server';
import { Notification } from '~/models/notification.server';
import { ParcelCreateSchema } from '~/schemas/parcel';
import { connectDb } from '~/lib/db.server';
import { stringify } from 'csv-stringify/sync';
import { Parcel } from '~/models/parcel.server';
import {
  DAY_BEFORE_JOB,
  DAY_BEFORE_PLANNING_JOB,
  dayBeforeEmailJob,
  dayBeforePlanningJob,
  planDayBeforeEmail,
  planDayBeforePlanning,
} from '~/services/day-before-emails.server';
import { importParcelCsv } from '~/services/parcel-import.server';
import { createParcel, updateParcel } from '~/services/parcels.server';
import { createUser } from '../support/factories';
import { startMailWorker, type MailWorker } from '../support/jobs';

let outbox: MailWorker;

beforeAll(async () => {
  await connectDb();
  outbox = await startMailWorker();
});

afterAll(async () => {
  vi.useRealTimers();
  await outbox?.stop();
});

/** A parcel due on 2 July 2030, made as staff make one, for `email`. */
async function parcelFor(email: string, fields: Record<string, unknown> = {}) {
  return createParcel(
    ParcelCreateSchema.parse({
      recipient: { name: 'Ada Early', address: '1 Elm St', email },
      estimatedDelivery: '2030-07-02',
      ...fields,
    }),
  );
}

const mailsTo = (email: string) =>
  outbox.smtp.messages.filter((m) => [m.to].flat().some((to) => to?.text.includes(email)));

it('e-mails the day and window once, the day before at ten in the company zone; a moved estimate is re-planned, a delivered parcel hears nothing', async () => {
  // 8 am in New York on Monday 1 July.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2030-07-01T12:00:00Z'));
  const early = await parcelFor('early@example.com', {
    deliveryWindow: { from: '2030-07-02T14:00:00-04:00', until: '2030-07-02T16:00:00-04:00' },
  });
  const moved = await parcelFor('moved@example.com');
  const delivered = await parcelFor('delivered@example.com');

  // Planned again, and a new window on the same day: still one job, one e-mail.
  await planDayBeforeEmail(early);
  await updateParcel(early.id, {
    estimatedDelivery: undefined,
    deliveryWindow: {
      from: new Date('2030-07-02T17:00:00Z'),
      until: new Date('2030-07-02T19:00:00Z'),
    },
  });
  await updateParcel(moved.id, { estimatedDelivery: new Date('2030-07-03') });
  await updateParcel(delivered.id, { estimatedDelivery: undefined, status: 'Delivered' });
  expect(await Job.countDocuments({ type: DAY_BEFORE_JOB, 'payload.parcelId': early.id })).toBe(1);
  expect(await Job.countDocuments({ type: DAY_BEFORE_JOB, 'payload.parcelId': moved.id })).toBe(2);
  await outbox.worker.idle();
  expect(outbox.smtp.messages).toHaveLength(0);

  // Ten o'clock in New York: the e-mails of parcels due tomorrow go.
  vi.setSystemTime(new Date('2030-07-01T14:00:01Z'));
  const mail = await outbox.smtp.waitForMessage('early@example.com');
  expect(mail.subject).toBe(
    `Your parcel ${early.trackingNumber} arrives tomorrow, between 1 pm and 3 pm EDT`,
  );
  expect(mail.text).toContain(
    `Your parcel ${early.trackingNumber} is due tomorrow, Tuesday, 2 July, between 1 pm and 3 pm EDT.`,
  );
  const data = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(String(mail.html));
  expect(JSON.parse(data![1]!)).toMatchObject({
    '@type': 'ParcelDelivery',
    trackingNumber: early.trackingNumber,
    expectedArrivalFrom: '2030-07-02T17:00:00.000Z',
    expectedArrivalUntil: '2030-07-02T19:00:00.000Z',
  });

  // The job run again (a second scheduler, a retry) sends nothing more.
  const job = await Job.findOne({ type: DAY_BEFORE_JOB, 'payload.parcelId': early.id }).lean();
  await dayBeforeEmailJob.run({ payload: job!.payload } as never);
  await planDayBeforeEmail(early);
  await outbox.worker.idle();
  expect(mailsTo('early@example.com')).toHaveLength(1);
  expect(mailsTo('moved@example.com')).toHaveLength(0);

  // The moved parcel's e-mail goes the day before its new day, with its service's window.
  vi.setSystemTime(new Date('2030-07-02T14:00:01Z'));
  const next = await outbox.smtp.waitForMessage('moved@example.com');
  expect(next.text).toContain('is due tomorrow, Wednesday, 3 July, by 6 pm EDT.');
  await outbox.worker.idle();
  expect(mailsTo('moved@example.com')).toHaveLength(1);
  expect(mailsTo('delivered@example.com')).toHaveLength(0);
  expect(
    await Notification.find({ automatic: true }, { type: 1, recipient: 1, _id: 0 }).lean(),
  ).toEqual(
    expect.arrayContaining([
      { type: 'Delivery Reminder', recipient: 'early@example.com' },
      { type: 'Delivery Reminder', recipient: 'moved@example.com' },
    ]),
  );
});

it('plans the e-mail of parcels stored without one (an import, an older parcel) through a daily planning of the next day, which plans the day after', async () => {
  // 8 am in New York on Monday 5 August.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2030-08-05T12:00:00Z'));
  const { user } = await createUser('staff');
  const rows = [
    ['tomorrow@example.com', '2030-08-06', 'In Transit'],
    ['later@example.com', '2030-08-08', 'In Transit'],
    ['returned@example.com', '2030-08-08', 'Returned'],
  ].map(([recipientEmail, estimatedDelivery, status]) => ({
    recipientName: 'Imported Person',
    recipientAddress: '2 Import Way',
    recipientEmail,
    estimatedDelivery,
    status,
  }));
  const csv = stringify(rows, { header: true });
  const result = await importParcelCsv(csv, { who: { user, context: null } });
  expect(result.created).toBe(3);
  const [tomorrow, later, returned] = await Promise.all(
    ['tomorrow@example.com', 'later@example.com', 'returned@example.com'].map((email) =>
      Parcel.findOne({ 'recipient.email': email }, { _id: 1 }).lean(),
    ),
  );
  const plannedFor = (parcel: typeof later) =>
    Job.countDocuments({ type: DAY_BEFORE_JOB, 'payload.parcelId': String(parcel!._id) });

  // The one due tomorrow is planned at once; the later ones wait for the daily planning.
  expect(await plannedFor(tomorrow)).toBe(1);
  expect(await plannedFor(later)).toBe(0);

  // Wednesday's planning (due at six that morning, planned however often a server starts) finds
  // Thursday's parcel, not the returned one, and plans Thursday's planning.
  vi.setSystemTime(new Date('2030-08-07T09:00:00Z'));
  await planDayBeforePlanning();
  await planDayBeforePlanning();
  const planning = await Job.find({ type: DAY_BEFORE_PLANNING_JOB }).lean();
  expect(planning.map((job) => [job.payload, job.runAt.toISOString()])).toEqual([
    [{ day: '2030-08-07' }, '2030-08-07T10:00:00.000Z'],
  ]);
  await dayBeforePlanningJob.run({ payload: planning[0]!.payload } as never);
  expect(await plannedFor(later)).toBe(1);
  expect(await plannedFor(returned)).toBe(0);
  expect(
    await Job.exists({ type: DAY_BEFORE_PLANNING_JOB, 'payload.day': '2030-08-08' }),
  ).toBeTruthy();

  // At ten, the imported parcel's e-mail goes.
  vi.setSystemTime(new Date('2030-08-07T14:00:01Z'));
  const mail = await outbox.smtp.waitForMessage('later@example.com');
  expect(mail.text).toContain('is due tomorrow, Thursday, 8 August');
});
