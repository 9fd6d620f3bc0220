import { PhoneTextWarning } from './phone-text-warning';
import { Fragment, type ReactNode } from 'react';
import {
  getFormProps,
  getSelectProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form } from '@remix-run/react';
import { RouteDialog, useCloseTo } from '~/components/ui/route-dialog';
import type { z } from 'zod';
import { FormErrors, SelectField } from '~/components/ui/field';
import { LANGUAGES } from '~/schemas/languages';
import { InputsFromTable, type InputSpec } from '~/components/ui/input-table';
import type { SerializedParcel } from '~/models/parcel.server';
import {
  MAX_PARCEL_DESTINATIONS,
  PARCEL_STATUSES,
  PRIORITIES,
  SERVICE_TYPES,
} from '~/schemas/constants';
import {
  destinationFields,
  ParcelCreateFormSchema,
  type DestinationInput,
  ParcelUpdateFormSchema,
  type ParcelUpdateSchema,
} from '~/schemas/parcel';
import { CancelAndSubmit, DefaultSubmit } from '~/components/ui/submit-button';
import { toZonedInputs } from '~/utils/time-zone';
import { useIsPending } from '~/utils/use-is-pending';
import { InputFor } from '~/components/ui/conform-fields';

/** The fields of both forms; only the edit form has the status. */
type ParcelFormFields = z.input<typeof ParcelUpdateSchema>;

type Contact = { name: string; email: string; phone: string; address: string; language?: string };

/** What the form starts with: blank numbers on a new parcel, the stored values when editing. */
export type ParcelFormDefaults = {
  sender?: Partial<Contact>;
  recipient?: Partial<Contact>;
  destinations?: DestinationInput[];
  weight?: number;
  dimensions?: { length: number; width: number; height: number };
  serviceType: string;
  priority: string;
  status?: string;
  estimatedDelivery?: string;
  /** Times (HH:MM) on the estimated day, in the company's zone. */
  deliveryWindow?: { from: string; until: string };
  /** The shipper account it belongs to; empty for the company's own. */
  accountId?: string;
};

export function newParcelDefaults(): ParcelFormDefaults {
  return { serviceType: 'Standard', priority: 'Standard' };
}

export function parcelToFormDefaults(
  parcel: SerializedParcel,
  timeZone: string,
): ParcelFormDefaults {
  const window = parcel.deliveryWindow;
  return {
    sender: parcel.sender,
    recipient: parcel.recipient,
    destinations: parcel.destinations.map(destinationFields),
    weight: parcel.weight,
    dimensions: parcel.dimensions,
    serviceType: parcel.serviceType,
    priority: parcel.priority,
    status: parcel.status,
    accountId: parcel.accountId ?? '',
    estimatedDelivery: parcel.estimatedDelivery ? parcel.estimatedDelivery.slice(0, 10) : '',
    deliveryWindow:
      window?.from && window.until
        ? {
            from: toZonedInputs(window.from, timeZone).time,
            until: toZonedInputs(window.until, timeZone).time,
          }
        : { from: '', until: '' },
  };
}

/** A contact's inputs, in the form's order; the recipient's name and address are required. */
const CONTACT_INPUTS: Array<
  InputSpec<
    | 'name'
    | 'email'
    | 'phone'
    | 'address'
    | 'city'
    | 'region'
    | 'postalCode'
    | 'country'
    | 'timeZone'
  >
> = [
  { name: 'name', label: 'Name', maxLength: 200, requiredWhen: true },
  { name: 'email', label: 'Email', type: 'email', maxLength: 254 },
  { name: 'phone', label: 'Phone', type: 'tel', maxLength: 50 },
  { name: 'address', label: 'Address', maxLength: 500, requiredWhen: true },
  { name: 'city', label: 'City', maxLength: 100 },
  { name: 'region', label: 'State / region', maxLength: 100 },
  { name: 'postalCode', label: 'Postal code', maxLength: 20 },
  { name: 'country', label: 'Country', maxLength: 100 },
  { name: 'timeZone', label: 'Time zone (optional, e.g. America/Los_Angeles)', maxLength: 64 },
];

/** A destination's inputs, in the form's order. */
const DESTINATION_INPUTS: Array<InputSpec<keyof DestinationInput>> = [
  { name: 'name', label: 'Name', maxLength: 200 },
  { name: 'address', label: 'Address', maxLength: 500 },
  { name: 'city', label: 'City', maxLength: 100 },
  { name: 'region', label: 'State / region', maxLength: 100 },
  { name: 'country', label: 'Country', maxLength: 100 },
  { name: 'postalCode', label: 'Postal Code', maxLength: 20 },
];

