import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { addressTimeZone, stopTimeZone } from '~/lib/address-time-zone.server';
import { env } from '~/lib/env.server';
import { intentAction, intentForm, withRole } from './intent-action.server';
import { redirectWithToast } from '~/lib/flash.server';
import { RunStartSchema } from '~/schemas/run';
import { ScanSchema } from '~/schemas/scan';
import { describeDeliveryPreferences } from '~/utils/delivery-preferences-text';
import { formatDateTime } from '~/utils/format';
import type { RunStop } from '~/models/run.server';
import { MAX_PICKUP_PARCELS, PickupStopOutcomeSchema } from '~/schemas/pickup';
import { pickupSummary } from '~/utils/pickup-summary';
import { addressLines, stopAddress } from '~/services/address-format.server';
import { recordPickupStop } from '~/services/pickups.server';
import { courierDay, startRun, type PickupWithAccount } from '~/services/runs.server';
import { recordScan, stopsToDeliver } from '~/services/scans.server';
import { asApiError } from './api.server';
import { requireUserWithRole } from './auth.server';
import { stationProofHref } from './scan-station.server';

/**
 * The courier's run page (routes/dashboard.my-run.tsx): today's stops in order, the next one
 * first, each with what the door needs; Start run, a failed attempt's reason and a pickup's
 * outcome (Collected with the count chosen, or Not collected with its reason), as plain form
 * posts. Kept here so the page's scripts carry no schema.
 */
export const MY_RUN = '/dashboard/my-run';

const mapsHref = (address: string) =>
  `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;

/** A pickup stop as the courier reads it: whose, where, when, how many, and the notes. */
function pickupStop(stop: RunStop, pickup: PickupWithAccount) {
  const address = addressLines(pickup.address).join(', ');
  return {
    kind: 'pickup' as const,
    key: pickup.id,
    sequence: stop.sequence,
    pickupId: pickup.id,
    accountName: pickup.accountName,
    address,
    mapsHref: mapsHref(address),
    summary: pickupSummary(pickup),
    parcelCount: pickup.parcelCount,
    // Collected is chosen from a list, never typed: up to this many.
    mostCollected: Math.min(MAX_PICKUP_PARCELS, pickup.parcelCount + 10),
    notes: pickup.notes,
    eta: stop.eta,
    expected: expectedAt(stop.eta, addressTimeZone(pickup.address) ?? env.COMPANY_TIMEZONE),
    outcome: stop.outcome,
  };
}

/** A stop's expected time in words, in the stop's own zone (the phone loads no time zone code). */
function expectedAt(eta: Date | string | null | undefined, zone: string): string | null {
  return eta ? formatDateTime(eta, zone) : null;
}

export async function myRunLoader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, 'courier');
  const day = await courierDay(user.id);
  const runs = await Promise.all(
    day.map(async ({ run, stops }) => ({
      id: run.id,
      status: run.status,
      stops: await Promise.all(
        stops.map(async (found) => {
          const { stop } = found;
          if (found.kind === 'pickup') return pickupStop(stop, found.pickup);
          const { parcel } = found;
          const next = (await stopsToDeliver(parcel))[0] ?? 0;
          const address = stopAddress(parcel, next);
          return {
            kind: 'delivery' as const,
            key: parcel.id,
            sequence: stop.sequence,
            parcelId: parcel.id,
            trackingNumber: parcel.trackingNumber,
            recipientName: parcel.recipient.name,
            address,
            phone: parcel.recipient.phone,
            preferences: describeDeliveryPreferences(parcel.deliveryPreferences),
            mapsHref: mapsHref(address),
            destination: next,
            proofHref: stationProofHref(parcel.id, next, '?from=my-run'),
            // Where a failed attempt is recorded: the stop's town.
            location:
              parcel.recipient.city || parcel.destinations[next]?.city || 'Delivery address',
            eta: stop.eta,
            expected: expectedAt(stop.eta, stopTimeZone(parcel, next)),
            outcome: stop.outcome,
          };
        }),
      ),
    })),
  );
  return json({ runs });
}

const refused =
  (error: string, status = 400) =>
  () =>
    json({ error }, { status });

/** Start run, a pickup's outcome, or a stop's failed attempt with its reason. */
export const myRunAction = intentAction(withRole('courier'), ({ request, actor }) => ({
  start: intentForm(
    RunStartSchema,
    async ({ runId }) => {
      try {
        const run = await startRun(runId, actor);
        if (!run) return json({ error: 'Unknown run' }, { status: 404 });
        return redirectWithToast(request, MY_RUN, {
          title: 'Run started',
          description: `${run.stops.length} parcels are out for delivery.`,
        });
      } catch (caught) {
        const error = asApiError(caught);
        if (!error) throw caught;
        return json({ error: error.message }, { status: error.status });
      }
    },
    refused('Unknown run'),
  ),
  pickup: intentForm(
    PickupStopOutcomeSchema,
    async (value) => {
      try {
        const pickup = await recordPickupStop(value.pickupId, value, actor);
        return redirectWithToast(request, MY_RUN, {
          title: pickup.status === 'completed' ? 'Pickup collected' : 'Pickup not collected',
          description: pickup.status === 'completed' ? `${pickup.collectedCount} parcels` : '',
        });
      } catch (caught) {
        const error = asApiError(caught);
        if (!error) throw caught;
        return json({ error: error.message }, { status: error.status });
      }
    },
    refused('Choose what was collected, or why nothing was'),
  ),
  '': intentForm(
    ScanSchema,
    async (value) => {
      const outcome = await recordScan(value, actor);
      if (outcome.kind !== 'recorded' && outcome.kind !== 'repeated')
        return json(
          { error: 'message' in outcome ? outcome.message : 'Not recorded' },
          { status: 409 },
        );
      return redirectWithToast(request, MY_RUN, {
        title: 'Failed attempt recorded',
        description: outcome.parcel.trackingNumber,
      });
    },
    refused('Choose why the delivery failed'),
  ),
}));
