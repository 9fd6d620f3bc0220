import mongoose from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import { StaleRecordError } from '~/lib/errors.server';
import {
  EVENT_TO_PARCEL_STATUS,
  FAILED_DELIVERY,
  FINAL_STATUSES,
  PARCELS_PAGE_SIZE,
  type ParcelStatus,
} from '~/schemas/constants';
import {
  CUSTOM_EVENT_STATUS,
  type TrackingEventInput,
  type TrackingEventUpdate,
} from '~/schemas/tracking-event';
import { env } from '~/lib/env.server';
import { deliveryFactsOf, factTime, sameDeliveryFacts } from '~/lib/delivery-facts.server';
import { keepDeliveryFactsTrue } from './parcel-delivery-facts.server';
import {
  Parcel,
  serializeEvent,
  serializeParcel,
  type LeanParcel,
  type SerializedParcel,
} from './parcel.server';
import { parcelHeading, parcelSearchFilter } from './parcel-reads.server';
import { givenFields, type Pagination } from '~/lib/records.server';
import {
  findChangesIn,
  recordDeletion,
  withChange,
  withChangeIf,
  type SyncRequest,
} from '~/lib/changes.server';

type LeanEvent = NonNullable<LeanParcel['events']>[number];
type VersionedParcel = LeanParcel & { __v?: number };
/** What an event write reads back to keep the parcel's delivery facts true. */
const FACT_SOURCES = { status: 1, actualDelivery: 1, deliveryFacts: 1 } as const;

export type TrackingEvent = ReturnType<typeof serializeEvent> & { parcelId: string };

/**
 * Newest first by timestamp. Events are stored newest-added first, and the sort is stable, so
 * events with equal timestamps keep that order (the one added last counts as newest).
 */
export function sortNewestFirst<T extends { timestamp: Date | string }>(events: readonly T[]): T[] {
  return [...events].sort(
    (a, b) => new Date(b.timestamp).getTime() - new Date(a.timestamp).getTime(),
  );
}

function toEvent(parcelId: unknown, event: LeanEvent): TrackingEvent {
  return { ...serializeEvent(event), parcelId: String(parcelId) };
}

/** Whether an event's status moves the parcel's status (Custom Status and free text do not). */
function mapsToStatus(status: string | null | undefined): boolean {
  return !!status && status in EVENT_TO_PARCEL_STATUS;
}

/**
 * Whether an event sets the parcel's status. A Delivered event for one stop (a proof of delivery)
 * does only once every one of the parcel's `stops` has one: the parcel is delivered with its last
 * stop.
 */
function setsStatus(event: LeanEvent, delivered: ReadonlySet<number>, stops: number): boolean {
  if (!mapsToStatus(event.status)) return false;
  if (event.stop === undefined || event.stop === null) return true;
  for (let stop = 0; stop < stops; stop++) if (!delivered.has(stop)) return false;
  return true;
}

/**
 * What the parcel's stored status should become, given its events and its number of stops: the
 * mapping of the newest event that sets one (Custom Status and free-text events are skipped, and
 * so are Delivered events of single stops while another stop is not delivered, see setsStatus).
 * Delivered also records actualDelivery; any other status clears it, so no delivery date outlives
 * the Delivered event it came from. Null when no event maps to a status.
 */
export function statusFromEvents(events: readonly LeanEvent[], stops = 1) {
  const delivered = new Set(
    events.flatMap((e) => (e.status === 'Delivered' && typeof e.stop === 'number' ? [e.stop] : [])),
  );
  const newest = sortNewestFirst(events).find((e) => setsStatus(e, delivered, Math.max(stops, 1)));
  if (!newest) return null;
  const status = EVENT_TO_PARCEL_STATUS[newest.status]!;
  return { status, actualDelivery: status === 'Delivered' ? new Date(newest.timestamp) : null };
}

/**
 * A parcel's stored status changed by an event write: the parcel as it is now, its status before,
 * and the event whose status it now has (null when no status-setting event is left).
 */
export type StatusChange = {
  parcel: SerializedParcel;
  previousStatus: string | null;
  setBy: { status: ParcelStatus; eventId: string } | null;
};

