import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, Link } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { Field, FormErrors, SelectField, TextareaField } from '~/components/ui/field';
import { EVENT_STATUSES } from '~/schemas/constants';
import {
  CUSTOM_EVENT_STATUS,
  EVENT_DESCRIPTION_MAX,
  EVENT_LOCATION_MAX,
  EVENT_STATUS_MAX,
  toFormDateTime,
  TrackingEventFormSchema,
} from '~/schemas/tracking-event';
import { TIME_ZONE_CHOICES } from '~/utils/time-zone';
import { useHydrated } from '~/utils/use-hydrated';
import { SubmitButton } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';

export type EventFormValues = {
  status: string;
  customStatus: string;
  location: string;
  description: string;
  date: string;
  time: string;
  timeZone: string;
};

/**
 * The zones to offer: the usual ones, and the ones in play if they are not among them. A zone sent
 * back twice (a list, a field error) is not one to offer.
 */
function timeZoneOptions(...inPlay: unknown[]) {
  const extra = inPlay.filter(
    (zone): zone is string =>
      typeof zone === 'string' &&
      zone !== '' &&
      !(TIME_ZONE_CHOICES as readonly string[]).includes(zone),
  );
  return [...new Set(extra), ...TIME_ZONE_CHOICES];
}

/**
 * The add/edit tracking event form; posts to the current route's action. Date and time are read in
 * the chosen time zone. With `detectTimeZone` (a new event), once JavaScript runs the zone becomes
 * the browser's and the date and time its "now"; without JavaScript they stay the company's.
 */
export function EventForm({
  defaultValues,
  lastResult,
  submitLabel,
  busyLabel,
  cancelTo,
  detectTimeZone = false,
}: {
  defaultValues: EventFormValues;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
  busyLabel: string;
  cancelTo: string;
  detectTimeZone?: boolean;
}) {
  const [form, fields] = useForm<EventFormValues, unknown>({
    lastResult,
    defaultValue: defaultValues,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TrackingEventFormSchema }),
  });
  const hydrated = useHydrated();
  const busy = useIsPending({ state: 'submitting' });
  // Without JS the custom text field is always there; with JS it appears when it applies.
  const showCustom = !hydrated || fields.status.value === CUSTOM_EVENT_STATUS;

  const [browserZone, setBrowserZone] = useState<string | null>(null);
  useEffect(() => {
    if (!detectTimeZone || lastResult) return;
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && zone !== defaultValues.timeZone) setBrowserZone(zone);
  }, [detectTimeZone, lastResult, defaultValues.timeZone]);
  const appliedZone = useRef<string | null>(null);
  useEffect(() => {
    // Once the browser's zone is among the options: choose it, and its "now".
    if (!browserZone || appliedZone.current === browserZone) return;
    appliedZone.current = browserZone;
    const now = toFormDateTime(new Date(), browserZone);
    form.update({ name: fields.timeZone.name, value: browserZone });
    form.update({ name: fields.date.name, value: now.date });
    form.update({ name: fields.time.name, value: now.time });
  }, [browserZone, form, fields.timeZone.name, fields.date.name, fields.time.name]);
  const zones = timeZoneOptions(browserZone, fields.timeZone.value, defaultValues.timeZone);

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
          label="Date"
          {...getInputProps(fields.date, { type: 'date' })}
          errors={fields.date.errors}
        />
        <Field
          label="Time"
          {...getInputProps(fields.time, { type: 'time' })}
          hint="Where the event happened. Leave date and time empty for now."
          errors={fields.time.errors}
        />
        <SelectField
          className="sm:col-span-2"
          label="Time zone"
          {...getSelectProps(fields.timeZone)}
          errors={fields.timeZone.errors}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replace(/_/g, ' ')}
            </option>
          ))}
        </SelectField>
      </div>
      <div className="flex flex-wrap justify-end gap-3 pt-2">
        <Link to={cancelTo} preventScrollReset className="btn-secondary">
          Cancel
        </Link>
        <SubmitButton pending={busy} pendingLabel={busyLabel}>
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}
