import { describeDeliveryPreferences } from '~/utils/delivery-preferences-text';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listDepots } from '~/models/depot.server';
import { getOperationsSettings } from '~/models/operations-settings.server';
import type { SerializedParcel } from '~/models/parcel.server';
import { ScanSchema, ScanSetupSchema, ScanUndoSchema } from '~/schemas/scan';
import { asApiError } from '~/http/api.server';
import { readFormData } from '~/lib/form.server';
import { mistypedHint } from '~/utils/tracking-number';
import { addressLines, stopAddress } from '~/services/address-format.server';
import { requireUserWithRole } from './auth.server';
import { recordScan, stopsToDeliver, undoScan, UndoNotAllowed } from '~/services/scans.server';

/**
 * The scan station page's loader and action (routes/dashboard.scan.tsx), kept here so the page's
 * scripts carry none of the schemas: the page must stay light on a courier's phone.
 */
/** The station's settings from its URL, and the depots to choose from. */
export async function scanStationLoader({ request }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'courier');
  const setup = ScanSetupSchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const depots = (await listDepots()).map(({ id, name, timeZone }) => ({ id, name, timeZone }));
  const depot = depots.find((d) => d.id === setup.depot) ?? null;
  const { deliveredByScan } = await getOperationsSettings();
  return json({ setup: { ...setup, depot: depot?.id }, depot, depots, deliveredByScan });
}

export type ScanView = {
  trackingNumber: string;
  outcome: 'recorded' | 'repeated' | 'not-found' | 'closed' | 'needs-proof' | 'needs-confirmation';
  /** The sentence after "Tracking number not found" for a number that fails its check digit. */
  hint?: string | null;
  /** Why nothing was recorded: the parcel's journey is over, or Delivered needs its proof. */
  message?: string;
  /** What an Out for Delivery scan would contradict; it is recorded once confirmed. */
  warnings?: string[];
  /** The status the scan moved the parcel back from. */
  regressedFrom?: string | null;
  eventId?: string;
  eventStatus?: string;
  /** Whether this session may undo the scan (not a delivery, which has its proof). */
  undoable?: boolean;
  location?: string;
  status?: string;
  recipientName?: string;
  recipientAddress?: string;
  deliveryPreferences?: string | null;
  /** The proof-of-delivery form of the next stop, for a parcel out for delivery. */
  proofHref?: string | null;
};

/** The station's own proof-of-delivery form for a stop, coming back to the station after. */
export function stationProofHref(parcelId: string, destination: number, stationSearch: string) {
  const params = new URLSearchParams(stationSearch);
  params.set('destination', String(destination));
  return `/dashboard/scan/proof/${parcelId}?${params}`;
}

async function parcelLines(parcel: SerializedParcel, stationSearch: string) {
  const next =
    parcel.status === 'Out for Delivery' ? ((await stopsToDeliver(parcel))[0] ?? null) : null;
  return {
    status: parcel.status,
    recipientName: parcel.recipient.name,
    // The stop the courier is at, or before the last mile the recipient's own address.
    recipientAddress:
      next === null ? addressLines(parcel.recipient).join(', ') : stopAddress(parcel, next),
    deliveryPreferences:
      describeDeliveryPreferences(parcel.deliveryPreferences).join(' · ') || null,
    proofHref: next === null ? null : stationProofHref(parcel.id, next, stationSearch),
  };
}

/** A scan (the number typed or read, with the URL's settings), or the undo of one. */
export async function scanStationAction({ request, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'courier');
  const actor = { user, context };
  const formData = await readFormData(request);
  if (formData.get('intent') === 'undo') {
    const submission = parseWithZod(formData, { schema: ScanUndoSchema });
    if (submission.status !== 'success')
      return json({ intent: 'undo' as const, undone: null, error: 'Invalid event' }, 400);
    try {
      const event = await undoScan(submission.value.eventId, actor);
      return json({
        intent: 'undo' as const,
        undone: submission.value.eventId,
        error: event ? null : 'That scan was already undone.',
      });
    } catch (error) {
      if (!(error instanceof UndoNotAllowed)) throw error;
      return json({ intent: 'undo' as const, undone: null, error: error.message }, 403);
    }
  }
  const submission = parseWithZod(formData, { schema: ScanSchema });
  if (submission.status !== 'success')
    return json({ intent: 'scan' as const, result: submission.reply(), scan: null }, 400);
  const stationSearch = new URL(request.url).search;
  let outcome: Awaited<ReturnType<typeof recordScan>>;
  try {
    outcome = await recordScan(submission.value, actor);
  } catch (caught) {
    const error = asApiError(caught);
    if (!error) throw caught;
    return json(
      {
        intent: 'scan' as const,
        result: submission.reply(
          error.details ? { fieldErrors: error.details } : { formErrors: [error.message] },
        ),
        scan: null,
      },
      error.status,
    );
  }
  let scan: ScanView;
  let status = 200;
  if (outcome.kind === 'not-found') {
    scan = {
      trackingNumber: outcome.trackingNumber,
      outcome: 'not-found',
      hint: outcome.mistyped ? mistypedHint(outcome.trackingNumber) : null,
    };
    status = outcome.mistyped ? 400 : 404;
  } else if (outcome.kind === 'recorded' || outcome.kind === 'repeated') {
    const { parcel, event } = outcome;
    scan = {
      trackingNumber: parcel.trackingNumber,
      outcome: outcome.kind,
      eventId: event.id,
      eventStatus: event.status,
      undoable: outcome.kind === 'recorded' && !outcome.proofOfDelivery,
      location: event.location,
      regressedFrom: outcome.kind === 'recorded' ? (outcome.regressedFrom ?? null) : null,
      ...(await parcelLines(parcel, stationSearch)),
    };
  } else {
    const refused = outcome;
    const { parcel } = refused;
    scan = {
      trackingNumber: parcel.trackingNumber,
      outcome: refused.kind,
      ...(await parcelLines(parcel, stationSearch)),
    };
    if (refused.kind === 'needs-confirmation') scan.warnings = refused.warnings;
    if (refused.kind === 'closed' || refused.kind === 'needs-proof') scan.message = refused.message;
    if (refused.kind === 'needs-proof')
      scan.proofHref = stationProofHref(parcel.id, refused.destination, stationSearch);
    status = refused.kind === 'needs-confirmation' ? 200 : 409;
  }
  return json(
    { intent: 'scan' as const, result: submission.reply({ resetForm: true }), scan },
    { status },
  );
}