/**
 * The language the recipient's e-mails and tracking page are written in: ours, and a language
 * given through the API or an import that we do not write (kept as it is).
 */
function LanguageField({ field }: { field: FieldMetadata<string | undefined> }) {
  return (
    <KeptChoiceField
      field={field}
      label="Language of e-mails and tracking page"
      options={LANGUAGES.map(({ code, name }) => ({ value: code, label: `${name} (${code})` }))}
      none="The company’s default"
    />
  );
}

/**
 * A select of `options` after a first empty choice (`none`), which keeps the stored value that is
 * not among them (shown as it is) and marks the stored one as chosen, so that an untouched form
 * reads as untouched once the page's scripts run.
 */
function KeptChoiceField({
  field,
  label,
  options,
  none,
}: {
  field: FieldMetadata<string | null | undefined>;
  label: string;
  options: Array<{ value: string; label: string }>;
  none: string;
}) {
  const { key, ...select } = getSelectProps(field);
  const current = typeof field.initialValue === 'string' ? field.initialValue : '';
  const choices =
    current && !options.some((option) => option.value === current)
      ? [...options, { value: current, label: current }]
      : options;
  return (
    <SelectField
      key={key}
      label={label}
      {...select}
      defaultValue={current}
      options={choices}
      errors={field.errors}
    >
      <option value="">{none}</option>
    </SelectField>
  );
}

function ContactFields({
  field,
  legend,
  required,
  children,
}: {
  field: FieldMetadata<ParcelFormFields['sender']>;
  legend: string;
  required?: boolean;
  /** Fields of this contact's own (the recipient's language). */
  children?: ReactNode;
}) {
  const contact = field.getFieldset();
  return (
    <fieldset className="space-y-3">
      <legend className="text-base font-semibold text-gray-900">{legend}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        <InputsFromTable
          inputs={CONTACT_INPUTS}
          of={contact}
          required={required}
          autoComplete="off"
        />
        {children}
      </div>
    </fieldset>
  );
}

/** The package's choices, in the form's order; only the edit form sets the status. */
const PACKAGE_CHOICES: Array<{
  name: 'serviceType' | 'priority' | 'status';
  label: string;
  options: readonly string[];
  editOnly?: true;
}> = [
  { name: 'serviceType', label: 'Service Type', options: SERVICE_TYPES },
  { name: 'priority', label: 'Priority', options: PRIORITIES },
  { name: 'status', label: 'Status', options: PARCEL_STATUSES, editOnly: true },
];

/** Which shipper account the parcel is of: one of the active ones (or one suspended since), or none. */
function AccountField({
  field,
  accounts,
}: {
  field: FieldMetadata<string | null | undefined>;
  accounts: ReadonlyArray<{ id: string; name: string }>;
}) {
  return (
    <KeptChoiceField
      field={field}
      label="Account"
      options={accounts.map(({ id, name }) => ({ value: id, label: name }))}
      none="None — the company's own"
    />
  );
}

function MeasureField({ label, field }: { label: string; field: FieldMetadata<number> }) {
  return (
    <InputFor label={label} meta={field} type="number" step="0.1" min="0" inputMode="decimal" />
  );
}

/**
 * The create and edit parcel form; it posts to the current route's action. Destination rows are
 * added and removed with conform's list intents: buttons that submit, so without JavaScript the
 * action answers with the form one row longer or shorter, and with JavaScript conform does it here.
 */
