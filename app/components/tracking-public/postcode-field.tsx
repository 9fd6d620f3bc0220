import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { Field } from '~/components/ui/field';

/** The field that opens a parcel to its recipient: the postcode of the delivery address. */
export function PostcodeField({
  field,
  className,
}: {
  field: FieldMetadata<string>;
  className?: string;
}) {
  return (
    <Field
      className={className}
      label="Postcode of the delivery address"
      {...getInputProps(field, { type: 'text' })}
      autoComplete="postal-code"
      required
      maxLength={20}
      errors={field.errors}
    />
  );
}
