import { describeDeliveryPreferences } from '~/utils/delivery-preferences-text';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { json } from '@remix-run/node';
import { listDepots } from '~/models/depot.server';
import { ScanSchema, ScanSetupSchema, ScanUndoSchema } from '~/schemas/scan';
import { readFormData } from '~/lib/form.server';
import { mistypedHint } from '~/utils/tracking-number';
import { requireUserWithRole } from './auth.server';
import { recordScan, undoScan, UndoNotAllowed } from './scans.server';

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
  return json({ setup: { ...setup, depot: depot?.id }, depot, depots });
}

export type ScanView = {
  trackingNumber: string;
  outcome: 'recorded' | 'repeated' | 'not-found';
  /** The sentence after "Tracking number not found" for a number that fails its check digit. */
  hint?: string | null;
  eventId?: string;
  eventStatus?: string;
  location?: string;
  status?: string;
  recipientName?: string;
  recipientAddress?: string;
  deliveryPreferences?: string | null;
};

/** A parcel's delivery preferences as one line, when it has any. */
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
  const outcome = await recordScan(submission.value, actor);
  let scan: ScanView;
  if (outcome.kind === 'not-found') {
    scan = {
      trackingNumber: outcome.trackingNumber,
      outcome: 'not-found',
      hint: outcome.mistyped ? mistypedHint(outcome.trackingNumber) : null,
    };
  } else {
    const { parcel, event } = outcome;
    scan = {
      trackingNumber: parcel.trackingNumber,
      outcome: outcome.kind,
      eventId: event.id,
      eventStatus: event.status,
      location: event.location,
      status: parcel.status,
      recipientName: parcel.recipient.name,
      recipientAddress: parcel.recipient.address,
      deliveryPreferences:
        describeDeliveryPreferences(parcel.deliveryPreferences).join(' · ') || null,
    };
  }
  return json(
    { intent: 'scan' as const, result: submission.reply({ resetForm: true }), scan },
    { status: outcome.kind === 'not-found' ? (outcome.mistyped ? 400 : 404) : 200 },
  );
}
