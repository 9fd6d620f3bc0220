import {
  getFormProps,
  getInputProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react';
import { Form, Link } from '@remix-run/react';
import { SignaturePadField } from '~/components/parcels/signature-pad';
import { Field, FormErrors, TextareaField } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { MAX_PROOF_PHOTOS } from '~/schemas/constants';
import { useHydrated } from '~/utils/use-hydrated';
import { useIsPending } from '~/utils/use-is-pending';

type ProofFields = {
  receivedBy: string;
  destination: string;
  note: string;
  signatureName: string;
  photo: File[];
  signature: File;
};

/**
 * The proof of delivery of one stop: who received it, photos from the phone's camera, a drawn
 * signature (with JavaScript) or a typed one. The details dialog and the scan station's page draw
 * it; `large` gives the station's thumb-sized controls and starts on Received by.
 */
export function ProofOfDeliveryForm({
  destination,
  lastResult,
  closeTo,
  large = false,
}: {
  destination: number;
  lastResult: unknown;
  closeTo: string;
  large?: boolean;
}) {
  const hydrated = useHydrated();
  const [form, fields] = useForm<ProofFields>({
    id: `proof-of-delivery-${destination}`,
    lastResult: lastResult as SubmissionResult<string[]> | undefined,
    shouldValidate: 'onSubmit',
  });
  const busy = useIsPending({ state: 'submitting' });
  const button = large ? 'min-h-11 w-full sm:w-auto' : '';
  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <input type="hidden" name={fields.destination.name} value={String(destination)} />
      <Field
        label="Received by"
        {...getInputProps(fields.receivedBy, { type: 'text' })}
        autoComplete="off"
        required
        // The station's page exists to take this name: the courier is at the door.
        autoFocus={large}
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
          className={`field-input ${large ? 'min-h-11' : ''}`}
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
        <Link to={closeTo} className={`btn-secondary ${button}`}>
          Cancel
        </Link>
        <SubmitButton
          className={`btn-primary ${button}`}
          pending={busy}
          pendingLabel="Recording..."
        >
          Record proof of delivery
        </SubmitButton>
      </div>
    </Form>
  );
}
