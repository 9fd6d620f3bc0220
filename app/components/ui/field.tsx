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

/** A labelled input with its errors announced to assistive technology. */
export function Field({
  label,
  errors,
  hint,
  className,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode;
  errors?: Errors;
  hint?: ReactNode;
}) {
  const fallbackId = useId();
  const id = props.id ?? fallbackId;
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        {...props}
        id={id}
        className="field-input"
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
      />
      {hint ? <p className="mt-1 text-xs text-gray-500">{hint}</p> : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

/**
 * A select's props with one default value: a form sent back with a field given twice holds a list
 * where one value belongs, and a select that is not `multiple` shows the first.
 */
export function singleSelectProps<T extends SelectHTMLAttributes<HTMLSelectElement>>(props: T): T {
  if (!Array.isArray(props.defaultValue) || props.multiple) return props;
  return { ...props, defaultValue: props.defaultValue[0] };
}

export function SelectField({
  label,
  errors,
  className,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: ReactNode; errors?: Errors }) {
  const fallbackId = useId();
  const id = props.id ?? fallbackId;
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        {...singleSelectProps(props)}
        id={id}
        className="field-input"
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
      >
        {children}
      </select>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

export function TextareaField({
  label,
  errors,
  className,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: ReactNode; errors?: Errors }) {
  const fallbackId = useId();
  const id = props.id ?? fallbackId;
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <textarea
        {...props}
        id={id}
        className="field-input"
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
      />
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

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
