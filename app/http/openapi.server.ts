import { defaultErrorCode } from '~/schemas/api-error-codes';
import { deliveryPreferencesSchema } from '~/schemas/delivery-preferences';
import { z } from 'zod';
import { LoginSchema } from '~/schemas/auth';
import { RecentParcelsQuerySchema, RecentTrackingQuerySchema } from '~/schemas/dashboard';
import {
  ApiKeyCreateSchema,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
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
import {
  ParcelReopenSchema,
  TrackingEventSchema,
  TrackingEventUpdateSchema,
} from '~/schemas/tracking-event';
import { DepotSchema } from '~/schemas/depot';
import { ScanSchema } from '~/schemas/scan';
import { env } from '~/lib/env.server';
import { templateIdOf } from '~/models/notification-template.server';
import { webhookPayloadName } from '~/schemas/api-responses';
import {
  EXAMPLE_IDS,
  EXAMPLE_TRACKING_NUMBER,
  SCHEMA_EXAMPLES,
  WEBHOOK_DATA_EXAMPLES,
} from '~/schemas/api-examples';
import { NOTIFICATION_TYPES, TRACKING_NUMBER_INPUT } from '~/schemas/constants';
import { encodeSyncCursor, EventListQuerySchema } from '~/schemas/sync';
import { TEMPLATE_PLACEHOLDERS } from '~/schemas/notification-template';

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
  description: string;
  access: Access;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyExample?: unknown;
  bodyOptional?: boolean;
  /** A request body that is not JSON: its media type and schema. */
  rawBody?: { contentType: string; schema: JsonSchema; description: string; example: unknown };
  /** Error statuses whose answer has its own shape (a components name, or a shape). */
  errorSchemas?: Record<number, string | Shape>;
  /** Success status → its answer (a components name, or a schema with its example). */
  ok: Record<number, string | Shape>;
  errors?: number[];
  etag?: boolean;
  /** A change that honours If-Match (412 when the record changed since). */
  ifMatch?: boolean;
  /** The success answer's media type, when it is not JSON. */
  contentType?: string;
  rateLimited?: boolean;
  cors?: boolean;
};

/** An answer's schema and the example that goes with it. */
type Shape = { schema: JsonSchema; example?: unknown };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const example = (name: string) => SCHEMA_EXAMPLES[name];
const named = (name: string): Shape => ({ schema: ref(name), example: example(name) });
const list = (key: string, item: string): Shape => ({
  schema: obj({ [key]: { type: 'array', items: ref(item) }, pagination: ref('Pagination') }),
  example: { [key]: [example(item)], pagination: example('Pagination') },
});
const items = (key: string, item: string): Shape => ({
  schema: obj({ [key]: { type: 'array', items: ref(item) } }),
  example: { [key]: [example(item)] },
});
const wrap = (key: string, item: string): Shape => ({
  schema: obj({ [key]: ref(item) }),
  example: { [key]: example(item) },
});
const deleted = (key?: string, item?: string): Shape =>
  key && item
    ? {
        schema: { allOf: [ref('Success'), obj({ [key]: ref(item) })] },
        example: { ...(example('Success') as object), [key]: example(item) },
      }
    : named('Success');
const file = (contentMediaType: string): Shape => ({
  schema: { type: 'string', contentMediaType },
});

/** Each operation's tag, from the start of its path: the first that matches. */
const TAG_OF_PATH: [prefix: string, tag: string][] = [
  ['/api/auth/', 'Auth'],
  ['/api/parcels', 'Parcels'],
  ['/api/proof-of-delivery/', 'Parcels'],
  ['/api/tracking/track', 'Public tracking'],
  ['/api/tracking/', 'Tracking'],
  ['/api/scans', 'Scans'],
  ['/api/depots', 'Depots'],
  ['/api/notification', 'Notifications'],
  ['/api/receipts', 'Receipts'],
  ['/api/dashboard/', 'Dashboard'],
  ['/api/health', 'Meta'],
  ['/api/openapi.json', 'Meta'],
  ['/api/api-keys', 'API keys'],
  ['/api/webhooks', 'Webhooks'],
  ['/api/users', 'Users'],
  ['/api/audit', 'Audit'],
];

/** The areas an API key reaches only with the admin scope: every operation there is the admin's. */
const ADMIN_AREAS = new Set(['Users', 'API keys', 'Webhooks']);
/** The areas open to anyone, without a token. */
const PUBLIC_AREAS = new Set(['Public tracking', 'Meta']);

type Method = Op['method'];
/** What an operation says beyond its route and texts; `access` when not its area's. */
type Details = Omit<Op, 'method' | 'path' | 'summary' | 'tag' | 'description' | 'access'> & {
  access?: Access;
};

/**
 * One operation: `'get /api/parcels/{id}'`, its summary and description, and the rest. Its tag
 * follows from its path, and who may call it from its area (signed-in users elsewhere) unless
 * `access` says otherwise.
 */
function op(
  route: `${Method} /api/${string}`,
  summary: string,
  description: string,
  details: Details,
): Op {
  const [method, path] = route.split(' ') as [Method, string];
  const tag = TAG_OF_PATH.find(([prefix]) => path.startsWith(prefix))![1];
  const access = ADMIN_AREAS.has(tag) ? 'admin' : PUBLIC_AREAS.has(tag) ? 'public' : 'user';
  return { method, path, summary, description, tag, access, ...details };
}

const admin = (details: Details): Details => ({ ...details, access: 'admin' });
/** An answer about one record by its id: 404 when there is none. */
const about = (answer: Shape, errors = [404]): Details => ({ ok: { 200: answer }, errors });
/** One record, with an ETag. */
const read = (key: string, item: string): Details => ({ etag: true, ...about(wrap(key, item)) });
/** One record changed by the fields given. */
const change = (
  key: string,
  item: string,
  body: z.ZodType,
  bodyExample: unknown,
  errors?: number[],
): Details => ({ body, bodyExample, ...about(wrap(key, item), errors) });
/** A record made: 201 with it. */
const create = (key: string, item: string, body: z.ZodType, bodyExample: unknown): Details => ({
  body,
  bodyExample,
  ok: { 201: wrap(key, item) },
});
/** Every record, in one list. */
const every = (key: string, item: string): Details => ({ ok: { 200: items(key, item) } });
/** A page of records, filtered by the query. */
const page = (query: z.ZodType, key: string, item: string): Details => ({
  query,
  ok: { 200: list(key, item) },
});
/**
 * A page of a list a sync follows: with `updatedSince` or `cursor`, the changes in the order
 * they were made, deletions among them, and where to go on.
 */
