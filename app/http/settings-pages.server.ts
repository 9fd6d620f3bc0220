import { parseWithZod } from '@conform-to/zod/v4';
import { json } from '@remix-run/node';
import { listApiKeys } from '~/models/api-key.server';
import { ApiKeyCreateSchema, ApiKeyRevokeSchema } from '~/schemas/integrations';
import { GONE, redirectWithOutcome } from '~/lib/flash.server';
import { invalidForm, type FormReply } from '~/lib/form-reply.server';
import type { Actor } from '~/services/audit.server';
import { revokeApiKey } from '~/services/integrations.server';

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

/** What an API keys page's create and revoke forms answer when they are not accepted. */
export const keyFormReply = (result: FormReply) => ({ created: null, result });

/**
 * The keys an API keys page lists (the company's, or a shipper account's) and the one its
 * `?revoke=<id>` asks to confirm.
 */
export async function apiKeysPageData(request: Request, accountId: string | null) {
  const apiKeys = await listApiKeys(accountId);
  const revokeId = new URL(request.url).searchParams.get('revoke');
  return { apiKeys, toRevoke: apiKeys.find((key) => key.id === revokeId) ?? null };
}

/**
 * Revokes one of the page's keys and goes back to it with a toast. For the company's page a key
 * that is not there is gone (a toast); for an account's, another's key (or the company's) is not
 * found (404), as an unknown one.
 */
export async function revokeListedApiKey(
  request: Request,
  formData: FormData,
  { path, accountId, actor }: { path: string; accountId: string | null; actor: Actor },
) {
  const submission = parseApiKeyRevoke(formData);
  if (submission.status !== 'success') return invalidForm(submission, { into: keyFormReply });
  const revoked = await revokeApiKey(submission.value.keyId, actor, accountId);
  // An account is not told whether another's key exists.
  if (accountId && !revoked) throw json({ message: 'API key not found' }, { status: 404 });
  return redirectWithOutcome(request, path, revoked, {
    gone: { title: 'Failed to revoke API key', description: GONE },
    done: (key) => ({ title: 'API key revoked', description: key.name }),
  });
}
