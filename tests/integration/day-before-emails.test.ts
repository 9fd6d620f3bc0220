import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { Job } from '~/models/job.server';
import { Notification } from '~/models/notification.server';
import { ParcelCreateSchema } from '~/schemas/parcel';
import { connectDb } from '~/lib/db.server';
import {
  DAY_BEFORE_JOB,
  dayBeforeEmailJob,
  planDayBeforeEmail,
} from '~/services/day-before-emails.server';
import { createParcel, updateParcel } from '~/services/parcels.server';
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
    `Your parcel ${early.trackingNumber} arrives tomorrow, between 1 pm and 3 pm`,
  );
  expect(mail.text).toContain(
    `Your parcel ${early.trackingNumber} is due tomorrow, Tuesday, 2 July, between 1 pm and 3 pm.`,
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
  expect(next.text).toContain('is due tomorrow, Wednesday, 3 July, by 6 pm.');
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
