import { parseWithZod } from '@conform-to/zod/v4';
import { ApiKeyCreateSchema, ApiKeyRevokeSchema } from '~/schemas/integrations';

/**
 * The API keys page's forms as they post, parsed here: the page loads zod in the browser only
 * for the form it checks there, once it is interactive (useCreateForm).
 */
export function parseApiKeyCreate(formData: FormData) {
  return parseWithZod(formData, { schema: ApiKeyCreateSchema });
}

export function parseApiKeyRevoke(formData: FormData) {
  return parseWithZod(formData, { schema: ApiKeyRevokeSchema });
}
