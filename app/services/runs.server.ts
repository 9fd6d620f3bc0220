import { env, publicCompanyInfo } from '~/lib/env.server';
import { isDuplicateKey } from '~/lib/db.server';
import { ConflictError, NotFoundError, ValidationError } from '~/lib/errors.server';
import { listAccountNames } from '~/models/account.server';
import { getDepot } from '~/models/depot.server';
import { getParcelsByIds } from '~/models/parcel-reads.server';
import { listParcelsDueAt, setParcelsRun } from '~/models/parcel-runs.server';
import type { SerializedParcel } from '~/models/parcel.server';
import { getPickupsByIds, listPickups, type SerializedPickup } from '~/models/pickup.server';
import {
  getRun,
  insertRun,
  listCourierRuns,
  listRuns,
  markRunStarted,
  markStopDone,
  openRunsOf,
  pullFromOtherRuns,
  setRunStops,
  stopKey,
  type NewStop,
  type RunStop,
  type SerializedRun,
} from '~/models/run.server';
import { getUserById, listUsers } from '~/models/user.server';
import { FINAL_STATUSES, type ParcelStatus } from '~/schemas/constants';
import type { RunCreateInput, RunStopInput, RunUpdateInput } from '~/schemas/run';
import { hasRole } from '~/schemas/user';
import { dayIn } from '~/utils/delivery-headline';
import { auditRecord, type Actor } from './audit.server';
import { recomputeRunEta } from './run-progress.server';
import { renderRunSheetPdf } from './run-sheet-render.server';
import { recordScan } from './scans.server';

/**
 * Couriers' runs, planned at the depot and started by the courier. A stop delivers a parcel or
 * makes one of the day's pickups. A parcel or a pickup is a stop of one open run at a time (the
 * runs' unique index says so in the database): giving it to another planned run moves it there
 * in the same request. Starting a run records each parcel's Out for Delivery scan through
 * recordScan, as if the courier scanned them one by one (events, e-mails, webhooks, audit), then
 * its expected times (run-progress.server.ts); a pickup's stop is done by its own outcome
 * (pickups.server.ts).
 */

export class RunStartedError extends ConflictError {
  constructor(message = 'This run has started: its stops no longer change') {
    super(message, { code: 'run_started' });
  }
}

/** The company's day now: what "today" means for runs. */
export function companyToday(now = new Date()): string {
  return dayIn(now, env.COMPANY_TIMEZONE);
}

async function checkDepotAndCourier(depotId: string, courierId: string) {
  const [depot, courier] = await Promise.all([getDepot(depotId), getUserById(courierId)]);
  const details: Record<string, string[]> = {};
  if (!depot) details.depotId = ['Choose a depot from the list'];
  if (!courier || courier.disabled || !hasRole(courier, 'courier'))
    details.courierId = ['Choose a courier from the list'];
  if (Object.keys(details).length) throw new ValidationError(details);
}

/** A stop's record: its parcel's id or its pickup's. */
const refKey = (stop: RunStopInput) =>
  (stop.kind === 'pickup' ? stop.pickupId : stop.parcelId).toLowerCase();
const refOf = (stop: RunStop): RunStopInput =>
  stop.kind === 'pickup'
    ? { kind: 'pickup', pickupId: stop.pickupId! }
    : { kind: 'delivery', parcelId: stop.parcelId! };

/** The stops a request gives, in order: its `stops`, or its parcels then its pickups. */
function givenStops(input: RunUpdateInput): RunStopInput[] {
  return (
    input.stops ?? [
      ...(input.parcelIds ?? []).map((parcelId) => ({ kind: 'delivery' as const, parcelId })),
      ...(input.pickupIds ?? []).map((pickupId) => ({ kind: 'pickup' as const, pickupId })),
    ]
  );
}

/**
 * A run's stops after a change: every stop when `stops` or both lists are given; with one list
 * only, that kind's stops as given, in the places that kind held, and the other kind's kept.
 */
function changedStops(current: RunStop[], input: RunUpdateInput): RunStopInput[] {
  if (input.stops || (input.parcelIds && input.pickupIds)) return givenStops(input);
  const given = givenStops(input);
  const kind = input.parcelIds ? 'delivery' : 'pickup';
  const stops: RunStopInput[] = [];
  let next = 0;
  for (const stop of current)
    if (stop.kind !== kind) stops.push(refOf(stop));
    else if (next < given.length) stops.push(given[next++]!);
  return [...stops, ...given.slice(next)];
}

/**
 * The stops as given, each a parcel that exists and is still to deliver, or a scheduled pickup of
 * the run's day, and neither out on another courier's started run (a planned run's stop moves).
 */