/**
 * Brings the stored status in line with the events of the parcel as one event write left it.
 * `touchedMapped` says whether that write added, changed or removed an event whose status maps
 * to one (before or after the change). When no mapped event is left after such a write, the
 * parcel is back where a parcel without events is: Pending, without a delivery date. A write that
 * only touched Custom Status events changes nothing.
 *
 * Every event write increments `__v` in the same atomic update that changes `events`. This update
 * only applies while `__v` is still the version right after that write, i.e. while the events are
 * exactly the ones the status was computed from. If another event write got in between, this one
 * is skipped: that later write computes from a newer set of events (which includes ours) under its
 * own version, so the last event write always decides.
 */
async function syncParcelStatus(
  parcelId: unknown,
  version: number,
  events: readonly LeanEvent[],
  touchedMapped: boolean,
  stops: number,
  changeSeq: number,
  stored: Pick<LeanParcel, 'status' | 'actualDelivery' | 'deliveryFacts'>,
): Promise<StatusChange | null> {
  if (!touchedMapped) {
    // The status stays, and so do its delivery facts, unless a write in between left them behind.
    await keepDeliveryFactsTrue({ ...stored, _id: parcelId, events, __v: version, changeSeq });
    return null;
  }
  const next = statusFromEvents(events, stops) ?? {
    status: 'Pending' as const,
    actualDelivery: null,
  };
  const deliveryFacts = deliveryFactsOf({ ...next, events }, env.COMPANY_TIMEZONE);
  const update =
    next.actualDelivery === null
      ? {
          $set: { status: next.status, deliveryFacts, changeSeq },
          $unset: { actualDelivery: 1 },
        }
      : {
          $set: {
            status: next.status,
            actualDelivery: next.actualDelivery,
            deliveryFacts,
            changeSeq,
          },
        };
  const before = await Parcel.findOneAndUpdate({ _id: parcelId, __v: version }, update, {
    returnDocument: 'before',
  }).lean<LeanParcel>();
  if (!before || before.status === next.status) return null;
  const parcel = serializeParcel({
    ...before,
    status: next.status,
    actualDelivery: next.actualDelivery ?? undefined,
  });
  // The event that set the status; none when the parcel went back to Pending because no
  // status-setting event is left.
  const setter = sortNewestFirst(events).find(
    (e) => mapsToStatus(e.status) && EVENT_TO_PARCEL_STATUS[e.status] === next.status,
  );
  return {
    parcel,
    previousStatus: before.status ?? null,
    setBy: setter ? { status: next.status, eventId: String(setter._id) } : null,
  };
}

/**
 * A page of the parcel's events, newest first (the whole of them, up to 100, by default). Null
 * when there is no such parcel.
 */
export async function listEvents(
  parcelId: string,
  { page = 1, limit = 100 }: { page?: number; limit?: number } = {},
): Promise<{ events: TrackingEvent[]; pagination: Pagination } | null> {
  if (!isObjectId(parcelId)) return null;
  const parcel = await Parcel.findById(parcelId, { events: 1 }).lean<LeanParcel>();
  if (!parcel) return null;
  const events = sortNewestFirst(parcel.events ?? []);
  return {
    events: events.slice((page - 1) * limit, page * limit).map((e) => toEvent(parcel._id, e)),
    pagination: {
      totalItems: events.length,
      currentPage: page,
      totalPages: Math.ceil(events.length / limit),
      limit,
    },
  };
}

/**
 * A page of a sync of the parcel's events (`?updatedSince` or `?cursor`): the changes in the
 * order they were made, deleted events included (see findChangesIn). Null when there is no such
 * parcel.
 */
export async function listEventChanges(
  parcelId: string,
  { page = 1, limit = 100, ...sync }: { page?: number; limit?: number } & SyncRequest,
) {
  if (!isObjectId(parcelId)) return null;
  const readRecords = async () => {
    const parcel = await Parcel.findById(parcelId, { events: 1 }).lean<LeanParcel>();
    return (
      parcel &&
      (parcel.events ?? []).map((e) => ({
        seq: e.changeSeq ?? 0,
        updatedAt: new Date(e.updatedAt ?? e.createdAt ?? e.timestamp),
        item: toEvent(parcel._id, e),
      }))
    );
  };
  const changes = await findChangesIn('event', 'events', readRecords, parcelId, {
    ...sync,
    page,
    limit,
  });
  if (!changes) return null;
  const { items, ...rest } = changes;
  return { events: items, ...rest };
}

