import mongoose, {
  Schema,
  type Model,
  type QueryFilter,
  type UpdateQuery,
  type mongo,
} from 'mongoose';
import { encodeSyncCursor, type SyncCursor, type SyncList } from '~/schemas/sync';
import { findPage, registeredModel, type Pagination } from './records.server';

/**
 * The order of changes that a sync reads, kept so that a client following `nextCursor` sees every
 * change exactly once, however writers and readers interleave.
 *
 * Every change to a synced record (a parcel and its events, a notification, a receipt) takes a
 * number from one counter (`withChange`) and writes it into the record, in the same atomic update
 * as the change itself (`changeSeq`). A sync reads in (changeSeq, id) order and hands out its
 * position as the cursor. Ordering by `updatedAt` could not promise that: a writer that took its
 * time at 10:00:00.100 and committed after a reader had read past 10:00:00.200 would never be
 * seen. Numbers have the same race — one writer takes 7, another 8, 8 commits, a reader passes 8,
 * then 7 commits — so the counter also keeps the numbers taken and not yet written (`inflight`,
 * added atomically with the number and removed when the write is done). A reader never goes past
 * the lowest of them: `changeHorizon` is the highest number below every change still in flight.
 * Each number is taken after every number a reader has already passed, so nothing can appear
 * behind a cursor handed out. A change whose process died holds readers back for its lease
 * (CHANGE_LEASE_MS) at most; a write slower than its lease could be missed, which is why the long
 * ones (an import) take a longer lease.
 *
 * Deletions leave a tombstone in `tombstones` with the deletion's number, read in the same order
 * beside the records, for TOMBSTONE_RETENTION_DAYS (a TTL index removes them).
 *
 * It lives below the models because every write of a synced collection must stamp its number in
 * its own update: kept here, no write path can forget it. It is written for this: no maintained
 * library keeps a change order over MongoDB without change streams, which the embedded engine and
 * standalone servers do not have.
 */

/** How long a change may hold readers back before they stop waiting for it. */
export const CHANGE_LEASE_MS = 60_000;
/** How long a deletion stays visible to a sync. */
export const TOMBSTONE_RETENTION_DAYS = 30;
const CLOCK_ID = 'changes';
/** After every id: the cursor that has read everything of its change number. */
const PAST_EVERY_ID = 'f'.repeat(24);

type InFlight = { seq: number; until: Date };
const clockSchema = new Schema<{ _id: string; seq: number; inflight: InFlight[] }>(
  {
    _id: { type: String, required: true },
    seq: { type: Number, default: 0 },
    inflight: [{ _id: false, seq: Number, until: Date }],
  },
  { versionKey: false },
);
const ChangeClock = registeredModel('ChangeClock', clockSchema, 'change_clock');
/** The clock's collection, written through the driver (a pipeline update). */
const clock = () =>
  ChangeClock.collection as unknown as mongo.Collection<{
    _id: string;
    seq: number;
    inflight?: InFlight[];
  }>;

export type SyncKind = 'parcel' | 'event' | 'notification' | 'receipt';

const tombstoneSchema = new Schema(
  {
    kind: { type: String, required: true },
    recordId: { type: String, required: true },
    /** The parcel a deleted event belonged to. */
    parcelId: { type: String },
    deletedAt: { type: Date, required: true },
    changeSeq: { type: Number, required: true },
    expiresAt: { type: Date, required: true },
  },
  { versionKey: false },
);
tombstoneSchema.index({ kind: 1, changeSeq: 1, recordId: 1 });
tombstoneSchema.index({ kind: 1, parcelId: 1, changeSeq: 1 });
tombstoneSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
const Tombstone = registeredModel('Tombstone', tombstoneSchema, 'tombstones');

