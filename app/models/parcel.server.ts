import { randomInt } from 'node:crypto';
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { isDuplicateKey, isObjectId } from '~/lib/db.server';
import { StaleRecordError } from '~/lib/errors.server';
import {
  findChanges,
  recordDeletion,
  withChange,
  withChangeIf,
  type SyncRequest,
} from '~/lib/changes.server';
import {
  DEFAULT_DELIVERY_DAYS,
  PARCEL_CREATION_COST,
  PARCEL_STATUSES,
  PARCEL_TO_EVENT_STATUS,
  PRIORITIES,
  SERVICE_TYPES,
  eventStatusOf,
  type ParcelSortKey,
  type ParcelStatus,
  type SortOrder,
} from '~/schemas/constants';
import {
  defaultDestination,
  defaultSortOrder,
  type ParcelCreateInput,
  type ParcelImportRow,
  type ParcelUpdateInput,
} from '~/schemas/parcel';
import { env } from '~/lib/env.server';
import { expectedWindow } from '~/lib/parcel-delivery-data.server';
import { recipientStopIndex, recipientTimeZone } from '~/lib/address-time-zone.server';
import { s10CheckDigit } from '~/utils/tracking-number';
import { findPage, iso, recordIds, registeredModel, serializedById } from '~/lib/records.server';

const contactSchema = new Schema(
  {
    name: { type: String, default: '', trim: true },
    email: { type: String, default: '', trim: true, lowercase: true },
    phone: { type: String, default: '', trim: true },
    address: { type: String, default: '', trim: true },
    city: { type: String, default: '', trim: true },
    region: { type: String, default: '', trim: true },
    postalCode: { type: String, default: '', trim: true },
    country: { type: String, default: '', trim: true },
    timeZone: { type: String, default: '', trim: true },
  },
  { _id: false },
);

const destinationSchema = new Schema({
  name: { type: String, default: '', trim: true },
  address: { type: String, default: '', trim: true },
  city: { type: String, default: '', trim: true },
  region: { type: String, trim: true },
  country: { type: String, default: 'USA', trim: true },
  postalCode: { type: String, default: '', trim: true },
});

const trackingEventSchema = new Schema({
  // One of EVENT_STATUSES (events stored before the list was closed may hold other words).
  status: { type: String, required: true, trim: true },
  // What a Custom Status says.
  customStatus: { type: String, trim: true },
  location: { type: String, default: '', trim: true },
  description: { type: String, default: '', trim: true },
  timestamp: { type: Date, required: true, default: () => new Date() },
  // The IANA zone of the place it happened; events stored before zones were kept have none and
  // count as the company's (eventTimeZone).
  timeZone: { type: String, trim: true },
  // The stop (index in destinations) a Delivered event with a proof of delivery is for; none
  // for an event about the whole parcel.
  stop: { type: Number, min: 0 },
  // Where it was recorded, when that was a depot (its name and zone are copied above).
  depotId: { type: Schema.Types.ObjectId },
  // A failed delivery's reason code (FAILURE_REASONS) and the day of the next attempt, if known.
  reason: { type: String },
  nextAttemptDate: { type: String },
  // Who scanned it at the scan station, so a courier can undo their own scans.
  scannedBy: { type: Schema.Types.ObjectId },
  // An Out for Delivery scan the courier confirmed although it contradicted the delivery (the
  // recipient's request, the town): the warnings they were shown.
  override: { type: [String], default: undefined },
  createdAt: { type: Date, default: () => new Date() },
  // Set by every write of the event; events stored before it was kept count from createdAt.
  updatedAt: { type: Date },
  // The change that last wrote it (app/lib/changes.server.ts); none: before syncs were kept.
  changeSeq: { type: Number },
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
    // The expected window on the estimated day, when staff or the API gave one; otherwise the
    // service's rule (SERVICE_DELIVERY_BY) says by when.
    deliveryWindow: {
      type: new Schema({ from: { type: Date }, until: { type: Date } }, { _id: false }),
      default: undefined,
    },
    // What the recipient asked for on the tracking page or through the public API.
    deliveryPreferences: {
      type: new Schema(
        {
          instructions: { type: String },
          safePlace: { type: String },
          safePlaceOther: { type: String },
          requestedDate: { type: String },
          holdAtDepot: { type: Boolean },
          updatedAt: { type: Date },
        },
        { _id: false },
      ),
      default: undefined,
    },
    cost: { type: Number, default: PARCEL_CREATION_COST, min: 0 },
    destinations: { type: [destinationSchema], default: [] },
    // Newest first: the public page and the dashboard read events[0] as the latest.
    events: { type: [trackingEventSchema], default: [] },
    // The change that last wrote it, in the order syncs read (app/lib/changes.server.ts).
    changeSeq: { type: Number, default: 0 },
  },
  { timestamps: true },
);

