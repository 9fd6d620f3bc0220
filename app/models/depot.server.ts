import type mongoose from 'mongoose';
import { Schema, type InferSchemaType } from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import type { DepotInput } from '~/schemas/depot';
import { DEFAULT_STOP_MINUTES, DEFAULT_TRAVEL_MINUTES } from '~/schemas/run';
import { givenFields, iso, recordIds, registeredModel, serializedById } from '~/lib/records.server';

/** The company's depots: where parcels are scanned, each with the time zone its clocks keep. */
const depotSchema = new Schema(
  {
    name: { type: String, required: true, unique: true },
    address: { type: String, default: '' },
    city: { type: String, default: '' },
    timeZone: { type: String, required: true },
    // A courier's run from here: minutes at each stop and between stops, until their own pace
    // today is known (unset: the defaults of schemas/run.ts).
    stopMinutes: { type: Number, min: 0 },
    travelMinutes: { type: Number, min: 0 },
  },
  { timestamps: true },
);

type DepotSchemaType = InferSchemaType<typeof depotSchema>;
export const Depot = registeredModel('Depot', depotSchema);

type LeanDepot = DepotSchemaType & { _id: mongoose.Types.ObjectId };

function serialize(doc: LeanDepot) {
  return {
    ...recordIds(doc._id),
    name: doc.name,
    address: doc.address ?? '',
    city: doc.city ?? '',
    timeZone: doc.timeZone,
    stopMinutes: doc.stopMinutes ?? DEFAULT_STOP_MINUTES,
    travelMinutes: doc.travelMinutes ?? DEFAULT_TRAVEL_MINUTES,
    createdAt: iso(doc.createdAt),
    updatedAt: iso(doc.updatedAt),
  };
}
export type SerializedDepot = ReturnType<typeof serialize>;

/** Every depot, by name. */
export async function listDepots(): Promise<SerializedDepot[]> {
  const docs = await Depot.find().sort({ name: 1 }).lean<LeanDepot[]>();
  return docs.map(serialize);
}

export async function getDepot(id: string): Promise<SerializedDepot | null> {
  return serializedById(id, (id) => Depot.findById(id).lean<LeanDepot>(), serialize);
}

export async function insertDepot(input: DepotInput): Promise<SerializedDepot> {
  const doc = await Depot.create(input);
  return serialize(doc.toObject() as LeanDepot);
}

export async function updateDepotFields(
  id: string,
  input: DepotInput,
): Promise<{ before: SerializedDepot; after: SerializedDepot } | null> {
  if (!isObjectId(id)) return null;
  const before = await Depot.findByIdAndUpdate(
    id,
    { $set: input },
    {
      returnDocument: 'before',
    },
  ).lean<LeanDepot>();
  if (!before) return null;
  // A field not given (the optional city) keeps what was stored.
  return { before: serialize(before), after: serialize({ ...before, ...givenFields(input) }) };
}

export async function removeDepot(id: string): Promise<SerializedDepot | null> {
  return serializedById(id, (id) => Depot.findByIdAndDelete(id).lean<LeanDepot>(), serialize);
}