/** A parcel as the Tracking tab shows it: number, status and its events newest first. */
export async function getParcelTracking(parcelId: string) {
  if (!isObjectId(parcelId)) return null;
  const parcel = await Parcel.findById(parcelId, {
    trackingNumber: 1,
    status: 1,
    'sender.name': 1,
    'recipient.name': 1,
    events: 1,
  }).lean<LeanParcel>();
  if (!parcel) return null;
  return {
    ...parcelHeading(parcel),
    senderName: parcel.sender?.name ?? '',
    recipientName: parcel.recipient?.name ?? '',
    events: sortNewestFirst(parcel.events ?? []).map((e) => toEvent(parcel._id, e)),
  };
}
export type ParcelTracking = NonNullable<Awaited<ReturnType<typeof getParcelTracking>>>;

/** One event by its own id (with its parcel's id); null when unknown. */
export async function getEvent(eventId: string): Promise<TrackingEvent | null> {
  return (await getEventVersioned(eventId))?.record ?? null;
}

/**
 * An event as getEvent gives it, and its version: the change number it was last written by
 * (null for one not written since changes were numbered).
 */
export async function getEventVersioned(
  eventId: string,
): Promise<{ record: TrackingEvent; version: number | null } | null> {
  if (!isObjectId(eventId)) return null;
  const parcel = await Parcel.findOne({ 'events._id': eventId }, { events: 1 }).lean<LeanParcel>();
  const event = parcel?.events?.find((e) => String(e._id) === eventId.toLowerCase());
  return parcel && event
    ? { record: toEvent(parcel._id, event), version: event.changeSeq ?? null }
    : null;
}

/** Parcels to pick from in the Tracking tab: newest first, optionally matching a search. */
export async function searchParcelsForTracking({
  search = '',
  limit = PARCELS_PAGE_SIZE,
}: { search?: string; limit?: number } = {}) {
  const parcels = await Parcel.find(parcelSearchFilter(search), {
    trackingNumber: 1,
    status: 1,
    'sender.name': 1,
    'recipient.name': 1,
  })
    .sort({ createdAt: -1 })
    .limit(limit)
    .lean<LeanParcel[]>();
  return parcels.map((p) => ({
    id: String(p._id),
    trackingNumber: p.trackingNumber,
    status: p.status ?? 'Pending',
    senderName: p.sender?.name ?? '',
    recipientName: p.recipient?.name ?? '',
  }));
}
export type TrackingParcelSummary = Awaited<ReturnType<typeof searchParcelsForTracking>>[number];

/**
 * What an event write did: the event (as written, or as removed) and the status it changed, and
 * the whole parcel as the write left it when the write could tell (see pushEvent).
 */
export type EventWrite = {
  event: TrackingEvent;
  statusChange: StatusChange | null;
  parcel?: LeanParcel;
};

/** An event as pushed: the input, with who scanned it, the stop it closes and the warnings overridden. */
type PushedEvent = TrackingEventInput & { scannedBy?: string; stop?: number; override?: string[] };
type PushRules = {
  repeatWindowMs?: number;
  refuseFinal?: boolean;
  /** The caller has just read the parcel: it is not looked for again before the write. */
  found?: boolean;
};
/** The event written, the same event already there, the final status that refused it, or no parcel. */
type PushOutcome =
  | (EventWrite & { repeated?: false; closed?: undefined })
  | { repeated: true; event: TrackingEvent; closed?: undefined }
  | { closed: ParcelStatus }
  | null;

/**
 * Adds an event (stored first in the array) and updates the parcel's status; null when the
 * parcel is unknown. With `refuseFinal`, a parcel whose status is final (FINAL_STATUSES) gets no
 * event: its status is answered (`closed`), decided in the same atomic update as the write.
 *
 * An event newer than every other one of the parcel (a scan, an event added as it happens) that
 * sets the whole parcel's status is one atomic update: the event, the status and the delivery
 * date together, on the condition that no newer event is there; the document before it, with
 * those changes applied, is the parcel after it (`parcel`), so nothing is read again. Any other
 * event (dated before another one, a stop's delivery, a Custom Status) is pushed, then the status
 * is computed from the events the push returned (syncParcelStatus).
 */
