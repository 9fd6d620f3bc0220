import { Form, Link, useNavigation } from '@remix-run/react';
import { useState, type MouseEvent } from 'react';
import { Field, FormErrors, SelectField } from '~/components/ui/field';
import { Spinner } from '~/components/ui/spinner';
import type { SerializedParcel } from '~/models/parcel.server';
import {
  MAX_PARCEL_DESTINATIONS,
  PARCEL_STATUSES,
  PRIORITIES,
  SERVICE_TYPES,
} from '~/schemas/constants';
import {
  ADD_DESTINATION_INTENT,
  emptyDestination,
  REMOVE_DESTINATION_PREFIX,
  SAVE_INTENT,
  type ParcelFormValues,
} from '~/schemas/parcel';
import { useHydrated } from '~/utils/use-hydrated';

type Destination = ParcelFormValues['destinations'][number];

/** What the form shows: numbers may be blank on a new parcel. */
export type ParcelFormDefaults = Omit<ParcelFormValues, 'weight' | 'dimensions'> & {
  weight: number | '';
  dimensions: { length: number | ''; width: number | ''; height: number | '' };
};

export type ParcelFormResult = {
  values?: ParcelFormValues;
  fieldErrors?: Record<string, string[]>;
  formErrors?: string[];
  /** Changes on every action reply, so the form re-mounts with the values sent back. */
  revision?: string;
};

export function newParcelDefaults(): ParcelFormDefaults {
  return {
    sender: { name: '', email: '', phone: '', address: '' },
    recipient: { name: '', email: '', phone: '', address: '' },
    destinations: [],
    weight: '',
    dimensions: { length: '', width: '', height: '' },
    serviceType: 'Standard',
    priority: 'Standard',
    estimatedDelivery: '',
  };
}

export function parcelToFormDefaults(parcel: SerializedParcel): ParcelFormDefaults {
  return {
    sender: parcel.sender,
    recipient: parcel.recipient,
    destinations: parcel.destinations.map(({ name, address, city, country, postalCode }) => ({
      name,
      address,
      city,
      country,
      postalCode,
    })),
    weight: parcel.weight,
    dimensions: parcel.dimensions,
    serviceType: parcel.serviceType,
    priority: parcel.priority,
    status: parcel.status,
    estimatedDelivery: parcel.estimatedDelivery ? parcel.estimatedDelivery.slice(0, 10) : '',
  };
}

function ContactFields({
  prefix,
  legend,
  values,
  errors,
  required,
}: {
  prefix: 'sender' | 'recipient';
  legend: string;
  values: ParcelFormDefaults['sender'];
  errors: Record<string, string[]>;
  required?: boolean;
}) {
  return (
    <fieldset className="space-y-3">
      <legend className="text-base font-semibold text-gray-900">{legend}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label={required ? 'Name (required)' : 'Name'}
          name={`${prefix}.name`}
          defaultValue={values.name}
          autoComplete="off"
          maxLength={200}
          errors={errors[`${prefix}.name`]}
        />
        <Field
          label="Email"
          type="email"
          name={`${prefix}.email`}
          defaultValue={values.email}
          autoComplete="off"
          maxLength={254}
          errors={errors[`${prefix}.email`]}
        />
        <Field
          label="Phone"
          type="tel"
          name={`${prefix}.phone`}
          defaultValue={values.phone}
          autoComplete="off"
          maxLength={50}
          errors={errors[`${prefix}.phone`]}
        />
        <Field
          label={required ? 'Address (required)' : 'Address'}
          name={`${prefix}.address`}
          defaultValue={values.address}
          autoComplete="off"
          maxLength={500}
          errors={errors[`${prefix}.address`]}
        />
      </div>
    </fieldset>
  );
}

let rowKeySeed = 0;
const nextRowKey = () => `row-${++rowKeySeed}`;

function DestinationFields({
  initial,
  errors,
}: {
  initial: Destination[];
  errors: Record<string, string[]>;
}) {
  const hydrated = useHydrated();
  // Rows keep a stable key so removing one keeps what was typed in the others.
  const [rows, setRows] = useState(() => initial.map((d) => ({ key: nextRowKey(), defaults: d })));

  // With JS the buttons change the rows here; without, they submit and the action re-renders the form.
  function add(event: MouseEvent<HTMLButtonElement>) {
    if (!hydrated) return;
    event.preventDefault();
    setRows((current) =>
      current.length >= MAX_PARCEL_DESTINATIONS
        ? current
        : [...current, { key: nextRowKey(), defaults: emptyDestination() }],
    );
  }
  function remove(event: MouseEvent<HTMLButtonElement>, key: string) {
    if (!hydrated) return;
    event.preventDefault();
    setRows((current) => current.filter((row) => row.key !== key));
  }

  return (
    <fieldset className="space-y-3">
      <legend className="text-base font-semibold text-gray-900">Additional Destinations</legend>
      <p className="text-sm text-gray-600">
        Optional. Without additional destinations, the recipient&apos;s address is the destination.
      </p>
      {errors.destinations ? <p className="field-error">{errors.destinations.join(' ')}</p> : null}
      {rows.map((row, index) => {
        const field = (name: keyof Destination) => `destinations.${index}.${name}`;
        return (
          <fieldset key={row.key} className="space-y-3 rounded-md border border-gray-200 p-3">
            <legend className="px-1 text-sm font-semibold text-gray-800">
              Destination {index + 1}
            </legend>
            <div className="grid gap-3 sm:grid-cols-2">
              <Field
                label="Name"
                name={field('name')}
                defaultValue={row.defaults.name}
                maxLength={200}
                errors={errors[field('name')]}
              />
              <Field
                label="Address"
                name={field('address')}
                defaultValue={row.defaults.address}
                maxLength={500}
                errors={errors[field('address')]}
              />
              <Field
                label="City"
                name={field('city')}
                defaultValue={row.defaults.city}
                maxLength={100}
                errors={errors[field('city')]}
              />
              <Field
                label="Country"
                name={field('country')}
                defaultValue={row.defaults.country}
                maxLength={100}
                errors={errors[field('country')]}
              />
              <Field
                label="Postal Code"
                name={field('postalCode')}
                defaultValue={row.defaults.postalCode}
                maxLength={20}
                errors={errors[field('postalCode')]}
              />
            </div>
            <button
              type="submit"
              name="intent"
              value={`${REMOVE_DESTINATION_PREFIX}${index}`}
              className="btn-secondary"
              onClick={(event) => remove(event, row.key)}
            >
              Remove destination {index + 1}
            </button>
          </fieldset>
        );
      })}
      {rows.length < MAX_PARCEL_DESTINATIONS ? (
        <button
          type="submit"
          name="intent"
          value={ADD_DESTINATION_INTENT}
          className="btn-secondary"
          onClick={add}
        >
          Add Destination
        </button>
      ) : null}
    </fieldset>
  );
}