/** A number for one change, registered as in flight until `endChange`. */
async function beginChange(leaseMs: number): Promise<number> {
  const now = new Date();
  for (let attempt = 0; ; attempt++) {
    try {
      // One pipeline update: the number taken and its in-flight entry are one atomic write (and
      // entries whose lease ran out are dropped on the way).
      const found = await clock().findOneAndUpdate(
        { _id: CLOCK_ID },
        [
          { $set: { seq: { $add: [{ $ifNull: ['$seq', 0] }, 1] } } },
          {
            $set: {
              inflight: {
                $concatArrays: [
                  {
                    $filter: {
                      input: { $ifNull: ['$inflight', []] },
                      cond: { $gt: ['$$this.until', now] },
                    },
                  },
                  [{ seq: '$seq', until: new Date(now.getTime() + leaseMs) }],
                ],
              },
            },
          },
        ],
        { upsert: true, returnDocument: 'after' },
      );
      if (!found) throw new Error('The change clock was not returned');
      return found.seq;
    } catch (error) {
      // Two first-ever changes may race to create the clock: the loser tries again.
      if ((error as { code?: number }).code !== 11000 || attempt >= 3) throw error;
    }
  }
}

async function endChange(seq: number): Promise<void> {
  try {
    await clock().updateOne({ _id: CLOCK_ID }, { $pull: { inflight: { seq } } });
  } catch {
    // Its lease ends it anyway.
  }
}

/**
 * Runs `write` as one change: it gets the change's number to store with what it writes (every
 * write of it, a tombstone included), and readers see none of it, nor anything after it, until
 * it is done. `leaseMs`: how long it may take before readers stop waiting (an import's is longer).
 */
export async function withChange<T>(
  write: (changeSeq: number) => Promise<T>,
  { leaseMs = CHANGE_LEASE_MS }: { leaseMs?: number } = {},
): Promise<T> {
  const seq = await beginChange(leaseMs);
  try {
    return await write(seq);
  } finally {
    await endChange(seq);
  }
}

/**
 * Gives records stored before changes were numbered the number 0, so a sync from the beginning
 * lists them first: called once at start.
 */
export async function numberOlderRecords(models: ReadonlyArray<Model<never>>): Promise<void> {
  for (const model of models)
    await model.collection.updateMany(
      { changeSeq: { $exists: false } },
      { $set: { changeSeq: 0 } },
    );
}

/**
 * withChange, when `exists` finds the record to change; null without taking a number when it
 * does not (an unknown id, a state that refuses the change), so that refused requests leave the
 * counter as they found it. The write itself still says what it matches: a record gone between
 * the two is written as nothing, at the cost of a number.
 */
export async function withChangeIf<T>(
  exists: () => PromiseLike<unknown>,
  write: (changeSeq: number) => Promise<T>,
  options?: { leaseMs?: number },
): Promise<T | null> {
  if (!(await exists())) return null;
  return withChange(write, options);
}

/**
 * Sets `set` on the record `filter` finds as one change, through withChangeIf: the record as it
 * then is, as `serialize` makes it, or null (and no number taken) when `filter` finds none.
 */
export async function setIfFound<D, L, T>(
  model: Model<D>,
  filter: QueryFilter<D>,
  set: Record<string, unknown>,
  serialize: (doc: L) => T,
  options: { runValidators?: boolean } = {},
): Promise<T | null> {
  const doc = await withChangeIf(
    () => model.exists(filter),
    (changeSeq) =>
      model
        .findOneAndUpdate(filter, { $set: { ...set, changeSeq } } as UpdateQuery<D>, {
          returnDocument: 'after',
          ...options,
        })
        .lean<L>(),
  );
  return doc ? serialize(doc) : null;
}

/** The highest change number a reader may pass: below every change still being written. */
export async function changeHorizon(): Promise<number> {
  const state = await clock().findOne({ _id: CLOCK_ID });
  if (!state) return 0;
  const now = Date.now();
  const live = (state.inflight ?? []).filter((e) => new Date(e.until).getTime() > now);
  return live.length ? Math.min(state.seq, ...live.map((e) => e.seq - 1)) : state.seq;
}

/** Records that a record was deleted, as part of the change `changeSeq`. */
export async function recordDeletion({
  kind,
  recordId,
  parcelId,
  changeSeq,
}: {
  kind: SyncKind;
  recordId: string;
  parcelId?: string;
  changeSeq: number;
}): Promise<void> {
  const deletedAt = new Date();
  await Tombstone.create({
    kind,
    recordId: recordId.toLowerCase(),
    ...(parcelId ? { parcelId: parcelId.toLowerCase() } : {}),
    deletedAt,
    changeSeq,
    expiresAt: new Date(deletedAt.getTime() + TOMBSTONE_RETENTION_DAYS * 86_400_000),
  });
}

