import { z } from './zod';
import { API_KEY_NAME_MAX, API_KEY_SCOPES, OBJECT_ID_PATTERN, type ApiKeyScope } from './constants';
import { limitField, pageField } from './paging';
import { requiredText } from './text';

export { API_KEY_NAME_MAX, API_KEY_SCOPES, type ApiKeyScope };

const scopeField = z.enum(API_KEY_SCOPES, {
  error: `Scope must be one of: ${API_KEY_SCOPES.join(', ')}`,
});

/** POST /api/api-keys and the Settings form. */
export const ApiKeyCreateSchema = z.object({
  name: requiredText('Name', API_KEY_NAME_MAX),
  scopes: z
    .array(scopeField, { error: 'Choose at least one scope' })
    .min(1, 'Choose at least one scope')
    .max(10, 'At most 10 scopes')
    .transform((scopes) => API_KEY_SCOPES.filter((scope) => scopes.includes(scope))),
});
export type ApiKeyCreateInput = z.output<typeof ApiKeyCreateSchema>;

/** The Settings page's Revoke button. */
export const ApiKeyRevokeSchema = z.object({
  intent: z.literal('revoke', { error: 'Unknown action' }),
  keyId: z.string().regex(OBJECT_ID_PATTERN, 'Invalid API key'),
});

/* ---------- Webhooks ---------- */

export const WEBHOOK_EVENT_TYPES = [
  'parcel.created',
  'parcel.updated',
  'parcel.deleted',
  'parcel.status_changed',
  'parcel.imported',
  'parcel.delivered',
  'parcel.scanned',
  'parcel.delivery_failed',
  'parcel.delivery_preferences_updated',
  'parcel.eta_updated',
  'tracking_event.created',
  'tracking_event.updated',
  'tracking_event.deleted',
  'notification.sent',
  'notification.failed',
  'pickup.scheduled',
  'pickup.cancelled',
  'pickup.completed',
  'pickup.missed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 500;

const webhookUrl = requiredText('URL', WEBHOOK_URL_MAX)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username;
    } catch {
      return false;
    }
  }, 'URL must be an http:// or https:// address without a user name or password')
  .meta({
    format: 'uri',
    pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
    description: 'An http:// or https:// address without a user name or password',
  });

const webhookEvents = z
  .array(
    z.enum(WEBHOOK_EVENT_TYPES, {
      error: `Events must be among: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    }),
    { error: 'Choose at least one event' },
  )
  .min(1, 'Choose at least one event')
  .max(50, 'At most 50 events')
  .transform((events) => WEBHOOK_EVENT_TYPES.filter((type) => events.includes(type)));

const webhookDescription = z
  .string({ error: 'Description must be text' })
  .trim()
  .max(
    WEBHOOK_DESCRIPTION_MAX,
    `Description must be at most ${WEBHOOK_DESCRIPTION_MAX} characters`,
  );

/** POST /api/webhooks and the Settings form. */
export const WebhookCreateSchema = z.object({
  url: webhookUrl,
  events: webhookEvents,
  description: webhookDescription.default(''),
});
export type WebhookCreateInput = z.output<typeof WebhookCreateSchema>;

/** PUT /api/webhooks/:id: only the fields given change. */
export const WebhookUpdateSchema = z.object({
  url: webhookUrl.optional(),
  events: webhookEvents.optional(),
  description: webhookDescription.optional(),
  active: z.boolean({ error: 'Active must be true or false' }).optional(),
});
export type WebhookUpdateInput = z.output<typeof WebhookUpdateSchema>;

/** GET /api/webhooks/:id/deliveries query. */
export const WebhookDeliveryQuerySchema = z.object({
  page: pageField(),
  limit: limitField(20),
});

/** The Settings edit form: every field is sent, and an unticked Active box means paused. */
export const WebhookEditFormSchema = WebhookCreateSchema.extend({
  active: z.boolean().default(false),
});

/** The Settings buttons on one webhook: Delete, and Redeliver on a delivery. */
export const WebhookDeleteSchema = z.object({ intent: z.literal('delete') });
export const WebhookRedeliverSchema = z.object({
  intent: z.literal('redeliver'),
  deliveryId: z.string().regex(OBJECT_ID_PATTERN, 'Invalid delivery'),
});
