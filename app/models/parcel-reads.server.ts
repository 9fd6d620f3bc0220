import mongoose from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import { scopeFilter, type AccountScope, type ListMode } from '~/lib/tenancy.server';
import { syncedList, type SyncRequest } from '~/lib/changes.server';
import { type ParcelSortKey, type ParcelStatus, type SortOrder } from '~/schemas/constants';
import { defaultSortOrder } from '~/schemas/parcel';
import { serializedById, versionedById } from '~/lib/records.server';
import { type LeanParcel, Parcel, type SerializedParcel, serializeParcel } from './parcel.server';

/**
 * Reading parcels for staff and the API: the list with its filters, sort and sync, one parcel,
 * the choices of the parcel pickers, and the views the e-mails, receipts and schedules read.
 */

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
 * The search: what was typed, literally and in any case, within the tracking number, the
 * sender's name, the recipient's name or the shipper's reference. Empty input matches every parcel.
 */
export function parcelSearchFilter(search: string | undefined): Record<string, unknown> {
  const term = search?.trim();
  if (!term) return {};
  const pattern = new RegExp(escapeRegex(term), 'i');
  const names = [{ 'sender.name': pattern }, { 'recipient.name': pattern }, { reference: pattern }];
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
  /** Staff: one account's parcels, or 'none' for the company's own. */
  account?: string;
  /** Staff: live parcels (the default) or the accounts' test ones. */
  mode?: ListMode;
  /** Who reads: an account sees only its own parcels of its mode (app/lib/tenancy.server.ts). */
  scope?: AccountScope | null;
  /** Only parcels created at or after `from` and before `before`. */
  created?: { from?: Date; before?: Date };
};

/**
 * The filter of a parcel list: the search (see parcelSearchFilter), the status, the ids, the
 * account and mode staff asked for, and the reader's tenancy, which nothing given overrides.
 */
