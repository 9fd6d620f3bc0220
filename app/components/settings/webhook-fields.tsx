import { getInputProps, type FieldMetadata } from '@conform-to/react';
import { Field } from '~/components/ui/field';
import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
} from '~/schemas/integrations';
import { CheckboxGroup } from './checkbox-group';

/** URL, description and events: the fields of the create and edit forms. */
export function WebhookFields({
  fields,
}: {
  fields: {
    url: FieldMetadata<string | undefined>;
    description: FieldMetadata<string | undefined>;
    events: FieldMetadata<string[] | undefined>;
  };
}) {
  return (
    <>
      <Field
        label="Endpoint URL"
        {...getInputProps(fields.url, { type: 'url' })}
        required
        maxLength={WEBHOOK_URL_MAX}
        placeholder="https://example.com/webhooks/courier"
        errors={fields.url.errors}
      />
      <Field
        label="Description"
        {...getInputProps(fields.description, { type: 'text' })}
        maxLength={WEBHOOK_DESCRIPTION_MAX}
        errors={fields.description.errors}
      />
      <CheckboxGroup legend="Events" field={fields.events} options={WEBHOOK_EVENT_TYPES} />
    </>
  );
}
