import mongoose, { Schema } from 'mongoose';
import { isDuplicateKey, isObjectId } from '~/lib/db.server';
import { proofFileHref, proofPdfHref } from '~/schemas/proof-of-delivery';
import { iso, registeredModel } from '~/lib/records.server';

/**
 * Proofs of delivery: one per stop of a parcel (a unique index on parcel and stop), holding who
 * received it, the ids of its photos and signature in the file store (stored-file.server.ts),
 * the Delivered event it added and who recorded it. The stop is copied as it was when delivered.
 */
const imageSchema = new Schema(
  {
    fileId: { type: Schema.Types.ObjectId, required: true },
    contentType: { type: String, required: true },
    width: { type: Number, required: true },
    height: { type: Number, required: true },
    size: { type: Number, required: true },
  },
  { _id: false },
);

const proofSchema = new Schema(
  {
    parcelId: { type: Schema.Types.ObjectId, ref: 'Parcel', required: true },
    trackingNumber: { type: String, required: true },
    destination: { type: Number, required: true, min: 0 },
    stops: { type: Number, required: true, min: 1 },
    stop: {
      type: new Schema(
        {
          name: { type: String, default: '' },
          address: { type: String, default: '' },
          city: { type: String, default: '' },
          postalCode: { type: String, default: '' },
          country: { type: String, default: '' },
        },
        { _id: false },
      ),
      default: () => ({}),
    },
    receivedBy: { type: String, required: true, trim: true },
    signatureName: { type: String, default: '', trim: true },
    note: { type: String, default: '', trim: true },
    photos: { type: [imageSchema], default: [] },
    signature: { type: imageSchema, default: null },
    eventId: { type: Schema.Types.ObjectId, default: null },
    deliveredAt: { type: Date, required: true },
    recordedBy: {
      type: new Schema({ id: String, username: String }, { _id: false }),
      default: null,
    },
  },
  { timestamps: true, collection: 'proofsofdelivery' },
);

proofSchema.index({ parcelId: 1, destination: 1 }, { unique: true });
// The tracking page finds a delivered parcel's proofs by its number.
proofSchema.index({ trackingNumber: 1 });

export const ProofOfDelivery = registeredModel('ProofOfDelivery', proofSchema);

type LeanImage = {
  fileId: unknown;
  contentType: string;
  width: number;
  height: number;
  size: number;
};
export type LeanProof = {
  _id: unknown;
  parcelId: unknown;
  trackingNumber: string;
  destination: number;
  stops: number;
  stop?: { name?: string; address?: string; city?: string; postalCode?: string; country?: string };
  receivedBy: string;
  signatureName?: string | null;
  note?: string | null;
  photos?: LeanImage[] | null;
  signature?: LeanImage | null;
  eventId?: unknown;
  deliveredAt: Date;
  recordedBy?: { id?: string; username?: string } | null;
  createdAt?: Date;
};

function image(value: LeanImage) {
  const id = String(value.fileId);
  return {
    id,
    url: proofFileHref(id),
    contentType: value.contentType,
    width: value.width,
    height: value.height,
    size: value.size,
  };
}

/** The JSON form of a proof of delivery (API and dashboard): ids as strings, ISO dates, file URLs. */
export function serializeProof(doc: LeanProof) {
  const id = String(doc._id);
  const parcelId = String(doc.parcelId);
  return {
    id,
    _id: id,
    parcelId,
    trackingNumber: doc.trackingNumber,
    destination: doc.destination,
    stops: doc.stops,
    stop: {
      name: doc.stop?.name ?? '',
      address: doc.stop?.address ?? '',
      city: doc.stop?.city ?? '',
      postalCode: doc.stop?.postalCode ?? '',
      country: doc.stop?.country ?? '',
    },
    receivedBy: doc.receivedBy,
    signatureName: doc.signatureName ?? '',
    note: doc.note ?? '',
    photos: (doc.photos ?? []).map(image),
    signature: doc.signature ? image(doc.signature) : null,
    eventId: doc.eventId ? String(doc.eventId) : null,
    deliveredAt: new Date(doc.deliveredAt).toISOString(),
    recordedBy: doc.recordedBy?.username ?? null,
    pdfUrl: proofPdfHref(parcelId, id),
    createdAt: iso(doc.createdAt),
  };
}
export type SerializedProof = ReturnType<typeof serializeProof>;