const syncedList = (key: string, item: string): Shape => ({
  schema: obj(
    {
      [key]: {
        type: 'array',
        items: { anyOf: [ref(item), ref('DeletedRecord')] },
        description: 'With updatedSince or cursor, deleted records are listed too (deleted: true)',
      },
      pagination: ref('Pagination'),
      nextCursor: {
        type: 'string',
        description:
          'With updatedSince or cursor: send it back as `cursor` for the changes after this page (when hasMore is false, for those made from now on)',
      },
      hasMore: {
        type: 'boolean',
        description: 'With updatedSince or cursor: whether more changes are ready after this page',
      },
    },
    [key, 'pagination'],
  ),
  example: {
    [key]: [example(item), example('DeletedRecord')],
    pagination: { ...(example('Pagination') as object), totalItems: 2 },
    nextCursor: SYNC_CURSOR_EXAMPLE,
    hasMore: false,
  },
});
const syncedPage = (query: z.ZodType, key: string, item: string): Details => ({
  query,
  ok: { 200: syncedList(key, item) },
});
const SYNC_CURSOR_EXAMPLE = encodeSyncCursor({
  list: 'parcels',
  seq: 4182,
  id: EXAMPLE_IDS.parcel,
});
/** What every list a sync follows says about it. */
const SYNC_NOTE =
  ' To keep a copy in sync, start with `updatedSince` (any instant before what you hold) and follow `nextCursor` as `cursor`: every change, deletions included (`deleted: true`, for 30 days), comes once, in the order changes were made, however much is written meanwhile. Page numbers are for people reading a list: they shift while the list changes.';

const DEPOT_EXAMPLE = {
  name: 'Chicago Hub',
  address: '400 W Lake St, Chicago, IL',
  city: 'Chicago',
  timeZone: 'America/Chicago',
};

