import { deliveryPreferencesSchema } from '~/schemas/delivery-preferences';
import { z } from 'zod';
// Registers the answer shapes (their .meta ids) that become components.schemas.
import '~/schemas/api-responses';
import { LoginSchema } from '~/schemas/auth';
import { RecentParcelsQuerySchema, RecentTrackingQuerySchema } from '~/schemas/dashboard';
import {
  ApiKeyCreateSchema,
  WEBHOOK_EVENT_TYPES,
  WebhookCreateSchema,
  WebhookDeliveryQuerySchema,
  WebhookUpdateSchema,
} from '~/schemas/integrations';
import {
  NotificationCreateSchema,
  NotificationListQuerySchema,
  NotificationUpdateSchema,
} from '~/schemas/notification';
import { AuditQuerySchema } from '~/schemas/audit';
import { NotificationSettingsSchema } from '~/schemas/notification-settings';
import { NotificationTemplateSchema } from '~/schemas/notification-template';
import {
  ParcelCreateSchema,
  ParcelExportQuerySchema,
  ParcelImportQuerySchema,
  ParcelListQuerySchema,
  ParcelUpdateSchema,
} from '~/schemas/parcel';
import { PasswordChangeApiSchema, UserCreateSchema, UserUpdateSchema } from '~/schemas/user';
import { ParcelSubscribeSchema } from '~/schemas/public-forms';
import { TrackingBatchSchema } from '~/schemas/public-tracking';
import {
  ReceiptGenerateSchema,
  ReceiptListQuerySchema,
  ReceiptUpdateSchema,
} from '~/schemas/receipt';
import { TrackingEventSchema, TrackingEventUpdateSchema } from '~/schemas/tracking-event';
import { DepotSchema } from '~/schemas/depot';
import { ScanSchema } from '~/schemas/scan';
import { env } from '~/lib/env.server';

/**
 * The OpenAPI 3.1 document of the JSON API, built from the zod schemas the routes parse with
 * (request bodies and queries, through zod's own JSON Schema output) and the answer shapes in
 * schemas/api-responses.ts. OpenAPI 3.1 speaks JSON Schema 2020-12, zod's default dialect, so the
 * schemas go in as zod writes them. The table below is the one list of operations; the test suite
 * checks it against the routes and real answers against it.
 */