parcelSchema.index({ createdAt: -1 });
parcelSchema.index({ status: 1, createdAt: -1 });
// The staff table's sortable columns (see PARCEL_SORT_FIELDS), with _id as the tie-break.
parcelSchema.index({ 'recipient.name': 1, _id: 1 });
parcelSchema.index({ 'destinations.0.city': 1, _id: 1 });
parcelSchema.index({ serviceType: 1, _id: 1 });
parcelSchema.index({ priority: 1, _id: 1 });
parcelSchema.index({ estimatedDelivery: 1, _id: 1 });
parcelSchema.index({ 'events._id': 1 });
// GET /api/parcels?updatedSince or ?cursor: changes in the order they were made.
parcelSchema.index({ changeSeq: 1, _id: 1 });

export type ParcelDoc = InferSchemaType<typeof parcelSchema> & { _id: mongoose.Types.ObjectId };

export const Parcel = registeredModel('Parcel', parcelSchema);

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function generateTrackingNumber(): string {
  let letters = '';
  for (let i = 0; i < 3; i++) letters += LETTERS[randomInt(LETTERS.length)];
  const digits = String(randomInt(100_000_000)).padStart(8, '0');
  return letters + digits + s10CheckDigit(digits);
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
      if (!isDuplicateKey(error, 'trackingNumber')) throw error;
      lastError = error;
    }
  }
  throw lastError;
}

type Contact = {
  name: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  region: string;
  postalCode: string;
  country: string;
  timeZone: string;
};
type LeanEvent = {
  _id: unknown;
  status: string;
  customStatus?: string | null;
  location?: string | null;
  description?: string | null;
  timestamp: Date;
  timeZone?: string | null;
  stop?: number | null;
  depotId?: unknown;
  reason?: string | null;
  nextAttemptDate?: string | null;
  scannedBy?: unknown;
  override?: string[] | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
  changeSeq?: number | null;
};
type LeanDestination = {
  _id?: unknown;
  name?: string | null;
  address?: string | null;
  city?: string | null;
  region?: string | null;
  country?: string | null;
  postalCode?: string | null;
};
export type LeanDeliveryPreferences = {
  instructions?: string | null;
  safePlace?: string | null;
  safePlaceOther?: string | null;
  requestedDate?: string | null;
  holdAtDepot?: boolean | null;
  updatedAt?: Date | null;
};
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
  deliveryWindow?: { from?: Date | null; until?: Date | null } | null;
  deliveryPreferences?: LeanDeliveryPreferences | null;
  cost?: number | null;
  destinations?: LeanDestination[] | null;
  events?: LeanEvent[] | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
  changeSeq?: number | null;
};

function contact(c: Partial<Contact> | null | undefined): Contact {
  return {
    name: c?.name ?? '',
    email: c?.email ?? '',
    phone: c?.phone ?? '',
    address: c?.address ?? '',
    city: c?.city ?? '',
    region: c?.region ?? '',
    postalCode: c?.postalCode ?? '',
    country: c?.country ?? '',
    timeZone: c?.timeZone ?? '',
  };
}

/** The zone an event is shown in: its own, or the company's for events stored without one. */
export function eventTimeZone(event: { timeZone?: string | null }): string {
  return event.timeZone || env.COMPANY_TIMEZONE;
}

export function serializeEvent(event: LeanEvent) {
  return {
    ...recordIds(event._id),
    ...eventStatusOf(event),
    location: event.location ?? '',
    description: event.description ?? '',
    timestamp: iso(event.timestamp),
    timeZone: eventTimeZone(event),
    depotId: event.depotId ? String(event.depotId) : null,
    reason: event.reason ?? null,
    nextAttemptDate: event.nextAttemptDate ?? null,
    ...(event.override?.length ? { override: [...event.override] } : {}),
    updatedAt: iso(event.updatedAt ?? event.createdAt ?? event.timestamp),
  };
}
export type SerializedEvent = ReturnType<typeof serializeEvent>;

function serializeWindow(window: LeanParcel['deliveryWindow']) {
  return window?.until ? { from: iso(window.from), until: iso(window.until)! } : null;
}

/** What the recipient asked for, as staff and the API read it; null when nothing was asked. */
export function serializePreferences(preferences: LeanDeliveryPreferences | null | undefined) {
  if (!preferences?.updatedAt) return null;
  return {
    instructions: preferences.instructions ?? null,
    safePlace: preferences.safePlace ?? null,
    safePlaceOther: preferences.safePlaceOther ?? null,
    requestedDate: preferences.requestedDate ?? null,
    holdAtDepot: preferences.holdAtDepot ?? false,
    updatedAt: iso(preferences.updatedAt),
  };
}
export type SerializedDeliveryPreferences = NonNullable<ReturnType<typeof serializePreferences>>;

