import { type FieldMetadata } from '@conform-to/react';
import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
} from '~/schemas/integrations';
import { CheckboxGroup } from './checkbox-group';
import { InputFor } from '~/components/ui/conform-fields';

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
      <InputFor
        label="Endpoint URL"
        meta={fields.url}
        type="url"
        required
        maxLength={WEBHOOK_URL_MAX}
        placeholder="https://example.com/webhooks/courier"
      />
      <InputFor label="Description" meta={fields.description} maxLength={WEBHOOK_DESCRIPTION_MAX} />
      <CheckboxGroup legend="Events" field={fields.events} options={WEBHOOK_EVENT_TYPES} />
    </>
  );
}