export function parcelListFilter({
  status,
  search,
  ids,
  account,
  mode,
  scope,
  created,
}: Pick<
  ParcelListOptions,
  'status' | 'search' | 'ids' | 'account' | 'mode' | 'scope' | 'created'
>) {
  const filter: Record<string, unknown> = parcelSearchFilter(search);
  if (status) filter.status = status;
  if (created?.from || created?.before)
    filter.createdAt = {
      ...(created.from ? { $gte: created.from } : {}),
      ...(created.before ? { $lt: created.before } : {}),
    };
  if (ids)
    filter._id = { $in: ids.filter(isObjectId).map((id) => new mongoose.Types.ObjectId(id)) };
  if (account) filter.accountId = account === 'none' ? null : new mongoose.Types.ObjectId(account);
  return { ...filter, ...scopeFilter(scope ?? null, { mode: mode ?? 'live' }) };
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

const parcelList = syncedList(Parcel, 'parcel', 'parcels', listedParcel, {
  limit: 100,
  projection: { events: 0 },
});

/**
 * A page of parcels, newest first unless `sort`/`order` say otherwise; `search` matches tracking
 * number, sender or recipient name literally.
 */
export async function listParcels(
  options: ParcelListOptions,
): Promise<{ parcels: SerializedParcel[]; pagination: ParcelPagination }> {
  const { items, pagination } = await parcelList.page(
    parcelListFilter(options),
    parcelListSort(options),
    options,
  );
  return { parcels: items, pagination };
}

/**
 * A page of a sync of the parcels (`GET /api/parcels?updatedSince` or `?cursor`): the changes in
 * the order they were made, deleted parcels included, whatever the sort (see findChanges).
 */
export async function listParcelChanges(options: ParcelListOptions & SyncRequest) {
  const { items, ...rest } = await parcelList.changes(parcelListFilter(options), options);
  return { parcels: items, ...rest };
}

/** Whether the parcel with this id is among those `scope` (a tenancy filter) lets one see. */
export async function parcelInScope(id: string, scope: Record<string, unknown>): Promise<boolean> {
  if (!isObjectId(id)) return false;
  return !!(await Parcel.exists({ _id: id, ...scope }));
}

export async function getParcel(id: string): Promise<SerializedParcel | null> {
  return serializedById(id, (id) => Parcel.findById(id).lean<LeanParcel>(), serializeParcel);
}

/**
 * A live parcel as getParcel gives it, by its tracking number (already normalised); null if none.
 * An account's test parcel is never in a courier's hands: the scan station does not know it.
 */
export async function getParcelByTrackingNumber(
  trackingNumber: string,
): Promise<SerializedParcel | null> {
  const doc = await Parcel.findOne({
    trackingNumber,
    ...scopeFilter(null, { mode: 'live' }),
  }).lean<LeanParcel>();
  return doc ? serializeParcel(doc) : null;
}

/** A parcel as getParcel gives it, and its version: the change number it was last written by. */
export function getParcelVersioned(id: string) {
  return versionedById(id, (id) => Parcel.findById(id).lean<LeanParcel>(), serializeParcel);
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

/** The fields the notification templates' placeholders read. */
const TEMPLATE_FIELDS = {
  trackingNumber: 1,
  status: 1,
  recipient: 1,
  destinations: 1,
  estimatedDelivery: 1,
  deliveryWindow: 1,
  serviceType: 1,
  // Whose it is: a message about a test parcel goes to its account's test log.
  accountId: 1,
  livemode: 1,
};

/** What the notification templates' placeholders need of a parcel (and its recipient's e-mail). */
export async function getParcelForTemplate(
  filter: { id: string } | { trackingNumber: string },
): Promise<LeanParcel | null> {
  if ('id' in filter && !isObjectId(filter.id)) return null;
  return Parcel.findOne(
    'id' in filter ? { _id: filter.id } : filter,
    TEMPLATE_FIELDS,
  ).lean<LeanParcel>();
}

/** What a subscriber's e-mail about an event shows: the template's fields and the events. */
export async function getParcelWithEvents(id: string): Promise<LeanParcel | null> {
  if (!isObjectId(id)) return null;
  return Parcel.findById(id, { ...TEMPLATE_FIELDS, events: 1 }).lean<LeanParcel>();
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

/** Whose a parcel is: its account (null: the company's own) and whether it is live data. */
export async function getParcelTenancy(id: string) {
  if (!isObjectId(id)) return null;
  const doc = await Parcel.findById(id, { accountId: 1, livemode: 1 }).lean<LeanParcel>();
  return doc && (tenancyOf(doc) ?? { accountId: null, livemode: true });
}

/**
 * Whose a parcel is: its account (none: the courier's own) and whether it is live data. Null
 * when the document was read without saying (a projection without `livemode`, or a parcel stored
 * before accounts), for the caller to read it.
 */
export function tenancyOf(doc: Pick<LeanParcel, 'accountId' | 'livemode'> | null | undefined) {
  if (!doc || !('livemode' in doc)) return null;
  return {
    accountId: doc.accountId ? String(doc.accountId) : null,
    livemode: doc.livemode !== false,
  };
}

/**
 * An account's overview: its parcels made since `since` by status, and its exceptions (failed
 * attempts and returns), newest first.
 */
export async function accountParcelSummary(scope: AccountScope, since: Date) {
  const own = scopeFilter(scope);
  const [byStatus, exceptions] = await Promise.all([
    Parcel.aggregate<{ _id: string; count: number }>([
      { $match: { ...own, createdAt: { $gte: since } } },
      { $group: { _id: '$status', count: { $sum: 1 } } },
    ]),
    Parcel.find({ ...own, status: { $in: ['Failed', 'Returned'] } }, { events: 0 })
      .sort({ updatedAt: -1, _id: -1 })
      .limit(20)
      .lean<LeanParcel[]>(),
  ]);
  return {
    byStatus: Object.fromEntries(byStatus.map((row) => [row._id, row.count])) as Record<
      string,
      number
    >,
    exceptions: exceptions.map(listedParcel),
  };
}

/** Whose the parcel with this tracking number is (see getParcelTenancy). */
export async function getParcelTenancyByNumber(trackingNumber: string) {
  const doc = await Parcel.findOne(
    { trackingNumber },
    { accountId: 1, livemode: 1 },
  ).lean<LeanParcel>();
  return doc && (tenancyOf(doc) ?? { accountId: null, livemode: true });
}

/** The number and status of a parcel, for the webhooks about its events. */
export async function getParcelStatus(id: string) {
  return Parcel.findById(id, {
    trackingNumber: 1,
    status: 1,
    accountId: 1,
    livemode: 1,
    sender: 1,
  }).lean<
    Pick<LeanParcel, '_id' | 'trackingNumber' | 'status' | 'accountId' | 'livemode' | 'sender'>
  >();
}

/** The tracking numbers of those of the parcels whose card payment is not made (pending or expired). */
export async function unpaidParcelNumbers(ids: string[]): Promise<string[]> {
  const valid = ids.filter(isObjectId);
  if (!valid.length) return [];
  const docs = await Parcel.find(
    { _id: { $in: valid }, 'payment.status': { $in: ['pending', 'expired'] } },
    { trackingNumber: 1 },
  ).lean<Pick<LeanParcel, 'trackingNumber'>[]>();
  return docs.map((doc) => doc.trackingNumber);
}

/** The Stripe Checkout session a card booking is paid through; null when none was opened. */
export async function getParcelPaymentSession(id: string) {
  if (!isObjectId(id)) return null;
  const doc = await Parcel.findById(id, { payment: 1 }).lean<Pick<LeanParcel, 'payment'>>();
  return doc?.payment?.sessionId ? { sessionId: doc.payment.sessionId } : null;
}
