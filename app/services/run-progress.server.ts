import { getDepot } from '~/models/depot.server';
import { getParcelEtas, setParcelEtas } from '~/models/parcel-runs.server';
import {
  getRun,
  markStopDone,
  setStopEtas,
  stopKey,
  type SerializedRun,
} from '~/models/run.server';
import {
  DEFAULT_STOP_MINUTES,
  DEFAULT_TRAVEL_MINUTES,
  ETA_NOTICE_MINUTES,
  ETA_WINDOW_MINUTES,
} from '~/schemas/run';
import { FAILED_DELIVERY } from '~/schemas/constants';
import { recipientTimeZone } from '~/lib/address-time-zone.server';
import { shortTime, zonedTime } from '~/utils/delivery-headline';
import { createNotification } from './notifications.server';
import { emitWebhookEvent } from './webhooks.server';

/**
 * A started run's expected times. From the start, each stop is expected after the depot's travel
 * time between stops and its time at each stop; once the courier has completed two stops, after
 * their own pace today (the mean time between completed stops). A pickup is a stop like any
 * other: it takes the courier's time, and its own expected arrival. Recomputed after every stop
 * done (delivered, failed, collected or not): each parcel still to come gets its stop's
 * one-hour window, and "stop N of M" counts every stop still to make, pickups included (each
 * one the courier makes before theirs delays them as much as a delivery), which the
 * recipient's tracking page and the API read, `parcel.eta_updated` when it changes, and one
 * e-mail when it has moved more than ETA_NOTICE_MINUTES from the window they were last told of.
 */

const MINUTE = 60_000;
/** Windows open on a ten-minute mark: "between 2:10 pm and 3:10 pm". */
const ROUNDING = 10 * MINUTE;

/** The minutes from one stop to the next: the courier's pace today once known, else the depot's. */
export function paceOf(
  run: Pick<SerializedRun, 'startedAt' | 'stops'>,
  depot: { stopMinutes: number; travelMinutes: number },
): { first: number; next: number } {
  const done = run.stops
    .filter((stop) => stop.doneAt)
    .map((stop) => Date.parse(stop.doneAt!))
    .sort((a, b) => a - b);
  if (done.length >= 2) {
    const mean = (done.at(-1)! - done[0]!) / (done.length - 1);
    return { first: mean, next: mean };
  }
  return {
    first: depot.travelMinutes * MINUTE,
    next: (depot.travelMinutes + depot.stopMinutes) * MINUTE,
  };
}

/** Each stop still to come, in order, with its expected arrival. */
export function expectedArrivals(
  run: Pick<SerializedRun, 'startedAt' | 'stops'>,
  depot: { stopMinutes: number; travelMinutes: number },
) {
  const pace = paceOf(run, depot);
  const doneAts = run.stops.filter((stop) => stop.doneAt).map((stop) => Date.parse(stop.doneAt!));
  const base = Math.max(Date.parse(run.startedAt ?? new Date().toISOString()), ...doneAts);
  const left = run.stops.filter((stop) => !stop.outcome);
  return left.map((stop, i) => ({
    key: stopKey(stop),
    kind: stop.kind,
    at: new Date(base + pace.first + i * pace.next),
    stopsBefore: i,
    stops: left.length,
  }));
}

/** The one-hour window around an arrival, opening on a ten-minute mark. */
export function windowAround(at: Date): { from: Date; until: Date } {
  const from = Math.round((at.getTime() - (ETA_WINDOW_MINUTES / 2) * MINUTE) / ROUNDING) * ROUNDING;
  return { from: new Date(from), until: new Date(from + ETA_WINDOW_MINUTES * MINUTE) };
}

/** Recomputes a started run's windows and tells whoever must hear of a change. */
export async function recomputeRunEta(runId: string): Promise<void> {
  const run = await getRun(runId);
  if (!run || run.status !== 'started') return;
  const depot = await getDepot(run.depotId);
  const arrivals = expectedArrivals(run, {
    stopMinutes: depot?.stopMinutes ?? DEFAULT_STOP_MINUTES,
    travelMinutes: depot?.travelMinutes ?? DEFAULT_TRAVEL_MINUTES,
  });
  const deliveries = arrivals.filter((a) => a.kind === 'delivery');
  const stored = await getParcelEtas(deliveries.map((a) => a.key));
  const etas = deliveries.map(({ key: parcelId, at, stopsBefore, stops }) => {
    const window = windowAround(at);
    const before = stored.get(parcelId)?.eta;
    const toldFrom = before?.toldFrom ?? window.from;
    const moved =
      Math.abs(window.from.getTime() - toldFrom.getTime()) > ETA_NOTICE_MINUTES * MINUTE;
    return {
      parcelId,
      ...window,
      stopsBefore,
      stops,
      toldFrom: moved ? window.from : toldFrom,
      changed:
        before?.from?.getTime() !== window.from.getTime() || before?.stopsBefore !== stopsBefore,
      moved,
    };
  });
  await setParcelEtas(etas.map(({ changed: _c, moved: _m, ...eta }) => eta));
  await setStopEtas(runId, new Map(arrivals.map((a) => [a.key, a.at])));
  for (const eta of etas) {
    const parcel = stored.get(eta.parcelId);
    if (!parcel) continue;
    const shown = {
      from: eta.from.toISOString(),
      until: eta.until.toISOString(),
      stopsBefore: eta.stopsBefore,
      stops: eta.stops,
    };
    if (eta.changed)
      await emitWebhookEvent('parcel.eta_updated', {
        parcel: { id: eta.parcelId, trackingNumber: parcel.trackingNumber, status: parcel.status },
        eta: shown,
      });
    if (eta.moved && parcel.recipient?.email)
      await tellRecipient(eta.parcelId, parcel.trackingNumber, parcel.recipient.email, {
        ...eta,
        zone: recipientTimeZone(parcel),
      });
  }
}

/** The e-mail of a window that moved, in the recipient's zone, through the e-mail queue. */
async function tellRecipient(
  parcelId: string,
  trackingNumber: string,
  email: string,
  window: { from: Date; until: Date; zone: string },
) {
  const zone = window.zone;
  const between = `between ${shortTime(window.from, zone)} and ${zonedTime(window.until, zone)}`;
  try {
    await createNotification({
      type: 'Status Update',
      recipient: email,
      title: `Your parcel ${trackingNumber} is now expected ${between}`,
      message: `Your parcel ${trackingNumber} is on its way. The courier's round has changed: it is now expected ${between}.`,
      trackingNumber,
      parcelId,
    });
  } catch (error) {
    console.error('Could not queue the e-mail of a new delivery window', error);
  }
}

/**
 * After an event: a parcel delivered, or a failed attempt, completes its stop on the started
 * run it is on (once), and the run's windows are recomputed.
 */
export async function noteStopOutcome(
  event: {
    parcelId: string;
    status: string;
    timestamp: string | null;
  },
  parcelStatus: string | null | undefined,
) {
  const outcome =
    parcelStatus === 'Delivered' ? 'delivered' : event.status === FAILED_DELIVERY ? 'failed' : null;
  if (!outcome) return;
  const run = await markStopDone(
    event.parcelId,
    outcome,
    event.timestamp ? new Date(event.timestamp) : new Date(),
  );
  if (run?.status === 'started') await recomputeRunEta(run.id);
}

/** A pickup stop collected or not: done on the started run it is on (once), windows recomputed. */
export async function notePickupStopDone(
  pickupId: string,
  outcome: 'collected' | 'not_collected',
  at: Date,
) {
  const run = await markStopDone(pickupId, outcome, at);
  if (run?.status === 'started') await recomputeRunEta(run.id);
}
