import mongoose from 'mongoose';
import { withChange } from '~/lib/changes.server';
import { isObjectId } from '~/lib/db.server';
import {
  Parcel,
  serializeParcel,
  type LeanEta,
  type LeanParcel,
  type SerializedParcel,
} from './parcel.server';

/**
 * The parcels as couriers' runs see them: those due on a depot's day, the run each was put on
 * (kept for the delivery reports) and each stop's expected window once its run has started.
 */

const oid = (id: string) => new mongoose.Types.ObjectId(id);

/**
 * The parcels due on `day` (their estimated day, or the day their recipient asked for) that
 * passed through the depot (a scan there) and are still to go out: not delivered, returned or
 * out for delivery. Without their events, by postcode then street.
 */
export async function listParcelsDueAt(day: string, depotId: string): Promise<SerializedParcel[]> {
  if (!isObjectId(depotId)) return [];
  const from = new Date(`${day}T00:00:00.000Z`);
  const until = new Date(from.getTime() + 86_400_000);
  const docs = await Parcel.find(
    {
      $or: [
        { estimatedDelivery: { $gte: from, $lt: until } },
        { 'deliveryPreferences.requestedDate': day },
      ],
      status: { $nin: ['Delivered', 'Returned', 'Out for Delivery'] },
      events: { $elemMatch: { depotId: oid(depotId) } },
    },
    { events: 0 },
  ).lean<LeanParcel[]>();
  return docs.map((doc) => serializeParcel(doc, { events: false }));
}

/** The parcels' stored run: the run, its depot and its courier; null takes them off. */
export async function setParcelsRun(
  parcelIds: string[],
  run: { id: string; depotId: string; courierId: string } | null,
) {
  if (!parcelIds.length) return;
  await withChange((changeSeq) =>
    Parcel.updateMany(
      { _id: { $in: parcelIds.map(oid) } },
      run
        ? {
            $set: {
              run: { id: oid(run.id), depotId: oid(run.depotId), courierId: oid(run.courierId) },
              changeSeq,
            },
            $unset: { eta: 1 },
          }
        : { $unset: { run: 1, eta: 1 }, $set: { changeSeq } },
    ),
  );
}

/** The parcels' stored windows, by parcel, with what a recipient reads of them. */
export async function getParcelEtas(parcelIds: string[]) {
  const docs = await Parcel.find(
    { _id: { $in: parcelIds.filter(isObjectId).map(oid) } },
    { eta: 1, status: 1, trackingNumber: 1, recipient: 1, destinations: 1 },
  ).lean<
    Array<
      Pick<LeanParcel, '_id' | 'eta' | 'status' | 'trackingNumber' | 'recipient' | 'destinations'>
    >
  >();
  return new Map(docs.map((doc) => [String(doc._id), doc]));
}

/** Each parcel's stop: its window, the stops before it and on the run, and what its recipient was told. */
export async function setParcelEtas(etas: ({ parcelId: string } & Required<LeanEta>)[]) {
  if (!etas.length) return;
  await withChange(async (changeSeq) => {
    for (const { parcelId, ...eta } of etas)
      await Parcel.updateOne({ _id: oid(parcelId) }, { $set: { eta, changeSeq } });
  });
}
