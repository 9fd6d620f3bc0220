import type { CommandStartedEvent } from 'mongodb';
import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { recipientCookie } from '~/lib/cookies.server';
import { Parcel } from '~/models/parcel.server';
import { loader as trackApi } from '~/routes/api.tracking.track.$trackingNumber';
import { loader as trackPage } from '~/routes/_public.track';
import { trackingLimiter } from '~/services/public-tracking.server';
import { callRoute } from '../support/api';
import { createParcel } from '../support/factories';

/**
 * Each request walks the parcel's document as few times as it can: the tracking page and API read
 * it once.
 */

beforeAll(async () => {
  await connectDb();
});

afterAll(async () => {
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
});
