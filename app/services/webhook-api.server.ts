import { ApiError } from '~/lib/api.server';
import { assertPublicDestination, WebhookUrlError } from './webhooks.server';

/** 400 with a detail for `url` when a webhook's URL points somewhere it may not. */
export async function checkWebhookUrl(url: string | undefined) {
  if (url === undefined) return;
  try {
    await assertPublicDestination(url);
  } catch (error) {
    if (error instanceof WebhookUrlError)
      throw new ApiError(400, 'Validation failed', { url: [error.message] });
    throw error;
  }
}
