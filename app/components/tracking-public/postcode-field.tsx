import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { Field } from '~/components/ui/field';
import { usePublicMessages } from '~/components/public/public-messages';

/** The field that opens a parcel to its recipient: the postcode of the delivery address. */
export function PostcodeField({
  field,
  className,
}: {
  field: FieldMetadata<string>;
  className?: string;
}) {
  const { t } = useTranslation('public');
  const { messages } = usePublicMessages();
  return (
    <Field
      className={className}
      label={t('manage.postcode')}
      {...getInputProps(field, { type: 'text' })}
      autoComplete="postal-code"
      required
      maxLength={20}
      errors={messages(field.errors)}
    />
  );
}
