import type mongoose from 'mongoose';
import { Schema, type InferSchemaType } from 'mongoose';
import {
  DEFAULT_DELIVERY_DAYS,
  PARCEL_CREATION_COST,
  PARCEL_STATUSES,
  PAYMENT_STATUSES,
  PRIORITIES,
  SERVICE_TYPES,
  eventStatusOf,
  type PaymentStatus,
} from '~/schemas/constants';
import { env } from '~/lib/env.server';
import { addressFields, iso, recordIds, registeredModel } from '~/lib/records.server';
import { mobilePhone } from '~/lib/phone.server';
import { deliveryFactsOf, type DeliveryFacts } from '~/lib/delivery-facts.server';

/**
 * The parcels collection: its schema (destinations and tracking events embedded, so every change
 * of one parcel is one atomic update), its model and the shapes it is read as. Reading lists and
 * views is parcel-reads.server.ts, writing parcel-writes.server.ts, and the tracking numbers (new
 * ones, lookups by number) parcel-tracking-numbers.server.ts.
 */

const contactSchema = new Schema(
  {
    name: { type: String, default: '', trim: true },
    email: { type: String, default: '', trim: true, lowercase: true },
    phone: { type: String, default: '', trim: true },
    ...addressFields,
    timeZone: { type: String, default: '', trim: true },
  },
  { _id: false },
);

// The recipient is a contact with the language (BCP 47) their messages and tracking page are in.
const recipientSchema = contactSchema.clone();
recipientSchema.add({ language: { type: String, default: '', trim: true } });

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
    recipient: { type: recipientSchema, default: () => ({}) },
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
    // The price it was booked at, in the currency's minor units (absent on parcels booked before
    // prices, which keep only `cost`).
    price: {
      type: new Schema(
        { amount: { type: Number, min: 0 }, currency: { type: String } },
        { _id: false },
      ),
      default: undefined,
    },
    // How a booking is paid ('account' or 'card'); absent on parcels not booked at a price.
    paymentMethod: { type: String, default: undefined },
    // A card booking's payment through Stripe Checkout: pending until Stripe's signed event says
    // paid, expired when it was not paid in time (the booking is then cancelled).
    payment: {
      type: new Schema(
        {
          status: { type: String, enum: PAYMENT_STATUSES },
          checkoutUrl: { type: String },
          sessionId: { type: String },
          expiresAt: { type: Date },
          paidAt: { type: Date },
        },
        { _id: false },
      ),
      default: undefined,
    },
    destinations: { type: [destinationSchema], default: [] },
    // Newest first: the public page and the dashboard read events[0] as the latest.
    events: { type: [trackingEventSchema], default: [] },
    // The change that last wrote it, in the order syncs read (app/lib/changes.server.ts).
    changeSeq: { type: Number, default: 0 },
    // The courier's run it was last put on (runs.server.ts), for the delivery reports.
    run: {
      type: new Schema(
        {
          id: { type: Schema.Types.ObjectId },
          depotId: { type: Schema.Types.ObjectId },
          courierId: { type: Schema.Types.ObjectId },
        },
        { _id: false },
      ),
      default: undefined,
    },
    // Its stop's expected window once its run has started, the stops before it, and the start
    // of the window the recipient was last told of.
    eta: {
      type: new Schema(
        { from: Date, until: Date, stopsBefore: Number, stops: Number, toldFrom: Date },
        { _id: false },
      ),
      default: undefined,
    },
    // What the delivery performance report reads of it, kept true by every write of its status
    // or events (app/lib/delivery-facts.server.ts): the delivery and failed attempts with their
    // company day and week, and the zone those are in.
    deliveryFacts: {
      type: new Schema(
        {
          zone: String,
          delivered: {
            type: new Schema({ at: Date, day: String, week: String }, { _id: false }),
            default: undefined,
          },
          failures: [
            new Schema({ at: Date, day: String, week: String, reason: String }, { _id: false }),
          ],
        },
        { _id: false },
      ),
      default: undefined,
    },
    // The shipper account it belongs to (none: the courier's own), and whether it is live data
    // or an account's test data (app/lib/tenancy.server.ts).
    accountId: { type: Schema.Types.ObjectId, default: null },
    livemode: { type: Boolean, default: true },
    // The shipper's own reference (an order number); none unless given.
    reference: { type: String, trim: true },
  },
  { timestamps: true },
);
parcelSchema.index({ accountId: 1, livemode: 1, createdAt: -1 });

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
// The delivery reports: deliveries by day, and failed attempts (events) within the period.
parcelSchema.index({ actualDelivery: 1 });
parcelSchema.index({ 'events.timestamp': 1 });
// The delivery performance report: the period's deliveries and failed attempts; and the parcels
// whose facts are in another zone than the company's, worked out again at start.
parcelSchema.index({ 'deliveryFacts.delivered.at': 1 });
parcelSchema.index({ 'deliveryFacts.failures.at': 1 });
parcelSchema.index({ 'deliveryFacts.zone': 1 });

