import { parseWithZod } from '@conform-to/zod/v4';
import { json } from '@remix-run/node';
import { getParcel } from '~/models/parcel-reads.server';
import { hasProof } from '~/models/proof-of-delivery.server';
import type { PublicUser } from '~/models/user.server';
import {
  PROOF_FILE_FIELDS,
  PROOF_PHOTO_MAX_BYTES,
  ProofOfDeliverySchema,
} from '~/schemas/proof-of-delivery';
import { asApiError } from '~/http/api.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { invalidForm } from '~/lib/form-reply.server';
import { readMultipart } from '~/http/multipart.server';
import { stopAddress } from '~/services/address-format.server';
import { requireUserWithRole } from './auth.server';
import { recordProofOfDelivery } from '~/services/proof-of-delivery.server';

/**
 * The proof-of-delivery form's loader and action, for its two pages: the dialog over the parcel's
 * details (staff) and the scan station's own page (couriers at the door), which differ only in
 * where they go back to.
 */
const notFound = () => json({ message: 'Parcel not found' }, { status: 404 });

/** The stop asked for (`?destination=`, from 0), checked against the parcel's stops. */
function stopOf(request: Request, stops: number): number | null {
  const raw = new URL(request.url).searchParams.get('destination') ?? '0';
  if (!/^\d{1,3}$/.test(raw)) return null;
  const index = Number(raw);
  return index < stops ? index : null;
}

/** The parcel and the stop the form records, and whether that stop already has its proof. */
export async function proofFormLoader(request: Request, parcelId: string) {
  await requireUserWithRole(request, 'courier');
  const parcel = await getParcel(parcelId);
  if (!parcel) throw notFound();
  const stops = Math.max(parcel.destinations.length, 1);
  const destination = stopOf(request, stops);
  if (destination === null)
    throw json({ message: 'This parcel has no such stop' }, { status: 404 });
  const stop = parcel.destinations[destination];
  return json({
    parcel: { id: parcel.id, trackingNumber: parcel.trackingNumber },
    destination,
    stops,
    stop: {
      name: stop?.name || parcel.recipient.name,
      address: stopAddress(parcel, destination),
    },
    delivered: await hasProof(parcel.id, destination),
  });
}

/**
 * Records the proof sent (multipart with photos, or a plain form without a file) and goes to
 * `backTo` with a toast, or answers the form it did not take.
 */
export async function proofFormAction(
  request: Request,
  { parcelId, context, backTo }: { parcelId: string; context: unknown; backTo: string },
) {
  const user = await requireUserWithRole(request, 'courier');
  // Without a file the browser may send the form url-encoded; it is read, and refused when it is
  // not a form this page sends, as every page's is.
  if (!/^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')) {
    const plain = await readFormData(request);
    return submitProof(request, plain, { user, context, parcelId, backTo });
  }
  let form: FormData;
  try {
    form = await readMultipart(request, {
      fileFields: PROOF_FILE_FIELDS,
      maxFileBytes: PROOF_PHOTO_MAX_BYTES,
    });
  } catch (caught) {
    const error = asApiError(caught);
    if (!error) throw caught;
    return json(
      { status: 'error' as const, error: { '': [error.message] } },
      { status: error.status },
    );
  }
  return submitProof(request, form, { user, context, parcelId, backTo });
}

async function submitProof(
  request: Request,
  form: FormData,
  {
    user,
    context,
    parcelId,
    backTo,
  }: { user: PublicUser; context: unknown; parcelId: string; backTo: string },
) {
  const submission = parseWithZod(form, { schema: ProofOfDeliverySchema });
  if (submission.status !== 'success')
    return invalidForm(submission, { hideFields: ['photo', 'signature'] });
  try {
    const { proof, parcelStatus } = await recordProofOfDelivery(parcelId, submission.value, {
      user,
      context,
    });
    return redirectWithToast(request, backTo, {
      type: 'success',
      title: 'Proof of delivery recorded',
      description:
        parcelStatus === 'Delivered'
          ? `${proof.trackingNumber} is delivered.`
          : `Stop ${proof.destination + 1} of ${proof.stops} of ${proof.trackingNumber} is delivered.`,
    });
  } catch (caught) {
    const error = asApiError(caught);
    if (!error) throw caught;
    if (error.status === 404 && !error.details) throw notFound();
    const fieldErrors: Record<string, string[]> = {};
    for (const [key, messages] of Object.entries(error.details ?? {}))
      (fieldErrors[key.split('.')[0]!] ??= []).push(...messages);
    return invalidForm(submission, {
      status: error.status,
      hideFields: ['photo', 'signature'],
      fieldErrors: error.details ? fieldErrors : undefined,
      formErrors: error.details ? undefined : [error.message],
    });
  }
}