export type NewProof = Omit<LeanProof, '_id' | 'eventId' | 'createdAt'>;

/** Stores a proof; null when its stop already has one. */
export async function insertProof(input: NewProof): Promise<SerializedProof | null> {
  try {
    const doc = await ProofOfDelivery.create(input as never);
    return serializeProof((doc as { toObject(): unknown }).toObject() as LeanProof);
  } catch (error) {
    if (isDuplicateKey(error)) return null;
    throw error;
  }
}

/** Records the Delivered event a proof added. */
export async function setProofEvent(id: string, eventId: string) {
  const doc = await ProofOfDelivery.findByIdAndUpdate(
    id,
    { $set: { eventId } },
    { returnDocument: 'after' },
  ).lean<LeanProof>();
  return doc ? serializeProof(doc) : null;
}

export async function removeProof(id: string) {
  if (!isObjectId(id)) return;
  await ProofOfDelivery.deleteOne({ _id: id });
}

/** Whether the stop already has a proof. */
export async function hasProof(parcelId: string, destination: number): Promise<boolean> {
  if (!isObjectId(parcelId)) return false;
  return !!(await ProofOfDelivery.exists({ parcelId, destination }));
}

/** A parcel's proofs, by stop. */
export async function listProofs(parcelId: string): Promise<SerializedProof[]> {
  if (!isObjectId(parcelId)) return [];
  const docs = await ProofOfDelivery.find({ parcelId })
    .sort({ destination: 1 })
    .lean<LeanProof[]>();
  return docs.map(serializeProof);
}

/** One proof of a parcel; null when not found. */
export async function getProof(parcelId: string, id: string): Promise<SerializedProof | null> {
  if (!isObjectId(parcelId) || !isObjectId(id)) return null;
  const doc = await ProofOfDelivery.findOne({ _id: id, parcelId }).lean<LeanProof>();
  return doc ? serializeProof(doc) : null;
}

/** Whether a stored file belongs to a proof (only those are served). */
export async function isProofFile(fileId: string): Promise<boolean> {
  return (await proofFileParcelId(fileId)) !== null;
}

/** The parcel whose proof of delivery holds this photo or signature, or null for none. */
export async function proofFileParcelId(fileId: string): Promise<string | null> {
  if (!isObjectId(fileId)) return null;
  const id = new mongoose.Types.ObjectId(fileId);
  const proof = await ProofOfDelivery.findOne(
    { $or: [{ 'photos.fileId': id }, { 'signature.fileId': id }] },
    { parcelId: 1 },
  ).lean<{ parcelId: unknown }>();
  return proof ? String(proof.parcelId) : null;
}

/** The proofs of a parcel's other stops, for the webhook when its last stop is delivered. */
export async function proofIds(parcelId: string): Promise<string[]> {
  if (!isObjectId(parcelId)) return [];
  const docs = await ProofOfDelivery.find({ parcelId }, { _id: 1 })
    .sort({ destination: 1 })
    .lean<Array<{ _id: unknown }>>();
  return docs.map((d) => String(d._id));
}

/** A parcel's proofs by its tracking number (already normalised), by stop. */
export async function listProofsByTrackingNumber(
  trackingNumber: string,
): Promise<SerializedProof[]> {
  const docs = await ProofOfDelivery.find({ trackingNumber })
    .sort({ destination: 1 })
    .lean<LeanProof[]>();
  return docs.map(serializeProof);
}
