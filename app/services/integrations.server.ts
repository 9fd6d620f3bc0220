import { createApiKey, removeApiKey, type SerializedApiKey } from '~/models/api-key.server';
import {
  createWebhook,
  getWebhook,
  removeWebhook,
  updateWebhookFields,
  type SerializedWebhook,
} from '~/models/webhook.server';
import type {
  ApiKeyCreateInput,
  WebhookCreateInput,
  WebhookUpdateInput,
} from '~/schemas/integrations';
import { auditedCreateWithSecret, auditedUpdate, auditRecord, type Actor } from './audit.server';
import { scopeOf } from '~/lib/tenancy.server';

/**
 * An admin's changes to what integrators use — API keys and webhook endpoints — from the
 * settings pages or the API, each audited (the record without its secret).
 */

/** A new key; the key itself is in the answer and nowhere else. */
export async function issueApiKey(
  input: ApiKeyCreateInput,
  actor: Actor,
): Promise<{ apiKey: SerializedApiKey; key: string }> {
  return auditedCreateWithSecret(
    actor,
    'key',
    (created) => created.apiKey,
    (apiKey) => apiKey.name,
    () => createApiKey(input, actor.user.id),
  );
}

/**
 * The key of the company's (or, with `accountId`, of that account's) stops working at once; its
 * record as it was, or null when there was none.
 */
export async function revokeApiKey(
  id: string,
  actor: Actor,
  accountId: string | null = null,
): Promise<SerializedApiKey | null> {
  const revoked = await removeApiKey(id, accountId);
  if (revoked) await auditRecord(actor, 'delete', 'key', { label: revoked.name, before: revoked });
  return revoked;
}

/** A new endpoint; its signing secret is in the answer and shown this once. */
export async function addWebhook(
  input: WebhookCreateInput,
  actor: Actor,
): Promise<{ webhook: SerializedWebhook; secret: string }> {
  return auditedCreateWithSecret(
    actor,
    'webhook',
    (created) => created.webhook,
    (webhook) => webhook.url,
    () => createWebhook(input, scopeOf(actor)?.accountId ?? null),
  );
}

export async function updateWebhook(
  id: string,
  input: WebhookUpdateInput,
  actor: Actor,
): Promise<SerializedWebhook | null> {
  return auditedUpdate(actor, 'webhook', (webhook) => webhook.url, {
    read: () => getWebhook(id),
    write: () => updateWebhookFields(id, input),
  });
}

/** Deletes an endpoint; its pending deliveries stop at their next attempt. */
export async function deleteWebhook(id: string, actor: Actor): Promise<SerializedWebhook | null> {
  const deleted = await removeWebhook(id);
  if (deleted)
    await auditRecord(actor, 'delete', 'webhook', { label: deleted.url, before: deleted });
  return deleted;
}
