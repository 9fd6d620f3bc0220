import { getInputProps, type FieldMetadata } from '@conform-to/react';
import type { ReactNode } from 'react';
import { Field } from './field';

/** How a form asks for one of its inputs: an entry of the table that draws them in order. */
export type InputSpec<Name extends string> = {
  name: Name;
  label: string;
  type?: 'text' | 'email' | 'tel' | 'password';
  maxLength?: number;
  autoComplete?: string;
  hint?: ReactNode;
  /** Said "(required)" where the group is required. */
  requiredWhen?: true;
};

/**
 * The labelled inputs of conform's fields `of`, each as its entry in `inputs` asks;
 * `autoComplete` for those whose entry does not say.
 */
export function InputsFromTable<Name extends string>({
  inputs,
  of,
  required,
  autoComplete,
}: {
  inputs: ReadonlyArray<InputSpec<Name>>;
  of: Record<Name, FieldMetadata<string | undefined>>;
  required?: boolean;
  autoComplete?: string;
}) {
  return inputs.map(({ name, label, type = 'text', requiredWhen, ...input }) => {
    // conform's key changes when the form is reset, which starts the input afresh.
    const { key, ...props } = getInputProps(of[name], { type });
    return (
      <Field
        key={`${name}-${key ?? ''}`}
        label={required && requiredWhen ? `${label} (required)` : label}
        {...props}
        autoComplete={autoComplete}
        {...input}
        errors={of[name].errors}
      />
    );
  });
}