/** A deleted record as a sync lists it. */
export type DeletedRecord = {
  id: string;
  _id: string;
  deleted: true;
  deletedAt: string;
  parcelId?: string;
};

type LeanTombstone = {
  recordId: string;
  parcelId?: string | null;
  deletedAt: Date;
  changeSeq: number;
};

function deletedRecord(t: LeanTombstone, withParcel: boolean): DeletedRecord {
  return {
    id: t.recordId,
    _id: t.recordId,
    deleted: true,
    deletedAt: t.deletedAt.toISOString(),
    ...(withParcel && t.parcelId ? { parcelId: t.parcelId } : {}),
  };
}

/** Where a sync is asked to start: after a cursor, or from an instant, or from the beginning. */
export type SyncRequest = { cursor?: SyncCursor; updatedSince?: Date };

/** What a sync answers: a page of changes in order, and where the next one starts. */
export type ChangePage<T> = {
  items: Array<T | DeletedRecord>;
  pagination: Pagination;
  nextCursor: string;
  hasMore: boolean;
};

type Positioned<T> = { seq: number; id: string; item: T | DeletedRecord };

const byPosition = (a: { seq: number; id: string }, b: { seq: number; id: string }) =>
  a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The page of changes a sync asks for: records and deletions in (changeSeq, id) order, up to the
 * horizon. After `cursor`, the next `limit`; from `updatedSince` (or the beginning) without one,
 * page `page` of those changed since then. `nextCursor` continues after the last change listed,
 * or, when none follows yet, from the horizon: a client that asks with it later gets only what
 * changed since.
 */
export async function findChanges<D, L extends { _id: unknown; changeSeq?: number | null }, T>(
  model: Model<D>,
  kind: SyncKind,
  list: SyncList,
  filter: QueryFilter<D>,
  {
    cursor,
    updatedSince,
    page,
    limit,
    projection,
  }: SyncRequest & { page: number; limit: number; projection?: object },
  serialize: (doc: L) => T,
): Promise<ChangePage<T>> {
  const horizon = await changeHorizon();
  const upTo = { changeSeq: { $lte: horizon } };
  const after = (idField: string, id: unknown) =>
    cursor
      ? [
          {
            $or: [
              { changeSeq: { $gt: cursor.seq } },
              { changeSeq: cursor.seq, [idField]: { $gt: id } },
            ],
          },
        ]
      : [];
  const since = (field: string) =>
    !cursor && updatedSince ? [{ [field]: { $gte: updatedSince } }] : [];
  const records = {
    $and: [
      filter,
      upTo,
      ...after('_id', cursor ? toObjectId(cursor.id) : null),
      ...since('updatedAt'),
    ],
  } as QueryFilter<D>;
  const deletions = {
    $and: [{ kind }, upTo, ...after('recordId', cursor?.id), ...since('deletedAt')],
  };
  const skip = cursor ? 0 : (page - 1) * limit;
  const [docs, tombstones, recordCount, deletionCount] = await Promise.all([
    model
      .find(records, projection)
      .sort({ changeSeq: 1, _id: 1 })
      .limit(skip + limit + 1)
      .lean<L[]>(),
    Tombstone.find(deletions)
      .sort({ changeSeq: 1, recordId: 1 })
      .limit(skip + limit + 1)
      .lean<LeanTombstone[]>(),
    model.countDocuments(records),
    Tombstone.countDocuments(deletions),
  ]);
  const merged: Positioned<T>[] = [
    ...docs.map((doc) => ({
      seq: doc.changeSeq ?? 0,
      id: String(doc._id),
      item: serialize(doc),
    })),
    ...tombstones.map((t) => ({
      seq: t.changeSeq,
      id: t.recordId,
      item: deletedRecord(t, kind === 'event'),
    })),
  ].sort(byPosition);
  return changePage(list, merged, {
    skip,
    limit,
    horizon,
    total: recordCount + deletionCount,
    cursor,
  });
}

/** Which page of a list is asked for; a page left out is the first, a limit the list's own. */
export type PageRequest = { page?: number; limit?: number };

