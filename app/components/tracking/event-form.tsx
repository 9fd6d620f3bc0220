import { Form, Link, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { Field, FormErrors, SelectField, TextareaField } from '~/components/ui/field';
import { Spinner } from '~/components/ui/spinner';
import { EVENT_STATUSES } from '~/schemas/constants';
import {
  CUSTOM_EVENT_STATUS,
  EVENT_DESCRIPTION_MAX,
  EVENT_LOCATION_MAX,
  EVENT_STATUS_MAX,
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

export type EventFormErrors = {
  fieldErrors?: Partial<Record<keyof EventFormValues, string[]>>;
  formErrors?: string[];
  /** The values sent with a refused submission; they take the place of the defaults. */
  values?: Partial<EventFormValues>;
};

/** The add/edit tracking event form; posts to the current route's action. */
export function EventForm({
  defaultValues: initialValues,
  errors,
  submitLabel,
  busyLabel,
  cancelTo,
}: {
  defaultValues: EventFormValues;
  errors?: EventFormErrors | null;
  submitLabel: string;
  busyLabel: string;
  cancelTo: string;
}) {
  const defaultValues = { ...initialValues, ...errors?.values };
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busy = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  const [status, setStatus] = useState(defaultValues.status);
  // Without JS the custom text field is always there; with JS it appears when it applies.
  const showCustom = !hydrated || status === CUSTOM_EVENT_STATUS;
  const fieldErrors = errors?.fieldErrors ?? {};

  return (
    <Form method="post" className="space-y-4" noValidate>
      <FormErrors errors={errors?.formErrors} />
      <SelectField
        label="Status"
        name="status"
        defaultValue={defaultValues.status}
        onChange={(e) => setStatus(e.currentTarget.value)}
        errors={fieldErrors.status}
      >
        {EVENT_STATUSES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </SelectField>
      {showCustom ? (
        <Field
          label="Custom status"
          name="customStatus"
          defaultValue={defaultValues.customStatus}
          maxLength={EVENT_STATUS_MAX}
          hint={`Used when the status is '${CUSTOM_EVENT_STATUS}'.`}
          errors={fieldErrors.customStatus}
        />
      ) : (
        <input type="hidden" name="customStatus" value="" />
      )}
      <Field
        label="Location"
        name="location"
        defaultValue={defaultValues.location}
        maxLength={EVENT_LOCATION_MAX}
        placeholder="e.g. Chicago Distribution Center"
        errors={fieldErrors.location}
      />
      <TextareaField
        label="Description"
        name="description"
        rows={3}
        defaultValue={defaultValues.description}
        maxLength={EVENT_DESCRIPTION_MAX}
        errors={fieldErrors.description}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Date (UTC)"
          name="date"
          type="date"
          defaultValue={defaultValues.date}
          errors={fieldErrors.date}
        />
        <Field
          label="Time (UTC)"
          name="time"
          type="time"
          defaultValue={defaultValues.time}
          hint="Times are in UTC. Leave date and time empty for now."
          errors={fieldErrors.time}
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
