import { randomInt } from 'node:crypto';
import mongoose, { Schema, type InferSchemaType, type Model } from 'mongoose';
import {
  DEFAULT_DELIVERY_DAYS,
  PARCEL_CREATION_COST,
  PARCEL_STATUSES,
  PRIORITIES,
  SERVICE_TYPES,
} from '~/schemas/constants';

const contactSchema = new Schema(
  {
    name: { type: String, default: '', trim: true },
    email: { type: String, default: '', trim: true, lowercase: true },
    phone: { type: String, default: '', trim: true },
    address: { type: String, default: '', trim: true },
  },
  { _id: false },
);

const destinationSchema = new Schema({
  name: { type: String, default: '', trim: true },
  address: { type: String, default: '', trim: true },
  city: { type: String, default: '', trim: true },
  country: { type: String, default: 'USA', trim: true },
  postalCode: { type: String, default: '', trim: true },
});

const trackingEventSchema = new Schema({
  status: { type: String, required: true, trim: true },
  location: { type: String, default: '', trim: true },
  description: { type: String, default: '', trim: true },
  timestamp: { type: Date, required: true, default: () => new Date() },
  createdAt: { type: Date, default: () => new Date() },
});

const parcelSchema = new Schema(
  {
    trackingNumber: { type: String, required: true, unique: true },
    sender: { type: contactSchema, default: () => ({}) },
    recipient: { type: contactSchema, default: () => ({}) },
    weight: { type: Number, default: 0, min: 0 },
    dimensions: {
      type: new Schema(
        {
          length: { type: Number, default: 0, min: 0 },
          width: { type: Number, default: 0, min: 0 },
          height: { type: Number, default: 0, min: 0 },
        },
        { _id: false },
      ),
      default: () => ({}),
    },
    serviceType: { type: String, enum: SERVICE_TYPES, default: 'Standard' },
    status: { type: String, enum: PARCEL_STATUSES, default: 'Pending' },
    priority: { type: String, enum: PRIORITIES, default: 'Standard' },
    estimatedDelivery: {
      type: Date,
      default: () => new Date(Date.now() + DEFAULT_DELIVERY_DAYS * 24 * 60 * 60 * 1000),
    },
    actualDelivery: { type: Date },
    cost: { type: Number, default: PARCEL_CREATION_COST, min: 0 },
    destinations: { type: [destinationSchema], default: [] },
    // Newest first: the public page and the dashboard read events[0] as the latest.
    events: { type: [trackingEventSchema], default: [] },
  },
  { timestamps: true },
);

parcelSchema.index({ createdAt: -1 });
parcelSchema.index({ status: 1, createdAt: -1 });
parcelSchema.index({ 'events._id': 1 });

export type ParcelDoc = InferSchemaType<typeof parcelSchema> & { _id: mongoose.Types.ObjectId };

export const Parcel: Model<InferSchemaType<typeof parcelSchema>> =
  (mongoose.models.Parcel as Model<InferSchemaType<typeof parcelSchema>>) ??
  mongoose.model('Parcel', parcelSchema);

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function generateTrackingNumber(): string {
  let letters = '';
  for (let i = 0; i < 3; i++) letters += LETTERS[randomInt(LETTERS.length)];
  const digits = String(randomInt(1_000_000_000)).padStart(9, '0');
  return letters + digits;
}

function isDuplicateTrackingNumber(error: unknown): boolean {
  const e = error as { code?: number; keyPattern?: Record<string, unknown> };
  return e?.code === 11000 && !!e.keyPattern && 'trackingNumber' in e.keyPattern;
}

/**
 * Inserts a parcel under a fresh tracking number, retrying on the (rare) collision the unique
 * index reports. `generate` is injectable so the retry can be tested.
 */