// A parcel stored whole (created, seeded, saved) gets its delivery facts from what it holds.
parcelSchema.pre('validate', function () {
  if (
    this.isNew ||
    this.isModified('status') ||
    this.isModified('actualDelivery') ||
    this.isModified('events')
  )
    this.set('deliveryFacts', deliveryFactsOf(this, env.COMPANY_TIMEZONE));
});

export type ParcelDoc = InferSchemaType<typeof parcelSchema> & { _id: mongoose.Types.ObjectId };

export const Parcel = registeredModel('Parcel', parcelSchema);

export type Contact = {
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
  recipient?: Partial<Recipient> | null;
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
  price?: { amount?: number | null; currency?: string | null } | null;
  paymentMethod?: string | null;
  payment?: LeanPayment | null;
  reference?: string | null;
  destinations?: LeanDestination[] | null;
  events?: LeanEvent[] | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
  changeSeq?: number | null;
  run?: { id?: unknown; depotId?: unknown; courierId?: unknown } | null;
  eta?: LeanEta | null;
  accountId?: unknown;
  livemode?: boolean | null;
  deliveryFacts?: DeliveryFacts | null;
};
export type LeanPayment = {
  status?: PaymentStatus | null;
  checkoutUrl?: string | null;
  sessionId?: string | null;
  expiresAt?: Date | null;
  paidAt?: Date | null;
};

/** A card booking's payment as the API reads it; null for a booking not paid by card. */
export function serializePayment(payment: LeanPayment | null | undefined) {
  if (!payment?.status) return null;
  return {
    status: payment.status,
    // Where the payer pays, while it can still be paid.
    checkoutUrl: payment.status === 'pending' ? (payment.checkoutUrl ?? null) : null,
    expiresAt: iso(payment.expiresAt),
    paidAt: iso(payment.paidAt),
  };
}

export type LeanEta = {
  from?: Date | null;
  until?: Date | null;
  stopsBefore?: number | null;
  stops?: number | null;
  toldFrom?: Date | null;
};

/** A parcel out for delivery on a started run: its window and the stops before it; else null. */
export function serializeEta(parcel: Pick<LeanParcel, 'status' | 'eta'>) {
  const eta = parcel.eta;
  if (parcel.status !== 'Out for Delivery' || !eta?.from || !eta.until) return null;
  return {
    from: iso(eta.from)!,
    until: iso(eta.until)!,
    stopsBefore: eta.stopsBefore ?? 0,
    stops: eta.stops ?? 1,
  };
}

export function contact(c: Partial<Contact> | null | undefined): Contact {
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

/** A recipient: a contact, and the language (BCP 47) written to them ('' when not known). */
export type Recipient = Contact & { language: string };

export function recipientContact(c: Partial<Recipient> | null | undefined): Recipient {
  return { ...contact(c), language: c?.language ?? '' };
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
    recipient: {
      ...recipientContact(parcel.recipient),
      ...mobilePhone(parcel.recipient?.phone, parcel.recipient?.country),
    },
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
    price:
      parcel.price?.amount != null && parcel.price.currency
        ? { amount: parcel.price.amount, currency: parcel.price.currency }
        : null,
    paymentMethod: parcel.paymentMethod ?? null,
    payment: serializePayment(parcel.payment),
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
    eta: serializeEta(parcel),
    createdAt: iso(parcel.createdAt),
    updatedAt: iso(parcel.updatedAt),
    accountId: parcel.accountId ? String(parcel.accountId) : null,
    livemode: parcel.livemode !== false,
    reference: parcel.reference ?? '',
  };
}
export type SerializedParcel = ReturnType<typeof serializeParcel>;

/* ---------- Parcel management (dashboard and /api/parcels) ---------- */