const OPS: Op[] = [
  op(
    'post /api/auth/login',
    'Sign in: a bearer token for 7 days',
    'Exchanges a username and password for a bearer token valid for 7 days. Send it as `Authorization: Bearer <token>`; revoke it with POST /api/auth/logout. Failed sign-ins are limited per address and account (429 with Retry-After).',
    {
      access: 'public',
      rateLimited: true,
      body: LoginSchema,
      bodyExample: { username: 'dispatch', password: 'correct horse battery' },
      errors: [400, 401, 429],
      ok: {
        200: {
          schema: obj({
            token: { type: 'string' },
            expiresAt: { type: 'string', format: 'date-time' },
            user: ref('User'),
          }),
          example: {
            token: 'tok_3b7e4f0c9a2d4e6f8a1b2c3d4e5f6a7b',
            expiresAt: '2026-05-11T14:30:00.000Z',
            user: example('User'),
          },
        },
      },
    },
  ),
  op(
    'post /api/auth/logout',
    'Revoke the bearer token sent',
    'Revokes the bearer token this request carries; other tokens and API keys keep working.',
    { ok: { 200: { schema: obj({ success: { const: true } }), example: { success: true } } } },
  ),
  op(
    'post /api/auth/password',
    'Change your own password: the token sent keeps working, every other login token and session of yours ends. The one request (with logout) an account on a temporary password may make: everything else answers 403 with code password_change_required. Not with an API key',
    'Changes your own password. The token sent keeps working; every other login token and session of yours ends. With logout, the one request an account on a temporary password may make: everything else answers 403 with code password_change_required. Not with an API key.',
    {
      body: PasswordChangeApiSchema,
      bodyExample: { currentPassword: 'Temp-4821-kq', newPassword: 'a longer passphrase' },
      ok: { 200: wrap('user', 'User') },
    },
  ),
  op(
    'get /api/auth/me',
    'The signed-in user',
    'The user the credential belongs to (for an API key, the admin who created it).',
    { ok: { 200: wrap('user', 'User') } },
  ),
  op(
    'get /api/parcels',
    'List parcels, newest first',
    `Parcels, newest first (or by \`sort\` and \`order\`), a page at a time: \`page\` from 1, \`limit\` at most 100. \`status\` and \`search\` (tracking number, sender or recipient) filter the list.${SYNC_NOTE}`,
    syncedPage(ParcelListQuerySchema, 'parcels', 'Parcel'),
  ),
  op(
    'post /api/parcels',
    "Create a parcel ('Pending', fixed cost, a new tracking number)",
    "Creates a parcel: status Pending, the fixed creation cost and a new tracking number whose last digit is its check digit. Only the recipient's name and address are required; unset fields take their defaults (Standard service and priority).",
    create('parcel', 'Parcel', ParcelCreateSchema, {
      recipient: {
        name: 'Ada Lovelace',
        address: '12 Analytical Way',
        city: 'Springfield',
        postalCode: '62701',
        country: 'US',
        email: 'ada@example.com',
      },
      sender: { name: 'Acme Books', address: '1 Harbor Rd', city: 'Portland', country: 'US' },
      weight: 2.5,
      dimensions: { length: 30, width: 20, height: 10 },
      serviceType: 'Express',
      estimatedDelivery: '2026-05-06',
      deliveryWindow: { from: '2026-05-06T09:00:00-04:00', until: '2026-05-06T13:00:00-04:00' },
    }),
  ),
  op(
    'get /api/parcels/{id}',
    'A parcel with its tracking events',
    'One parcel with its tracking events, newest first. Answers carry an ETag: send it back in If-None-Match for a 304 while the parcel is unchanged.',
    read('parcel', 'Parcel'),
  ),
  op(
    'put /api/parcels/{id}',
    'Change the fields given',
    "Changes only the fields given, nested contact fields included; a status given here is the parcel's status until its next event. A delivery window must fall on the estimated day (the one given, else the parcel's) in the company's zone; a new estimated day without a window clears a window on another day.",
    {
      ifMatch: true,
      ...change('parcel', 'Parcel', ParcelUpdateSchema, {
        priority: 'High',
        recipient: { phone: '+1 555 0100' },
      }),
    },
  ),
  op(
    'delete /api/parcels/{id}',
    'Delete a parcel and its events',
    'Deletes the parcel with its tracking events; its receipts and notifications stay.',
    about(deleted()),
  ),
  op(
    'post /api/parcels/{id}/reopen',
    'Reopen a delivered or returned parcel (staff), with the reason; 409 for one whose journey is not over',
    'Reopens a delivered or returned parcel, which scans no longer change (staff): an event with the status chosen (default In Transit) and the reason ("Reopened: …") goes into its timeline, and a `reopen` entry with the reason into the audit trail. Its proofs of delivery stay. 409 for a parcel that is not delivered or returned.',
    {
      body: ParcelReopenSchema,
      bodyExample: {
        status: 'In Transit',
        reason: 'Left at the wrong address; collecting it again',
      },
      ok: {
        201: {
          schema: obj({ event: ref('ParcelTrackingEvent'), parcel: ref('Parcel') }),
          example: { event: example('ParcelTrackingEvent'), parcel: example('Parcel') },
        },
      },
      errors: [404, 409],
    },
  ),
  op(
    'get /api/tracking/{parcelId}/events',
    "A parcel's events, newest first",
    `The tracking events of the parcel, newest first, each with its parcelId, a page at a time (up to 100 by default).${SYNC_NOTE}`,
    { query: EventListQuerySchema, ...about(syncedList('events', 'ParcelTrackingEvent')) },
  ),
  op(
    'post /api/tracking/{parcelId}/events',
    "Add an event (updates the parcel's status)",
    "Adds a tracking event. `status` is one of the statuses listed (anything else is a 400 that names them); the parcel's status follows its newest event (Delivered also sets actualDelivery), except a Custom Status, which says what it is in `customStatus`. The parcel's followers and the automatic e-mail rules hear of it. A Failed Delivery needs a `reason`. `timeZone` is the IANA zone of the place (default: the company's); `depotId` takes the depot's name and zone.",
    {
      body: TrackingEventSchema,
      bodyExample: {
        status: 'Arrived at Facility',
        location: 'Chicago Hub',
        description: 'Sorted for delivery',
        timestamp: '2026-05-04T14:30:00Z',
        timeZone: 'America/Chicago',
      },
      ok: { 201: wrap('event', 'ParcelTrackingEvent') },
      errors: [404],
    },
  ),
  op(
    'get /api/tracking/events/{id}',
    'One event',
    'One tracking event, with its parcelId and an ETag.',
    read('event', 'ParcelTrackingEvent'),
  ),
  op(
    'put /api/tracking/events/{id}',
    'Change the fields given',
    "Changes the fields given; the parcel's status is worked out again from its events.",
    {
      ifMatch: true,
      ...change('event', 'ParcelTrackingEvent', TrackingEventUpdateSchema, {
        description: 'Sorted for delivery, bay 4',
      }),
    },
  ),
  op(
    'delete /api/tracking/events/{id}',
    'Delete an event',
    "Deletes the event; the parcel's status is worked out again from the events left.",
    about(deleted()),
  ),
  op(
    'post /api/scans',
    'Record a scan by tracking number at a depot (depotId: its name and zone) or a location (couriers and up). A Failed Delivery needs a reason (other: and a note). The same scan again within 5 minutes records nothing and answers the first (200, repeated: true). A delivered or returned parcel takes no scan (409 parcel_closed); Delivered comes with a proof of delivery (409 proof_of_delivery_required), or, where the settings allow it, with receivedBy; an Out for Delivery scan that contradicts the delivery answers 409 scan_needs_confirmation until sent with override: true. 404 code tracking_number_not_found; 400 code tracking_number_mistyped for a number that fails its check digit',
    'Records a scan by tracking number at a depot (`depotId`: its name and zone) or a `location`, for couriers and up. A Failed Delivery needs a reason (`other` also a note). The same scan again within 5 minutes records nothing and answers the first (200, `repeated: true`). A scan that moves a parcel back (Out for Delivery → In Transit) is recorded and says so in `regressedFrom`.\n\nA delivered or returned parcel takes no scan: 409 with code parcel_closed and what ended its journey; staff reopen it with POST /api/parcels/{id}/reopen. A Delivered scan records the proof of delivery of one stop (`destination`, default the first without one) naming who received it (`receivedBy`) where Settings › Depots allows deliveries by scan; otherwise it answers 409 with code proof_of_delivery_required and the stop, for POST /api/parcels/{id}/proof-of-delivery. A multi-stop parcel is Delivered with its last stop. An Out for Delivery scan of a parcel whose recipient asked for a later day or to hold it at the depot, or that goes to another town than the depot’s `city`, answers 409 with code scan_needs_confirmation and its `warnings`; sent again with `override: true` it is recorded and the event keeps the warnings (`override`).\n\n404 with code tracking_number_not_found for an unknown number; 400 with code tracking_number_mistyped for one that also fails its check digit.',
    {
      body: ScanSchema,
      bodyExample: {
        trackingNumber: EXAMPLE_TRACKING_NUMBER,
        status: 'Arrived at Facility',
        depotId: EXAMPLE_IDS.depot,
      },
      ok: { 201: 'ScanResult', 200: 'ScanResult' },
      errors: [404],
      errorSchemas: { 409: 'ScanRefused' },
    },
  ),
  op(
    'get /api/depots',
    'Depots by name',
    'Every depot, by name: the places scans are recorded at. Every role reads them.',
    every('depots', 'Depot'),
  ),
  op(
    'post /api/depots',
    'Add a depot; 409 for a name already taken',
    'Adds a depot (admin): a unique name, an address and its IANA time zone. 409 for a name already taken.',
    admin(create('depot', 'Depot', DepotSchema, DEPOT_EXAMPLE)),
  ),
  op(
    'get /api/depots/{id}',
    'One depot',
    'One depot; every role reads it.',
    read('depot', 'Depot'),
  ),
  op(
    'put /api/depots/{id}',
    'Change a depot; events recorded there keep the name and zone they were given',
    'Changes a depot (admin). Events recorded there keep the name and zone they were given. 409 for a name already taken.',
    admin(change('depot', 'Depot', DepotSchema, DEPOT_EXAMPLE, [404, 409])),
  ),
  op(
    'delete /api/depots/{id}',
    'Delete a depot',
    'Deletes a depot (admin); events recorded there keep its name and zone.',
    admin(about(deleted('depot', 'Depot'))),
  ),
  op(
    'get /api/tracking/track/{trackingNumber}',
    'Public lookup by tracking number (no token; CORS)',
    "The public tracking result of one number, without a token and from any origin (CORS): the parcel's status, the recipient's name and town, and its events in their local time zones. An unknown number is a 404 whose code says whether it is probably mistyped (its check digit does not match).",
    {
      etag: true,
      rateLimited: true,
      cors: true,
      ok: { 200: 'PublicTracking' },
      errors: [404, 429],
    },
  ),
  op(
    'post /api/tracking/track',
    'Public lookup of up to 30 numbers (no token; CORS)',
    'Looks up to 30 numbers up at once, without a token and from any origin (CORS). The answer lists each number once, in the order given, found or not.',
    {
      body: TrackingBatchSchema,
      bodyExample: { trackingNumbers: [EXAMPLE_TRACKING_NUMBER, 'SWX000000005'] },
      rateLimited: true,
      cors: true,
      ok: { 200: 'TrackingBatchResult' },
      errors: [429],
    },
  ),
  op(
    'post /api/tracking/track/{trackingNumber}/subscriptions',
    'E-mail updates on a parcel until delivery: a confirmation e-mail goes to the address (202 whatever the address; no token; CORS)',
    'Asks for e-mail updates on a parcel until it is delivered: a confirmation e-mail goes to the address, and updates start once its link is followed. The answer is 202 whatever the address, so it does not tell who follows what. No token; CORS.',
    {
      body: ParcelSubscribeSchema,
      bodyExample: { email: 'ada@example.com' },
      rateLimited: true,
      cors: true,
      ok: { 202: 'SubscriptionRequested' },
      errors: [404, 409, 429],
    },
  ),
  op(
    'post /api/tracking/track/{trackingNumber}/delivery-preferences',
    "Set the recipient's delivery preferences",
    "The recipient's delivery preferences, behind the delivery address's postcode (the recipient's, or the last stop's): instructions, a safe place, one of the next five working days or holding it at the depot (no token; CORS). A wrong postcode is 403 (forbidden) and changes nothing; guessing meets 429 (rate_limited) per parcel and per client address within 10 tries. A parcel already delivered, failed or returned is 409 (conflict).",
    {
      bodyExample: { postalCode: '02139', instructions: 'Ring twice', safePlace: 'porch' },
      body: deliveryPreferencesSchema([], { strict: true }),
      rateLimited: true,
      cors: true,
      ok: { 200: 'DeliveryPreferencesResult' },
      errors: [403, 404, 409, 429],
    },
  ),
  op(
    'get /api/notifications',
    'List notifications, newest first',
    `Notifications (e-mails sent or queued), newest first, a page at a time; filter by type, status, tracking number or whether the rules sent it automatically.${SYNC_NOTE}`,
    syncedPage(NotificationListQuerySchema, 'notifications', 'Notification'),
  ),
  op(
    'post /api/notifications',
    'Send an e-mail notification (201 even when sending failed)',
    'Queues an e-mail about a parcel to the address given. The answer is 201 with status pending; the notification becomes sent or failed once the mail server answers (notification.sent / notification.failed webhooks).',
    create('notification', 'Notification', NotificationCreateSchema, {
      type: 'Status Update',
      recipient: 'ada@example.com',
      title: 'Your parcel is on its way',
      message: 'It arrived at our Chicago hub.',
      trackingNumber: EXAMPLE_TRACKING_NUMBER,
    }),
  ),
  op(
    'get /api/notifications/{id}',
    'One notification',
    'One notification, with its delivery result.',
    read('notification', 'Notification'),
  ),
  op(
    'put /api/notifications/{id}',
    'Refused: the status follows the delivery (409 with a status; 400 otherwise)',
    "A notification's status follows its delivery and cannot be set: a body with a status is a 409, any other body a 400.",
    change(
      'notification',
      'Notification',
      NotificationUpdateSchema,
      { status: 'sent' },
      [400, 404, 409],
    ),
  ),
  op(
    'delete /api/notifications/{id}',
    'Delete a failed notification',
    'Deletes a failed notification; any other is a 409.',
    about(wrap('notification', 'Notification'), [404, 409]),
  ),
  op(
    'post /api/notifications/{id}/retry',
    'Send a failed notification again',
    'Queues a failed notification again; any other is a 409.',
    about(wrap('notification', 'Notification'), [404, 409]),
  ),
  op(
    'get /api/receipts',
    'List receipts, newest first',
    `Receipts, newest first, a page at a time; \`search\` matches the receipt number, tracking number or customer.${SYNC_NOTE}`,
    syncedPage(ReceiptListQuerySchema, 'receipts', 'Receipt'),
  ),
  op(
    'get /api/receipts/{id}',
    'One receipt',
    'One receipt, with its number, amounts and payment method.',
    read('receipt', 'Receipt'),
  ),
  op(
    'put /api/receipts/{id}',
    'Change the fields given',
    'Changes the fields given (customer, payment method, format).',
    {
      ifMatch: true,
      ...change('receipt', 'Receipt', ReceiptUpdateSchema, { paymentMethod: 'Bank Transfer' }),
    },
  ),
  op(
    'delete /api/receipts/{id}',
    'Delete a receipt',
    'Deletes a receipt; its number is never given again.',
    about(deleted()),
  ),
  op(
    'post /api/receipts/generate/{parcelId}',
    'Generate a receipt for a parcel',
    "Stores a receipt for the parcel, numbered RCP-{year}-{sequence}, for the parcel's cost plus tax. The body is optional: customer, e-mail, payment method and format default from the parcel.",
    {
      body: ReceiptGenerateSchema,
      bodyExample: {
        customerName: 'Acme Books',
        customerEmail: 'orders@acme.example',
        paymentMethod: 'Credit Card',
        format: 'pdf',
      },
      bodyOptional: true,
      ok: { 201: wrap('receipt', 'Receipt') },
      errors: [404],
    },
  ),
  op(
    'get /api/dashboard/stats',
    'Overview figures',
    "The overview's figures: parcel counts and revenue, and their change from last month.",
    { ok: { 200: 'DashboardStats' } },
  ),
  op(
    'get /api/dashboard/recent-parcels',
    'Newest parcels',
    'The newest parcels, for the overview.',
    { query: RecentParcelsQuerySchema, ok: { 200: items('parcels', 'Parcel') } },
  ),
  op(
    'get /api/dashboard/recent-tracking',
    'Newest tracking events',
    "The newest tracking events, with their parcels' tracking numbers.",
    { query: RecentTrackingQuerySchema, ok: { 200: items('events', 'RecentTrackingEvent') } },
  ),
  op(
    'get /api/health',
    'Health and database',
    'Whether the app and its database answer (503 when the database does not). Public, for load balancers and monitors.',
    {
      ok: { 200: 'Health' },
      errors: [503],
      errorSchemas: {
        503: {
          schema: ref('Health'),
          example: { ...(example('Health') as object), status: 'error', database: 'down' },
        },
      },
    },
  ),
  op(
    'get /api/openapi.json',
    'This document',
    'This OpenAPI 3.1 document, public and cacheable; /api/docs renders it with a guide.',
    {
      ok: {
        200: {
          schema: obj({
            openapi: { type: 'string', pattern: '^3\\.1\\.' },
            info: { type: 'object' },
            paths: { type: 'object' },
          }),
          example: { openapi: '3.1.0', info: { title: 'API', version: '1.0.0' }, paths: {} },
        },
      },
    },
  ),
  op(
    'get /api/api-keys',
    'List API keys (admin)',
    'Every API key, without the keys themselves.',
    every('apiKeys', 'ApiKey'),
  ),
  op(
    'post /api/api-keys',
    'Create an API key; the key is in this answer only (admin)',
    'Creates a long-lived API key with scopes (read, write, admin). The key (sk_\u2026) is in this answer only: store it then.',
    {
      body: ApiKeyCreateSchema,
      bodyExample: { name: 'Warehouse sync', scopes: ['read', 'write'] },
      ok: {
        201: {
          schema: obj({ apiKey: ref('ApiKey'), key: { type: 'string', pattern: '^sk_' } }),
          example: { apiKey: example('ApiKey'), key: 'sk_3f9a6c1e8b2d4f7a9c0e1b3d5f7a9c1e' },
        },
      },
    },
  ),
  op(
    'get /api/api-keys/{id}',
    'One API key (admin)',
    'One API key, without the key itself.',
    about(wrap('apiKey', 'ApiKey')),
  ),
  op(
    'delete /api/api-keys/{id}',
    'Revoke an API key (admin)',
    'Revokes an API key at once.',
    about(deleted('apiKey', 'ApiKey')),
  ),
  op(
    'get /api/webhooks',
    'List webhook endpoints (admin)',
    'Every webhook endpoint, without its secret.',
    every('webhooks', 'Webhook'),
  ),
  op(
    'post /api/webhooks',
    'Add an endpoint; its whsec_ secret is in this answer only (admin)',
    'Adds an endpoint for the event types given. Its whsec_ signing secret is in this answer only. Receivers on loopback and private addresses are refused.',
    {
      body: WebhookCreateSchema,
      bodyExample: {
        url: 'https://hooks.example.com/courier',
        events: ['parcel.status_changed', 'parcel.delivered'],
        description: 'Order system',
      },
      ok: {
        201: {
          schema: obj({ webhook: ref('Webhook'), secret: { type: 'string', pattern: '^whsec_' } }),
          example: {
            webhook: example('Webhook'),
            secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
          },
        },
      },
    },
  ),
  op(
    'get /api/webhooks/{id}',
    'One endpoint (admin)',
    'One webhook endpoint, without its secret.',
    read('webhook', 'Webhook'),
  ),
  op(
    'put /api/webhooks/{id}',
    'Change the fields given (admin)',
    'Changes the fields given; `active: false` pauses deliveries.',
    change('webhook', 'Webhook', WebhookUpdateSchema, { active: false }),
  ),
  op(
    'delete /api/webhooks/{id}',
    'Delete an endpoint (admin)',
    'Deletes an endpoint and its delivery log.',
    about(deleted('webhook', 'Webhook')),
  ),
  op(
    'get /api/webhooks/{id}/deliveries',
    "An endpoint's deliveries and their attempts (admin)",
    "The endpoint's deliveries, newest first, each with every attempt: when, the status code, the first 1 KB of the answer and the error.",
    {
      query: WebhookDeliveryQuerySchema,
      ok: { 200: list('deliveries', 'WebhookDelivery') },
      errors: [404],
    },
  ),
  op(
    'post /api/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    'Queue a delivery again (admin)',
    'Sends a delivery again with the same webhook-id and body, with the usual retries. 409 while it is still queued.',
    { ok: { 202: wrap('delivery', 'WebhookDelivery') }, errors: [404, 409] },
  ),
  op(
    'post /api/parcels/import',
    "Import parcels from CSV (the export's columns): rows create parcels or update those with their tracking number, all rows or none; ?dryRun=true only validates",
    "Imports parcels from a CSV file with the export's columns: a row creates a parcel, or updates the stored parcel whose tracking number it carries; every row or none. `dryRun=true` only checks the file and counts what would be created, updated or left unchanged. The errors list each row and column that failed.",
    {
      query: ParcelImportQuerySchema,
      rawBody: {
        contentType: 'text/csv',
        schema: { type: 'string' },
        example:
          'recipientName,recipientAddress,serviceType\nAda Lovelace,12 Analytical Way,Express\n',
        description:
          "UTF-8 CSV whose header row names the columns of GET /api/parcels/export.csv (any order; recipientName and recipientAddress needed). An empty trackingNumber gets a new one; the number of a stored parcel updates that parcel as PUT /api/parcels/{id} would (the columns given; an empty status, serviceType, priority, estimatedDelivery or destinations cell, or destinations `[]`, keeps the stored value; cost, createdAt and actualDelivery must be empty or as stored), with its parcel.updated and parcel.status_changed webhooks; any other number creates a parcel under it; a number twice in the file is an error. Cells the export escaped with a leading ' are read back as they were. At most 20,000 rows and IMPORT_BODY_LIMIT_BYTES (20 MiB).",
      },
      ok: { 200: 'ParcelImportResult' },
      errors: [413, 415],
      errorSchemas: { 400: 'ParcelImportErrors' },
    },
  ),
  op(
    'get /api/parcels/export.csv',
    "The filtered parcel list as CSV, streamed (the list's filters and sort), or only the parcels in `ids`",
    "The parcel list as CSV, streamed, with the list's filters and sort, or only the parcels in `ids`. Cells that a spreadsheet would read as a formula are escaped with a leading '.",
    {
      query: ParcelExportQuerySchema,
      contentType: 'text/csv',
      ok: {
        200: {
          schema: { type: 'string' },
          example: `trackingNumber,recipientName,recipientAddress,status\n${EXAMPLE_TRACKING_NUMBER},Ada Lovelace,12 Analytical Way,In Transit\n`,
        },
      },
    },
  ),
  op(
    'get /api/parcels/{id}/label.pdf',
    "The parcel's 4×6 in shipping label as a PDF: sender, recipient, service, weight, a Code 128 barcode of the tracking number and a QR code of its tracking page",
    "The parcel's 4\u00d76 in shipping label as a PDF: sender, recipient, service, weight, a Code 128 barcode of the tracking number and a QR code of its tracking page.",
    { contentType: 'application/pdf', ok: { 200: file('application/pdf') }, errors: [404] },
  ),
  op(
    'get /api/parcels/{id}/proof-of-delivery',
    "The parcel's proofs of delivery, by stop",
    "The parcel's proofs of delivery, one per stop that has one.",
    about(items('proofsOfDelivery', 'ProofOfDelivery')),
  ),
  op(
    'post /api/parcels/{id}/proof-of-delivery',
    "Record the proof of delivery of one stop (staff): who received it, photos, a signature. It adds the stop's Delivered event; the parcel is Delivered with its last stop (then parcel.delivered carries every stop's proof id)",
    "Records the proof of delivery of one stop (staff): who received it, up to three photos and a signature, as multipart/form-data. It adds the stop's Delivered event; the parcel is Delivered with its last stop, and parcel.delivered then carries every stop's proof id.",
    {
      rawBody: {
        contentType: 'multipart/form-data',
        example: { receivedBy: 'Ada Lovelace', note: 'Left with the recipient' },
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
          'Photos and signature are decoded and re-encoded (at most 2,048 px, all metadata removed); a file that does not decode as an accepted image is a 415 (code unsupported_image) and nothing is stored. A picture over 50 megapixels, or over 160 MB decoded (width × height × channels × bytes per sample, read from its header), is a 413 (code image_too_large) before anything is decoded. A stop that already has a proof is a 409 (code proof_of_delivery_exists).',
      },
      ok: {
        201: {
          schema: obj({
            proofOfDelivery: ref('ProofOfDelivery'),
            parcel: obj({
              id: { type: 'string' },
              trackingNumber: { type: 'string' },
              status: { type: 'string' },
            }),
          }),
          example: {
            proofOfDelivery: example('ProofOfDelivery'),
            parcel: {
              id: EXAMPLE_IDS.parcel,
              trackingNumber: EXAMPLE_TRACKING_NUMBER,
              status: 'Delivered',
            },
          },
        },
      },
      errors: [404],
    },
  ),
  op(
    'get /api/parcels/{id}/proof-of-delivery/{proofId}.pdf',
    'A proof of delivery as a one-page PDF',
    'One proof of delivery as a one-page PDF, with its photos and signature.',
    { contentType: 'application/pdf', ok: { 200: file('application/pdf') }, errors: [404] },
  ),
  op(
    'get /api/proof-of-delivery/files/{fileId}',
    "A proof of delivery's photo or signature (its own image type), for signed-in staff and API credentials only",
    "A proof of delivery's photo or signature, in its own image type, for signed-in staff and API credentials only.",
    { contentType: 'image/*', ok: { 200: file('image/*') }, errors: [404] },
  ),
  op(
    'get /api/notification-templates',
    'The four e-mail templates',
    'The four e-mail templates (stored or default) and the placeholders they may use.',
    {
      ok: {
        200: {
          schema: obj({
            templates: { type: 'array', items: ref('NotificationTemplate') },
            placeholders: { type: 'array', items: { type: 'string' } },
          }),
          example: {
            templates: [example('NotificationTemplate')],
            placeholders: [...TEMPLATE_PLACEHOLDERS],
          },
        },
      },
    },
  ),
  op(
    'get /api/notification-templates/{id}',
    'One e-mail template (status-update, delivery-confirmation, pickup-confirmation, custom)',
    'One e-mail template by its key.',
    about(wrap('template', 'NotificationTemplate')),
  ),
  op(
    'put /api/notification-templates/{id}',
    'Change an e-mail template; unknown placeholders are refused (admin)',
    'Changes an e-mail template (admin); an unknown {{placeholder}} is a 400 naming the field.',
    admin(
      change('template', 'NotificationTemplate', NotificationTemplateSchema, {
        subject: 'Update on {{trackingNumber}}',
        text: 'Your parcel {{trackingNumber}} is now {{status}}.',
      }),
    ),
  ),
  op(
    'delete /api/notification-templates/{id}',
    'Reset an e-mail template to the default (admin)',
    'Resets an e-mail template to its default (admin).',
    admin(about(wrap('template', 'NotificationTemplate'))),
  ),
  op(
    'get /api/notification-settings',
    'Which parcel statuses e-mail the recipient, with which template',
    'Which parcel statuses e-mail the recipient automatically, and with which template; `dayBefore`, whether the recipient is e-mailed the day before the estimated delivery day with the day and the expected window.',
    { ok: { 200: wrap('settings', 'NotificationSettings') } },
  ),
  op(
    'put /api/notification-settings',
    'Change the automatic e-mail rules (admin)',
    'Changes the automatic e-mail rules (admin): one rule per status given, and the day-before e-mail’s when `dayBefore` is given.',
    admin({
      body: NotificationSettingsSchema,
      bodyExample: {
        rules: [{ status: 'Delivered', enabled: true, template: 'Delivery Confirmation' }],
        dayBefore: { enabled: true, template: 'Delivery Reminder' },
      },
      ok: { 200: wrap('settings', 'NotificationSettings') },
    }),
  ),
  op('get /api/users', 'List users (admin)', 'Every user (admin).', every('users', 'User')),
  op(
    'post /api/users',
    'Add a user; without a password the answer carries a temporaryPassword, shown once (admin)',
    'Adds a user (admin). Without a password the answer carries a temporaryPassword, shown once; the user must change it before anything else.',
    {
      body: UserCreateSchema,
      bodyExample: {
        username: 'dispatch',
        name: 'Dispatch Desk',
        email: 'dispatch@example.com',
        role: 'staff',
      },
      ok: {
        201: {
          schema: obj({ user: ref('User'), temporaryPassword: { type: 'string' } }, ['user']),
          example: { user: example('User'), temporaryPassword: 'Temp-4821-kq' },
        },
      },
    },
  ),
  op('get /api/users/{id}', 'One user (admin)', 'One user (admin).', about(wrap('user', 'User'))),
  op(
    'put /api/users/{id}',
    "Change a user: name, e-mail, role, password (admin); a new password ends the user's sessions and login tokens",
    "Changes a user's name, e-mail, role or password (admin); a new password ends the user's sessions and login tokens.",
    change('user', 'User', UserUpdateSchema, { role: 'viewer' }, [404, 409]),
  ),
  op(
    'post /api/users/{id}/disable',
    "Disable a user, ending that user's sessions and tokens (admin); 409 for the last active admin or your own account",
    "Disables a user and ends that user's sessions and tokens (admin). 409 for the last active admin or your own account.",
    about(wrap('user', 'User'), [404, 409]),
  ),
  op(
    'post /api/users/{id}/enable',
    'Enable a user again (admin)',
    'Enables a disabled user again (admin).',
    about(wrap('user', 'User')),
  ),
  op(
    'get /api/audit',
    "Audit entries, newest first; one record's history (entity and entityId) for the roles that may read the record (users, API keys, webhooks: admins, with an API key's admin scope; inbox items: staff), everything for admins (with the admin scope)",
    "Audit entries, newest first: who changed what, when, from where, field by field. One record's history (entity and entityId) for the roles that may read the record; everything for admins (an API key needs the admin scope).",
    page(AuditQuerySchema, 'entries', 'AuditEntry'),
  ),
];