export async function pushEvent(
  parcelId: string,
  input: PushedEvent,
  { repeatWindowMs, refuseFinal, found }: PushRules = {},
): Promise<PushOutcome> {
  if (!isObjectId(parcelId)) return null;
  const write = (changeSeq: number) =>
    pushEventAs(changeSeq, parcelId, input, { repeatWindowMs, refuseFinal });
  return found ? withChange(write) : withChangeIf(() => Parcel.exists({ _id: parcelId }), write);
}

async function pushEventAs(
  changeSeq: number,
  parcelId: string,
  input: PushedEvent,
  { repeatWindowMs, refuseFinal, anyTime }: PushRules & { anyTime?: boolean },
): Promise<PushOutcome> {
  const eventId = new mongoose.Types.ObjectId();
  const now = new Date();
  const event = {
    _id: eventId,
    status: input.status,
    ...(input.customStatus ? { customStatus: input.customStatus } : {}),
    location: input.location ?? '',
    description: input.description ?? '',
    timestamp: input.timestamp ?? now,
    timeZone: input.timeZone ?? env.COMPANY_TIMEZONE,
    ...(input.stop === undefined ? {} : { stop: input.stop }),
    ...(input.depotId ? { depotId: new mongoose.Types.ObjectId(input.depotId) } : {}),
    ...(input.reason ? { reason: input.reason } : {}),
    ...(input.nextAttemptDate ? { nextAttemptDate: input.nextAttemptDate } : {}),
    ...(input.scannedBy ? { scannedBy: new mongoose.Types.ObjectId(input.scannedBy) } : {}),
    ...(input.override?.length ? { override: input.override } : {}),
    createdAt: now,
    updatedAt: now,
    changeSeq,
  };
  // With a repeat window, the same status at the same place added within it is not added again
  // (a scanner that reads a label twice); the check and the write are one atomic update.
  const same = { status: event.status, location: event.location };
  const filter = {
    _id: parcelId,
    ...(repeatWindowMs
      ? {
          events: {
            $not: {
              $elemMatch: {
                ...same,
                createdAt: { $gte: new Date(now.getTime() - repeatWindowMs) },
              },
            },
          },
        }
      : {}),
    ...(refuseFinal ? { status: { $nin: FINAL_STATUSES } } : {}),
  };
  // The status the event gives the whole parcel once it is the newest (see pushEvent).
  const sets =
    !anyTime && input.stop === undefined && mapsToStatus(input.status)
      ? EVENT_TO_PARCEL_STATUS[input.status]!
      : null;
  const push = { $push: { events: { $each: [event], $position: 0 } }, $inc: { __v: 1 } };
  let parcel: VersionedParcel | null = null;
  if (sets) {
    const actualDelivery = sets === 'Delivered' ? new Date(event.timestamp) : undefined;
    // The delivery facts change with it in the same update: the delivery, or none, and a failed
    // attempt added to the others (first, as its event is).
    const zone = env.COMPANY_TIMEZONE;
    const failure =
      input.status === FAILED_DELIVERY
        ? { ...factTime(new Date(event.timestamp), zone), reason: event.reason ?? 'other' }
        : null;
    const before = await Parcel.findOneAndUpdate(
      {
        ...filter,
        $and: [
          { events: { $not: { $elemMatch: { timestamp: { $gt: new Date(event.timestamp) } } } } },
        ],
      },
      {
        ...push,
        ...(failure
          ? {
              $push: {
                ...push.$push,
                'deliveryFacts.failures': { $each: [failure], $position: 0 },
              },
            }
          : {}),
        $set: {
          changeSeq,
          status: sets,
          updatedAt: now,
          ...(actualDelivery
            ? { actualDelivery, 'deliveryFacts.delivered': factTime(actualDelivery, zone) }
            : {}),
        },
        ...(actualDelivery ? {} : { $unset: { actualDelivery: 1, 'deliveryFacts.delivered': 1 } }),
      },
      { returnDocument: 'before', timestamps: false },
    ).lean<VersionedParcel>();
    if (before) {
      const after: VersionedParcel = {
        ...before,
        events: [event, ...(before.events ?? [])],
        status: sets,
        actualDelivery,
        changeSeq,
        updatedAt: now,
        __v: (before.__v ?? 0) + 1,
      };
      // Facts that were not those of the parcel before (kept before facts were, read in another
      // zone, or left behind by a write in between) are worked out again from the parcel after.
      if (!sameDeliveryFacts(before.deliveryFacts, deliveryFactsOf(before, zone)))
        await keepDeliveryFactsTrue({ ...after, deliveryFacts: null });
      after.deliveryFacts = deliveryFactsOf(after, zone);
      const statusChange =
        before.status === sets
          ? null
          : {
              parcel: serializeParcel(after),
              previousStatus: before.status ?? null,
              setBy: { status: sets, eventId: String(eventId) },
            };
      return { event: toEvent(before._id, event), statusChange, parcel: after };
    }
  } else {
    parcel = await Parcel.findOneAndUpdate(
      filter,
      { ...push, $set: { changeSeq } },
      {
        returnDocument: 'after',
        projection: { events: 1, __v: 1, destinations: 1, ...FACT_SOURCES },
      },
    ).lean<VersionedParcel>();
  }
  if (!parcel && (repeatWindowMs || refuseFinal)) {
    const existing = await Parcel.findById(parcelId, { events: 1, status: 1 }).lean<LeanParcel>();
    if (!existing) return null;
    const status = (existing.status ?? 'Pending') as ParcelStatus;
    if (refuseFinal && FINAL_STATUSES.includes(status)) return { closed: status };
    const since = now.getTime() - (repeatWindowMs ?? 0);
    const earlier = repeatWindowMs
      ? (existing.events ?? []).find(
          (e) =>
            e.status === same.status &&
            (e.location ?? '') === same.location &&
            e.createdAt &&
            new Date(e.createdAt).getTime() >= since,
        )
      : undefined;
    // Gone again in the meantime (undone, reopened), or a newer event is there: a fresh try,
    // the status then computed from every event.
    if (!earlier) return pushEventAs(changeSeq, parcelId, input, { refuseFinal, anyTime: true });
    return { repeated: true, event: toEvent(existing._id, earlier) };
  }
  // A newer event is there (or the parcel is gone): the status is computed from every event.
  if (!parcel && sets) return pushEventAs(changeSeq, parcelId, input, { anyTime: true });
  if (!parcel) return null;
  const events = parcel.events ?? [];
  const statusChange = await syncParcelStatus(
    parcel._id,
    parcel.__v ?? 0,
    events,
    mapsToStatus(input.status),
    parcel.destinations?.length ?? 1,
    changeSeq,
    parcel,
  );
  const stored = events.find((e) => String(e._id) === String(eventId));
  return { event: toEvent(parcel._id, stored ?? event), statusChange };
}