export function ParcelForm({
  mode,
  defaults,
  lastResult,
  submitLabel,
  busyLabel,
  cancelTo,
  timeZone,
  version,
  notice,
  phoneProblem,
  accounts = [],
}: {
  mode: 'create' | 'edit';
  /** Why the stored recipient's phone cannot be texted (the edit form warns; it does not block). */
  phoneProblem?: string | null;
  /** The active shipper accounts a parcel may be given to. */
  accounts?: ReadonlyArray<{ id: string; name: string }>;
  /** The edited parcel's version as it was loaded: a save over a newer one is refused. */
  version?: number;
  /** Said above the fields, as an alert (a change someone else made meanwhile). */
  notice?: string;
  /** The recipient's zone (the company's for a new parcel), in which the window's times are read. */
  timeZone: string;
  defaults: ParcelFormDefaults;
  lastResult?: SubmissionResult<string[]> | null;
  submitLabel: string;
  busyLabel: string;
  cancelTo: string;
}) {
  const schema = mode === 'edit' ? ParcelUpdateFormSchema : ParcelCreateFormSchema;
  const [form, fields] = useForm<ParcelFormFields, unknown>({
    lastResult,
    defaultValue: defaults,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema, disableAutoCoercion: true }),
  });
  const dimensions = fields.dimensions.getFieldset();
  const window = fields.deliveryWindow.getFieldset();
  const destinations = fields.destinations.getFieldList();
  const busy = useIsPending({ state: 'submitting' });

  return (
    <Form method="post" {...getFormProps(form)} className="space-y-6">
      <DefaultSubmit>{submitLabel}</DefaultSubmit>
      {version === undefined ? null : <input type="hidden" name="version" value={version} />}
      {notice ? (
        <p
          role="alert"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          {notice}
        </p>
      ) : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <ContactFields field={fields.sender} legend="Sender Information" />
      <ContactFields field={fields.recipient} legend="Recipient Information" required>
        <LanguageField field={fields.recipient.getFieldset().language} />
        <PhoneTextWarning phone={defaults.recipient?.phone} problem={phoneProblem} />
      </ContactFields>
      <fieldset className="space-y-3">
        <legend className="text-base font-semibold text-gray-900">Additional Destinations</legend>
        <p className="text-sm text-gray-600">
          Optional. Without additional destinations, the recipient&apos;s address is the
          destination.
        </p>
        {fields.destinations.errors ? (
          <p id={fields.destinations.errorId} className="field-error">
            {fields.destinations.errors.join(' ')}
          </p>
        ) : null}
        {destinations.map((row, index) => (
          <fieldset
            key={row.key ?? index}
            className="space-y-3 rounded-md border border-gray-200 p-3"
          >
            <legend className="px-1 text-sm font-semibold text-gray-800">
              Destination {index + 1}
            </legend>
            <div className="grid gap-3 sm:grid-cols-2">
              <InputsFromTable inputs={DESTINATION_INPUTS} of={row.getFieldset()} />
            </div>
            <button
              {...form.remove.getButtonProps({ name: fields.destinations.name, index })}
              className="btn-secondary"
            >
              Remove destination {index + 1}
            </button>
          </fieldset>
        ))}
        {destinations.length < MAX_PARCEL_DESTINATIONS ? (
          <button
            {...form.insert.getButtonProps({
              name: fields.destinations.name,
              defaultValue: { country: 'USA' },
            })}
            className="btn-secondary"
          >
            Add Destination
          </button>
        ) : null}
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="text-base font-semibold text-gray-900">Package Details</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <MeasureField label="Weight (kg)" field={fields.weight} />
          <div className="grid grid-cols-3 gap-2 sm:col-span-2">
            <MeasureField label="Length (cm)" field={dimensions.length} />
            <MeasureField label="Width (cm)" field={dimensions.width} />
            <MeasureField label="Height (cm)" field={dimensions.height} />
          </div>
          {PACKAGE_CHOICES.filter((choice) => mode === 'edit' || !choice.editOnly).map(
            ({ name, label, options }) => {
              const { key, ...select } = getSelectProps(fields[name]);
              return (
                <SelectField
                  key={`${name}-${key ?? ''}`}
                  label={label}
                  {...select}
                  options={options}
                  errors={fields[name].errors}
                />
              );
            },
          )}
          <AccountField field={fields.accountId} accounts={accounts} />
          <InputFor
            label="Estimated Delivery Date"
            meta={fields.estimatedDelivery}
            type="date"
            hint={
              mode === 'edit'
                ? 'Leave empty to keep the current date.'
                : 'Optional. Defaults to 4 days from now.'
            }
          />
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-gray-900">Delivery Window</legend>
          <p className="text-xs text-gray-500">
            Optional. When the parcel is expected on the estimated delivery day, in the
            recipient&apos;s local time (
            {mode === 'edit' ? timeZone : 'read from their address, or its time zone'}): both times,
            or neither for the service&apos;s usual time.
          </p>
          <div className="grid grid-cols-2 gap-3">
            {(['from', 'until'] as const).map((end) => (
              <Fragment key={end}>
                <InputFor
                  label={end === 'from' ? 'From' : 'Until'}
                  meta={window[end]}
                  type="time"
                />
              </Fragment>
            ))}
          </div>
        </fieldset>
      </fieldset>
      <CancelAndSubmit cancelTo={cancelTo} pending={busy} pendingLabel={busyLabel}>
        {submitLabel}
      </CancelAndSubmit>
    </Form>
  );
}

/** The create or edit parcel form as a dialog over the parcel list, closing back to it. */
export function ParcelFormDialog({
  title,
  ...form
}: Omit<Parameters<typeof ParcelForm>[0], 'cancelTo'> & { title: string }) {
  const closeTo = useCloseTo('/dashboard/parcels');
  return (
    <RouteDialog title={title} closeTo={closeTo} size="xl">
      {/* A new version (after someone else's change) starts the form again from it. */}
      <ParcelForm key={form.version ?? 'new'} {...form} cancelTo={closeTo} />
    </RouteDialog>
  );
}
