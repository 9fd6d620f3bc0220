import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { redirectWithToast } from '~/lib/flash.server';
import { listDepots } from '~/models/depot.server';
import { DispatchAssignSchema, DispatchMoveSchema, RunListQuerySchema } from '~/schemas/run';
import { describeDeliveryPreferences } from '~/utils/delivery-preferences-text';
import { addressLines } from '~/services/address-format.server';
import {
  assignToCourierRun,
  companyToday,
  courierChoices,
  dispatchDay,
  moveStop,
  suggestedOrder,
  type PickupWithAccount,
  type StopWithRecord,
} from '~/services/runs.server';
import { pickupSummary } from '~/utils/pickup-summary';
import type { SerializedParcel } from '~/models/parcel.server';
import { asApiError } from './api.server';
import { requireUserWithRole } from './auth.server';

/**
 * The Dispatch page (routes/dashboard.dispatch.tsx): one depot's day, its parcels and pickups
 * still to give to a courier in the suggested order, and its runs with their stops. Tick and choose, move a
 * stop up or down: plain form posts, each back to the same day.
 */
function dayOf(request: Request) {
  const params = new URL(request.url).searchParams;
  const date = params.get('date') || companyToday();
  const parsed = RunListQuerySchema.safeParse({ date, depotId: params.get('depot') ?? '' });
  return { date, depotId: parsed.success ? parsed.data.depotId : null, valid: parsed.success };
}

const line = (parcel: SerializedParcel) => ({
  kind: 'delivery' as 'delivery' | 'pickup',
  id: parcel.id,
  trackingNumber: parcel.trackingNumber,
  recipientName: parcel.recipient.name,
  address: addressLines(parcel.recipient).join(', '),
  preferences: describeDeliveryPreferences(parcel.deliveryPreferences).join(' · '),
  status: parcel.status,
});

/** A pickup as a line of the page: its account, address, window, count and notes. */
const pickupLine = (pickup: PickupWithAccount): ReturnType<typeof line> => ({
  kind: 'pickup',
  id: pickup.id,
  trackingNumber: '',
  recipientName: pickup.accountName,
  address: addressLines(pickup.address).join(', '),
  preferences: [pickupSummary(pickup), pickup.notes].filter(Boolean).join(' · '),
  status: pickup.status,
});

const stopLine = (stop: StopWithRecord) =>
  stop.kind === 'pickup' ? pickupLine(stop.pickup) : line(stop.parcel);

export async function dispatchLoader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'staff');
  const { date, depotId, valid } = dayOf(request);
  const [depots, couriers] = await Promise.all([listDepots(), courierChoices()]);
  const day = valid && depotId ? await dispatchDay(date, depotId) : null;
  return json({
    date,
    depotId,
    depots: depots.map(({ id, name }) => ({ id, name })),
    couriers,
    // The parcels and pickups to dispatch, in one suggested order.
    toDispatch: day
      ? suggestedOrder(
          [
            ...day.parcels.map((p) => ({ place: p.recipient, line: line(p) })),
            ...day.pickups.map((p) => ({ place: p.address, line: pickupLine(p) })),
          ],
          (item) => item.place,
        ).map((item) => item.line)
      : [],
    runs:
      day?.runs.map(({ run, courier, stops }) => ({
        id: run.id,
        status: run.status,
        courier,
        stops: stops.map(stopLine),
      })) ?? [],
  });
}

export async function dispatchAction({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'staff');
  const actor = { user, context };
  const { date, depotId } = dayOf(request);
  const back = `/dashboard/dispatch?${new URLSearchParams({ date, depot: depotId ?? '' })}`;
  const formData = await readFormData(request);
  const move = formData.get('intent') === 'move';
  const submission = parseWithZod(formData, {
    schema: move ? DispatchMoveSchema : DispatchAssignSchema,
  });
  if (submission.status !== 'success') return invalidForm(submission);
  if (!depotId) return invalidForm(submission, { formErrors: ['Choose a depot and a day first'] });
  try {
    if (submission.value.intent === 'move') {
      const { runId, parcelId, pickupId, direction, position } = submission.value;
      await moveStop(runId, (parcelId ?? pickupId)!, direction ?? position!, actor);
      return redirectWithToast(request, back, { title: 'Stop moved' });
    }
    const { ids, pickupIds, courierId } = submission.value;
    const run = await assignToCourierRun(
      { date, depotId, courierId, parcelIds: ids, pickupIds },
      actor,
    );
    return redirectWithToast(request, back, {
      title: 'Run planned',
      description: `${run.stops.length} stops on the run.`,
    });
  } catch (caught) {
    const error = asApiError(caught);
    if (!error) throw caught;
    return invalidForm(submission, {
      status: error.status,
      formErrors: error.details ? Object.values(error.details).flat() : [error.message],
    });
  }
}