/** The JSON form of a parcel used by the API and the dashboard (ids as strings, ISO dates). */
export function serializeParcel(parcel: LeanParcel, options: { events?: boolean } = {}) {
  return {
    ...recordIds(parcel._id),
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
    deliveryWindow: serializeWindow(parcel.deliveryWindow),
    deliveryPreferences: serializePreferences(parcel.deliveryPreferences),
    cost: parcel.cost ?? 0,
    destinations: (parcel.destinations ?? []).map((d) => ({
      ...(d._id ? { id: String(d._id), _id: String(d._id) } : {}),
      name: d.name ?? '',
      address: d.address ?? '',
      city: d.city ?? '',
      region: d.region ?? '',
      country: d.country ?? '',
      postalCode: d.postalCode ?? '',
    })),
    ...(options.events === false ? {} : { events: (parcel.events ?? []).map(serializeEvent) }),
    createdAt: iso(parcel.createdAt),
    updatedAt: iso(parcel.updatedAt),
  };
}
export type SerializedParcel = ReturnType<typeof serializeParcel>;

/** Only what the public result shows: no e-mails, phones or costs leave the database. */
const PUBLIC_TRACKING_PROJECTION = {
  trackingNumber: 1,
  status: 1,
  serviceType: 1,
  estimatedDelivery: 1,
  actualDelivery: 1,
  deliveryWindow: 1,
  updatedAt: 1,
  // The recipient's address is read for their zone and the town shown; its street never leaves.
  'recipient.name': 1,
  'recipient.address': 1,
  'recipient.city': 1,
  'recipient.region': 1,
  'recipient.postalCode': 1,
  'recipient.country': 1,
  'recipient.timeZone': 1,
  'destinations.name': 1,
  'destinations.address': 1,
  'destinations.city': 1,
  'destinations.region': 1,
  'destinations.postalCode': 1,
  'destinations.country': 1,
  'sender.address': 1,
  deliveryPreferences: 1,
  events: 1,
} as const;

/**
 * The public tracking lookup: case-insensitive, surrounding spaces ignored. It is the hottest
 * query of the site, so it goes through the driver directly, skipping mongoose's query layer.
 */
export async function findParcelByTrackingNumber(trackingNumber: string) {
  return Parcel.collection.findOne<LeanParcel>(
    { trackingNumber: trackingNumber.trim().toUpperCase() },
    { projection: PUBLIC_TRACKING_PROJECTION },
  );
}

/** The id of the parcel with this tracking number (already normalised), or null. */
export async function findParcelIdByTrackingNumber(trackingNumber: string): Promise<string | null> {
  const doc = await Parcel.collection.findOne<{ _id: unknown }>(
    { trackingNumber },
    { projection: { _id: 1 } },
  );
  return doc ? String(doc._id) : null;
}

/** Several public lookups in one query: the parcels among `trackingNumbers` (already normalised). */
export async function findParcelsByTrackingNumbers(trackingNumbers: string[]) {
  if (!trackingNumbers.length) return [];
  return Parcel.collection
    .find<LeanParcel>(
      { trackingNumber: { $in: trackingNumbers } },
      { projection: PUBLIC_TRACKING_PROJECTION },
    )
    .toArray();
}

/**
 * What a visitor may see of a parcel: no e-mails, phones or costs; the recipient's address as
 * stored here, for the service to mask (public-tracking.server.ts) before it leaves. `timeZone` is
 * the recipient's, in which the window and the promises are read; `requestedDate` and
 * `holdAtDepot` what the recipient asked for, which move the expected day (not what else they
 * asked: that stays behind the postcode).
 */
export function toPublicTrackingResult(parcel: LeanParcel) {
  const timeZone = recipientTimeZone(parcel);
  const stop = recipientStopIndex(parcel);
  const destination = stop === null ? null : (parcel.destinations?.[stop] ?? null);
  return {
    parcel: {
      trackingNumber: parcel.trackingNumber,
      status: parcel.status ?? 'Pending',
      recipient: { name: parcel.recipient?.name ?? '', address: parcel.recipient?.address ?? '' },
      sender: { address: parcel.sender?.address ?? '' },
      serviceType: parcel.serviceType ?? 'Standard',
      estimatedDelivery: iso(parcel.estimatedDelivery),
      deliveryWindow: expectedWindow(parcel, timeZone),
      actualDelivery: iso(parcel.actualDelivery),
      updatedAt: iso(parcel.updatedAt),
      timeZone,
      requestedDate: parcel.deliveryPreferences?.updatedAt
        ? (parcel.deliveryPreferences.requestedDate ?? null)
        : null,
      holdAtDepot: !!parcel.deliveryPreferences?.holdAtDepot,
    },
    /** The recipient's address parts, else their stop's: for the service to mask. */
    place: {
      address: parcel.recipient?.address ?? '',
      city: parcel.recipient?.city || destination?.city || '',
      region: parcel.recipient?.region || destination?.region || '',
      postalCode: parcel.recipient?.postalCode || destination?.postalCode || '',
      country: parcel.recipient?.country || destination?.country || '',
    },
    events: [...(parcel.events ?? [])]
      .sort((a, b) => new Date(b.timestamp).getTime() - new Date(a.timestamp).getTime())
      .map((event) => ({
        id: String(event._id),
        ...eventStatusOf(event),
        location: event.location ?? '',
        description: event.description ?? '',
        timestamp: iso(event.timestamp),
        timeZone: eventTimeZone(event),
        reason: event.reason ?? null,
        nextAttemptDate: event.nextAttemptDate ?? null,
      })),
  };
}
/** The public result as a visitor gets it: the recipient's address masked, `place` gone. */
export type PublicTrackingResult = Omit<ReturnType<typeof toPublicTrackingResult>, 'place'>;