export const OPENAPI_OPERATIONS = OPS.map(({ method, path }) => ({ method, path }));

function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest as JsonSchema;
}

/** zod's bounds of a safe integer say nothing a client needs to know. */
function withoutSafeBounds({ minimum, maximum, ...rest }: JsonSchema): JsonSchema {
  return {
    ...rest,
    ...(minimum === Number.MIN_SAFE_INTEGER ? {} : { minimum }),
    ...(maximum === Number.MAX_SAFE_INTEGER ? {} : { maximum }),
  };
}

/**
 * A query's parameters as the server reads them. Query values are text: where the schema turns
 * the text into a number, the parameter is documented as that number (its type, bounds and
 * default, from the schema's output side); anything else as the text it accepts.
 */
function queryParameters(query: z.ZodType) {
  const input = jsonSchema(query, 'input');
  const output = jsonSchema(query, 'output');
  const inputs = (input.properties ?? {}) as Record<string, JsonSchema>;
  const outputs = (output.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input.required as string[] | undefined) ?? []);
  return Object.entries(inputs).map(([name, accepted]) => {
    const read = outputs[name];
    const numeric = read && (read.type === 'integer' || read.type === 'number');
    return {
      name,
      in: 'query',
      required: required.has(name),
      schema: numeric ? withoutSafeBounds({ ...read, ...pick(accepted, 'description') }) : accepted,
    };
  });
}

