import {
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

type Errors = string[] | undefined | null;

function ErrorList({ id, errors }: { id: string; errors: Errors }) {
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field-error">
      {errors.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/** What a labelled control says around itself. */
type Labelled = { label: ReactNode; errors?: Errors; hint?: ReactNode; className?: string };

/** What every labelled control is given: its id, and its errors tied to it for assistive technology. */
type ControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

/**
 * A control with its label above, an optional hint and its errors below: `control` draws the
 * input, select or textarea with the id and error attributes it is given.
 */
function LabelledControl({
  id: givenId,
  label,
  errors,
  hint,
  className,
  control,
}: Labelled & { id?: string; control: (props: ControlProps) => ReactNode }) {
  const fallbackId = useId();
  const id = givenId ?? fallbackId;
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {control({
        id,
        'aria-invalid': errors?.length ? true : undefined,
        'aria-describedby': errors?.length ? errorId : undefined,
      })}
      {hint ? <p className="mt-1 text-xs text-gray-500">{hint}</p> : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/**
 * A kind of labelled field: `draw` makes its control from the field's own props and the id and
 * error attributes LabelledControl gives it.
 */
function labelledField<Own extends { id?: string }>(
  draw: (own: Own, a11y: ControlProps) => ReactNode,
) {
  return function LabelledField({ label, errors, hint, className, ...own }: Own & Labelled) {
    return (
      <LabelledControl
        id={own.id}
        label={label}
        errors={errors}
        hint={hint}
        className={className}
        control={(a11y) => draw(own as unknown as Own, a11y)}
      />
    );
  };
}

/** A labelled input with its errors announced to assistive technology. */
export const Field = labelledField<InputHTMLAttributes<HTMLInputElement>>((input, a11y) => (
  <input {...input} {...a11y} className="field-input" />
));

/**
 * A select's props with one default value: a form sent back with a field given twice holds a list
 * where one value belongs, and a select that is not `multiple` shows the first.
 */
export function singleSelectProps<T extends SelectHTMLAttributes<HTMLSelectElement>>(props: T): T {
  if (!Array.isArray(props.defaultValue) || props.multiple) return props;
  return { ...props, defaultValue: props.defaultValue[0] };
}

/** A choice of a select: a value that is its own label, or a value and what it reads as. */
export type SelectOption = string | { value: string; label: ReactNode };

/** The `<option>`s of a list of choices. */
export function SelectOptions({ options }: { options: readonly SelectOption[] }) {
  return options.map((option) => {
    const { value, label } = typeof option === 'string' ? { value: option, label: option } : option;
    return (
      <option key={value} value={value}>
        {label}
      </option>
    );
  });
}

/** A labelled select: its `children` (a first choice such as "None") come before `options`. */
export const SelectField = labelledField<
  SelectHTMLAttributes<HTMLSelectElement> & { options?: readonly SelectOption[] }
>(({ options = [], children, ...select }, a11y) => (
  <select {...singleSelectProps(select)} {...a11y} className="field-input">
    {children}
    <SelectOptions options={options} />
  </select>
));

/** A labelled textarea with its errors announced to assistive technology. */
export const TextareaField = labelledField<TextareaHTMLAttributes<HTMLTextAreaElement>>(
  (textarea, a11y) => <textarea {...textarea} {...a11y} className="field-input" />,
);

/** Form-level errors (not tied to one field). */
export function FormErrors({ id, errors }: { id?: string; errors: Errors }) {
  if (!errors?.length) return null;
  return (
    <div
      id={id}
      role="alert"
      className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-700"
    >
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  );
}
