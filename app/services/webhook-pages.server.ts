import { assertPublicDestination, WebhookUrlError } from './webhooks.server';

/** The URL's error for a form, or null when the receiver may be called. */
export async function webhookUrlProblem(url: string | undefined): Promise<string | null> {
  if (url === undefined) return null;
  try {
    await assertPublicDestination(url);
    return null;
  } catch (error) {
    if (error instanceof WebhookUrlError) return error.message;
    throw error;
  }
}