/**
 * The two reads of a synced collection's list, written once for its model, sync kind, list name,
 * shape and page size: `page`, a page in the order asked (findPage), and `changes`, a page of its
 * sync, deletions included (findChanges).
 */
export function syncedList<D, L extends { _id: unknown; changeSeq?: number | null }, T>(
  model: Model<D>,
  kind: SyncKind,
  list: SyncList,
  serialize: (doc: L) => T,
  { limit: pageSize, projection }: { limit: number; projection?: object },
) {
  const paging = ({ page = 1, limit = pageSize }: PageRequest) => ({ page, limit, projection });
  return {
    page: (filter: QueryFilter<D>, sort: Record<string, 1 | -1>, request: PageRequest) =>
      findPage(model, filter, { sort, ...paging(request) }, serialize),
    changes: (filter: QueryFilter<D>, request: PageRequest & SyncRequest) =>
      findChanges(
        model,
        kind,
        list,
        filter,
        { cursor: request.cursor, updatedSince: request.updatedSince, ...paging(request) },
        serialize,
      ),
  };
}

/**
 * The same for records held in memory (a parcel's events): `records` with their change numbers,
 * and the deletions among them (by `parcelId`).
 */
export async function findChangesIn<T extends { id: string }>(
  kind: SyncKind,
  list: SyncList,
  readRecords: () => Promise<Array<{ seq: number; updatedAt: Date; item: T }> | null>,
  parcelId: string,
  { cursor, updatedSince, page, limit }: SyncRequest & { page: number; limit: number },
): Promise<ChangePage<T> | null> {
  // The horizon first, the records after: a change still being written when the horizon was
  // taken is above it, and one written before is in what is read next. Read the other way round,
  // a change could land between the two reads, below the horizon and missing from the records.
  const horizon = await changeHorizon();
  const records = await readRecords();
  if (!records) return null;
  const isAfter = (seq: number, id: string) =>
    cursor ? byPosition({ seq, id }, { seq: cursor.seq, id: cursor.id }) > 0 : true;
  const tombstones = await Tombstone.find({
    kind,
    parcelId: parcelId.toLowerCase(),
    changeSeq: { $lte: horizon },
  }).lean<LeanTombstone[]>();
  const merged: Positioned<T>[] = [
    ...records
      .filter((r) => r.seq <= horizon && isAfter(r.seq, r.item.id))
      .filter((r) => cursor || !updatedSince || r.updatedAt >= updatedSince)
      .map((r) => ({ seq: r.seq, id: r.item.id, item: r.item })),
    ...tombstones
      .filter((t) => isAfter(t.changeSeq, t.recordId))
      .filter((t) => cursor || !updatedSince || t.deletedAt >= updatedSince)
      .map((t) => ({ seq: t.changeSeq, id: t.recordId, item: deletedRecord(t, true) })),
  ].sort(byPosition);
  const skip = cursor ? 0 : (page - 1) * limit;
  return changePage(list, merged, { skip, limit, horizon, total: merged.length, cursor });
}

function changePage<T>(
  list: SyncList,
  merged: Positioned<T>[],
  {
    skip,
    limit,
    horizon,
    total,
    cursor,
  }: { skip: number; limit: number; horizon: number; total: number; cursor?: SyncCursor },
): ChangePage<T> {
  const shown = merged.slice(skip, skip + limit);
  const hasMore = merged.length > skip + limit;
  const last = shown.at(-1);
  // Caught up: the next sync starts at the horizon (never behind the cursor it was given).
  const caughtUp =
    cursor && cursor.seq > horizon ? cursor : { list, seq: horizon, id: PAST_EVERY_ID };
  const next = hasMore && last ? { list, seq: last.seq, id: last.id } : caughtUp;
  return {
    items: shown.map((p) => p.item),
    pagination: {
      totalItems: total,
      currentPage: cursor ? 1 : Math.floor(skip / limit) + 1,
      totalPages: Math.ceil(total / limit),
      limit,
    },
    nextCursor: encodeSyncCursor({ ...next, list }),
    hasMore,
  };
}

/** Compared with stored ObjectIds, the cursor's id must be one too. */
const toObjectId = (id: string) => new mongoose.Types.ObjectId(id);