async function stopsFor(refs: RunStopInput[], runId: string | null, date: string) {
  const parcelIds = refs.flatMap((s) => (s.kind === 'delivery' ? [s.parcelId] : []));
  const pickupIds = refs.flatMap((s) => (s.kind === 'pickup' ? [s.pickupId] : []));
  const [parcels, pickups] = await Promise.all([
    getParcelsByIds(parcelIds),
    getPickupsByIds(pickupIds),
  ]);
  const unknown = parcelIds.filter((id) => !parcels.some((p) => p.id === id.toLowerCase()));
  if (unknown.length)
    throw new ValidationError({ parcelIds: [`No parcel has the id ${unknown.join(', ')}`] });
  const noPickup = pickupIds.filter((id) => !pickups.some((p) => p.id === id.toLowerCase()));
  if (noPickup.length)
    throw new ValidationError({ pickupIds: [`No pickup has the id ${noPickup.join(', ')}`] });
  const otherDay = pickups.filter((p) => p.date !== date);
  if (otherDay.length)
    throw new ValidationError({
      pickupIds: [`The pickup ${otherDay[0]!.id} is on ${otherDay[0]!.date}, not ${date}`],
    });
  const closed = parcels.filter((p) => FINAL_STATUSES.includes(p.status as ParcelStatus));
  if (closed.length)
    throw new ConflictError(
      `${closed.map((p) => p.trackingNumber).join(', ')}: already ${closed[0]!.status.toLowerCase()}`,
      { code: 'parcel_closed' },
    );
  const done = pickups.filter((p) => p.status !== 'scheduled');
  if (done.length)
    throw new ConflictError(`The pickup ${done[0]!.id} is ${done[0]!.status} already`, {
      code: 'pickup_closed',
    });
  const runs = await openRunsOf(refs.map(refKey));
  const started = (id: string) => {
    const run = runs.get(id);
    return run && run.id !== runId && run.status !== 'planned' ? run : null;
  };
  for (const parcel of parcels) {
    const run = started(parcel.id);
    if (run)
      throw new ConflictError(`${parcel.trackingNumber} is out on a started run`, {
        code: 'parcel_on_started_run',
        extra: { runId: run.id },
      });
  }
  for (const pickup of pickups) {
    const run = started(pickup.id);
    if (run)
      throw new ConflictError(`The pickup ${pickup.id} is on a started run`, {
        code: 'pickup_on_started_run',
        extra: { runId: run.id },
      });
  }
  const parcelOf = new Map(parcels.map((p) => [p.id, p]));
  return refs.map((ref): NewStop => {
    const id = refKey(ref);
    return ref.kind === 'pickup'
      ? { kind: 'pickup', id }
      : { kind: 'delivery', id, trackingNumber: parcelOf.get(id)!.trackingNumber };
  });
}

function placing<T>(write: () => Promise<T>): Promise<T> {
  return write().catch((error: unknown) => {
    if (isDuplicateKey(error))
      throw new ConflictError('A parcel or pickup was put on another run meanwhile: try again', {
        code: 'conflict',
      });
    throw error;
  });
}

const parcelIdsOf = (stops: NewStop[]) =>
  stops.flatMap((stop) => (stop.kind === 'delivery' ? [stop.id] : []));

export async function createRun(input: RunCreateInput, actor?: Actor): Promise<SerializedRun> {
  await checkDepotAndCourier(input.depotId, input.courierId);
  const stops = await stopsFor(givenStops(input), null, input.date);
  await pullFromOtherRuns(
    stops.map((s) => s.id),
    null,
  );
  const run = await placing(() => insertRun({ ...input, stops }));
  await setParcelsRun(parcelIdsOf(stops), run);
  await auditRecord(actor, 'create', 'run', { label: runLabel(run), after: run });
  return run;
}

/** A planned run's stops set as they are to be, in order. */
async function setStops(run: SerializedRun, refs: RunStopInput[], actor?: Actor) {
  if (run.status !== 'planned') throw new RunStartedError();
  const stops = await stopsFor(refs, run.id, run.date);
  await pullFromOtherRuns(
    stops.map((s) => s.id),
    run.id,
  );
  const written = await placing(() => setRunStops(run.id, stops));
  if (!written) throw new RunStartedError();
  const kept = parcelIdsOf(stops);
  const removed = run.stops.flatMap((s) =>
    s.parcelId && !kept.includes(s.parcelId) ? [s.parcelId] : [],
  );
  await setParcelsRun(removed, null);
  await setParcelsRun(kept, written.after);
  await auditRecord(actor, 'update', 'run', { label: runLabel(written.after), ...written });
  return written.after;
}

/**
 * A planned run's stops changed (PUT /api/runs/:id): see changedStops for what one list alone
 * keeps. Null for an unknown run.
 */