export async function insertWithTrackingNumber<T>(
  insert: (trackingNumber: string) => Promise<T>,
  generate: () => string = generateTrackingNumber,
  attempts = 5,
): Promise<T> {
  let lastError: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      return await insert(generate());
    } catch (error) {
      if (!isDuplicateTrackingNumber(error)) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

type Contact = { name: string; email: string; phone: string; address: string };
type LeanEvent = { _id: unknown; status: string; location?: string | null; description?: string | null; timestamp: Date; createdAt?: Date | null };
type LeanDestination = { _id?: unknown; name?: string | null; address?: string | null; city?: string | null; country?: string | null; postalCode?: string | null };
export type LeanParcel = {
  _id: unknown;
  trackingNumber: string;
  sender?: Partial<Contact> | null;
  recipient?: Partial<Contact> | null;
  weight?: number | null;
  dimensions?: { length?: number | null; width?: number | null; height?: number | null } | null;
  serviceType?: string | null;
  status?: string | null;
  priority?: string | null;
  estimatedDelivery?: Date | null;
  actualDelivery?: Date | null;
  cost?: number | null;
  destinations?: LeanDestination[] | null;
  events?: LeanEvent[] | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
};

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

function contact(c: Partial<Contact> | null | undefined): Contact {
  return { name: c?.name ?? '', email: c?.email ?? '', phone: c?.phone ?? '', address: c?.address ?? '' };
}

export function serializeEvent(event: LeanEvent) {
  const id = String(event._id);
  return {
    id,
    _id: id,
    status: event.status,
    location: event.location ?? '',
    description: event.description ?? '',
    timestamp: iso(event.timestamp),
  };
}
export type SerializedEvent = ReturnType<typeof serializeEvent>;

/** The JSON form of a parcel used by the API and the dashboard (ids as strings, ISO dates). */
export function serializeParcel(parcel: LeanParcel, options: { events?: boolean } = {}) {
  const id = String(parcel._id);
  return {
    id,
    _id: id,
    trackingNumber: parcel.trackingNumber,
    sender: contact(parcel.sender),
    recipient: contact(parcel.recipient),
    weight: parcel.weight ?? 0,
    dimensions: {
      length: parcel.dimensions?.length ?? 0,
      width: parcel.dimensions?.width ?? 0,
      height: parcel.dimensions?.height ?? 0,
    },
    serviceType: parcel.serviceType ?? 'Standard',
    status: parcel.status ?? 'Pending',
    priority: parcel.priority ?? 'Standard',
    estimatedDelivery: iso(parcel.estimatedDelivery),
    actualDelivery: iso(parcel.actualDelivery),
    cost: parcel.cost ?? 0,
    destinations: (parcel.destinations ?? []).map((d) => ({
      ...(d._id ? { id: String(d._id), _id: String(d._id) } : {}),
      name: d.name ?? '',
      address: d.address ?? '',
      city: d.city ?? '',
      country: d.country ?? '',
      postalCode: d.postalCode ?? '',
    })),
    ...(options.events === false ? {} : { events: (parcel.events ?? []).map(serializeEvent) }),
    createdAt: iso(parcel.createdAt),
    updatedAt: iso(parcel.updatedAt),
  };
}
export type SerializedParcel = ReturnType<typeof serializeParcel>;

/** The public tracking lookup: case-insensitive, surrounding spaces ignored. */
export async function findParcelByTrackingNumber(trackingNumber: string) {
  return Parcel.findOne({ trackingNumber: trackingNumber.trim().toUpperCase() }).lean<LeanParcel>();
}

/** What a visitor may see of a parcel: no e-mails, phones or costs. */
export function toPublicTrackingResult(parcel: LeanParcel) {
  return {
    parcel: {
      trackingNumber: parcel.trackingNumber,
      status: parcel.status ?? 'Pending',
      recipient: { name: parcel.recipient?.name ?? '', address: parcel.recipient?.address ?? '' },
      sender: { address: parcel.sender?.address ?? '' },
      serviceType: parcel.serviceType ?? 'Standard',
      estimatedDelivery: iso(parcel.estimatedDelivery),
    },
    events: [...(parcel.events ?? [])]
      .sort((a, b) => new Date(b.timestamp).getTime() - new Date(a.timestamp).getTime())
      .map(({ _id, status, location, description, timestamp }) => ({
        id: String(_id),
        status,
        location: location ?? '',
        description: description ?? '',
        timestamp: iso(timestamp),
      })),
  };
}
export type PublicTrackingResult = ReturnType<typeof toPublicTrackingResult>;
