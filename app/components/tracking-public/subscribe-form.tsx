import { getInputProps, type SubmissionResult } from '@conform-to/react';
import { HoneypotField } from '~/components/public/honeypot-field';
import { Field } from '~/components/ui/field';
import { ParcelSubscribeSchema } from '~/schemas/public-forms';
import { TakenNotice, TrackPageForm, useTrackPageForm } from './track-page-form';

/**
 * Under a tracking result: a visitor leaves an e-mail address to hear of every new event until
 * delivery. A plain form: the page posts it to its own URL and comes back to this section.
 */
export function SubscribeForm({
  trackingNumber,
  sent,
  lastResult,
}: {
  trackingNumber: string;
  /** The request was taken: say what happens next (the same whatever the address). */
  sent: string | null;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const [form, fields] = useTrackPageForm('subscribe-form', ParcelSubscribeSchema, lastResult);
  return (
    <section id="subscribe" aria-labelledby="subscribe-heading" className="card mt-6 p-5">
      <h2 id="subscribe-heading" className="text-lg font-semibold">
        Get e-mail updates
      </h2>
      <p className="mt-1 text-sm text-gray-600">
        An e-mail at every new scan until delivery. You confirm your address first, and every e-mail
        has an unsubscribe link.
      </p>
      {sent ? <TakenNotice>{sent}</TakenNotice> : null}
      <TrackPageForm
        form={form}
        trackingNumber={trackingNumber}
        section="subscribe"
        className="relative mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        <HoneypotField />
        <Field
          className="flex-1"
          label="Your e-mail address"
          {...getInputProps(fields.email, { type: 'email' })}
          autoComplete="email"
          required
          maxLength={254}
          errors={fields.email.errors}
        />
        <button type="submit" className="btn-primary">
          Subscribe to updates
        </button>
      </TrackPageForm>
    </section>
  );
}