type JsonSchema = Record<string, unknown>;
type Access = 'public' | 'user' | 'admin';
type Op = {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  summary: string;
  tag: string;
  access: Access;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyOptional?: boolean;
  /** A request body that is not JSON: its media type and schema. */
  rawBody?: { contentType: string; schema: JsonSchema; description: string };
  /** Error statuses whose answer has its own shape (a components name). */
  errorSchemas?: Record<number, string>;
  /** Success status → schema (a components name, or an inline JSON Schema), or null for none. */
  ok: Record<number, string | JsonSchema | null>;
  errors?: number[];
  etag?: boolean;
  /** The success answer's media type, when it is not JSON. */
  contentType?: string;
  rateLimited?: boolean;
  cors?: boolean;
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (key: string, item: string) =>
  obj({ [key]: { type: 'array', items: ref(item) }, pagination: ref('Pagination') });
const wrap = (key: string, item: string) => obj({ [key]: ref(item) });
const deleted = (key?: string, item?: string) =>
  key && item ? { allOf: [ref('Success'), obj({ [key]: ref(item) })] } : ref('Success');

const ID = '{id}';
const OPS: Op[] = [
  // Authentication
  {
    method: 'post',
    path: '/api/auth/login',
    summary: 'Sign in: a bearer token for 7 days',
    tag: 'Auth',
    access: 'public',
    rateLimited: true,
    body: LoginSchema,
    errors: [400, 401, 429],
    ok: {
      200: obj({
        token: { type: 'string' },
        expiresAt: { type: 'string', format: 'date-time' },
        user: ref('User'),
      }),
    },
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    summary: 'Revoke the bearer token sent',
    tag: 'Auth',
    access: 'user',
    ok: { 200: obj({ success: { const: true } }) },
  },
  {
    method: 'post',
    path: '/api/auth/password',
    summary:
      'Change your own password: the token sent keeps working, every other login token and session of yours ends. The one request (with logout) an account on a temporary password may make: everything else answers 403 with code password_change_required. Not with an API key',
    tag: 'Auth',
    access: 'user',
    body: PasswordChangeApiSchema,
    ok: { 200: wrap('user', 'User') },
  },
  {
    method: 'get',
    path: '/api/auth/me',
    summary: 'The signed-in user',
    tag: 'Auth',
    access: 'user',
    ok: { 200: wrap('user', 'User') },
  },
  // Parcels
  {
    method: 'get',
    path: '/api/parcels',
    summary: 'List parcels, newest first',
    tag: 'Parcels',
    access: 'user',
    query: ParcelListQuerySchema,
    ok: { 200: list('parcels', 'Parcel') },
  },
  {
    method: 'post',
    path: '/api/parcels',
    summary: "Create a parcel ('Pending', fixed cost, a new tracking number)",
    tag: 'Parcels',
    access: 'user',
    body: ParcelCreateSchema,
    ok: { 201: wrap('parcel', 'Parcel') },
  },
  {
    method: 'get',
    path: `/api/parcels/${ID}`,
    summary: 'A parcel with its tracking events',
    tag: 'Parcels',
    access: 'user',
    etag: true,
    ok: { 200: wrap('parcel', 'Parcel') },
    errors: [404],
  },
  {
    method: 'put',
    path: `/api/parcels/${ID}`,
    summary: 'Change the fields given',
    tag: 'Parcels',
    access: 'user',
    body: ParcelUpdateSchema,
    ok: { 200: wrap('parcel', 'Parcel') },
    errors: [404],
  },
  {
    method: 'delete',
    path: `/api/parcels/${ID}`,
    summary: 'Delete a parcel and its events',
    tag: 'Parcels',
    access: 'user',
    ok: { 200: deleted() },
    errors: [404],
  },
  // Tracking events
  {
    method: 'get',
    path: '/api/tracking/{parcelId}/events',
    summary: "A parcel's events, newest first",
    tag: 'Tracking',
    access: 'user',
    ok: { 200: obj({ events: { type: 'array', items: ref('ParcelTrackingEvent') } }) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/tracking/{parcelId}/events',
    summary: "Add an event (updates the parcel's status)",
    tag: 'Tracking',
    access: 'user',
    body: TrackingEventSchema,
    ok: { 201: wrap('event', 'ParcelTrackingEvent') },
    errors: [404],
  },
  {
    method: 'get',
    path: `/api/tracking/events/${ID}`,
    summary: 'One event',
    tag: 'Tracking',
    access: 'user',
    etag: true,
    ok: { 200: wrap('event', 'ParcelTrackingEvent') },
    errors: [404],
  },
  {
    method: 'put',
    path: `/api/tracking/events/${ID}`,
    summary: 'Change the fields given',
    tag: 'Tracking',
    access: 'user',
    body: TrackingEventUpdateSchema,
    ok: { 200: wrap('event', 'ParcelTrackingEvent') },
    errors: [404],
  },
  {
    method: 'delete',
    path: `/api/tracking/events/${ID}`,
    summary: 'Delete an event',
    tag: 'Tracking',
    access: 'user',
    ok: { 200: deleted() },
    errors: [404],
  },
  // Scans and depots
  {
    method: 'post',
    path: '/api/scans',
    summary:
      'Record a scan by tracking number at a depot (depotId: its name and zone) or a location (couriers and up). A Failed Delivery needs a reason (other: and a note). The same scan again within 5 minutes records nothing and answers the first (200, repeated: true). 404 code tracking_number_not_found; 400 code tracking_number_mistyped for a number that fails its check digit',
    tag: 'Scans',
    access: 'user',
    body: ScanSchema,
    ok: { 201: 'ScanResult', 200: 'ScanResult' },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/depots',
    summary: 'Depots by name (couriers and up)',
    tag: 'Depots',
    access: 'user',
    ok: { 200: obj({ depots: { type: 'array', items: ref('Depot') } }) },
  },
  {
    method: 'post',
    path: '/api/depots',
    summary: 'Add a depot; 409 for a name already taken',
    tag: 'Depots',
    access: 'admin',
    body: DepotSchema,
    ok: { 201: wrap('depot', 'Depot') },
  },
  {
    method: 'get',
    path: `/api/depots/${ID}`,
    summary: 'One depot (couriers and up)',
    tag: 'Depots',
    access: 'user',
    etag: true,
    ok: { 200: wrap('depot', 'Depot') },
    errors: [404],
  },
  {
    method: 'put',
    path: `/api/depots/${ID}`,
    summary: 'Change a depot; events recorded there keep the name and zone they were given',
    tag: 'Depots',
    access: 'admin',
    body: DepotSchema,
    ok: { 200: wrap('depot', 'Depot') },
    errors: [404, 409],
  },
  {
    method: 'delete',
    path: `/api/depots/${ID}`,
    summary: 'Delete a depot',
    tag: 'Depots',
    access: 'admin',
    ok: { 200: deleted('depot', 'Depot') },
    errors: [404],
  },
  // Public tracking
  {
    method: 'get',
    path: '/api/tracking/track/{trackingNumber}',
    summary: 'Public lookup by tracking number (no token; CORS)',
    tag: 'Public tracking',
    access: 'public',
    etag: true,
    rateLimited: true,
    cors: true,
    ok: { 200: 'PublicTracking' },
    errors: [404, 429],
  },
  {
    method: 'post',
    path: '/api/tracking/track',
    summary: 'Public lookup of up to 30 numbers (no token; CORS)',
    tag: 'Public tracking',
    access: 'public',
    body: TrackingBatchSchema,
    rateLimited: true,
    cors: true,
    ok: { 200: 'TrackingBatchResult' },
    errors: [429],
  },
  {
    method: 'post',
    path: '/api/tracking/track/{trackingNumber}/subscriptions',
    summary:
      'E-mail updates on a parcel until delivery: a confirmation e-mail goes to the address (202 whatever the address; no token; CORS)',
    tag: 'Public tracking',
    access: 'public',
    body: ParcelSubscribeSchema,
    rateLimited: true,
    cors: true,
    ok: { 202: 'SubscriptionRequested' },
    errors: [404, 409, 429],
  },
  {
    method: 'post',
    path: '/api/tracking/track/{trackingNumber}/delivery-preferences',
    summary:
      "The recipient's delivery preferences, behind the delivery address's postcode: instructions, a safe place, one of the next five working days or holding it at the depot (no token; CORS). A wrong postcode is 403 (forbidden) and changes nothing; guessing meets 429 per parcel and per client address within 10 tries",
    tag: 'Public tracking',
    access: 'public',
    body: deliveryPreferencesSchema([], { strict: true }),
    rateLimited: true,
    cors: true,
    ok: { 200: 'DeliveryPreferencesResult' },
    errors: [403, 404, 409, 429],
  },
  // Notifications
  {
    method: 'get',
    path: '/api/notifications',
    summary: 'List notifications, newest first',
    tag: 'Notifications',
    access: 'user',
    query: NotificationListQuerySchema,
    ok: { 200: list('notifications', 'Notification') },
  },
  {
    method: 'post',
    path: '/api/notifications',
    summary: 'Send an e-mail notification (201 even when sending failed)',
    tag: 'Notifications',
    access: 'user',
    body: NotificationCreateSchema,
    ok: { 201: wrap('notification', 'Notification') },
  },
  {
    method: 'get',
    path: `/api/notifications/${ID}`,
    summary: 'One notification',
    tag: 'Notifications',
    access: 'user',
    etag: true,
    ok: { 200: wrap('notification', 'Notification') },
    errors: [404],
  },
  {
    method: 'put',
    path: `/api/notifications/${ID}`,
    summary: 'Refused: the status follows the delivery (409 with a status; 400 otherwise)',
    tag: 'Notifications',
    access: 'user',
    body: NotificationUpdateSchema,
    ok: { 200: wrap('notification', 'Notification') },
    errors: [400, 404, 409],
  },
  {
    method: 'delete',
    path: `/api/notifications/${ID}`,
    summary: 'Delete a failed notification',
    tag: 'Notifications',
    access: 'user',
    ok: { 200: wrap('notification', 'Notification') },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: `/api/notifications/${ID}/retry`,
    summary: 'Send a failed notification again',
    tag: 'Notifications',
    access: 'user',
    ok: { 200: wrap('notification', 'Notification') },
    errors: [404, 409],
  },
  // Receipts
  {
    method: 'get',
    path: '/api/receipts',
    summary: 'List receipts, newest first',
    tag: 'Receipts',
    access: 'user',
    query: ReceiptListQuerySchema,
    ok: { 200: list('receipts', 'Receipt') },
  },
  {
    method: 'get',
    path: `/api/receipts/${ID}`,
    summary: 'One receipt',
    tag: 'Receipts',
    access: 'user',
    etag: true,
    ok: { 200: wrap('receipt', 'Receipt') },
    errors: [404],
  },
  {
    method: 'put',
    path: `/api/receipts/${ID}`,
    summary: 'Change the fields given',
    tag: 'Receipts',
    access: 'user',
    body: ReceiptUpdateSchema,
    ok: { 200: wrap('receipt', 'Receipt') },
    errors: [404],
  },
  {
    method: 'delete',
    path: `/api/receipts/${ID}`,
    summary: 'Delete a receipt',
    tag: 'Receipts',
    access: 'user',
    ok: { 200: deleted() },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/receipts/generate/{parcelId}',
    summary: 'Generate a receipt for a parcel',
    tag: 'Receipts',
    access: 'user',
    body: ReceiptGenerateSchema,
    bodyOptional: true,
    ok: { 201: wrap('receipt', 'Receipt') },
    errors: [404],
  },
  // Dashboard
  {
    method: 'get',
    path: '/api/dashboard/stats',
    summary: 'Overview figures',
    tag: 'Dashboard',
    access: 'user',
    ok: { 200: 'DashboardStats' },
  },
  {
    method: 'get',
    path: '/api/dashboard/recent-parcels',
    summary: 'Newest parcels',
    tag: 'Dashboard',
    access: 'user',
    query: RecentParcelsQuerySchema,
    ok: { 200: obj({ parcels: { type: 'array', items: ref('Parcel') } }) },
  },
  {
    method: 'get',
    path: '/api/dashboard/recent-tracking',
    summary: 'Newest tracking events',
    tag: 'Dashboard',
    access: 'user',
    query: RecentTrackingQuerySchema,
    ok: { 200: obj({ events: { type: 'array', items: ref('RecentTrackingEvent') } }) },
  },
  {
    method: 'get',
    path: '/api/health',
    summary: 'Health and database',
    tag: 'Meta',
    access: 'public',
    ok: { 200: 'Health' },
    errors: [503],
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document',
    tag: 'Meta',
    access: 'public',
    ok: { 200: { type: 'object' } },
  },
  // API keys
  {
    method: 'get',
    path: '/api/api-keys',
    summary: 'List API keys (admin)',
    tag: 'API keys',
    access: 'admin',
    ok: { 200: obj({ apiKeys: { type: 'array', items: ref('ApiKey') } }) },
  },
  {
    method: 'post',
    path: '/api/api-keys',
    summary: 'Create an API key; the key is in this answer only (admin)',
    tag: 'API keys',
    access: 'admin',
    body: ApiKeyCreateSchema,
    ok: { 201: obj({ apiKey: ref('ApiKey'), key: { type: 'string', pattern: '^sk_' } }) },
  },
  {
    method: 'get',
    path: `/api/api-keys/${ID}`,
    summary: 'One API key (admin)',
    tag: 'API keys',
    access: 'admin',
    ok: { 200: wrap('apiKey', 'ApiKey') },
    errors: [404],
  },
  {
    method: 'delete',
    path: `/api/api-keys/${ID}`,
    summary: 'Revoke an API key (admin)',
    tag: 'API keys',
    access: 'admin',
    ok: { 200: deleted('apiKey', 'ApiKey') },
    errors: [404],
  },
  // Webhooks
  {
    method: 'get',
    path: '/api/webhooks',
    summary: 'List webhook endpoints (admin)',
    tag: 'Webhooks',
    access: 'admin',
    ok: { 200: obj({ webhooks: { type: 'array', items: ref('Webhook') } }) },
  },
  {
    method: 'post',
    path: '/api/webhooks',
    summary: 'Add an endpoint; its whsec_ secret is in this answer only (admin)',
    tag: 'Webhooks',
    access: 'admin',
    body: WebhookCreateSchema,
    ok: { 201: obj({ webhook: ref('Webhook'), secret: { type: 'string', pattern: '^whsec_' } }) },
  },
  {
    method: 'get',
    path: `/api/webhooks/${ID}`,
    summary: 'One endpoint (admin)',
    tag: 'Webhooks',
    access: 'admin',
    etag: true,
    ok: { 200: wrap('webhook', 'Webhook') },
    errors: [404],
  },
  {
    method: 'put',
    path: `/api/webhooks/${ID}`,
    summary: 'Change the fields given (admin)',
    tag: 'Webhooks',
    access: 'admin',
    body: WebhookUpdateSchema,
    ok: { 200: wrap('webhook', 'Webhook') },
    errors: [404],
  },
  {
    method: 'delete',
    path: `/api/webhooks/${ID}`,
    summary: 'Delete an endpoint (admin)',
    tag: 'Webhooks',
    access: 'admin',
    ok: { 200: deleted('webhook', 'Webhook') },
    errors: [404],
  },
  {
    method: 'get',
    path: `/api/webhooks/${ID}/deliveries`,
    summary: "An endpoint's deliveries and their attempts (admin)",
    tag: 'Webhooks',
    access: 'admin',
    query: WebhookDeliveryQuerySchema,
    ok: { 200: list('deliveries', 'WebhookDelivery') },
    errors: [404],
  },
  {
    method: 'post',
    path: `/api/webhooks/${ID}/deliveries/{deliveryId}/redeliver`,
    summary: 'Queue a delivery again (admin)',
    tag: 'Webhooks',
    access: 'admin',
    ok: { 202: wrap('delivery', 'WebhookDelivery') },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/parcels/import',
    summary:
      "Import parcels from CSV (the export's columns): rows create parcels or update those with their tracking number, all rows or none; ?dryRun=true only validates",
    tag: 'Parcels',
    access: 'user',
    query: ParcelImportQuerySchema,
    rawBody: {
      contentType: 'text/csv',
      schema: { type: 'string' },
      description:
        "UTF-8 CSV whose header row names the columns of GET /api/parcels/export.csv (any order; recipientName and recipientAddress needed). An empty trackingNumber gets a new one; the number of a stored parcel updates that parcel as PUT /api/parcels/{id} would (the columns given; an empty status, serviceType, priority, estimatedDelivery or destinations cell, or destinations `[]`, keeps the stored value; cost, createdAt and actualDelivery must be empty or as stored), with its parcel.updated and parcel.status_changed webhooks; any other number creates a parcel under it; a number twice in the file is an error. Cells the export escaped with a leading ' are read back as they were. At most 20,000 rows and IMPORT_BODY_LIMIT_BYTES (20 MiB).",
    },
    ok: { 200: 'ParcelImportResult' },
    errors: [413, 415],
    errorSchemas: { 400: 'ParcelImportErrors' },
  },
  {
    method: 'get',
    path: '/api/parcels/export.csv',
    summary:
      "The filtered parcel list as CSV, streamed (the list's filters and sort), or only the parcels in `ids`",
    tag: 'Parcels',
    access: 'user',
    query: ParcelExportQuerySchema,
    contentType: 'text/csv',
    ok: { 200: { type: 'string' } },
  },
  {
    method: 'get',
    path: `/api/parcels/${ID}/label.pdf`,
    summary:
      "The parcel's 4×6 in shipping label as a PDF: sender, recipient, service, weight, a Code 128 barcode of the tracking number and a QR code of its tracking page",
    tag: 'Parcels',
    access: 'user',
    contentType: 'application/pdf',
    ok: { 200: { type: 'string', contentMediaType: 'application/pdf' } },
    errors: [404],
  },
  {
    method: 'get',
    path: `/api/parcels/${ID}/proof-of-delivery`,
    summary: "The parcel's proofs of delivery, by stop",
    tag: 'Parcels',
    access: 'user',
    ok: {
      200: obj({ proofsOfDelivery: { type: 'array', items: ref('ProofOfDelivery') } }),
    },
    errors: [404],
  },
  {
    method: 'post',
    path: `/api/parcels/${ID}/proof-of-delivery`,
    summary:
      "Record the proof of delivery of one stop (staff): who received it, photos, a signature. It adds the stop's Delivered event; the parcel is Delivered with its last stop (then parcel.delivered carries every stop's proof id)",
    tag: 'Parcels',
    access: 'user',
    rawBody: {
      contentType: 'multipart/form-data',
      schema: {
        type: 'object',
        properties: {
          receivedBy: { type: 'string', minLength: 1, maxLength: 200 },
          destination: {
            type: 'string',
            pattern: '^\\d{1,3}$',
            description: 'The stop, from 0 (default 0: the recipient, or the single destination)',
          },
          note: { type: 'string', maxLength: 1000 },
          signatureName: {
            type: 'string',
            maxLength: 200,
            description: 'A typed name standing for a signature',
          },
          photo: {
            type: 'array',
            maxItems: 3,
            items: { type: 'string', contentMediaType: 'image/*' },
            description: 'JPEG, PNG or WebP, at most 10 MB each; the field repeated per photo',
          },
          signature: {
            type: 'string',
            contentMediaType: 'image/png',
            description: 'A PNG, at most 2 MB',
          },
        },
        required: ['receivedBy'],
      },
      description:
        'Photos and signature are decoded and re-encoded (at most 2,048 px, all metadata removed); a file that does not decode as an accepted image is a 415 (code unsupported_image) and nothing is stored. A stop that already has a proof is a 409 (code proof_of_delivery_exists).',
    },
    ok: {
      201: obj({
        proofOfDelivery: ref('ProofOfDelivery'),
        parcel: obj({
          id: { type: 'string' },
          trackingNumber: { type: 'string' },
          status: { type: 'string' },
        }),
      }),
    },
    errors: [404],
  },
  {
    method: 'get',
    path: `/api/parcels/${ID}/proof-of-delivery/{proofId}.pdf`,
    summary: 'A proof of delivery as a one-page PDF',
    tag: 'Parcels',
    access: 'user',
    contentType: 'application/pdf',
    ok: { 200: { type: 'string', contentMediaType: 'application/pdf' } },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/proof-of-delivery/files/{fileId}',
    summary:
      "A proof of delivery's photo or signature (its own image type), for signed-in staff and API credentials only",
    tag: 'Parcels',
    access: 'user',
    contentType: 'image/*',
    ok: { 200: { type: 'string', contentMediaType: 'image/*' } },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/notification-templates',
    summary: 'The four e-mail templates',
    tag: 'Notifications',
    access: 'user',
    ok: { 200: obj({ templates: { type: 'array', items: { type: 'object' } } }) },
  },
  {
    method: 'get',
    path: `/api/notification-templates/${ID}`,
    summary:
      'One e-mail template (status-update, delivery-confirmation, pickup-confirmation, custom)',
    tag: 'Notifications',
    access: 'user',
    ok: { 200: obj({ template: { type: 'object' } }) },
    errors: [404],
  },
  {
    method: 'put',
    path: `/api/notification-templates/${ID}`,
    summary: 'Change an e-mail template; unknown placeholders are refused (admin)',
    tag: 'Notifications',
    access: 'admin',
    body: NotificationTemplateSchema,
    ok: { 200: obj({ template: { type: 'object' } }) },
    errors: [404],
  },
  {
    method: 'delete',
    path: `/api/notification-templates/${ID}`,
    summary: 'Reset an e-mail template to the default (admin)',
    tag: 'Notifications',
    access: 'admin',
    ok: { 200: obj({ template: { type: 'object' } }) },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/notification-settings',
    summary: 'Which parcel statuses e-mail the recipient, with which template',
    tag: 'Notifications',
    access: 'user',
    ok: { 200: obj({ settings: { type: 'object' } }) },
  },
  {
    method: 'put',
    path: '/api/notification-settings',
    summary: 'Change the automatic e-mail rules (admin)',
    tag: 'Notifications',
    access: 'admin',
    body: NotificationSettingsSchema,
    ok: { 200: obj({ settings: { type: 'object' } }) },
  },
  {
    method: 'get',
    path: '/api/users',
    summary: 'List users (admin)',
    tag: 'Users',
    access: 'admin',
    ok: { 200: obj({ users: { type: 'array', items: ref('User') } }) },
  },
  {
    method: 'post',
    path: '/api/users',
    summary:
      'Add a user; without a password the answer carries a temporaryPassword, shown once (admin)',
    tag: 'Users',
    access: 'admin',
    body: UserCreateSchema,
    ok: {
      201: obj({ user: ref('User'), temporaryPassword: { type: 'string' } }, ['user']),
    },
  },
  {
    method: 'get',
    path: `/api/users/${ID}`,
    summary: 'One user (admin)',
    tag: 'Users',
    access: 'admin',
    ok: { 200: wrap('user', 'User') },
    errors: [404],
  },
  {
    method: 'put',
    path: `/api/users/${ID}`,
    summary:
      "Change a user: name, e-mail, role, password (admin); a new password ends the user's sessions and login tokens",
    tag: 'Users',
    access: 'admin',
    body: UserUpdateSchema,
    ok: { 200: wrap('user', 'User') },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: `/api/users/${ID}/disable`,
    summary:
      "Disable a user, ending that user's sessions and tokens (admin); 409 for the last active admin or your own account",
    tag: 'Users',
    access: 'admin',
    ok: { 200: wrap('user', 'User') },
    errors: [404, 409],
  },
  {
    method: 'post',
    path: `/api/users/${ID}/enable`,
    summary: 'Enable a user again (admin)',
    tag: 'Users',
    access: 'admin',
    ok: { 200: wrap('user', 'User') },
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/audit',
    summary:
      "Audit entries, newest first; one record's history (entity and entityId) for the roles that may read the record (users, API keys, webhooks: admins, with an API key's admin scope; inbox items: staff), everything for admins (with the admin scope)",
    tag: 'Audit',
    access: 'user',
    query: AuditQuerySchema,
    ok: { 200: { type: 'object' } },
  },
];

export const OPENAPI_OPERATIONS = OPS.map(({ method, path }) => ({ method, path }));

function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest as JsonSchema;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input: `details` has a message per field',
  401: 'No token, a bad or expired one, or an Authorization that is not Bearer',
  403: "Not allowed: a role or an API key's scope (write, admin) is needed, or (code password_change_required) the account must change its temporary password first",
  404: 'Not found',
  409: 'Conflict (a duplicate, a state that does not allow it, or an Idempotency-Key still running)',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Idempotency-Key reused with another request',
  429: 'Too many requests: wait Retry-After seconds',
  503: 'Database unavailable',
};

/** The areas an API key reaches only with the admin scope. */
const ADMIN_AREAS = new Set(['Users', 'API keys', 'Webhooks']);

const RATE_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

function operation(op: Op) {
  const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema:
      m[1] === 'trackingNumber'
        ? { type: 'string', description: 'Three letters and nine digits, any case' }
        : { type: 'string', pattern: '^[a-f\\d]{24}$' },
  }));
  const parameters: unknown[] = [...pathParams, { $ref: '#/components/parameters/X-Request-Id' }];
  if (op.query) {
    const schema = jsonSchema(op.query);
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(properties))
      parameters.push({ name, in: 'query', required: required.has(name), schema: prop });
  }
  if (op.etag) parameters.push({ $ref: '#/components/parameters/If-None-Match' });
  if (op.method === 'post' && op.access !== 'public')
    parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });

  const common = {
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    ...(op.rateLimited ? RATE_HEADERS : {}),
  };
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(op.ok)) {
    responses[status] = {
      description: 'Success',
      headers: {
        ...common,
        ...(op.etag ? { ETag: { $ref: '#/components/headers/ETag' } } : {}),
        ...(op.method === 'post' && op.access !== 'public'
          ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }
          : {}),
      },
      ...(schema === null
        ? {}
        : {
            content: {
              [op.contentType ?? 'application/json']: {
                schema: typeof schema === 'string' ? ref(schema) : schema,
              },
            },
          }),
    };
  }
  if (op.etag)
    responses['304'] = { description: 'Not modified (If-None-Match matched)', headers: common };
  const errors = new Set(op.errors ?? []);
  if (op.body || op.rawBody || op.query || pathParams.length) errors.add(400);
  if (op.access !== 'public') [401, 403, 429].forEach((s) => errors.add(s));
  if (op.body || op.rawBody) [413, 415].forEach((s) => errors.add(s));
  if (op.method === 'post' && op.access !== 'public') [409, 422].forEach((s) => errors.add(s));
  for (const status of [...errors].sort()) {
    const schema =
      op.errorSchemas?.[status] ??
      (status === 404 && op.path.startsWith('/api/tracking/track/') ? 'TrackingNotFound' : 'Error');
    responses[status] = {
      description: ERROR_TEXT[status] ?? 'Error',
      headers: {
        ...common,
        ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
      },
      content: { 'application/json': { schema: ref(schema) } },
    };
  }
  return {
    operationId: `${op.method}${op.path
      .replace(/^\/api/, '')
      .split(/[/{}.-]+/)
      .filter(Boolean)
      .map((p) => p[0]!.toUpperCase() + p.slice(1))
      .join('')}`,
    summary: op.summary,
    tags: [op.tag],
    security: op.access === 'public' ? [] : [{ bearerAuth: [] }, { cookieAuth: [] }],
    ...(op.access === 'admin'
      ? {
          description: ADMIN_AREAS.has(op.tag)
            ? 'Needs the admin role; an API key also needs the admin scope.'
            : 'Needs the admin role.',
        }
      : {}),
    parameters,
    ...(op.body
      ? {
          requestBody: {
            required: !op.bodyOptional,
            content: { 'application/json': { schema: jsonSchema(op.body) } },
          },
        }
      : {}),
    ...(op.rawBody
      ? {
          requestBody: {
            required: true,
            description: op.rawBody.description,
            content: { [op.rawBody.contentType]: { schema: op.rawBody.schema } },
          },
        }
      : {}),
    responses,
  };
}

