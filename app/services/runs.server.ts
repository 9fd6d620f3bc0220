import { env } from '~/lib/env.server';
import { isDuplicateKey } from '~/lib/db.server';
import { ConflictError, NotFoundError, ValidationError } from '~/lib/errors.server';
import { getDepot } from '~/models/depot.server';
import { getParcelsByIds } from '~/models/parcel-reads.server';
import { listParcelsDueAt, setParcelsRun } from '~/models/parcel-runs.server';
import type { SerializedParcel } from '~/models/parcel.server';
import {
  getRun,
  insertRun,
  listCourierRuns,
  listRuns,
  markRunStarted,
  openRunsOf,
  pullFromOtherRuns,
  setRunStops,
  type SerializedRun,
} from '~/models/run.server';
import { getUserById, listUsers } from '~/models/user.server';
import { FINAL_STATUSES, type ParcelStatus } from '~/schemas/constants';
import type { RunCreateInput } from '~/schemas/run';
import { hasRole } from '~/schemas/user';
import { dayIn } from '~/utils/delivery-headline';
import { auditRecord, type Actor } from './audit.server';
import { recomputeRunEta } from './run-progress.server';
import { renderRunSheetPdf } from './run-sheet-render.server';
import { recordScan } from './scans.server';

/**
 * Couriers' runs, planned at the depot and started by the courier. A parcel is a stop of one
 * open run at a time (the runs' unique index says so in the database): giving it to another
 * planned run moves it there in the same request. Starting a run records each stop's Out for
 * Delivery scan through recordScan, as if the courier scanned them one by one (events, e-mails,
 * webhooks, audit), then its expected times (run-progress.server.ts).
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

/**
 * The stops as given, each a parcel that exists and is still to deliver, and not out on another
 * courier's started run (a planned run's parcel moves).
 */
async function stopsFor(parcelIds: string[], runId: string | null) {
  const parcels = await getParcelsByIds(parcelIds);
  const unknown = parcelIds.filter((id) => !parcels.some((p) => p.id === id.toLowerCase()));
  if (unknown.length)
    throw new ValidationError({ parcelIds: [`No parcel has the id ${unknown.join(', ')}`] });
  const closed = parcels.filter((p) => FINAL_STATUSES.includes(p.status as ParcelStatus));
  if (closed.length)
    throw new ConflictError(
      `${closed.map((p) => p.trackingNumber).join(', ')}: already ${closed[0]!.status.toLowerCase()}`,
      { code: 'parcel_closed' },
    );
  const runs = await openRunsOf(parcelIds);
  for (const parcel of parcels) {
    const run = runs.get(parcel.id);
    if (run && run.id !== runId && run.status !== 'planned')
      throw new ConflictError(`${parcel.trackingNumber} is out on a started run`, {
        code: 'parcel_on_started_run',
        extra: { runId: run.id },
      });
  }
  return parcels.map((p) => ({ parcelId: p.id, trackingNumber: p.trackingNumber }));
}

function placing<T>(write: () => Promise<T>): Promise<T> {
  return write().catch((error: unknown) => {
    if (isDuplicateKey(error))
      throw new ConflictError('A parcel was put on another run meanwhile: try again', {
        code: 'conflict',
      });
    throw error;
  });
}

export async function createRun(input: RunCreateInput, actor?: Actor): Promise<SerializedRun> {
  await checkDepotAndCourier(input.depotId, input.courierId);
  const stops = await stopsFor(input.parcelIds, null);
  await pullFromOtherRuns(input.parcelIds, null);
  const run = await placing(() => insertRun({ ...input, stops }));
  await setParcelsRun(input.parcelIds, run);
  await auditRecord(actor, 'create', 'run', { label: runLabel(run), after: run });
  return run;
}

/** A planned run's stops as they are to be, in order; null for an unknown run. */
export async function updateRunStops(
  id: string,
  parcelIds: string[],
  actor?: Actor,
): Promise<SerializedRun | null> {
  const run = await getRun(id);
  if (!run) return null;
  if (run.status !== 'planned') throw new RunStartedError();
  const stops = await stopsFor(parcelIds, id);
  await pullFromOtherRuns(parcelIds, id);
  const written = await placing(() => setRunStops(id, stops));
  if (!written) throw new RunStartedError();
  const removed = run.stops.map((s) => s.parcelId).filter((p) => !parcelIds.includes(p));
  await setParcelsRun(removed, null);
  await setParcelsRun(parcelIds, written.after);
  await auditRecord(actor, 'update', 'run', { label: runLabel(written.after), ...written });
  return written.after;
}

