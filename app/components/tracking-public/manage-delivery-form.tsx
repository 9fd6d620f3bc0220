import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
} from '@conform-to/react';
import { PostcodeField } from './postcode-field';
import { TakenNotice, TrackPageForm, useTrackPageForm } from './track-page-form';
import { Field, SelectField, TextareaField } from '~/components/ui/field';
import {
  deliveryPreferencesSchema,
  INSTRUCTIONS_MAX,
  SAFE_PLACES,
  SAFE_PLACE_OTHER_MAX,
} from '~/schemas/delivery-preferences';

export const PREFERENCES_SAVED = 'Your delivery preferences are saved. The courier will see them.';

/**
 * Under a tracking result, folded away: the recipient's say over the delivery, opened with the
 * postcode of the delivery address. A plain form posted to the page (no script needed).
 */
export function ManageDeliveryForm({
  trackingNumber,
  days,
  saved,
  lastResult,
}: {
  trackingNumber: string;
  /** The days that may be asked for, as values and as the recipient reads them. */
  days: Array<{ value: string; label: string }>;
  saved: boolean;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const [form, fields] = useTrackPageForm(
    'manage-delivery',
    deliveryPreferencesSchema(days.map((d) => d.value)),
    lastResult,
  );
  return (
    <section id="manage" aria-labelledby="manage-heading" className="card mt-6 p-5">
      <details open={!!lastResult || saved}>
        <summary className="cursor-pointer text-lg font-semibold">
          <h2 id="manage-heading" className="inline">
            Manage your delivery
          </h2>
        </summary>
        <p className="mt-2 text-sm text-gray-600">
          Leave instructions, choose a safe place or another day, or ask us to hold it at the depot.
          Enter the postcode of the delivery address to confirm it is yours.
        </p>
        {saved && !lastResult ? <TakenNotice>{PREFERENCES_SAVED}</TakenNotice> : null}
        <TrackPageForm
          form={form}
          trackingNumber={trackingNumber}
          section="manage"
          className="mt-4 grid gap-4 sm:grid-cols-2"
        >
          <input type="hidden" name="intent" value="preferences" />
          <PostcodeField field={fields.postalCode} />
          <SelectField
            label="Another day"
            {...getSelectProps(fields.requestedDate)}
            options={days}
            errors={fields.requestedDate.errors}
          >
            <option value="">Keep the planned day</option>
          </SelectField>
          <SelectField
            label="Safe place"
            {...getSelectProps(fields.safePlace)}
            options={Object.entries(SAFE_PLACES).map(([value, label]) => ({ value, label }))}
            errors={fields.safePlace.errors}
          >
            <option value="">No safe place: hand it over</option>
          </SelectField>
          <Field
            label="Where, if somewhere else"
            {...getInputProps(fields.safePlaceOther, { type: 'text' })}
            maxLength={SAFE_PLACE_OTHER_MAX}
            errors={fields.safePlaceOther.errors}
          />
          <TextareaField
            className="sm:col-span-2"
            label={`Instructions for the courier (up to ${INSTRUCTIONS_MAX} characters)`}
            {...getTextareaProps(fields.instructions)}
            maxLength={INSTRUCTIONS_MAX}
            rows={3}
            errors={fields.instructions.errors}
          />
          <label className="flex items-center gap-2 sm:col-span-2">
            <input
              {...getInputProps(fields.holdAtDepot, { type: 'checkbox' })}
              className="h-5 w-5"
            />
            Hold it at the depot for me to collect
          </label>
          <div className="sm:col-span-2">
            <button type="submit" className="btn-primary">
              Save delivery preferences
            </button>
          </div>
        </TrackPageForm>
      </details>
    </section>
  );
}