/* ---------- Parcel management (dashboard and /api/parcels) ---------- */

export type ParcelPagination = {
  totalItems: number;
  currentPage: number;
  totalPages: number;
  limit: number;
};

/** A literal pattern; a NUL becomes `\x00`, since a BSON regular expression cannot hold one. */
function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\0/g, '\\x00');
}

/**
 * The staff search: what was typed, literally and in any case, within the tracking number, the
 * sender's name or the recipient's name. Empty input matches every parcel.
 */
export function parcelSearchFilter(search: string | undefined): Record<string, unknown> {
  const term = search?.trim();
  if (!term) return {};
  const pattern = new RegExp(escapeRegex(term), 'i');
  const names = [{ 'sender.name': pattern }, { 'recipient.name': pattern }];
  // A tracking number holds only letters and digits: a name with a space, a hyphen or an accent
  // need not be looked for in it (a new search tests every parcel).
  return { $or: /^[a-z\d]+$/i.test(term) ? [{ trackingNumber: pattern }, ...names] : names };
}

/** The stored field each sort key orders by; the city is the first destination's. */
const PARCEL_SORT_FIELDS: Record<ParcelSortKey, string> = {
  trackingNumber: 'trackingNumber',
  recipient: 'recipient.name',
  city: 'destinations.0.city',
  service: 'serviceType',
  status: 'status',
  priority: 'priority',
  estimatedDelivery: 'estimatedDelivery',
  createdAt: 'createdAt',
};

export type ParcelListOptions = {
  page?: number;
  limit?: number;
  status?: string;
  search?: string;
  sort?: ParcelSortKey;
  order?: SortOrder;
  /** Only these parcels (a selection in the table). */
  ids?: string[];
};

/** The filter of a parcel list: the search (see parcelSearchFilter), the status and the ids. */
export function parcelListFilter({
  status,
  search,
  ids,
}: Pick<ParcelListOptions, 'status' | 'search' | 'ids'>) {
  const filter: Record<string, unknown> = parcelSearchFilter(search);
  if (status) filter.status = status;
  if (ids)
    filter._id = { $in: ids.filter(isObjectId).map((id) => new mongoose.Types.ObjectId(id)) };
  return filter;
}

/** The sort of a parcel list: the column asked for, then _id the same way, so pages are stable. */
export function parcelListSort({
  sort = 'createdAt',
  order,
}: ParcelListOptions): Record<string, 1 | -1> {
  const direction = (order ?? defaultSortOrder(sort)) === 'asc' ? 1 : -1;
  return { [PARCEL_SORT_FIELDS[sort]]: direction, _id: direction };
}

/** A parcel as a list shows it: without its events. */
const listedParcel = (doc: LeanParcel) => serializeParcel(doc, { events: false });

/**
 * A page of parcels, newest first unless `sort`/`order` say otherwise; `search` matches tracking
 * number, sender or recipient name literally.
 */
export async function listParcels(
  options: ParcelListOptions,
): Promise<{ parcels: SerializedParcel[]; pagination: ParcelPagination }> {
  const { page = 1, limit = 100 } = options;
  const { items, pagination } = await findPage(
    Parcel,
    parcelListFilter(options),
    { sort: parcelListSort(options), page, limit, projection: { events: 0 } },
    listedParcel,
  );
  return { parcels: items, pagination };
}

/**
 * A page of a sync of the parcels (`GET /api/parcels?updatedSince` or `?cursor`): the changes in
 * the order they were made, deleted parcels included, whatever the sort (see findChanges).
 */
export async function listParcelChanges(options: ParcelListOptions & SyncRequest) {
  const { page = 1, limit = 100 } = options;
  const { items, ...rest } = await findChanges(
    Parcel,
    'parcel',
    'parcels',
    parcelListFilter(options),
    { ...options, page, limit, projection: { events: 0 } },
    listedParcel,
  );
  return { parcels: items, ...rest };
}