function pick(schema: JsonSchema, key: string): JsonSchema {
  return key in schema ? { [key]: schema[key] } : {};
}

const OBJECT_ID = { type: 'string', pattern: '^[0-9a-fA-F]{24}$' };
const TRACKING_NUMBER = { type: 'string', pattern: TRACKING_NUMBER_INPUT.pattern };

/** A path parameter: ids are 24 hex digits; a parcel's routes also take its tracking number. */
function pathParameter(name: string, path: string) {
  const base = { name, in: 'path', required: true };
  if (name === 'trackingNumber')
    return {
      ...base,
      description: TRACKING_NUMBER_INPUT.description,
      schema: TRACKING_NUMBER,
      example: EXAMPLE_TRACKING_NUMBER,
    };
  if (path.startsWith('/api/notification-templates/'))
    return {
      ...base,
      description: "The template's key",
      schema: { type: 'string', enum: NOTIFICATION_TYPES.map(templateIdOf) },
      example: templateIdOf(NOTIFICATION_TYPES[0]),
    };
  if ((name === 'id' && path.startsWith('/api/parcels/')) || name === 'parcelId')
    return {
      ...base,
      description: "The parcel's id (24 hex digits) or its tracking number",
      schema: { anyOf: [OBJECT_ID, TRACKING_NUMBER] },
      example: EXAMPLE_IDS.parcel,
    };
  return {
    ...base,
    description: 'An id: 24 hex digits',
    schema: OBJECT_ID,
    example: EXAMPLE_IDS.event,
  };
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input: `details` has a message per field (an unknown body field is named too); or an address whose percent-encoding does not decode',
  401: 'No token, a bad or expired one, or an Authorization that is not Bearer; WWW-Authenticate names the scheme',
  403: "Not allowed: a role or an API key's scope (write, admin) is needed, or (code password_change_required) the account must change its temporary password first",
  404: 'Not found',
  409: 'Conflict (a duplicate, a state that does not allow it, or an Idempotency-Key still running)',
  412: 'If-Match names a version that is no longer the record’s: GET it again',
  413: 'Body too large',
  415: 'Body is not JSON',
  422: 'Idempotency-Key reused with another request',
  429: 'Too many requests: wait Retry-After seconds',
  503: 'Database unavailable',
};

