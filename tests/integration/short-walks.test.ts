import type { CommandStartedEvent } from 'mongodb';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { recipientCookie } from '~/lib/cookies.server';
import { Notification } from '~/models/notification.server';
import { confirmSubscription, openParcelSubscription } from '~/models/parcel-subscription.server';
import { Parcel } from '~/models/parcel.server';
import { loader as trackApi } from '~/routes/api.tracking.track.$trackingNumber';
import { action as scansApi } from '~/routes/api.scans';
import { loader as trackPage } from '~/routes/_public.track';
import { EMAIL_JOB } from '~/services/email-queue.server';
import { trackingLimiter } from '~/services/public-tracking.server';
import { callRoute } from '../support/api';
import { createParcel, createUser } from '../support/factories';
import { attemptDueJob, startMailServer, type MailServer } from '../support/jobs';

/**
 * Each request walks the parcel's document as few times as it can: the tracking page and API read
 * it once, a scan reads it once and writes it once (the write returns what the answer and the
 * queued e-mails need), and the e-mail worker reads it once per e-mail.
 */

let mail: MailServer;

beforeAll(async () => {
  await connectDb();
  mail = await startMailServer();
});

afterAll(async () => {
  await mail.stop();
  await trackingLimiter.clear();
  await disconnectDb();
});

/** The commands `run` sends about the parcels collection, by the driver's name. */
async function parcelCommands(run: () => Promise<unknown>): Promise<string[]> {
  const client = mongoose.connection.getClient();
  const parcels = Parcel.collection.collectionName;
  const seen: string[] = [];
  const watch = (event: CommandStartedEvent) => {
    if (event.command[event.commandName] === parcels) seen.push(event.commandName);
  };
  client.on('commandStarted', watch);
  try {
    await run();
  } finally {
    client.off('commandStarted', watch);
  }
  return seen;
}

describe('one walk per request', () => {
  it('the tracking page and API read the parcel once, the recipient’s saved choices included', async () => {
    const parcel = await createParcel({
      recipient: { name: 'Rita Recipient', address: '2 High St', postalCode: '98101' },
      deliveryPreferences: { safePlace: 'Porch', updatedAt: new Date() },
    });
    // Typed in lower case with spaces, as a visitor might: normalised once, read once.
    const typed = ` ${parcel.trackingNumber.toLowerCase()} `;
    const cookie = await recipientCookie.serialize([parcel.trackingNumber]);
    let page: Response | undefined;
    expect(
      await parcelCommands(async () => {
        page = await callRoute(trackPage, `/track?number=${encodeURIComponent(typed)}`, {
          cookie,
        });
      }),
    ).toEqual(['find']);
    const data = await page!.json();
    expect(data.result.parcel.trackingNumber).toBe(parcel.trackingNumber);
    expect(data.savedPreferences).toMatchObject({ safePlace: 'Porch' });

    let answer: Response | undefined;
    expect(
      await parcelCommands(async () => {
        answer = await callRoute(trackApi, `/api/tracking/track/${typed.trim()}`, {
          params: { trackingNumber: typed.trim() },
        });
      }),
    ).toEqual(['find']);
    expect(answer!.status).toBe(200);
  });

  it('a scan reads its parcel once and writes it once; each e-mail it queues reads it once', async () => {
    const { token } = await createUser('courier', { username: 'walks-courier', name: 'Courier' });
    const parcel = await createParcel({
      recipient: { name: 'Rita Recipient', email: 'rita.walks@example.com', address: '2 High St' },
      status: 'In Transit',
    });
    const follower = await openParcelSubscription({
      parcelId: parcel.id,
      trackingNumber: parcel.trackingNumber,
      email: 'follower.walks@example.com',
    });
    await confirmSubscription(follower!);

    let answer: Response | undefined;
    const seenScan = await parcelCommands(async () => {
      answer = await callRoute(scansApi, '/api/scans', {
        method: 'POST',
        token,
        body: {
          trackingNumber: parcel.trackingNumber,
          status: 'Out for Delivery',
          location: 'Dock 4',
        },
      });
    });
    expect(seenScan).toEqual(['find', 'findAndModify']);
    expect(answer!.status).toBe(201);
    const { parcel: scanned } = await answer!.json();
    expect(scanned).toMatchObject({ status: 'Out for Delivery' });
    expect(scanned.events[0]).toMatchObject({ status: 'Out for Delivery' });
    expect(await Parcel.findById(parcel.id).lean()).toMatchObject({
      status: 'Out for Delivery',
      updatedAt: new Date(scanned.updatedAt),
    });
    // The recipient's status e-mail was composed from the write, with the new status.
    const [notification] = await Notification.find({ parcelId: parcel.id }).lean();
    expect(notification?.message).toContain('Out for Delivery');

    // The recipient's e-mail and the follower's update: one read of the parcel each, and the
    // recipient's notification.sent webhook one more of whose the parcel is (its account's
    // endpoints hear of it, the company's only of live data).
    expect(
      await parcelCommands(async () => {
        await attemptDueJob(EMAIL_JOB);
        await attemptDueJob(EMAIL_JOB);
      }),
    ).toEqual(['find', 'find', 'find']);
    const sentTo = mail.smtp.messages.flatMap((m) =>
      [m.to].flat().flatMap((to) => to?.value.map((v) => v.address) ?? []),
    );
    expect(sentTo.sort()).toEqual(['follower.walks@example.com', 'rita.walks@example.com']);
  });
});
