import { Form } from '@remix-run/react';
import { useId } from 'react';
import { PARCEL_SEARCH_MAX_LENGTH } from '~/schemas/constants';

/** What the picker tells about the parcels it offers. */
export function pickerMessage({
  search,
  shown,
  truncated,
}: {
  search: string;
  shown: number;
  truncated: boolean;
}) {
  if (search && shown === 0) return `No parcels match “${search}”.`;
  if (search && truncated)
    return `Showing the first ${shown} matches for “${search}”. Type more to narrow them down.`;
  if (search) return `${shown} parcel${shown === 1 ? '' : 's'} match “${search}”.`;
  if (truncated)
    return `Showing the newest ${shown} parcels. Search by tracking number, sender or recipient to find any other.`;
  return '';
}

/**
 * The search that feeds a parcel picker without JavaScript: a GET form on the dialog's own URL,
 * so the server searches every parcel (by tracking number, sender or recipient) and the picker's
 * `<select>` lists what it found. Once JavaScript runs, ParcelCombobox takes the place of both.
 * `keep` carries the dialog's other query values (a chosen template, format...) along.
 */
export function ParcelPickerSearch({
  action,
  search,
  shown,
  truncated,
  keep = {},
}: {
  action: string;
  search: string;
  shown: number;
  truncated: boolean;
  keep?: Record<string, string>;
}) {
  const id = useId();
  const message = pickerMessage({ search, shown, truncated });
  return (
    <Form
      method="get"
      action={action}
      role="search"
      aria-label="Find a parcel"
      className="space-y-1"
    >
      <label htmlFor={`${id}-search`} className="field-label">
        Find a parcel
      </label>
      <div className="flex gap-2">
        <input
          id={`${id}-search`}
          type="search"
          name="parcelSearch"
          defaultValue={search}
          maxLength={PARCEL_SEARCH_MAX_LENGTH}
          placeholder="Tracking number, sender or recipient"
          aria-describedby={message ? `${id}-message` : undefined}
          className="field-input"
        />
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className="btn-secondary">
          Find
        </button>
      </div>
      <p id={`${id}-message`} className="text-xs text-gray-600">
        {message}
      </p>
    </Form>
  );
}
