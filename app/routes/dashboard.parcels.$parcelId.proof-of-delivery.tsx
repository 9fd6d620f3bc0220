import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation } from '@remix-run/react';
import { DashboardSectionError } from '~/components/dashboard/section-error';
import { SignaturePadField } from '~/components/parcels/signature-pad';
import { Field, FormErrors, TextareaField } from '~/components/ui/field';
import { RouteDialog } from '~/components/ui/route-dialog';
import { SubmitButton } from '~/components/ui/submit-button';
import { getParcel } from '~/models/parcel.server';
import { hasProof } from '~/models/proof-of-delivery.server';
import {
  MAX_PROOF_PHOTOS,
  PROOF_FILE_FIELDS,
  PROOF_PHOTO_MAX_BYTES,
  ProofOfDeliverySchema,
} from '~/schemas/proof-of-delivery';
import { ApiError } from '~/lib/api.server';
import { redirectWithToast } from '~/lib/flash.server';
import { readFormData } from '~/lib/form.server';
import { readMultipart } from '~/lib/multipart.server';
import type { PublicUser } from '~/models/user.server';
import { requireUserWithRole } from '~/services/auth.server';
import { recordProofOfDelivery } from '~/services/proof-of-delivery.server';
import { useHydrated } from '~/utils/use-hydrated';
import { useIsPending } from '~/utils/use-is-pending';
import { invalidForm } from '~/lib/form-reply.server';

const notFound = () => json({ message: 'Parcel not found' }, { status: 404 });

/** The stop asked for (`?destination=`, from 0), checked against the parcel's stops. */
function stopOf(request: Request, stops: number): number | null {
  const raw = new URL(request.url).searchParams.get('destination') ?? '0';
  if (!/^\d{1,3}$/.test(raw)) return null;
  const index = Number(raw);
  return index < stops ? index : null;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUserWithRole(request, 'courier');
  const parcel = await getParcel(params.parcelId ?? '');
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
      address: stop?.address || parcel.recipient.address,
    },
    delivered: await hasProof(parcel.id, destination),
  });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUserWithRole(request, 'courier');
  const parcelId = params.parcelId ?? '';
  const url = new URL(request.url);
  const detailsUrl = `/dashboard/parcels/${parcelId}${url.search.replace(/([?&])destination=\d*&?/, '$1').replace(/[?&]$/, '')}`;
  // Without a file the browser may send the form url-encoded; it is read, and refused when it is
  // not a form this page sends, as every page's is.
  if (!/^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '')) {
    const plain = await readFormData(request);
    return submitProof(request, plain, { user, context, parcelId, detailsUrl });
  }
  let form: FormData;
  try {
    form = await readMultipart(request, {
      fileFields: PROOF_FILE_FIELDS,
      maxFileBytes: PROOF_PHOTO_MAX_BYTES,
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return json(
      { status: 'error' as const, error: { '': [error.message] } },
      { status: error.status },
    );
  }
  return submitProof(request, form, { user, context, parcelId, detailsUrl });
}

async function submitProof(
  request: Request,
  form: FormData,
  {
    user,
    context,
    parcelId,
    detailsUrl,
  }: { user: PublicUser; context: unknown; parcelId: string; detailsUrl: string },
) {
  const submission = parseWithZod(form, { schema: ProofOfDeliverySchema });
  if (submission.status !== 'success')
    return invalidForm(submission, { hideFields: ['photo', 'signature'] });
  try {
    const { proof, parcelStatus } = await recordProofOfDelivery(parcelId, submission.value, {
      user,
      context,
    });
    return redirectWithToast(request, detailsUrl, {
      type: 'success',
      title: 'Proof of delivery recorded',
      description:
        parcelStatus === 'Delivered'
          ? `${proof.trackingNumber} is delivered.`
          : `Stop ${proof.destination + 1} of ${proof.stops} of ${proof.trackingNumber} is delivered.`,
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
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

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: `Proof of delivery · ${data?.parcel.trackingNumber ?? 'Parcel'} · Parcels · Management dashboard`,
  },
];

type ProofFields = {
  receivedBy: string;
  destination: string;
  note: string;
  signatureName: string;
  photo: File[];
  signature: File;
};

export default function ProofOfDeliveryDialog() {
  const { parcel, destination, stops, stop, delivered } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const hydrated = useHydrated();
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  params.delete('destination');
  const back = params.size ? `?${params}` : '';
  const closeTo = `/dashboard/parcels/${parcel.id}${back}`;
  const [form, fields] = useForm<ProofFields>({
    id: `proof-of-delivery-${destination}`,
    lastResult: lastResult as SubmissionResult<string[]> | undefined,
    shouldValidate: 'onSubmit',
  });
  const busy = useIsPending({ state: 'submitting' });
  return (
    <RouteDialog
      title={`Record proof of delivery: ${parcel.trackingNumber}`}
      closeTo={closeTo}
      size="lg"
    >
      <p className="mb-4 text-sm text-gray-700">
        {stops > 1 ? `Stop ${destination + 1} of ${stops}: ` : null}
        <strong>{stop.name || '—'}</strong>
        {stop.address ? `, ${stop.address}` : null}
      </p>
      {delivered ? (
        <p role="status" className="text-sm text-gray-700">
          This stop already has a proof of delivery.{' '}
          <Link to={closeTo} className="underline">
            Back to the parcel
          </Link>
        </p>
      ) : (
        <Form
          method="post"
          encType="multipart/form-data"
          {...getFormProps(form)}
          className="space-y-4"
        >
          <FormErrors id={form.errorId} errors={form.errors} />
          <input type="hidden" name={fields.destination.name} value={String(destination)} />
          <Field
            label="Received by"
            {...getInputProps(fields.receivedBy, { type: 'text' })}
            autoComplete="off"
            required
            errors={fields.receivedBy.errors}
          />
          <div>
            <label htmlFor="proof-photos" className="field-label">
              Photos (up to {MAX_PROOF_PHOTOS})
            </label>
            <input
              id="proof-photos"
              name={fields.photo.name}
              type="file"
              accept="image/*"
              capture="environment"
              multiple
              className="field-input"
              aria-invalid={fields.photo.errors?.length ? true : undefined}
              aria-describedby="proof-photos-hint"
            />
            <p id="proof-photos-hint" className="mt-1 text-xs text-gray-500">
              JPEG, PNG or WebP, at most 10 MB each. Location and camera details are removed.
            </p>
            {fields.photo.errors?.length ? (
              <ul className="field-error">
                {fields.photo.errors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            ) : null}
          </div>
          {hydrated ? (
            <SignaturePadField name={fields.signature.name} errors={fields.signature.errors} />
          ) : null}
          <Field
            label={hydrated ? 'Or typed signature' : 'Typed signature'}
            hint="The recipient's name, typed as their signature."
            {...getInputProps(fields.signatureName, { type: 'text' })}
            autoComplete="off"
            errors={fields.signatureName.errors}
          />
          <TextareaField
            label="Note"
            rows={2}
            {...getTextareaProps(fields.note)}
            errors={fields.note.errors}
          />
          <div className="flex flex-wrap justify-end gap-3">
            <Link to={closeTo} className="btn-secondary">
              Cancel
            </Link>
            <SubmitButton pending={busy} pendingLabel="Recording...">
              Record proof of delivery
            </SubmitButton>
          </div>
        </Form>
      )}
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  return <DashboardSectionError />;
}
