import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import { iso, recordIds, registeredModel, serializedById } from '~/lib/records.server';
import { RUN_STATUSES, STOP_KINDS, STOP_OUTCOMES, type StopOutcome } from '~/schemas/run';

/**
 * Couriers' runs: one depot's day given to one courier, its stops in the order they are made: a
 * parcel to deliver, or a shipper's pickup. A parcel or a pickup is a stop of one open run at
 * most: a unique index on the stops' records among open runs says so in the database, so two
 * dispatchers at once cannot both place it.
 */
const stopSchema = new Schema(
  {
    // The stop's record: the parcel's id, or for a pickup stop the pickup's (ids are unique
    // across collections), so that the one unique index holds parcels and pickups alike.
    parcelId: { type: Schema.Types.ObjectId, required: true },
    kind: { type: String, enum: STOP_KINDS },
    trackingNumber: { type: String, default: '' },
    // The stop's expected arrival, once the run has started.
    eta: { type: Date },
    // What became of it: delivered or failed, collected or not (the courier moves on).
    outcome: { type: String, enum: STOP_OUTCOMES },
    doneAt: { type: Date },
  },
  { _id: false },
);

const runSchema = new Schema(
  {
    date: { type: String, required: true },
    depotId: { type: Schema.Types.ObjectId, required: true },
    courierId: { type: Schema.Types.ObjectId, required: true },
    status: { type: String, enum: RUN_STATUSES, default: 'planned' },
    // Planned or started: its parcels are on it (the unique index's scope).
    open: { type: Boolean, default: true },
    stops: { type: [stopSchema], default: [] },
    startedAt: { type: Date },
    completedAt: { type: Date },
  },
  { timestamps: true },
);

runSchema.index(
  { 'stops.parcelId': 1 },
  { unique: true, partialFilterExpression: { open: true }, name: 'one_open_run_per_parcel' },
);
runSchema.index({ date: 1, depotId: 1 });
runSchema.index({ courierId: 1, date: 1 });

export const Run = registeredModel('Run', runSchema);

export type LeanRun = InferSchemaType<typeof runSchema> & { _id: mongoose.Types.ObjectId };

function serialize(run: LeanRun) {
  return {
    ...recordIds(run._id),
    date: run.date,
    depotId: String(run.depotId),
    courierId: String(run.courierId),
    status: run.status,
    stops: run.stops.map((stop, i) => ({
      kind: stop.kind ?? 'delivery',
      parcelId: stop.kind === 'pickup' ? null : String(stop.parcelId),
      pickupId: stop.kind === 'pickup' ? String(stop.parcelId) : null,
      trackingNumber: stop.kind === 'pickup' ? null : (stop.trackingNumber ?? ''),
      sequence: i + 1,
      eta: iso(stop.eta),
      outcome: stop.outcome ?? null,
      doneAt: iso(stop.doneAt),
    })),
    startedAt: iso(run.startedAt),
    completedAt: iso(run.completedAt),
    createdAt: iso(run.createdAt),
    updatedAt: iso(run.updatedAt),
  };
}
export type SerializedRun = ReturnType<typeof serialize>;
export type RunStop = SerializedRun['stops'][number];

/** A stop's record: its parcel's id, or its pickup's. */
export const stopKey = (stop: Pick<RunStop, 'parcelId' | 'pickupId'>) =>
  (stop.parcelId ?? stop.pickupId)!;

/** A stop as it is written: a parcel with its tracking number, or a pickup. */
export type NewStop =
  { kind: 'delivery'; id: string; trackingNumber: string } | { kind: 'pickup'; id: string };

const oid = (id: string) => new mongoose.Types.ObjectId(id);
const stopsOf = (stops: NewStop[]) =>
  stops.map((stop) =>
    stop.kind === 'pickup'
      ? { parcelId: oid(stop.id), kind: 'pickup' }
      : { parcelId: oid(stop.id), kind: 'delivery', trackingNumber: stop.trackingNumber },
  );

export async function getRun(id: string): Promise<SerializedRun | null> {
  return serializedById(id, (id) => Run.findById(id).lean<LeanRun>(), serialize);
}