export async function updateRunStops(
  id: string,
  change: RunUpdateInput,
  actor?: Actor,
): Promise<SerializedRun | null> {
  const run = await getRun(id);
  if (!run) return null;
  return setStops(run, changedStops(run.stops, change), actor);
}

/**
 * One stop (a parcel's or a pickup's, by its id) of a planned run one place up or down (the
 * buttons), or to a position (dragged).
 */
export async function moveStop(
  runId: string,
  key: string,
  to: 'up' | 'down' | number,
  actor?: Actor,
) {
  const run = await getRun(runId);
  if (!run) throw new NotFoundError('Run not found');
  const refs = run.stops.map(refOf);
  const at = run.stops.findIndex((stop) => stopKey(stop) === key.toLowerCase());
  const position = to === 'up' ? at - 1 : to === 'down' ? at + 1 : to;
  if (at < 0 || position === at || position < 0 || position >= refs.length) return run;
  refs.splice(position, 0, ...refs.splice(at, 1));
  return setStops(run, refs, actor);
}

/**
 * Starts a planned run: each parcel's stop goes Out for Delivery through the scan's own service
 * (a pickup's has nothing to send out), then the stops' windows. A courier starts only their
 * own run.
 */
export async function startRun(id: string, actor: Actor): Promise<SerializedRun | null> {
  const planned = await getRun(id);
  if (!planned) return null;
  if (!hasRole(actor.user, 'staff') && planned.courierId !== actor.user.id)
    throw new NotFoundError('Run not found');
  const run = await markRunStarted(id, new Date());
  if (!run) throw new RunStartedError('This run has already started');
  for (const stop of run.stops)
    if (stop.trackingNumber)
      await recordScan(
        {
          trackingNumber: stop.trackingNumber,
          status: 'Out for Delivery',
          depotId: run.depotId,
          override: true,
        },
        actor,
      );
  // A pickup closed since it was planned (collected by a scan, cancelled) is a stop done.
  for (const pickup of await getPickupsByIds(run.stops.flatMap((s) => s.pickupId ?? [])))
    if (pickup.status !== 'scheduled')
      await markStopDone(
        pickup.id,
        pickup.status === 'completed' ? 'collected' : 'not_collected',
        new Date(),
      );
  await recomputeRunEta(run.id);
  const started = (await getRun(id))!;
  await auditRecord(actor, 'update', 'run', {
    label: runLabel(started),
    before: planned,
    after: started,
  });
  return started;
}

function runLabel(run: SerializedRun) {
  return `${run.date} · ${run.stops.length} stops`;
}

export { getRun, listRuns };

/** Where a parcel's or a pickup's stop is: what the suggested order reads. */
export type StopPlace = { postalCode: string; address: string };
const parcelPlace = (parcel: Pick<SerializedParcel, 'recipient'>): StopPlace => parcel.recipient;
const pickupPlace = (pickup: Pick<SerializedPickup, 'address'>): StopPlace => pickup.address;

/** The order the Dispatch page suggests: by postcode, then street, parcels and pickups alike. */
export function suggestedOrder<T>(items: T[], placeOf: (item: T) => StopPlace): T[] {
  const key = (item: T) => {
    const place = placeOf(item);
    return [place.postalCode.trim().toUpperCase(), place.address.trim()];
  };
  return [...items].sort((a, b) => {
    const [pa, sa] = key(a);
    const [pb, sb] = key(b);
    return pa!.localeCompare(pb!) || sa!.localeCompare(sb!, 'en', { numeric: true });
  });
}

/** The parcels due at the depot on the day that are on no open run, in the suggested order. */
export async function parcelsToDispatch(date: string, depotId: string) {
  const due = await listParcelsDueAt(date, depotId);
  const onRuns = await openRunsOf(due.map((p) => p.id));
  return suggestedOrder(
    due.filter((p) => !onRuns.has(p.id)),
    parcelPlace,
  );
}

/** A pickup with its account's name, as a stop shows it. */
export type PickupWithAccount = SerializedPickup & { accountName: string };

async function withAccountNames(pickups: SerializedPickup[]): Promise<PickupWithAccount[]> {
  if (!pickups.length) return [];
  const names = new Map((await listAccountNames()).map((a) => [a.id, a.name]));
  return pickups.map((pickup) => ({
    ...pickup,
    accountName: (pickup.accountId && names.get(pickup.accountId)) || publicCompanyInfo().name,
  }));
}

/** The depot's scheduled pickups of the day that are on no open run, in the suggested order. */
export async function pickupsToDispatch(date: string, depotId: string) {
  const due = await listPickups(null, { date, depotId, status: 'scheduled' });
  const onRuns = await openRunsOf(due.map((p) => p.id));
  return suggestedOrder(await withAccountNames(due.filter((p) => !onRuns.has(p.id))), pickupPlace);
}

