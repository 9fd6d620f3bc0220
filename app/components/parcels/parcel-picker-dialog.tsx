import {
  useForm,
  useInputControl,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { RouteDialog } from '~/components/ui/route-dialog';
import type { ParcelOption } from '~/models/parcel.server';
import { useHydrated } from '~/utils/use-hydrated';
import { ParcelPickerSearch } from './parcel-picker-search';

/**
 * A dialog at `{listPath}/new` whose form is about one parcel (Send Notification, Generate
 * Receipt): without JavaScript the parcel search comes first, on the dialog's own URL (keeping
 * `keep`); with it, the form's ParcelField searches as staff type. Closing it goes back to the list.
 */
export function ParcelPickerDialog({
  title,
  description,
  listPath,
  picker,
  keep,
  children,
}: {
  title: string;
  description: string;
  listPath: string;
  picker: { search: string; shown: number; truncated: boolean };
  keep: Record<string, string>;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <RouteDialog title={title} closeTo={listPath} description={description}>
      {hydrated ? null : <ParcelPickerSearch action={`${listPath}/new`} {...picker} keep={keep} />}
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

/** What the dialog's action answered when it did not accept the form. */
export type PickerFormResult = SubmissionResult<string[]> | null;

type FormOptions<Values extends Record<string, unknown>> = NonNullable<
  Parameters<typeof useForm<Values, unknown>>[0]
>;

/**
 * The form of a parcel picker dialog (checked in the browser when it is sent, then on every
 * input, and always on the server) with the parcel it has chosen.
 */
export function useParcelPickerForm<Values extends { parcelId: string }>({
  schema,
  defaultValue,
  lastResult,
  parcels,
  chosen,
}: {
  schema: z.ZodType;
  defaultValue: Values;
  lastResult?: PickerFormResult;
  parcels: ParcelOption[];
  chosen: ParcelOption | null;
}) {
  const [form, fields] = useForm<Values, unknown>({
    lastResult,
    defaultValue: defaultValue as FormOptions<Values>['defaultValue'],
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const choice = useParcelChoice(fields.parcelId as FieldMetadata<string>, parcels, chosen);
  return { form, fields, ...choice };
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