export async function getParcel(id: string): Promise<SerializedParcel | null> {
  return serializedById(id, (id) => Parcel.findById(id).lean<LeanParcel>(), serializeParcel);
}

/** A parcel as getParcel gives it, and its version: the change number it was last written by. */
export async function getParcelVersioned(
  id: string,
): Promise<{ record: SerializedParcel; version: number } | null> {
  if (!isObjectId(id)) return null;
  const doc = await Parcel.findById(id).lean<LeanParcel>();
  return doc ? { record: serializeParcel(doc), version: doc.changeSeq ?? 0 } : null;
}

const PARCEL_OPTION_FIELDS = {
  trackingNumber: 1,
  status: 1,
  cost: 1,
  'sender.name': 1,
  'sender.email': 1,
  'recipient.name': 1,
  'recipient.email': 1,
};

/** What names a parcel wherever it is one line of a list: its id, number and status. */
export function parcelHeading(doc: Pick<LeanParcel, '_id' | 'trackingNumber' | 'status'>) {
  return {
    id: String(doc._id),
    trackingNumber: doc.trackingNumber,
    status: doc.status ?? 'Pending',
  };
}

/** A parcel as the staff's parcel pickers offer it: what each of them shows or fills in. */
function toParcelOption(doc: LeanParcel) {
  return {
    ...parcelHeading(doc),
    senderName: doc.sender?.name ?? '',
    recipientName: doc.recipient?.name ?? '',
    senderEmail: doc.sender?.email ?? '',
    recipientEmail: doc.recipient?.email ?? '',
    cost: doc.cost ?? 0,
  };
}
export type ParcelOption = ReturnType<typeof toParcelOption>;

/** Parcels to pick from: those matching the search (see parcelSearchFilter), newest first. */
export async function listParcelOptions({
  search,
  limit,
}: {
  search?: string;
  limit: number;
}): Promise<ParcelOption[]> {
  const docs = await Parcel.find(parcelSearchFilter(search), PARCEL_OPTION_FIELDS)
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit)
    .lean<LeanParcel[]>();
  return docs.map(toParcelOption);
}

export async function getParcelOption(id: string): Promise<ParcelOption | null> {
  return serializedById(
    id,
    (id) => Parcel.findById(id, PARCEL_OPTION_FIELDS).lean<LeanParcel>(),
    toParcelOption,
  );
}

/** The parcels among `ids` (without their events), in the order of `ids`; unknown ids are left out. */
export async function getParcelsByIds(ids: string[]): Promise<SerializedParcel[]> {
  const valid = ids.filter(isObjectId);
  if (!valid.length) return [];
  const docs = await Parcel.find({ _id: { $in: valid } }, { events: 0 }).lean<LeanParcel[]>();
  const byId = new Map(docs.map((doc) => [String(doc._id), doc]));
  return valid.flatMap((id) => {
    const doc = byId.get(id.toLowerCase());
    return doc ? [serializeParcel(doc, { events: false })] : [];
  });
}

/** The parcels of a list (without their events) in its order, one at a time: for exports. */
export function parcelListCursor(options: ParcelListOptions & { updatedSince?: Date }) {
  // With `updatedSince`, those changed since then, oldest change first.
  const since = options.updatedSince;
  return Parcel.find(
    { ...parcelListFilter(options), ...(since ? { updatedAt: { $gte: since } } : {}) },
    { events: 0 },
  )
    .sort(since ? { updatedAt: 1, _id: 1 } : parcelListSort(options))
    .lean<LeanParcel[]>()
    .cursor({ batchSize: 500 });
}

const LOOKUP_CHUNK = 1000;

/** The tracking numbers among `numbers` that parcels already have. */
export async function storedTrackingNumbers(numbers: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < numbers.length; i += LOOKUP_CHUNK) {
    const docs = await Parcel.collection
      .find<{ trackingNumber: string }>(
        { trackingNumber: { $in: numbers.slice(i, i + LOOKUP_CHUNK) } },
        { projection: { _id: 0, trackingNumber: 1 } },
      )
      .toArray();
    for (const doc of docs) found.add(doc.trackingNumber);
  }
  return found;
}

/** The stored parcels among `numbers` (without their events), by tracking number. */
export async function parcelsByTrackingNumber(
  numbers: string[],
): Promise<Map<string, SerializedParcel>> {
  const found = new Map<string, SerializedParcel>();
  for (let i = 0; i < numbers.length; i += LOOKUP_CHUNK) {
    const docs = await Parcel.collection
      .find<LeanParcel>(
        { trackingNumber: { $in: numbers.slice(i, i + LOOKUP_CHUNK) } },
        { projection: { events: 0 } },
      )
      .toArray();
    for (const doc of docs) found.set(doc.trackingNumber, serializeParcel(doc, { events: false }));
  }
  return found;
}

