import { forwardRef } from 'react';

/** A choice of a filter: its value and, when they differ, the words shown for it. */
export type FilterChoice = string | { value: string; label: string };

type FilterSelectProps = {
  id: string;
  name: string;
  label: string;
  /** The label for screen readers only, where the choices say what the filter is. */
  hideLabel?: boolean;
  defaultValue: string;
  /** The first choice, for no filter (value ''): "All statuses". */
  all?: string;
  choices: readonly FilterChoice[];
};

/**
 * One filter of a list's GET form: a labelled `<select>` of its choices, the first of which may
 * stand for no filter. The form submits it with JavaScript off; a page may submit on change.
 */
export const FilterSelect = forwardRef<HTMLSelectElement, FilterSelectProps>(function FilterSelect(
  { id, name, label, hideLabel = false, defaultValue, all, choices },
  ref,
) {
  return (
    <div>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'field-label'}>
        {label}
      </label>
      <select id={id} name={name} defaultValue={defaultValue} ref={ref} className="field-input">
        {all === undefined ? null : <option value="">{all}</option>}
        {choices.map((choice) => {
          const { value, label: words } =
            typeof choice === 'string' ? { value: choice, label: choice } : choice;
          return (
            <option key={value} value={value}>
              {words}
            </option>
          );
        })}
      </select>
    </div>
  );
});

/**
 * One text filter of a list's GET form: a labelled field, at most `maxLength` characters, or of
 * another `type` (a day's).
 */
export function FilterText({
  id,
  name,
  label,
  defaultValue,
  maxLength,
  type,
  placeholder,
  className = 'field-input',
}: {
  id: string;
  name: string;
  label: string;
  defaultValue: string;
  maxLength?: number;
  type?: 'date' | 'search';
  placeholder?: string;
  className?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={defaultValue}
        maxLength={maxLength}
        placeholder={placeholder}
        className={className}
      />
    </div>
  );
}