/**
 * Changes the fields given (others stay) of the event with this id, wherever it lives, and updates
 * its parcel's status. `parcelId` optionally restricts it to one parcel. Null when not found;
 * otherwise the event before and after the change.
 */
export async function setEventFields(
  eventId: string,
  input: TrackingEventUpdate,
  { parcelId, version }: { parcelId?: string; version?: number | null } = {},
): Promise<(EventWrite & { before: TrackingEvent }) | null> {
  if (!isObjectId(eventId) || (parcelId !== undefined && !isObjectId(parcelId))) return null;
  const id = eventId.toLowerCase();
  return withChangeIf(
    () => Parcel.exists({ 'events._id': id, ...(parcelId ? { _id: parcelId } : {}) }),
    (changeSeq) => setEventFieldsAs(changeSeq, id, input, parcelId, version),
  );
}

async function setEventFieldsAs(
  changeSeq: number,
  eventId: string,
  input: TrackingEventUpdate,
  parcelId: string | undefined,
  version: number | null | undefined,
): Promise<(EventWrite & { before: TrackingEvent }) | null> {
  const set: Record<string, unknown> = {
    'events.$.updatedAt': new Date(),
    'events.$.changeSeq': changeSeq,
    changeSeq,
  };
  if (input.status !== undefined) set['events.$.status'] = input.status;
  if (input.customStatus !== undefined) set['events.$.customStatus'] = input.customStatus;
  if (input.location !== undefined) set['events.$.location'] = input.location;
  if (input.description !== undefined) set['events.$.description'] = input.description;
  if (input.timestamp !== undefined) set['events.$.timestamp'] = input.timestamp;
  if (input.timeZone !== undefined) set['events.$.timeZone'] = input.timeZone;
  if (input.depotId !== undefined)
    set['events.$.depotId'] = new mongoose.Types.ObjectId(input.depotId);
  if (input.reason !== undefined) set['events.$.reason'] = input.reason;
  if (input.nextAttemptDate !== undefined) set['events.$.nextAttemptDate'] = input.nextAttemptDate;
  // An event that is no longer a failed delivery keeps no reason for one, and one no longer a
  // custom status no words of one.
  const unset: Record<string, 1> = {
    ...(input.status !== undefined && input.status !== FAILED_DELIVERY
      ? { 'events.$.reason': 1, 'events.$.nextAttemptDate': 1 }
      : {}),
    ...(input.status !== undefined && input.status !== CUSTOM_EVENT_STATUS
      ? { 'events.$.customStatus': 1 }
      : {}),
  };
  // The document before the update tells us the event's status before; applying the same
  // changes to it gives the events after, and the version after is one more than before.
  const before = await Parcel.findOneAndUpdate(
    {
      // With a version, only the event as it was at that change (null: never numbered).
      ...(version === undefined
        ? { 'events._id': eventId }
        : { events: { $elemMatch: { _id: eventId, changeSeq: version } } }),
      ...(parcelId ? { _id: parcelId } : {}),
    },
    { $set: set, ...(Object.keys(unset).length ? { $unset: unset } : {}), $inc: { __v: 1 } },
    {
      returnDocument: 'before',
      projection: { events: 1, __v: 1, destinations: 1, ...FACT_SOURCES },
    },
  ).lean<VersionedParcel>();
  if (!before) {
    if (version !== undefined && (await Parcel.exists({ 'events._id': eventId })))
      throw new StaleRecordError('tracking event');
    return null;
  }
  const previous = (before.events ?? []).find((e) => String(e._id) === eventId);
  if (!previous) return null;
  const changed: LeanEvent = {
    ...previous,
    updatedAt: set['events.$.updatedAt'] as Date,
    changeSeq,
    ...givenFields(input),
    ...(unset['events.$.reason'] ? { reason: null, nextAttemptDate: null } : {}),
    ...(unset['events.$.customStatus'] ? { customStatus: null } : {}),
  };
  const events = (before.events ?? []).map((e) => (e === previous ? changed : e));
  const statusChange = await syncParcelStatus(
    before._id,
    (before.__v ?? 0) + 1,
    events,
    mapsToStatus(previous.status) || mapsToStatus(changed.status),
    before.destinations?.length ?? 1,
    changeSeq,
    before,
  );
  return {
    before: toEvent(before._id, previous),
    event: toEvent(before._id, changed),
    statusChange,
  };
}