/** One stop of a planned run one place up or down (the buttons), or to a position (dragged). */
export async function moveStop(
  runId: string,
  parcelId: string,
  to: 'up' | 'down' | number,
  actor?: Actor,
) {
  const run = await getRun(runId);
  if (!run) throw new NotFoundError('Run not found');
  const ids = run.stops.map((s) => s.parcelId);
  const at = ids.indexOf(parcelId);
  const position = to === 'up' ? at - 1 : to === 'down' ? at + 1 : to;
  if (at < 0 || position === at || position < 0 || position >= ids.length) return run;
  ids.splice(position, 0, ...ids.splice(at, 1));
  return updateRunStops(runId, ids, actor);
}

/**
 * Starts a planned run: each stop goes Out for Delivery through the scan's own service, then the
 * stops' windows. A courier starts only their own run.
 */
export async function startRun(id: string, actor: Actor): Promise<SerializedRun | null> {
  const planned = await getRun(id);
  if (!planned) return null;
  if (!hasRole(actor.user, 'staff') && planned.courierId !== actor.user.id)
    throw new NotFoundError('Run not found');
  const run = await markRunStarted(id, new Date());
  if (!run) throw new RunStartedError('This run has already started');
  for (const stop of run.stops)
    await recordScan(
      {
        trackingNumber: stop.trackingNumber,
        status: 'Out for Delivery',
        depotId: run.depotId,
        override: true,
      },
      actor,
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

/** The order the Dispatch page suggests: by postcode, then street. */
export function suggestedOrder<T extends Pick<SerializedParcel, 'recipient'>>(parcels: T[]): T[] {
  const key = (p: T) => [p.recipient.postalCode.trim().toUpperCase(), p.recipient.address.trim()];
  return [...parcels].sort((a, b) => {
    const [pa, sa] = key(a);
    const [pb, sb] = key(b);
    return pa!.localeCompare(pb!) || sa!.localeCompare(sb!, 'en', { numeric: true });
  });
}

/** The parcels due at the depot on the day that are on no open run, in the suggested order. */
export async function parcelsToDispatch(date: string, depotId: string) {
  const due = await listParcelsDueAt(date, depotId);
  const onRuns = await openRunsOf(due.map((p) => p.id));
  return suggestedOrder(due.filter((p) => !onRuns.has(p.id)));
}

/** A courier's runs today (their open ones first), each stop with its parcel. */
export async function courierDay(courierId: string, date = companyToday()) {
  const runs = await listCourierRuns(courierId, date);
  return Promise.all(
    runs.map(async (run) => {
      const parcels = await getParcelsByIds(run.stops.map((s) => s.parcelId));
      const byId = new Map(parcels.map((p) => [p.id, p]));
      return {
        run,
        stops: run.stops.flatMap((stop) => {
          const parcel = byId.get(stop.parcelId);
          return parcel ? [{ stop, parcel }] : [];
        }),
      };
    }),
  );
}

/**
 * The Dispatch page's assignment: the ticked parcels join the end of the courier's planned run
 * of the depot's day, or start one.
 */
export async function assignToCourierRun(input: RunCreateInput, actor?: Actor) {
  const planned = (await listRuns(input)).find(
    (run) => run.courierId === input.courierId && run.status === 'planned',
  );
  if (!planned) return createRun(input, actor);
  const ids = planned.stops.map((s) => s.parcelId);
  return updateRunStops(
    planned.id,
    [...ids, ...input.parcelIds.filter((id) => !ids.includes(id))],
    actor,
  );
}

/** The couriers a run may be given to: active users who may scan. */
export async function courierChoices() {
  return (await listUsers())
    .filter((user) => !user.disabled && hasRole(user, 'courier'))
    .map((user) => ({ id: user.id, name: user.name || user.username }));
}

/** A depot's day at the Dispatch page: the parcels to dispatch and the runs with their parcels. */
export async function dispatchDay(date: string, depotId: string) {
  const [parcels, runs, couriers] = await Promise.all([
    parcelsToDispatch(date, depotId),
    listRuns({ date, depotId }),
    listUsers(),
  ]);
  const nameOf = new Map(couriers.map((u) => [u.id, u.name || u.username]));
  return {
    parcels,
    runs: await Promise.all(
      runs.map(async (run) => ({
        run,
        courier: nameOf.get(run.courierId) ?? 'Unknown courier',
        parcels: await getParcelsByIds(run.stops.map((s) => s.parcelId)),
      })),
    ),
  };
}

/** A run's sheet as a PDF; null for an unknown run. */
export async function runSheetPdf(runId: string) {
  const run = await getRun(runId);
  if (!run) return null;
  const [parcels, depot, courier] = await Promise.all([
    getParcelsByIds(run.stops.map((s) => s.parcelId)),
    getDepot(run.depotId),
    getUserById(run.courierId),
  ]);
  const pdf = await renderRunSheetPdf(run, parcels, {
    depot: depot?.name ?? 'Depot',
    courier: courier ? courier.name || courier.username : 'Courier',
  });
  return { run, pdf };
}