/** A delivery window as stored: two instants, or none. */
export type StoredWindow = { from: Date; until: Date } | null;

/** Stores a new parcel: status 'Pending', the fixed creation cost, a fresh tracking number. */
export async function insertParcel(
  input: Omit<ParcelCreateInput, 'deliveryWindow'> & { deliveryWindow?: StoredWindow },
): Promise<SerializedParcel> {
  const { deliveryWindow, ...fields } = input;
  const doc = await withChange((changeSeq) =>
    insertWithTrackingNumber((trackingNumber) =>
      Parcel.create({
        ...fields,
        ...(deliveryWindow ? { deliveryWindow } : {}),
        trackingNumber,
        status: 'Pending',
        cost: PARCEL_CREATION_COST,
        changeSeq,
      }),
    ),
  );
  return serializeParcel(doc.toObject() as LeanParcel);
}

/** A parcel as the CSV import stores it: an imported row with its tracking number and times. */
export type ImportedParcel = Omit<ParcelImportRow, 'trackingNumber' | 'createdAt'> & {
  trackingNumber: string;
  createdAt: Date;
  updatedAt: Date;
};

/**
 * The stored document of an imported parcel, as mongoose would cast it (e-mails lower-cased, an id
 * for each destination, no events, version 0), built directly: casting ten thousand documents
 * through mongoose's subdocuments takes seconds. The input is already validated by
 * ParcelImportRowSchema; tests check that the result equals mongoose's own cast.
 */
export function importedParcelDocument(input: ImportedParcel) {
  const contact = (c: Contact) => ({
    name: c.name,
    email: c.email.toLowerCase(),
    phone: c.phone,
    address: c.address,
    city: c.city,
    region: c.region,
    postalCode: c.postalCode,
    country: c.country,
    timeZone: c.timeZone,
  });
  return {
    _id: new mongoose.Types.ObjectId(),
    trackingNumber: input.trackingNumber,
    sender: contact(input.sender),
    recipient: contact(input.recipient),
    weight: input.weight,
    dimensions: {
      length: input.dimensions.length,
      width: input.dimensions.width,
      height: input.dimensions.height,
    },
    serviceType: input.serviceType,
    status: input.status,
    priority: input.priority,
    estimatedDelivery: input.estimatedDelivery,
    ...(input.actualDelivery ? { actualDelivery: input.actualDelivery } : {}),
    cost: input.cost,
    destinations: input.destinations.map((d) => ({
      name: d.name,
      address: d.address,
      city: d.city,
      ...(d.region ? { region: d.region } : {}),
      country: d.country,
      postalCode: d.postalCode,
      _id: new mongoose.Types.ObjectId(),
    })),
    events: [],
    // The import's change number is given when it is written (insertImportedParcels).
    changeSeq: 0,
    createdAt: input.createdAt,
    updatedAt: input.updatedAt,
    __v: 0,
  };
}

/**
 * Inserts imported parcels in one ordered bulk write, as one change: a sync sees all of them or,
 * until the write is done, none (ordered among themselves by id). When it fails part-way, the
 * ones it wrote are deleted again (there are no multi-document transactions on a standalone
 * server) and the error is thrown.
 */
export async function insertImportedParcels(
  docs: Array<ReturnType<typeof importedParcelDocument>>,
) {
  // A lease long enough for the largest file on a slow machine.
  const leaseMs = 60_000 + docs.length * 10;
  await withChange(
    async (changeSeq) => {
      try {
        await Parcel.collection.insertMany(
          docs.map((doc) => ({ ...doc, changeSeq })),
          { ordered: true },
        );
      } catch (error) {
        const ids = docs.map((d) => d._id);
        for (let i = 0; i < ids.length; i += 1000)
          await Parcel.collection.deleteMany({ _id: { $in: ids.slice(i, i + 1000) } });
        throw error;
      }
    },
    { leaseMs },
  );
}

/** The changes to a parcel as stored: its window as instants, or null to remove it. */
export type ParcelFieldChanges = Omit<ParcelUpdateInput, 'deliveryWindow'> & {
  deliveryWindow?: StoredWindow;
};

/** Dotted `$set` paths for the fields given, so nested fields not given stay as they are. */
function updateFields(input: ParcelFieldChanges): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const key of ['sender', 'recipient', 'dimensions'] as const) {
    for (const [field, value] of Object.entries(input[key] ?? {})) {
      if (value !== undefined) set[`${key}.${field}`] = value;
    }
  }
  for (const key of ['weight', 'serviceType', 'status', 'priority', 'estimatedDelivery'] as const) {
    if (input[key] !== undefined) set[key] = input[key];
  }
  if (input.destinations) set.destinations = input.destinations;
  if (input.deliveryWindow) set.deliveryWindow = input.deliveryWindow;
  return set;
}

