import { Form, Link } from '@remix-run/react';
import type { FormEventHandler } from 'react';
import { SignaturePadField } from '~/components/parcels/signature-pad';
export { loadSignaturePad } from '~/components/parcels/signature-pad';
import { Field, FormErrors, TextareaField } from '~/components/ui/field';
import { SubmitButton } from '~/components/ui/submit-button';
import { MAX_PROOF_PHOTOS } from '~/schemas/event-statuses';
import { useHydrated } from '~/utils/use-hydrated';
import { useIsPending } from '~/utils/use-is-pending';

/** The action's reply to a refused proof (conform's, from parseWithZod): errors by field, and what was sent. */
type ProofReply = {
  error?: Record<string, string[] | null> | null;
  initialValue?: Record<string, unknown> | null;
};

/**
 * The proof of delivery of one stop: who received it, photos from the phone's camera, a drawn
 * signature (with JavaScript) or a typed one. The details dialog and the scan station's page draw
 * it; `large` gives the station's thumb-sized controls and starts on Received by. Only the server
 * checks it (the photos and the signature are files), so the form is a plain one that shows the
 * server's reply, without conform's script: the courier's page stays light on a phone. Offline,
 * the courier's run draws it in place with `onSubmit` (the proof waits on the phone) and
 * `onCancel` (a button instead of the link back).
 */
export function ProofOfDeliveryForm({
  destination,
  lastResult,
  closeTo,
  large = false,
  onSubmit,
  onCancel,
}: {
  destination: number;
  lastResult: unknown;
  closeTo: string;
  large?: boolean;
  onSubmit?: FormEventHandler<HTMLFormElement>;
  onCancel?: () => void;
}) {
  const hydrated = useHydrated();
  const id = `proof-of-delivery-${destination}`;
  const reply = (lastResult ?? null) as ProofReply | null;
  const errors = (name: string) => reply?.error?.[name] ?? undefined;
  const sent = (name: string) => {
    const value = reply?.initialValue?.[name];
    return typeof value === 'string' ? value : undefined;
  };
  /** A typed field's id, name, the value sent and its errors, from its name. */
  const typed = (name: string) => ({
    id: `${id}-${name}`,
    name,
    defaultValue: sent(name),
    errors: errors(name),
  });
  const busy = useIsPending({ state: 'submitting' });
  const button = large ? 'min-h-11 w-full sm:w-auto' : '';
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      id={id}
      noValidate
      className="space-y-4"
      onSubmit={onSubmit}
    >
      <FormErrors id={`${id}-form-error`} errors={errors('')} />
      <input type="hidden" name="destination" value={String(destination)} />
      <Field
        label="Received by"
        {...typed('receivedBy')}
        type="text"
        autoComplete="off"
        required
        // The station's page exists to take this name: the courier is at the door.
        autoFocus={large}
      />
      <div>
        <label htmlFor="proof-photos" className="field-label">
          Photos (up to {MAX_PROOF_PHOTOS})
        </label>
        <input
          id="proof-photos"
          name="photo"
          type="file"
          accept="image/*"
          capture="environment"
          multiple
          className={`field-input ${large ? 'min-h-11' : ''}`}
          aria-invalid={errors('photo')?.length ? true : undefined}
          aria-describedby="proof-photos-hint"
        />
        <p id="proof-photos-hint" className="mt-1 text-xs text-gray-500">
          JPEG, PNG or WebP, at most 10 MB each. Location and camera details are removed.
        </p>
        {errors('photo')?.length ? (
          <ul className="field-error">
            {errors('photo')!.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        ) : null}
      </div>
      {hydrated ? <SignaturePadField name="signature" errors={errors('signature')} /> : null}
      <Field
        label={hydrated ? 'Or typed signature' : 'Typed signature'}
        hint="The recipient's name, typed as their signature."
        {...typed('signatureName')}
        type="text"
        autoComplete="off"
      />
      <TextareaField label="Note" rows={2} {...typed('note')} />
      <div className="flex flex-wrap justify-end gap-3">
        {onCancel ? (
          <button type="button" className={`btn-secondary ${button}`} onClick={onCancel}>
            Cancel
          </button>
        ) : (
          <Link to={closeTo} className={`btn-secondary ${button}`}>
            Cancel
          </Link>
        )}
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
