import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { env } from '~/lib/env.server';
import { readFormData } from '~/lib/form.server';
import { redirectWithToast } from '~/lib/flash.server';
import { RunStartSchema } from '~/schemas/run';
import { ScanSchema } from '~/schemas/scan';
import { describeDeliveryPreferences } from '~/utils/delivery-preferences-text';
import { formatDateTime } from '~/utils/format';
import { stopAddress } from '~/services/address-format.server';
import { courierDay, startRun } from '~/services/runs.server';
import { recordScan, stopsToDeliver } from '~/services/scans.server';
import { asApiError } from './api.server';
import { requireUserWithRole } from './auth.server';
import { stationProofHref } from './scan-station.server';

/**
 * The courier's run page (routes/dashboard.my-run.tsx): today's stops in order, the next one
 * first, each with what the door needs; Start run, and a failed attempt's reason, as plain form
 * posts. Kept here so the page's scripts carry no schema.
 */
export const MY_RUN = '/dashboard/my-run';

export async function myRunLoader({ request }: LoaderFunctionArgs) {
  const user = await requireUserWithRole(request, 'courier');
  const day = await courierDay(user.id);
  const runs = await Promise.all(
    day.map(async ({ run, stops }) => ({
      id: run.id,
      status: run.status,
      stops: await Promise.all(
        stops.map(async ({ stop, parcel }) => {
          const next = (await stopsToDeliver(parcel))[0] ?? 0;
          const address = stopAddress(parcel, next);
          return {
            sequence: stop.sequence,
            parcelId: parcel.id,
            trackingNumber: parcel.trackingNumber,
            recipientName: parcel.recipient.name,
            address,
            phone: parcel.recipient.phone,
            preferences: describeDeliveryPreferences(parcel.deliveryPreferences),
            mapsHref: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`,
            destination: next,
            proofHref: stationProofHref(parcel.id, next, '?from=my-run'),
            // Where a failed attempt is recorded: the stop's town.
            location:
              parcel.recipient.city || parcel.destinations[next]?.city || 'Delivery address',
            eta: stop.eta,
            // The page's words for it, in the company's zone (the phone loads no time zone code).
            expected: stop.eta ? formatDateTime(stop.eta, env.COMPANY_TIMEZONE) : null,
            outcome: stop.outcome,
          };
        }),
      ),
    })),
  );
  return json({ runs });
}

/** Start run, or a stop's failed attempt with its reason. */
export async function myRunAction({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'courier');
  const actor = { user, context };
  const formData = await readFormData(request);
  if (formData.get('intent') === 'start') {
    const submission = parseWithZod(formData, { schema: RunStartSchema });
    if (submission.status !== 'success') return json({ error: 'Unknown run' }, { status: 400 });
    try {
      const run = await startRun(submission.value.runId, actor);
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
  }
  const submission = parseWithZod(formData, { schema: ScanSchema });
  if (submission.status !== 'success')
    return json({ error: 'Choose why the delivery failed' }, { status: 400 });
  const outcome = await recordScan(submission.value, actor);
  if (outcome.kind !== 'recorded' && outcome.kind !== 'repeated')
    return json(
      { error: 'message' in outcome ? outcome.message : 'Not recorded' },
      { status: 409 },
    );
  return redirectWithToast(request, MY_RUN, {
    title: 'Failed attempt recorded',
    description: outcome.parcel.trackingNumber,
  });
}