/**
 * As on creation, a parcel left without destinations goes to its recipient: an empty list becomes
 * the recipient's destination (the recipient as changed by this update, or as stored), for the
 * edit page and PUT /api/parcels/:id alike.
 */
async function withDefaultDestination(
  id: string,
  input: ParcelFieldChanges,
): Promise<ParcelFieldChanges> {
  if (!input.destinations || input.destinations.length > 0) return input;
  let name = input.recipient?.name;
  let address = input.recipient?.address;
  if (!name || !address) {
    const stored = await Parcel.findById(id, { recipient: 1 }).lean<LeanParcel>();
    name ||= stored?.recipient?.name ?? '';
    address ||= stored?.recipient?.address ?? '';
  }
  if (!name || !address) return input;
  return { ...input, destinations: [defaultDestination({ name, address })] };
}

/** The event recorded when staff set a parcel's status by hand, as part of change `changeSeq`. */
function statusEvent(status: string, changeSeq: number) {
  const now = new Date();
  const eventStatus = PARCEL_TO_EVENT_STATUS[status as ParcelStatus];
  return {
    _id: new mongoose.Types.ObjectId(),
    status: eventStatus ?? 'Custom Status',
    ...(eventStatus ? {} : { customStatus: status }),
    description: eventStatus ? '' : `Status changed to ${status}`,
    location: '',
    timestamp: now,
    timeZone: env.COMPANY_TIMEZONE,
    createdAt: now,
    updatedAt: now,
    changeSeq,
  };
}

/**
 * Applies the changes in one atomic update. Setting 'Delivered' records the delivery time unless
 * one is already stored ($min sets an absent field and keeps an earlier one); any other status
 * clears it, because the parcel is no longer delivered. An empty destination list becomes the
 * recipient's destination (withDefaultDestination). Returns the parcel as stored, and the status
 * it had before when the changes name one; null when there is no such parcel.
 */
export async function updateParcelFields(
  id: string,
  changes: ParcelFieldChanges,
  { version }: { version?: number | null } = {},
): Promise<{ parcel: SerializedParcel; previousStatus: string | null } | null> {
  if (!isObjectId(id)) return null;
  // With a version (the change number it was read at), only that version is changed: when
  // another change came first, StaleRecordError.
  const filter = { _id: id, ...(version == null ? {} : { changeSeq: version }) };
  const stale = async () => {
    if (await Parcel.exists({ _id: id })) throw new StaleRecordError('parcel');
    return null;
  };
  const input = await withDefaultDestination(id, changes);
  const set = updateFields(input);
  const update: Record<string, unknown> = {};
  const unset: Record<string, 1> = {};
  if (input.status === 'Delivered') update.$min = { actualDelivery: new Date() };
  else if (input.status) unset.actualDelivery = 1;
  if (input.deliveryWindow === null) unset.deliveryWindow = 1;
  if (Object.keys(unset).length) update.$unset = unset;
  if (Object.keys(set).length) update.$set = set;
  if (!Object.keys(update).length) {
    const unchanged = await Parcel.findOne(filter).lean<LeanParcel>();
    if (!unchanged) return stale();
    return { parcel: serializeParcel(unchanged), previousStatus: null };
  }
  const written = await withChangeIf(
    () => Parcel.exists(filter),
    async (changeSeq) => {
      const previous = input.status
        ? await Parcel.findById(id, { status: 1 }).lean<LeanParcel>()
        : null;
      // A status set by hand is also a tracking event, so the status and the latest event that the
      // recipient reads always agree.
      if (input.status && previous && previous.status !== input.status)
        update.$push = { events: { $each: [statusEvent(input.status, changeSeq)], $position: 0 } };
      update.$set = { ...(update.$set as object), changeSeq };
      const doc = await Parcel.findOneAndUpdate(filter, update, {
        returnDocument: 'after',
        runValidators: true,
      }).lean<LeanParcel>();
      if (!doc) return null;
      return { parcel: serializeParcel(doc), previousStatus: previous?.status ?? null };
    },
  );
  return written ?? stale();
}

/**
 * A parcel's status, estimated day and window, and the addresses its recipient's zone is read
 * from: what its window and its day-before e-mail need.
 */
export async function getParcelSchedule(id: string) {
  if (!isObjectId(id)) return null;
  return Parcel.findById(id, {
    status: 1,
    estimatedDelivery: 1,
    deliveryWindow: 1,
    recipient: 1,
    destinations: 1,
  }).lean<
    Pick<
      LeanParcel,
      'status' | 'estimatedDelivery' | 'deliveryWindow' | 'recipient' | 'destinations'
    >
  >();
}

