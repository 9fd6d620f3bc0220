import { getCollectionProps, type FieldMetadata } from '@conform-to/react';

/** A labelled group of checkboxes for a list field, with its errors. Works without JavaScript. */
export function CheckboxGroup({
  legend,
  field,
  options,
  labels,
}: {
  legend: string;
  field: FieldMetadata<string[] | undefined>;
  options: readonly string[];
  labels?: Record<string, string>;
}) {
  const errors = field.errors;
  return (
    <fieldset aria-describedby={errors?.length ? field.errorId : undefined}>
      <legend className="field-label">{legend}</legend>
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        {getCollectionProps(field, { type: 'checkbox', options: [...options] }).map((props) => (
          <label key={props.key} className="flex items-center gap-2 text-sm">
            <input {...props} key={props.key} />
            {labels?.[props.value] ?? props.value}
          </label>
        ))}
      </div>
      {errors?.length ? (
        <ul id={field.errorId} className="field-error">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}
