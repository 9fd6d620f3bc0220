import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, useParams } from '@remix-run/react';
import { RouteDialog, useCloseTo } from '~/components/ui/route-dialog';
import { FormErrors } from '~/components/ui/field';
import { EVENT_STATUSES, FAILED_DELIVERY } from '~/schemas/constants';
import type { DepotChoice } from '~/schemas/depot';
import {
  CUSTOM_EVENT_STATUS,
  EVENT_DESCRIPTION_MAX,
  EVENT_LOCATION_MAX,
  EVENT_STATUS_MAX,
  eventFormSchema,
} from '~/schemas/tracking-event';
import { FailedAttemptFields } from './failed-attempt-fields';
import { TIME_ZONE_CHOICES } from '~/utils/time-zone';
import { useHydrated } from '~/utils/use-hydrated';
import { CancelAndSubmit } from '~/components/ui/submit-button';
import { useIsPending } from '~/utils/use-is-pending';
import { InputFor, SelectFor, TextareaFor } from '~/components/ui/conform-fields';

export type EventFormValues = {
  status: string;
  customStatus: string;
  depotId: string;
  location: string;
  reason: string;
  nextAttemptDate: string;
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
 * the event's zone: the chosen depot's (its name becomes the location), else the zone chosen,
 * which starts as the company's, never the browser's: the event happened where the parcel was.
 */
export function EventForm({
  defaultValues,
  depots,
  lastResult,
  submitLabel,
  busyLabel,
  cancelTo,
}: {
  defaultValues: EventFormValues;
  depots: DepotChoice[];
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
    onValidate: ({ formData }) => parseWithZod(formData, { schema: eventFormSchema(depots) }),
  });
  const hydrated = useHydrated();
  const busy = useIsPending({ state: 'submitting' });
  // Without JS the fields that depend on another are always there; with JS when they apply.
  const showCustom = !hydrated || fields.status.value === CUSTOM_EVENT_STATUS;
  const showAttempt = !hydrated || fields.status.value === FAILED_DELIVERY;
  const depot = hydrated ? depots.find((d) => d.id === fields.depotId.value) : undefined;
  const zones = timeZoneOptions(fields.timeZone.value, defaultValues.timeZone);

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-4">
      <FormErrors id={form.errorId} errors={form.errors} />
      <SelectFor label="Status" meta={fields.status} options={EVENT_STATUSES} />
      {showCustom ? (
        <InputFor
          label="Custom status"
          meta={fields.customStatus}
          maxLength={EVENT_STATUS_MAX}
          hint={`Used when the status is '${CUSTOM_EVENT_STATUS}'.`}
        />
      ) : null}
      {showAttempt ? (
        <FailedAttemptFields reason={fields.reason} nextAttemptDate={fields.nextAttemptDate} />
      ) : null}
      {depots.length ? (
        <SelectFor
          label="Depot"
          meta={fields.depotId}
          options={depots.map((d) => ({ value: d.id, label: d.name }))}
        >
          <option value="">None (enter the location)</option>
        </SelectFor>
      ) : null}
      {depots.length && !depot ? (
        <p className="-mt-2 text-xs text-gray-500">
          At a depot, the event takes its name as the location and its time zone.
        </p>
      ) : null}
      {depot ? (
        <p className="text-sm text-gray-700">
          Location: {depot.name} · Time zone: {depot.timeZone.replace(/_/g, ' ')}
        </p>
      ) : (
        <InputFor
          label="Location"
          meta={fields.location}
          maxLength={EVENT_LOCATION_MAX}
          placeholder="e.g. Chicago Distribution Center"
        />
      )}
      <TextareaFor
        label="Description"
        meta={fields.description}
        rows={3}
        maxLength={EVENT_DESCRIPTION_MAX}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputFor label="Date" meta={fields.date} type="date" />
        <InputFor
          label="Time"
          meta={fields.time}
          type="time"
          hint="Where the event happened. Leave date and time empty for now."
        />
        <SelectFor
          className={depot ? 'hidden' : 'sm:col-span-2'}
          label="Time zone"
          meta={fields.timeZone}
          options={zones.map((zone) => ({ value: zone, label: zone.replace(/_/g, ' ') }))}
        />
      </div>
      <CancelAndSubmit
        cancelTo={cancelTo}
        pending={busy}
        pendingLabel={busyLabel}
        className="flex flex-wrap justify-end gap-3 pt-2"
      >
        {submitLabel}
      </CancelAndSubmit>
    </Form>
  );
}

/** The event form as a dialog over the parcel's page in the Tracking tab, closing back to it. */
export function EventFormDialog({
  title,
  description,
  formKey,
  ...form
}: Omit<Parameters<typeof EventForm>[0], 'cancelTo'> & {
  title: string;
  description?: string;
  /** Another event's form starts afresh. */
  formKey?: string;
}) {
  const closeTo = useCloseTo(`/dashboard/tracking/${useParams().parcelId}`);
  return (
    <RouteDialog title={title} closeTo={closeTo} description={description}>
      <EventForm key={formKey} {...form} cancelTo={closeTo} />
    </RouteDialog>
  );
}