function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  });
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      const { $schema: _s, $id: _i, ...rest } = schema as JsonSchema;
      return [name, rest];
    }),
  );
}

let cached: Record<string, unknown> | null = null;

export function openApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPS) (paths[op.path] ??= {})[op.method] = operation(op);
  const webhooks = Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `${type}, sent to endpoints that subscribe to it`,
          description:
            'Signed per the Standard Webhooks specification: verify webhook-signature over `webhook-id.webhook-timestamp.body` with the endpoint secret. Answer 2xx within 10 s; anything else is retried with backoff.',
          parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => ({
            name,
            in: 'header',
            required: true,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('WebhookEvent') } },
          },
          responses: { '2XX': { description: 'Received' } },
        },
      },
    ]),
  );
  cached = {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `${env.COMPANY_NAME} API`,
      version: '1.0.0',
      description: `Parcels, tracking events, notifications and receipts. Errors are \`{error, message}\` (the same text) with per-field \`details\` on validation errors, and a \`code\` where a client can act on it: \`password_change_required\` (403) means the account signed in with a temporary password and must change it with POST /api/auth/password first. Every answer carries X-Request-Id. POSTs accept Idempotency-Key (kept 24 h per credential). Each credential (an API key, or a user's tokens and session together) may make ${env.RATE_LIMIT_API_PER_MINUTE} requests a minute; past that, 429 with Retry-After.`,
    },
    servers: [{ url: '/' }],
    tags: [...new Set(OPS.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    webhooks,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A token from POST /api/auth/login (7 days), or a long-lived API key (sk_…) with scopes: read (GET), write (changes), admin (users, API keys and webhooks). Any other Authorization scheme is a 401.',
        },
        cookieAuth: { type: 'apiKey', in: 'cookie', name: '__session' },
      },
      parameters: {
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Up to 255 visible characters. The same key with the same body replays the first answer (Idempotent-Replayed: true); with another body, 422; while the first runs, 409.',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
        'If-None-Match': {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'An ETag from an earlier answer: 304 when unchanged.',
          schema: { type: 'string' },
        },
        'X-Request-Id': {
          name: 'X-Request-Id',
          in: 'header',
          required: false,
          description: 'Echoed in the answer when valid (1–128 of A–Z a–z 0–9 . _ : @ + = -).',
          schema: { type: 'string', maxLength: 128 },
        },
      },
      headers: {
        'X-Request-Id': { description: "This request's id", schema: { type: 'string' } },
        ETag: { description: 'Validator for If-None-Match', schema: { type: 'string' } },
        'Idempotent-Replayed': {
          description: 'true when this is the stored answer of an earlier request with the key',
          schema: { type: 'string', enum: ['true'] },
        },
        'RateLimit-Limit': {
          description: 'Requests allowed per window',
          schema: { type: 'integer' },
        },
        'RateLimit-Remaining': {
          description: 'Requests left in this window',
          schema: { type: 'integer' },
        },
        'RateLimit-Reset': {
          description: 'Seconds until the window ends',
          schema: { type: 'integer' },
        },
        'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
      },
    },
  };
  return cached;
}