/** A run's stop with its record: the parcel to deliver or the pickup to make. */
export type StopWithRecord =
  | { stop: RunStop; kind: 'delivery'; parcel: SerializedParcel }
  | { stop: RunStop; kind: 'pickup'; pickup: PickupWithAccount };

/** A run's stops in order, each with its parcel or pickup (one gone since is left out). */
export async function stopsWithRecords(run: SerializedRun): Promise<StopWithRecord[]> {
  const [parcels, pickups] = await Promise.all([
    getParcelsByIds(run.stops.flatMap((s) => (s.parcelId ? [s.parcelId] : []))),
    getPickupsByIds(run.stops.flatMap((s) => (s.pickupId ? [s.pickupId] : []))).then(
      withAccountNames,
    ),
  ]);
  const parcelOf = new Map(parcels.map((p) => [p.id, p]));
  const pickupOf = new Map(pickups.map((p) => [p.id, p]));
  return run.stops.flatMap((stop): StopWithRecord[] => {
    const parcel = stop.parcelId ? parcelOf.get(stop.parcelId) : undefined;
    if (parcel) return [{ stop, kind: 'delivery', parcel }];
    const pickup = stop.pickupId ? pickupOf.get(stop.pickupId) : undefined;
    return pickup ? [{ stop, kind: 'pickup', pickup }] : [];
  });
}

/** A courier's runs today (their open ones first), each stop with its parcel or pickup. */
export async function courierDay(courierId: string, date = companyToday()) {
  const runs = await listCourierRuns(courierId, date);
  return Promise.all(runs.map(async (run) => ({ run, stops: await stopsWithRecords(run) })));
}

/**
 * The Dispatch page's assignment: the ticked parcels and pickups join the end of the courier's
 * planned run of the depot's day, in the suggested order, or start one.
 */
export async function assignToCourierRun(input: Omit<RunCreateInput, 'stops'>, actor?: Actor) {
  const [parcels, pickups] = await Promise.all([
    getParcelsByIds(input.parcelIds ?? []),
    getPickupsByIds(input.pickupIds ?? []),
  ]);
  const ticked: RunStopInput[] = [
    ...(input.parcelIds ?? []).map((parcelId) => ({ kind: 'delivery' as const, parcelId })),
    ...(input.pickupIds ?? []).map((pickupId) => ({ kind: 'pickup' as const, pickupId })),
  ];
  const places = new Map<string, StopPlace>([
    ...parcels.map((p) => [p.id, parcelPlace(p)] as const),
    ...pickups.map((p) => [p.id, pickupPlace(p)] as const),
  ]);
  const added = suggestedOrder(
    ticked,
    (ref) => places.get(refKey(ref)) ?? { postalCode: '', address: '' },
  );
  const planned = (await listRuns(input)).find(
    (run) => run.courierId === input.courierId && run.status === 'planned',
  );
  const { parcelIds: _p, pickupIds: _k, ...run } = input;
  if (!planned) return createRun({ ...run, stops: added }, actor);
  const keys = planned.stops.map(stopKey);
  return setStops(
    planned,
    [...planned.stops.map(refOf), ...added.filter((ref) => !keys.includes(refKey(ref)))],
    actor,
  );
}

/** The couriers a run may be given to: active users who may scan. */
export async function courierChoices() {
  return (await listUsers())
    .filter((user) => !user.disabled && hasRole(user, 'courier'))
    .map((user) => ({ id: user.id, name: user.name || user.username }));
}

/**
 * A depot's day at the Dispatch page: the parcels and pickups to dispatch and the runs with
 * their stops.
 */
export async function dispatchDay(date: string, depotId: string) {
  const [parcels, pickups, runs, couriers] = await Promise.all([
    parcelsToDispatch(date, depotId),
    pickupsToDispatch(date, depotId),
    listRuns({ date, depotId }),
    listUsers(),
  ]);
  const nameOf = new Map(couriers.map((u) => [u.id, u.name || u.username]));
  return {
    parcels,
    pickups,
    runs: await Promise.all(
      runs.map(async (run) => ({
        run,
        courier: nameOf.get(run.courierId) ?? 'Unknown courier',
        stops: await stopsWithRecords(run),
      })),
    ),
  };
}

/** A run's sheet as a PDF; null for an unknown run. */
export async function runSheetPdf(runId: string) {
  const run = await getRun(runId);
  if (!run) return null;
  const [stops, depot, courier] = await Promise.all([
    stopsWithRecords(run),
    getDepot(run.depotId),
    getUserById(run.courierId),
  ]);
  const pdf = await renderRunSheetPdf(run, stops, {
    depot: depot?.name ?? 'Depot',
    courier: courier ? courier.name || courier.username : 'Courier',
  });
  return { run, pdf };
}
