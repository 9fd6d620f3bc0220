import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link, useNavigation } from '@remix-run/react';
import { Field, FormErrors, SelectField, TextareaField } from '~/components/ui/field';
import { Spinner } from '~/components/ui/spinner';
import { EVENT_STATUSES } from '~/schemas/constants';
import {
  CUSTOM_EVENT_STATUS,
  EVENT_DESCRIPTION_MAX,
  EVENT_LOCATION_MAX,
  EVENT_STATUS_MAX,
  TrackingEventFormSchema,
} from '~/schemas/tracking-event';
import { useHydrated } from '~/utils/use-hydrated';

export type EventFormValues = {
  status: string;
  customStatus: string;
  location: string;
  description: string;
  date: string;
  time: string;
};

/** The add/edit tracking event form; posts to the current route's action. */
export function EventForm({
  defaultValues,
  lastResult,
  submitLabel,
  busyLabel,
  cancelTo,
}: {
  defaultValues: EventFormValues;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
  busyLabel: string;
  cancelTo: string;
}) {
  const [form, fields] = useForm<EventFormValues, unknown>({
    lastResult,
    defaultValue: defaultValues,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TrackingEventFormSchema }),
  });
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busy = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  // Without JS the custom text field is always there; with JS it appears when it applies.
  const showCustom = !hydrated || fields.status.value === CUSTOM_EVENT_STATUS;

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <SelectField label="Status" {...getSelectProps(fields.status)} errors={fields.status.errors}>
        {EVENT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </SelectField>
      {showCustom ? (
        <Field
          label="Custom status"
          {...getInputProps(fields.customStatus, { type: 'text' })}
          maxLength={EVENT_STATUS_MAX}
          hint={`Used when the status is '${CUSTOM_EVENT_STATUS}'.`}
          errors={fields.customStatus.errors}
        />
      ) : null}
      <Field
        label="Location"
        {...getInputProps(fields.location, { type: 'text' })}
        maxLength={EVENT_LOCATION_MAX}
        placeholder="e.g. Chicago Distribution Center"
        errors={fields.location.errors}
      />
      <TextareaField
        label="Description"
        {...getTextareaProps(fields.description)}
        rows={3}
        maxLength={EVENT_DESCRIPTION_MAX}
        errors={fields.description.errors}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Date (UTC)"
          {...getInputProps(fields.date, { type: 'date' })}
          errors={fields.date.errors}
        />
        <Field
          label="Time (UTC)"
          {...getInputProps(fields.time, { type: 'time' })}
          hint="Times are in UTC. Leave date and time empty for now."
          errors={fields.time.errors}
        />
      </div>
      <div className="flex flex-wrap justify-end gap-3 pt-2">
        <Link to={cancelTo} preventScrollReset className="btn-secondary">
          Cancel
        </Link>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? (
            <>
              <Spinner />
              {busyLabel}
            </>
          ) : (
            submitLabel
          )}
        </button>
      </div>
    </Form>
  );
}
