import { useInputControl, type FieldMetadata } from '@conform-to/react';
import { useState, type ReactNode } from 'react';
import { RouteDialog } from '~/components/ui/route-dialog';
import type { ParcelOption } from '~/models/parcel.server';
import { useHydrated } from '~/utils/use-hydrated';
import { ParcelPickerSearch } from './parcel-picker-search';

/**
 * A dialog whose form is about one parcel (Send Notification, Generate Receipt): without
 * JavaScript the parcel search comes first, on the dialog's own URL (`action`, keeping `keep`);
 * with it, the form's ParcelField searches as staff type.
 */
export function ParcelPickerDialog({
  title,
  description,
  closeTo,
  action,
  picker,
  keep,
  children,
}: {
  title: string;
  description: string;
  closeTo: string;
  action: string;
  picker: { search: string; shown: number; truncated: boolean };
  keep: Record<string, string>;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <RouteDialog title={title} closeTo={closeTo} description={description}>
      {hydrated ? null : <ParcelPickerSearch action={action} {...picker} keep={keep} />}
      {children}
    </RouteDialog>
  );
}

/**
 * The parcel a picker form has chosen: with JavaScript the combobox's choice (`choose` sets it
 * and the form's field), without it the `<select>`'s, found among `parcels`.
 */
export function useParcelChoice(
  field: FieldMetadata<string>,
  parcels: ParcelOption[],
  loaded: ParcelOption | null,
) {
  const hydrated = useHydrated();
  const control = useInputControl(field);
  const [chosen, setChosen] = useState(loaded);
  const parcel = hydrated ? chosen : (parcels.find((p) => p.id === field.value) ?? null);
  function choose(next: ParcelOption | null) {
    setChosen(next);
    control.change(next?.id ?? '');
  }
  return { hydrated, chosen, parcel, choose };
}

/**
 * Without JavaScript, a button that asks the dialog's URL again with what the form holds, for the
 * server to fill in what the choice implies (a template's text, the parcel's sender).
 */
export function ApplyChoiceButton({
  action,
  label,
  hint,
}: {
  action: string;
  label: string;
  hint: ReactNode;
}) {
  return (
    <div>
      <button
        type="submit"
        formMethod="get"
        formAction={action}
        formNoValidate
        className="btn-secondary"
      >
        {label}
      </button>
      <p className="mt-1 text-xs text-gray-500">{hint}</p>
    </div>
  );
}