const ERROR_EXAMPLE_TEXT: Record<number, string> = {
  400: 'Validation failed',
  401: 'Authentication required',
  403: 'This needs the staff role',
  404: 'Not found',
  409: 'Conflict',
  412: 'The parcel was changed since the version If-Match names: GET it again',
  413: 'The request body is larger than 1048576 bytes',
  415: 'Content-Type must be application/json',
  422: 'This Idempotency-Key was used with another request',
  429: 'Too many requests. Please wait a minute and try again.',
  503: 'The database is unavailable',
};

function errorExample(status: number) {
  const text = ERROR_EXAMPLE_TEXT[status] ?? 'Error';
  return {
    error: text,
    message: text,
    code: defaultErrorCode(status),
    ...(status === 400 ? { details: { 'recipient.name': ['Recipient name is required'] } } : {}),
  };
}

const RATE_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

function media(contentType: string, { schema, example }: Shape) {
  return { [contentType]: { schema, ...(example === undefined ? {} : { example }) } };
}

function operation(op: Op) {
  const authenticated = op.access !== 'public';
  const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => pathParameter(m[1]!, op.path));
  const parameters: unknown[] = [
    ...pathParams,
    { $ref: '#/components/parameters/X-Request-Id' },
    ...(op.query ? queryParameters(op.query) : []),
  ];
  if (op.etag) parameters.push({ $ref: '#/components/parameters/If-None-Match' });
  if (op.ifMatch) parameters.push({ $ref: '#/components/parameters/If-Match' });
  if (op.method === 'post' && authenticated)
    parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });

  const common = {
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    ...(op.rateLimited || authenticated ? RATE_HEADERS : {}),
  };
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(op.ok)) {
    const shape = typeof answer === 'string' ? named(answer) : answer;
    responses[status] = {
      description: 'Success',
      headers: {
        ...common,
        ...(op.etag ? { ETag: { $ref: '#/components/headers/ETag' } } : {}),
        ...(op.method === 'post' && authenticated
          ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }
          : {}),
      },
      content: media(op.contentType ?? 'application/json', shape),
    };
  }
  if (op.etag)
    responses['304'] = { description: 'Not modified (If-None-Match matched)', headers: common };
  // Any address can be refused as unreadable (malformed percent-encoding): 400 everywhere.
  const errors = new Set([400, ...(op.errors ?? [])]);
  if (authenticated) [401, 403, 429].forEach((s) => errors.add(s));
  if (op.body || op.rawBody) [413, 415].forEach((s) => errors.add(s));
  if (op.ifMatch) errors.add(412);
  if (op.method === 'post' && authenticated) [409, 422].forEach((s) => errors.add(s));
  for (const status of [...errors].sort()) {
    const own =
      op.errorSchemas?.[status] ??
      (status === 404 && op.path.startsWith('/api/tracking/track/') ? 'TrackingNotFound' : null);
    responses[status] = {
      description: ERROR_TEXT[status] ?? 'Error',
      headers: {
        ...common,
        ...(status === 401
          ? { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } }
          : {}),
        ...(status === 429 ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : {}),
      },
      content: media(
        'application/json',
        typeof own === 'string'
          ? named(own)
          : (own ?? { schema: ref('Error'), example: errorExample(status) }),
      ),
    };
  }
  const access =
    op.access === 'admin'
      ? ADMIN_AREAS.has(op.tag)
        ? ' Needs the admin role; an API key also needs the admin scope.'
        : ' Needs the admin role.'
      : '';
  return {
    operationId: `${op.method}${op.path
      .replace(/^\/api/, '')
      .split(/[/{}.-]+/)
      .filter(Boolean)
      .map((p) => p[0]!.toUpperCase() + p.slice(1))
      .join('')}`,
    summary: op.summary,
    description: `${op.description}${access}`,
    tags: [op.tag],
    security: authenticated ? [{ bearerAuth: [] }, { cookieAuth: [] }] : [],
    parameters,
    ...(op.body
      ? {
          requestBody: {
            required: !op.bodyOptional,
            content: media('application/json', {
              schema: jsonSchema(op.body),
              example: op.bodyExample,
            }),
          },
        }
      : {}),
    ...(op.rawBody
      ? {
          requestBody: {
            required: true,
            description: op.rawBody.description,
            content: media(op.rawBody.contentType, op.rawBody),
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

/** A list of seconds as people read it: 5 s, 5 min, 2 h. */
function duration(seconds: number) {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 6) / 10} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}

/** When a failed webhook delivery is tried again, from WEBHOOK_RETRY_DELAYS. */
export function webhookRetrySchedule(): string[] {
  return env.WEBHOOK_RETRY_DELAYS.map(duration);
}

const WEBHOOK_SUMMARIES: Record<WebhookEventType, string> = {
  'parcel.created': 'A parcel was created (dashboard, API or import)',
  'parcel.updated': "A parcel's fields were changed",
  'parcel.deleted': 'A parcel was deleted, with its events',
  'parcel.status_changed': "A parcel's status changed, by an event or an edit",
  'parcel.imported': 'A CSV import wrote its parcels',
  'parcel.delivered': "A parcel's last stop got its proof of delivery",
  'parcel.scanned': 'A courier scanned a parcel',
  'parcel.delivery_failed': 'A delivery attempt failed',
  'parcel.delivery_preferences_updated':
    'The recipient set delivery preferences on the tracking page or through the public API',
  'tracking_event.created': 'A tracking event was added',
  'tracking_event.updated': 'A tracking event was changed',
  'tracking_event.deleted': 'A tracking event was deleted',
  'notification.sent': 'The mail server accepted a notification e-mail',
  'notification.failed': 'A notification e-mail failed for good',
};

const SIGNATURE_HEADERS = [
  {
    name: 'webhook-id',
    description:
      'The message id: the same on every attempt of one delivery (and on a redelivery), so a receiver can ignore a repeat.',
    schema: { type: 'string', pattern: '^msg_[0-9a-f]{32}$' },
    example: 'msg_5b0c2f6e9d1a4c7e8f0a1b2c3d4e5f60',
  },
  {
    name: 'webhook-timestamp',
    description:
      'When this attempt was signed, in seconds since 1970: refuse a message whose time is far from yours (the standardwebhooks library allows 5 minutes).',
    schema: { type: 'string', pattern: '^\\d+$' },
    example: '1777905000',
  },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<signature>`: the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the endpoint secret (the base64 after whsec_). Verify it over the raw body, before parsing.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

function webhookOperations() {
  const retries = webhookRetrySchedule().join(', ');
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `on${webhookPayloadName(type)}`,
          summary: WEBHOOK_SUMMARIES[type],
          description: `Sent to each active endpoint that subscribes to ${type}, signed per the Standard Webhooks specification (verify it with the standardwebhooks library and the endpoint's whsec_ secret). Answer 2xx within ${env.WEBHOOK_TIMEOUT_MS / 1000} s; anything else is tried again after ${retries}, then the delivery is failed (see GET /api/webhooks/{id}/deliveries). No bearer token is sent: the signature is the credential.`,
          tags: ['Webhooks'],
          security: [],
          parameters: SIGNATURE_HEADERS.map((header) => ({
            ...header,
            in: 'header',
            required: true,
          })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: ref(webhookPayloadName(type)),
                example: {
                  type,
                  timestamp: '2026-05-04T14:30:00.000Z',
                  data: WEBHOOK_DATA_EXAMPLES[type],
                },
              },
            },
          },
          responses: {
            '2XX': { description: 'Received: this delivery is done' },
            '4XX': { description: 'Refused: tried again later, like any answer but 2xx' },
          },
        },
      },
    ]),
  );
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Auth: 'Signing in and out, your own account and password',
  Parcels: 'Parcels, their labels, CSV import and export, and proof of delivery',
  Tracking: "A parcel's tracking events: each one moves the parcel's status",
  Scans: 'What couriers record at depots and doors',
  Depots: 'The places scans are recorded at, each with its time zone',
  'Public tracking': 'Tracking by number for anyone, without a token, from any site (CORS)',
  Notifications: 'E-mails to customers, their templates and the automatic rules',
  Receipts: 'Receipts stored per parcel',
  Dashboard: "The staff overview's figures",
  Meta: 'Health and this document',
  'API keys': 'Long-lived credentials for integrations (admin)',
  Webhooks: 'Endpoints that receive signed events, and their deliveries (admin)',
  Users: 'Staff accounts and roles (admin)',
  Audit: 'Who changed what, and when',
};

