import { env } from '~/lib/env.server';
import { deliveryFactsOf, sameDeliveryFacts } from '~/lib/delivery-facts.server';
import { Parcel, type LeanParcel } from './parcel.server';

/**
 * The parcels' delivery facts (app/lib/delivery-facts.server.ts) kept true: the event writes
 * (tracking-event.server.ts) and the status set by hand (parcel-writes.server.ts) write them with
 * the status in the same update where they can, and otherwise through keepDeliveryFactsTrue
 * right after; a parcel stored whole gets them from the schema's hook (parcel.server.ts); and
 * those stored before facts were kept, or read in another zone than the company's, are worked
 * out again at start (refreshDeliveryFacts).
 */

type WrittenParcel = Pick<LeanParcel, '_id' | 'status' | 'actualDelivery'> & {
  events?: ReadonlyArray<NonNullable<LeanParcel['events']>[number]> | null;
  deliveryFacts?: LeanParcel['deliveryFacts'];
  __v?: number;
  changeSeq?: number | null;
};

/**
 * A parcel as a write left it (its version and change number after it): when its stored facts
 * are not those of its status and events, they are written, on the condition that no other
 * write came in between (that one then keeps them true itself). False when nothing was to write.
 */
export async function keepDeliveryFactsTrue(parcel: WrittenParcel): Promise<boolean> {
  const facts = deliveryFactsOf(parcel, env.COMPANY_TIMEZONE);
  if (sameDeliveryFacts(parcel.deliveryFacts, facts)) return false;
  await Parcel.collection.updateOne(
    { _id: parcel._id as never, __v: parcel.__v ?? 0, changeSeq: parcel.changeSeq ?? 0 },
    { $set: { deliveryFacts: facts } },
  );
  return true;
}

/** How many parcels refreshDeliveryFacts reads and writes at a time. */
const BATCH = 500;

/**
 * Works out the facts of every parcel that has none, or has them in another zone than the
 * company's (COMPANY_TIMEZONE changed): called at start, before the report is served. Each is
 * written on the condition that the parcel was not changed meanwhile (a write in between keeps
 * its own facts true); running it again changes nothing. Returns how many it wrote.
 */
export async function refreshDeliveryFacts(): Promise<number> {
  const zone = env.COMPANY_TIMEZONE;
  let written = 0;
  let after: unknown = null;
  for (;;) {
    const parcels = await Parcel.find(
      { 'deliveryFacts.zone': { $ne: zone }, ...(after ? { _id: { $gt: after } } : {}) },
      { status: 1, actualDelivery: 1, events: 1, __v: 1, changeSeq: 1 },
    )
      .sort({ _id: 1 })
      .limit(BATCH)
      .lean<Array<WrittenParcel & { __v?: number }>>();
    if (!parcels.length) return written;
    const result = await Parcel.collection.bulkWrite(
      parcels.map((parcel) => ({
        updateOne: {
          filter: {
            _id: parcel._id as never,
            __v: parcel.__v ?? { $exists: false },
            changeSeq: parcel.changeSeq ?? { $exists: false },
          },
          update: { $set: { deliveryFacts: deliveryFactsOf(parcel, zone) } },
        },
      })),
      { ordered: false },
    );
    written += result.modifiedCount;
    after = parcels[parcels.length - 1]!._id;
  }
}
