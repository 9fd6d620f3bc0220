import {
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type FieldMetadata,
} from '@conform-to/react';
import type { ComponentProps } from 'react';
import { Field, SelectField, TextareaField } from './field';

/** A form's field as conform describes it: its name, id, constraints, value and errors. */
type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;

type Bound<Props> = Omit<Props, 'errors' | 'name' | 'type'> & { meta: Meta };

type InputType = Exclude<Parameters<typeof getInputProps>[1]['type'], 'checkbox' | 'radio'>;

/**
 * The labelled fields of a conform form: each takes its field's metadata for the control's
 * name, id, constraints and value, and shows that field's errors, so that a form names each
 * field once.
 */
export function InputFor({
  meta,
  type = 'text',
  ...props
}: Bound<ComponentProps<typeof Field>> & { type?: InputType }) {
  return <Field {...getInputProps(meta, { type })} {...props} errors={meta.errors} />;
}

export function TextareaFor({ meta, ...props }: Bound<ComponentProps<typeof TextareaField>>) {
  return <TextareaField {...getTextareaProps(meta)} {...props} errors={meta.errors} />;
}

export function SelectFor({ meta, ...props }: Bound<ComponentProps<typeof SelectField>>) {
  return <SelectField {...getSelectProps(meta)} {...props} errors={meta.errors} />;
}

/** A password the form asks for, to sign in (`current-password`) or to choose one (`new-password`). */
export function PasswordFor(
  props: Omit<ComponentProps<typeof InputFor>, 'type' | 'required' | 'autoComplete'> & {
    autoComplete: 'current-password' | 'new-password';
  },
) {
  return <InputFor {...props} type="password" required />;
}