/**
 * Removes the event with this id and updates its parcel's status from the events left (see
 * syncParcelStatus). Returns the removed event, or null when not found.
 */
export async function pullEvent(
  eventId: string,
  { parcelId }: { parcelId?: string } = {},
): Promise<EventWrite | null> {
  if (!isObjectId(eventId) || (parcelId !== undefined && !isObjectId(parcelId))) return null;
  const lower = eventId.toLowerCase();
  return withChangeIf(
    () => Parcel.exists({ 'events._id': lower, ...(parcelId ? { _id: parcelId } : {}) }),
    (changeSeq) => pullEventAs(changeSeq, lower, parcelId),
  );
}

async function pullEventAs(
  changeSeq: number,
  eventId: string,
  parcelId: string | undefined,
): Promise<EventWrite | null> {
  const id = new mongoose.Types.ObjectId(eventId);
  // The document before the update tells us which event went; the events after it are the
  // others, and the version after it is one more than before.
  const before = await Parcel.findOneAndUpdate(
    { 'events._id': id, ...(parcelId ? { _id: parcelId } : {}) },
    { $pull: { events: { _id: id } }, $inc: { __v: 1 }, $set: { changeSeq } },
    {
      returnDocument: 'before',
      projection: { events: 1, __v: 1, destinations: 1, ...FACT_SOURCES },
    },
  ).lean<VersionedParcel>();
  if (!before) return null;
  const events = before.events ?? [];
  const removed = events.find((e) => String(e._id) === eventId);
  const statusChange = await syncParcelStatus(
    before._id,
    (before.__v ?? 0) + 1,
    events.filter((e) => String(e._id) !== eventId),
    mapsToStatus(removed?.status),
    before.destinations?.length ?? 1,
    changeSeq,
    before,
  );
  if (!removed) return null;
  await recordDeletion({
    kind: 'event',
    recordId: eventId,
    parcelId: String(before._id),
    changeSeq,
  });
  return { event: toEvent(before._id, removed), statusChange };
}
