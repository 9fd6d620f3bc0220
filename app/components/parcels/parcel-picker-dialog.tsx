import {
  getFormProps,
  useForm,
  useInputControl,
  type FieldMetadata,
  type SubmissionResult,
} from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { useState, type ComponentType, type ReactNode } from 'react';
import type { z } from 'zod';
import { FormErrors } from '~/components/ui/field';
import { RouteDialog } from '~/components/ui/route-dialog';
import { DefaultSubmit, SubmitButton } from '~/components/ui/submit-button';
import type { ParcelOption } from '~/models/parcel-reads.server';
import { useHydrated } from '~/utils/use-hydrated';
import { useIsPending } from '~/utils/use-is-pending';
import { ParcelField } from './parcel-combobox';
import { ParcelPickerSearch } from './parcel-picker-search';

/** What a picker dialog's form starts from: the parcels to choose from, the chosen one, its values. */
type PickerFormProps<Values> = {
  parcels: ParcelOption[];
  chosen: ParcelOption | null;
  defaultValue: Values;
};

/** What the loader of a picker dialog answers: `loadParcelChoices`'s, and the form's values. */
type PickerData<Values> = Omit<PickerFormProps<Values>, 'defaultValue'> & {
  values: Values;
  picker: { search: string; shown: number; truncated: boolean };
};

/** conform's form of a picker dialog and the parcel it has chosen. */
export type PickedForm<Values extends { parcelId: string }> = ReturnType<
  typeof useParcelPickerForm<Values>
>;

/** What a picker dialog's fields are given: the form, and the rest of what the loader answered. */
export type PickerFieldsProps<Data extends PickerData<{ parcelId: string }>> = Omit<
  Data,
  'values' | 'picker' | 'parcels' | 'chosen'
> & { picked: PickedForm<Data['values']> };

/** One picker dialog: its texts, where it lives, and its form. */
export type PickerDialog<Data extends PickerData<{ parcelId: string }>> = {
  title: string;
  description: string;
  listPath: string;
  /** What the URL carries besides the parcel, which a search for another parcel keeps. */
  keep: (values: Data['values']) => Record<string, string>;
  /** The values that, applied through the URL (a template, a parcel), start the form afresh. */
  restartOn: (values: Data['values']) => string[];
  /** The form's schema: checked in the browser when it is sent, then on every input. */
  schema: z.ZodType;
  /** How the list shown without JavaScript names each parcel. */
  optionLabel: (parcel: ParcelOption) => string;
  /** What choosing a parcel does besides choosing it. */
  onChoose?: (parcel: ParcelOption | null, picked: PickedForm<Data['values']>) => void;
  submitLabel: string;
  pendingLabel: string;
  /** Enter presses the submit button, even where another button comes first. */
  enterSubmits?: true;
  /** The fields after the parcel. */
  Fields: ComponentType<PickerFieldsProps<Data>>;
};

/**
 * The page of a dialog at `{listPath}/new` whose form is about one parcel (Send Notification,
 * Generate Receipt), from what its loader answered: without JavaScript the parcel search comes
 * first, on the dialog's own URL; with it, the form's ParcelField searches as staff type. Closing
 * it goes back to the list.
 */
export function ParcelPickerRoute<Data extends PickerData<{ parcelId: string }>>({
  dialog,
}: {
  dialog: PickerDialog<Data>;
}) {
  const data = useLoaderData() as Data;
  const { values, picker } = data;
  const hydrated = useHydrated();
  const keep = {
    ...dialog.keep(values),
    ...(values.parcelId ? { parcelId: values.parcelId } : {}),
  };
  return (
    <RouteDialog title={dialog.title} closeTo={dialog.listPath} description={dialog.description}>
      {hydrated ? null : (
        <ParcelPickerSearch action={`${dialog.listPath}/new`} {...picker} keep={keep} />
      )}
      <PickerForm key={dialog.restartOn(values).join('|')} dialog={dialog} data={data} />
    </RouteDialog>
  );
}

function PickerForm<Data extends PickerData<{ parcelId: string }>>({
  dialog,
  data,
}: {
  dialog: PickerDialog<Data>;
  data: Data;
}) {
  const { values: defaultValue, parcels, chosen } = data;
  const picked = useParcelPickerForm<Data['values']>(dialog.schema, {
    defaultValue,
    parcels,
    chosen,
  });
  return (
    <ParcelPickerForm
      picked={picked}
      action={`${dialog.listPath}/new`}
      onChange={(parcel) => {
        picked.choose(parcel);
        dialog.onChoose?.(parcel, picked);
      }}
      optionLabel={dialog.optionLabel}
      submitLabel={dialog.submitLabel}
      pendingLabel={dialog.pendingLabel}
      enterSubmits={dialog.enterSubmits}
    >
      <dialog.Fields
        {...(data as Omit<Data, 'values' | 'picker' | 'parcels' | 'chosen'>)}
        picked={picked}
      />
    </ParcelPickerForm>
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
function useParcelPickerForm<Values extends { parcelId: string }>(
  schema: z.ZodType,
  { defaultValue, parcels, chosen }: PickerFormProps<Values>,
) {
  const lastResult = useActionData<PickerFormResult>();
  const [form, fields] = useForm<Values, unknown>({
    lastResult,
    defaultValue: defaultValue as FormOptions<Values>['defaultValue'],
    defaultNoValidate: false,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  const choice = useParcelChoice(fields.parcelId as FieldMetadata<string>, parcels, chosen);
  return { form, fields, parcels, ...choice };
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

/**
 * A picker dialog's form, posting to `action`: the form's errors, the parcel to choose
 * (`optionLabel` says how the list without JavaScript names each), what `children` add, and the
 * submit button; with `enterSubmits`, the one Enter presses even where another button comes first.
 */
function ParcelPickerForm<Values extends { parcelId: string }>({
  picked,
  action,
  onChange,
  optionLabel,
  submitLabel,
  pendingLabel,
  enterSubmits,
  children,
}: {
  picked: ReturnType<typeof useParcelPickerForm<Values>>;
  action: string;
  onChange: (parcel: ParcelOption | null) => void;
  optionLabel: (parcel: ParcelOption) => string;
  submitLabel: string;
  pendingLabel: string;
  enterSubmits?: boolean;
  children: ReactNode;
}) {
  const { form, fields, hydrated, chosen } = picked;
  const pending = useIsPending({ formAction: action, state: 'submitting' });
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="space-y-4">
      {enterSubmits ? <DefaultSubmit>{submitLabel}</DefaultSubmit> : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <ParcelField
        field={fields.parcelId}
        hydrated={hydrated}
        chosen={chosen}
        parcels={picked.parcels}
        onChange={onChange}
        optionLabel={optionLabel}
      />
      {children}
      <div className="flex justify-end gap-2">
        <SubmitButton pending={pending} pendingLabel={pendingLabel}>
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}