let cached: Record<string, unknown> | null = null;

/**
 * The document, naming as its server PUBLIC_URL, or else the origin the request came to (so
 * that "try it" tools and generated clients point at the right place).
 */
export function openApiDocument(origin?: string): Record<string, unknown> {
  cached ??= buildDocument();
  return { ...cached, servers: [{ url: env.PUBLIC_URL ?? origin ?? '/' }] };
}

function buildDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPS) (paths[op.path] ??= {})[op.method] = operation(op);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `${env.COMPANY_NAME} API`,
      version: '1.0.0',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description: `Parcels, tracking events, notifications and receipts. A guide (getting started, verifying webhooks, retries, error codes) is at /api/docs.

Errors are \`{error, message, code}\` (\`error\` and \`message\` the same text for people, \`code\` a stable snake_case name to branch on) with per-field \`details\` on validation errors. Unknown body fields are refused (400, naming the field). Every answer carries X-Request-Id; authenticated answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset. POSTs accept Idempotency-Key (kept 24 h per credential). Each credential (an API key, or a user's tokens and session together) may make ${env.RATE_LIMIT_API_PER_MINUTE} requests a minute; past that, 429 with Retry-After.

Compatibility: fields are added, never renamed or removed, so a client must ignore fields it does not know.`,
    },
    tags: [...new Set(OPS.map((op) => op.tag))].map((name) => ({
      name,
      description: TAG_DESCRIPTIONS[name] ?? name,
    })),
    paths,
    webhooks: webhookOperations(),
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
        'If-Match': {
          name: 'If-Match',
          in: 'header',
          required: false,
          description:
            'The ETag of the record as you read it (GET): the change is made only if the record is still that version, else 412 (code precondition_failed) and nothing changes. `*`: any version. Without it, the change is made whatever the version.',
          schema: { type: 'string' },
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
        'WWW-Authenticate': {
          description: 'The scheme to authenticate with: Bearer',
          schema: { type: 'string', pattern: '^Bearer' },
        },
      },
    },
  };
}
