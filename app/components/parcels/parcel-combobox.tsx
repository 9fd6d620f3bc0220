import { type getSelectProps } from '@conform-to/react';
import {
  Combobox,
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Description,
  Field,
  Label,
} from '@headlessui/react';
import { useFetcher } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { pickerMessage } from '~/components/parcels/parcel-picker-search';
import { ParcelChoice } from '~/components/parcels/parcel-choice';
import { Spinner } from '~/components/ui/spinner';
import type { ParcelOption } from '~/models/parcel-reads.server';
import { PARCEL_SEARCH_MAX_LENGTH } from '~/schemas/constants';
import { SelectFor } from '~/components/ui/conform-fields';

export const PARCEL_OPTIONS_PATH = '/dashboard/parcels/options';
const DEBOUNCE_MS = 200;

type Options = { parcels: ParcelOption[]; truncated: boolean };

function parcelText(parcel: ParcelOption | null) {
  if (!parcel) return '';
  return `${parcel.trackingNumber} — ${parcel.senderName || '—'} → ${parcel.recipientName || '—'}`;
}

/**
 * A parcel picker for when JavaScript runs: a Headless UI combobox whose options the server
 * searches (tracking number, sender or recipient, over every parcel) as staff type. Before
 * hydration the screens render the GET search form and a `<select>` instead (ParcelPickerSearch).
 * With `name`, the chosen parcel's id goes with the form under that name, as the select sends it.
 */
export function ParcelCombobox({
  label,
  name,
  defaultParcel = null,
  onChange,
  errors,
  required,
  clearAfterChoice = false,
}: {
  label: string;
  name?: string;
  defaultParcel?: ParcelOption | null;
  onChange?: (parcel: ParcelOption | null) => void;
  errors?: string[];
  required?: boolean;
  /** For a picker that goes to the parcel rather than filling a field. */
  clearAfterChoice?: boolean;
}) {
  const fetcher = useFetcher<Options>();
  const { load } = fetcher;
  const [selected, setSelected] = useState<ParcelOption | null>(defaultParcel);
  // What the options on show were searched for.
  const [search, setSearch] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    load(PARCEL_OPTIONS_PATH);
    return () => clearTimeout(timer.current);
  }, [load]);

  function searchFor(text: string) {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const term = text.trim().slice(0, PARCEL_SEARCH_MAX_LENGTH);
      setSearch(term);
      load(`${PARCEL_OPTIONS_PATH}?${new URLSearchParams({ search: term })}`);
    }, DEBOUNCE_MS);
  }

  function choose(parcel: ParcelOption | null) {
    setSelected(clearAfterChoice ? null : parcel);
    onChange?.(parcel);
  }

  const data = fetcher.data && 'parcels' in fetcher.data ? fetcher.data : null;
  const parcels = data?.parcels ?? [];
  const searching = fetcher.state !== 'idle';
  const message = searching
    ? 'Searching…'
    : data
      ? pickerMessage({ search, shown: parcels.length, truncated: data.truncated })
      : '';
  const invalid = Boolean(errors?.length);

  return (
    <Field>
      <Label className="field-label">{label}</Label>
      <Combobox value={selected} onChange={choose} by="id">
        <div className="relative">
          <ComboboxInput
            ref={inputRef}
            className="field-input pr-10"
            displayValue={parcelText}
            onChange={(event) => searchFor(event.target.value)}
            maxLength={PARCEL_SEARCH_MAX_LENGTH}
            placeholder="Tracking number, sender or recipient"
            autoComplete="off"
            aria-required={required || undefined}
            aria-invalid={invalid || undefined}
          />
          <ComboboxButton
            aria-label={`Show parcels for ${label}`}
            className="absolute inset-y-0 right-0 flex items-center px-3 text-gray-600"
          >
            {searching ? (
              <Spinner />
            ) : (
              <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
                <path d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06Z" />
              </svg>
            )}
          </ComboboxButton>
          {/* Rendered while empty too, so a list opened before the answer arrived shows it. */}
          <ComboboxOptions className="absolute z-10 mt-1 max-h-72 w-full overflow-auto rounded-md bg-white py-1 text-sm shadow-lg ring-1 ring-black/10 empty:hidden focus:outline-none">
            {parcels.map((parcel) => (
              <ComboboxOption
                key={parcel.id}
                value={parcel}
                className="cursor-pointer px-3 py-2 text-gray-900 data-[focus]:bg-brand-50 data-[focus]:outline data-[focus]:outline-2 data-[focus]:-outline-offset-2 data-[focus]:outline-brand-500 data-[selected]:font-semibold"
              >
                <ParcelChoice
                  parcel={parcel}
                  numberClassName="font-mono"
                  partiesClassName="text-gray-700"
                />
              </ComboboxOption>
            ))}
          </ComboboxOptions>
        </div>
      </Combobox>
      {name ? (
        // The id the form sends. Not a hidden input: a form that refuses a submit focuses its first
        // invalid field, and this one hands the focus on to the combobox.
        <input
          name={name}
          value={selected?.id ?? ''}
          readOnly
          tabIndex={-1}
          aria-hidden="true"
          autoComplete="off"
          className="sr-only"
          onFocus={() => inputRef.current?.focus()}
        />
      ) : null}
      <Description className="mt-1 text-xs text-gray-600" aria-live="polite">
        {message}
      </Description>
      {invalid ? (
        <Description as="ul" className="field-error">
          {errors!.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </Description>
      ) : null}
    </Field>
  );
}

/**
 * A form's parcel field: the combobox once JavaScript runs; before, a `<select>` of `parcels` (the
 * newest, or those the GET search form found), each labelled by `optionLabel`. Either way the
 * form sends the chosen parcel's id under the field's name.
 */
export function ParcelField({
  field,
  hydrated,
  chosen,
  parcels,
  onChange,
  optionLabel,
}: {
  field: Parameters<typeof getSelectProps>[0] & { errors?: string[] };
  hydrated: boolean;
  chosen: ParcelOption | null;
  parcels: ParcelOption[];
  onChange: (parcel: ParcelOption | null) => void;
  optionLabel: (parcel: ParcelOption) => string;
}) {
  if (hydrated)
    return (
      <ParcelCombobox
        label="Parcel"
        name={field.name}
        defaultParcel={chosen}
        required
        errors={field.errors}
        onChange={onChange}
      />
    );
  return (
    <SelectFor label="Parcel" meta={field} required>
      <option value="">Select a parcel…</option>
      {parcels.map((p) => (
        <option key={p.id} value={p.id}>
          {optionLabel(p)}
        </option>
      ))}
    </SelectFor>
  );
}