/** One depot's runs of a day, oldest first. */
export async function listRuns(filter: { date: string; depotId: string }) {
  const runs = await Run.find({ date: filter.date, depotId: oid(filter.depotId) })
    .sort({ _id: 1 })
    .lean<LeanRun[]>();
  return runs.map(serialize);
}

/** A courier's open runs of a day, oldest first. */
export async function listCourierRuns(courierId: string, date: string) {
  const runs = await Run.find({ courierId: oid(courierId), date })
    .sort({ _id: 1 })
    .lean<LeanRun[]>();
  return runs.map(serialize);
}

/** The open runs the parcels (or pickups) are on, by parcel (or pickup). */
export async function openRunsOf(ids: string[]): Promise<Map<string, SerializedRun>> {
  const keys = ids.filter(isObjectId).map(oid);
  const runs = await Run.find({ open: true, 'stops.parcelId': { $in: keys } }).lean<LeanRun[]>();
  const byStop = new Map<string, SerializedRun>();
  for (const run of runs.map(serialize))
    for (const stop of run.stops) byStop.set(stopKey(stop), run);
  return byStop;
}

export async function insertRun(input: {
  date: string;
  depotId: string;
  courierId: string;
  stops: NewStop[];
}): Promise<SerializedRun> {
  const run = await Run.create({
    date: input.date,
    depotId: oid(input.depotId),
    courierId: oid(input.courierId),
    stops: stopsOf(input.stops),
  });
  return serialize(run.toObject() as LeanRun);
}

/** Takes parcels or pickups off every open run but `keep`: what moving them there starts with. */
export async function pullFromOtherRuns(ids: string[], keep: string | null) {
  await Run.updateMany(
    { open: true, ...(keep ? { _id: { $ne: oid(keep) } } : {}) },
    { $pull: { stops: { parcelId: { $in: ids.map(oid) } } } },
  );
}

/** A planned run's stops replaced (before and after); null when it is gone or no longer planned. */
export async function setRunStops(
  id: string,
  stops: NewStop[],
): Promise<{ before: SerializedRun; after: SerializedRun } | null> {
  if (!isObjectId(id)) return null;
  const before = await Run.findOneAndUpdate(
    { _id: id, status: 'planned' },
    { $set: { stops: stopsOf(stops) } },
    { returnDocument: 'before' },
  ).lean<LeanRun>();
  if (!before) return null;
  const after = await Run.findById(id).lean<LeanRun>();
  return after ? { before: serialize(before), after: serialize(after) } : null;
}

/** A planned run marked started now; null when it was not planned. */
export async function markRunStarted(id: string, at: Date): Promise<SerializedRun | null> {
  if (!isObjectId(id)) return null;
  const run = await Run.findOneAndUpdate(
    { _id: id, status: 'planned' },
    { $set: { status: 'started', startedAt: at } },
    { returnDocument: 'after' },
  ).lean<LeanRun>();
  return run ? serialize(run) : null;
}

/**
 * A started run's stop (a parcel's or a pickup's) done at `at`, once; the run completed with its
 * last stop. The run after, or null when it is on no started run or the stop was done already.
 */
export async function markStopDone(
  key: string,
  outcome: StopOutcome,
  at: Date,
): Promise<SerializedRun | null> {
  if (!isObjectId(key)) return null;
  const run = await Run.findOneAndUpdate(
    {
      status: 'started',
      stops: { $elemMatch: { parcelId: oid(key), outcome: { $exists: false } } },
    },
    { $set: { 'stops.$.outcome': outcome, 'stops.$.doneAt': at } },
    { returnDocument: 'after' },
  ).lean<LeanRun>();
  if (!run) return null;
  if (run.stops.every((stop) => stop.outcome)) {
    const done = await Run.findOneAndUpdate(
      { _id: run._id, status: 'started' },
      { $set: { status: 'completed', open: false, completedAt: at } },
      { returnDocument: 'after' },
    ).lean<LeanRun>();
    return serialize(done ?? run);
  }
  return serialize(run);
}

/** Each stop's expected arrival, by its record (one update per stop: a stop's outcome stays). */
export async function setStopEtas(id: string, etas: Map<string, Date>) {
  if (!isObjectId(id) || !etas.size) return;
  for (const [key, eta] of etas)
    await Run.updateOne(
      { _id: oid(id), 'stops.parcelId': oid(key) },
      { $set: { 'stops.$.eta': eta } },
    );
}