/** The create and edit parcel form; it posts to the current route's action. */
export function ParcelForm({
  defaults,
  result,
  withStatus,
  submitLabel,
  busyLabel,
  cancelTo,
}: {
  defaults: ParcelFormDefaults;
  result?: ParcelFormResult | null;
  withStatus?: boolean;
  submitLabel: string;
  busyLabel: string;
  cancelTo: string;
}) {
  const values: ParcelFormDefaults = result?.values ?? defaults;
  const errors = result?.fieldErrors ?? {};
  const navigation = useNavigation();
  const busy =
    navigation.state === 'submitting' &&
    navigation.formMethod?.toUpperCase() === 'POST' &&
    (navigation.formData?.get('intent') ?? SAVE_INTENT) === SAVE_INTENT;

  return (
    <Form method="post" key={result?.revision ?? 'initial'} className="space-y-6" noValidate>
      {/* Enter in a field submits with the first submit button: make that the save button. */}
      <button
        type="submit"
        name="intent"
        value={SAVE_INTENT}
        tabIndex={-1}
        aria-hidden="true"
        className="sr-only"
      >
        {submitLabel}
      </button>
      <FormErrors errors={result?.formErrors} />
      <ContactFields
        prefix="sender"
        legend="Sender Information"
        values={values.sender}
        errors={errors}
      />
      <ContactFields
        prefix="recipient"
        legend="Recipient Information"
        values={values.recipient}
        errors={errors}
        required
      />
      <DestinationFields initial={values.destinations} errors={errors} />
      <fieldset className="space-y-3">
        <legend className="text-base font-semibold text-gray-900">Package Details</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field
            label="Weight (kg)"
            type="number"
            name="weight"
            step="0.1"
            min="0"
            inputMode="decimal"
            defaultValue={values.weight}
            errors={errors.weight}
          />
          <div className="grid grid-cols-3 gap-2 sm:col-span-2">
            <Field
              label="Length (cm)"
              type="number"
              name="dimensions.length"
              step="0.1"
              min="0"
              inputMode="decimal"
              defaultValue={values.dimensions.length}
              errors={errors['dimensions.length']}
            />
            <Field
              label="Width (cm)"
              type="number"
              name="dimensions.width"
              step="0.1"
              min="0"
              inputMode="decimal"
              defaultValue={values.dimensions.width}
              errors={errors['dimensions.width']}
            />
            <Field
              label="Height (cm)"
              type="number"
              name="dimensions.height"
              step="0.1"
              min="0"
              inputMode="decimal"
              defaultValue={values.dimensions.height}
              errors={errors['dimensions.height']}
            />
          </div>
          <SelectField
            label="Service Type"
            name="serviceType"
            defaultValue={values.serviceType}
            errors={errors.serviceType}
          >
            {SERVICE_TYPES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Priority"
            name="priority"
            defaultValue={values.priority}
            errors={errors.priority}
          >
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </SelectField>
          {withStatus ? (
            <SelectField
              label="Status"
              name="status"
              defaultValue={values.status ?? 'Pending'}
              errors={errors.status}
            >
              {PARCEL_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </SelectField>
          ) : null}
          <Field
            label="Estimated Delivery Date"
            type="date"
            name="estimatedDelivery"
            defaultValue={values.estimatedDelivery}
            hint={
              withStatus
                ? 'Leave empty to keep the current date.'
                : 'Optional. Defaults to 4 days from now.'
            }
            errors={errors.estimatedDelivery}
          />
        </div>
      </fieldset>
      <div className="flex flex-wrap justify-end gap-3">
        <Link to={cancelTo} preventScrollReset className="btn-secondary">
          Cancel
        </Link>
        <button
          type="submit"
          name="intent"
          value={SAVE_INTENT}
          className="btn-primary"
          disabled={busy}
        >
          {busy ? <Spinner /> : null}
          {busy ? busyLabel : submitLabel}
        </button>
      </div>
    </Form>
  );
}
