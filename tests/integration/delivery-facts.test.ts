import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { deliveryFactsOf, isoWeekOf } from '~/lib/delivery-facts.server';
import { env } from '~/lib/env.server';
import { refreshDeliveryFacts } from '~/models/parcel-delivery-facts.server';
import {
  importedParcelDocument,
  insertImportedParcels,
  updateParcelFields,
  type ParcelFieldChanges,
} from '~/models/parcel-writes.server';
import { Parcel, type LeanParcel } from '~/models/parcel.server';
import { pullEvent, pushEvent, setEventFields } from '~/models/tracking-event.server';
import { createParcel, parcelInput } from '../support/factories';

// What the delivery performance report reads of each parcel is worked out once, when its status
// or events are written: every write keeps the stored facts equal to those of the parcel.

beforeAll(() => connectDb());
afterAll(() => disconnectDb());

const zone = env.COMPANY_TIMEZONE;
const at = { location: 'Door', description: '' };

async function stored(id: string) {
  const parcel = await Parcel.findById(id).lean<LeanParcel>();
  expect(parcel?.deliveryFacts).toEqual(deliveryFactsOf(parcel!, zone));
  return parcel!.deliveryFacts!;
}

describe('delivery facts', () => {
  it('put a delivery at 23:30 company time on that day, and weeks as ISO weeks', () => {
    const facts = deliveryFactsOf(
      {
        status: 'Delivered',
        // 23:30 in New York on 10 March (a Tuesday of week 11).
        actualDelivery: new Date('2026-03-11T03:30:00Z'),
        events: [
          { status: 'Failed Delivery', timestamp: new Date('2026-03-09T14:00:00Z') },
          { status: 'In Transit', timestamp: new Date('2026-03-08T14:00:00Z') },
        ],
      },
      'America/New_York',
    );
    expect(facts).toEqual({
      zone: 'America/New_York',
      delivered: { at: new Date('2026-03-11T03:30:00Z'), day: '2026-03-10', week: '2026-W11' },
      failures: [
        {
          at: new Date('2026-03-09T14:00:00Z'),
          day: '2026-03-09',
          week: '2026-W11',
          reason: 'other',
        },
      ],
    });
    expect(deliveryFactsOf({ status: 'Failed', actualDelivery: new Date() }, 'UTC')).toEqual({
      zone: 'UTC',
      failures: [],
    });
    expect(['2021-01-03', '2024-12-30', '2026-12-31', '2027-01-01'].map(isoWeekOf)).toEqual([
      '2020-W53',
      '2025-W01',
      '2026-W53',
      '2026-W53',
    ]);
  });

  it('are kept true by every write of a parcel’s status or events', async () => {
    const parcel = await createParcel({ status: 'Out for Delivery' });
    expect(await stored(parcel.id)).toEqual({ zone, failures: [] });

    // A failed attempt and a delivery as they happen (one update each, with the status).
    const failed = await pushEvent(parcel.id, {
      ...at,
      status: 'Failed Delivery',
      reason: 'recipient_unavailable',
      timestamp: new Date(Date.now() - 3_600_000),
    });
    expect((await stored(parcel.id)).failures).toMatchObject([{ reason: 'recipient_unavailable' }]);
    await pushEvent(parcel.id, { ...at, status: 'Delivered' });
    expect((await stored(parcel.id)).delivered).toBeDefined();

    // Edited, removed, added earlier than the newest, the status set by hand.
    const failedId = failed && 'event' in failed ? failed.event.id : '';
    await setEventFields(failedId, { reason: 'address_not_found' });
    expect((await stored(parcel.id)).failures).toMatchObject([{ reason: 'address_not_found' }]);
    await pushEvent(parcel.id, {
      ...at,
      status: 'Failed Delivery',
      timestamp: new Date(Date.now() - 7_200_000),
    });
    expect((await stored(parcel.id)).failures).toHaveLength(2);
    await pullEvent(failedId);
    expect((await stored(parcel.id)).failures).toHaveLength(1);
    await updateParcelFields(parcel.id, { status: 'In Transit' } as ParcelFieldChanges);
    expect((await stored(parcel.id)).delivered).toBeUndefined();
    await updateParcelFields(parcel.id, { status: 'Delivered' } as ParcelFieldChanges);
    expect((await stored(parcel.id)).delivered).toBeDefined();

    // An import's parcels, written without the model's casting.
    const doc = importedParcelDocument({
      ...parcelInput(),
      trackingNumber: 'FCT000000001',
      status: 'Delivered',
      cost: 0,
      estimatedDelivery: new Date(),
      actualDelivery: new Date('2026-03-11T03:30:00Z'),
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await insertImportedParcels([doc]);
    expect((await stored(String(doc._id))).delivered).toMatchObject({ day: '2026-03-10' });
  });

  it('are worked out at start for parcels without them or in another zone, once', async () => {
    const none = await createParcel({ status: 'Delivered', actualDelivery: new Date() });
    const elsewhere = await createParcel({ status: 'Pending' });
    await Parcel.collection.updateOne(
      { _id: new mongoose.Types.ObjectId(none.id) },
      { $unset: { deliveryFacts: 1 } },
    );
    await Parcel.collection.updateOne(
      { _id: new mongoose.Types.ObjectId(elsewhere.id) },
      { $set: { 'deliveryFacts.zone': 'Asia/Tokyo' } },
    );
    expect(await refreshDeliveryFacts()).toBe(2);
    expect(await refreshDeliveryFacts()).toBe(0);
    expect((await stored(none.id)).delivered).toBeDefined();
    expect((await stored(elsewhere.id)).zone).toBe(zone);

    // A parcel left without them gets them whole with its next event.
    await Parcel.collection.updateOne(
      { _id: new mongoose.Types.ObjectId(none.id) },
      { $unset: { deliveryFacts: 1 } },
    );
    await pushEvent(none.id, { ...at, status: 'Failed Delivery', reason: 'refused' });
    expect((await stored(none.id)).failures).toMatchObject([{ reason: 'refused' }]);
  });
});