/** The parcels expected on `day` (YYYY-MM-DD) whose status is not one of `except`. */
export async function listParcelsExpectedOn(day: string, except: readonly ParcelStatus[]) {
  const from = new Date(`${day}T00:00:00.000Z`);
  const until = new Date(from.getTime() + 86_400_000);
  const docs = await Parcel.find(
    { estimatedDelivery: { $gte: from, $lt: until }, status: { $nin: [...except] } },
    { status: 1, estimatedDelivery: 1 },
  ).lean<Array<Pick<LeanParcel, '_id' | 'status' | 'estimatedDelivery'>>>();
  return docs.map((doc) => ({
    id: String(doc._id),
    status: String(doc.status),
    estimatedDelivery: doc.estimatedDelivery ?? null,
  }));
}

/**
 * Deletes a parcel; its tracking events are embedded in it and go with it. A sync lists it as
 * deleted (its events' syncs answer 404 from then on).
 */
export async function removeParcel(id: string): Promise<SerializedParcel | null> {
  if (!isObjectId(id)) return null;
  return withChangeIf(
    () => Parcel.exists({ _id: id }),
    async (changeSeq) => {
      const doc = await Parcel.findByIdAndDelete(id).lean<LeanParcel>();
      if (!doc) return null;
      await recordDeletion({ kind: 'parcel', recordId: String(doc._id), changeSeq });
      return serializeParcel(doc);
    },
  );
}

/** What the notification templates' placeholders need of a parcel (and its recipient's e-mail). */
export async function getParcelForTemplate(
  filter: { id: string } | { trackingNumber: string },
): Promise<LeanParcel | null> {
  if ('id' in filter && !isObjectId(filter.id)) return null;
  return Parcel.findOne('id' in filter ? { _id: filter.id } : filter, {
    trackingNumber: 1,
    status: 1,
    recipient: 1,
    destinations: 1,
    estimatedDelivery: 1,
    deliveryWindow: 1,
    serviceType: 1,
  }).lean<LeanParcel>();
}

/** What a subscriber's e-mail about an event shows: the template's fields and the events. */
export async function getParcelWithEvents(id: string): Promise<LeanParcel | null> {
  if (!isObjectId(id)) return null;
  return Parcel.findById(id, {
    trackingNumber: 1,
    status: 1,
    recipient: 1,
    destinations: 1,
    estimatedDelivery: 1,
    deliveryWindow: 1,
    serviceType: 1,
    events: 1,
  }).lean<LeanParcel>();
}

/** What a receipt copies from its parcel. */
export async function getParcelForReceipt(id: string) {
  if (!isObjectId(id)) return null;
  return Parcel.findById(id, { trackingNumber: 1, sender: 1, cost: 1, serviceType: 1 }).lean<
    Pick<LeanParcel, 'trackingNumber' | 'sender' | 'cost' | 'serviceType'> & {
      _id: mongoose.Types.ObjectId;
    }
  >();
}

/** The number and status of a parcel, for the webhooks about its events. */
export async function getParcelStatus(id: string) {
  return Parcel.findById(id, { trackingNumber: 1, status: 1 }).lean<
    Pick<LeanParcel, '_id' | 'trackingNumber' | 'status'>
  >();
}

/** What the recipient's postcode check and their delivery preferences need of a parcel. */
export async function findParcelForRecipient(trackingNumber: string) {
  return Parcel.collection.findOne<LeanParcel>(
    { trackingNumber },
    {
      projection: {
        trackingNumber: 1,
        status: 1,
        recipient: 1,
        destinations: 1,
        deliveryPreferences: 1,
        estimatedDelivery: 1,
        serviceType: 1,
      },
    },
  );
}

/**
 * Replaces what the recipient asked for; a day asked for becomes the parcel's estimated day (a
 * window on another day goes). The parcel as stored after, or null when it is gone.
 */
export async function setDeliveryPreferences(
  id: string,
  preferences: Omit<LeanDeliveryPreferences, 'updatedAt'>,
): Promise<SerializedParcel | null> {
  if (!isObjectId(id)) return null;
  const set: Record<string, unknown> = {
    deliveryPreferences: { ...preferences, updatedAt: new Date() },
  };
  const update: Record<string, unknown> = { $set: set };
  if (preferences.requestedDate) {
    const day = new Date(`${preferences.requestedDate}T00:00:00.000Z`);
    const stored = await Parcel.findById(id, { estimatedDelivery: 1 }).lean<LeanParcel>();
    const storedDay = stored?.estimatedDelivery?.toISOString().slice(0, 10);
    if (storedDay !== preferences.requestedDate) {
      set.estimatedDelivery = day;
      update.$unset = { deliveryWindow: 1 };
    }
  }
  const doc = await withChange((changeSeq) =>
    Parcel.findByIdAndUpdate(
      id,
      { ...update, $set: { ...set, changeSeq } },
      { returnDocument: 'after', runValidators: true },
    ).lean<LeanParcel>(),
  );
  return doc ? serializeParcel(doc) : null;
}
