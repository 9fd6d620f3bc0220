import { MONTH_PATTERN } from '~/schemas/statement';
import { z } from 'zod';
import { defaultErrorCode } from '~/schemas/api-error-codes';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '~/schemas/integrations';
import { env } from '~/lib/env.server';
import { templateIdOf } from '~/models/notification-template.server';
import { webhookPayloadName } from '~/schemas/api-responses';
import {
  EXAMPLE_IDS,
  EXAMPLE_TRACKING_NUMBER,
  WEBHOOK_DATA_EXAMPLES,
} from '~/schemas/api-examples';
import { NOTIFICATION_TYPES, TRACKING_NUMBER_INPUT } from '~/schemas/constants';
import { resolveParcelRef } from '~/services/parcels.server';
import { strictSchema, type ApiEntry, type DeclaredMethod } from './api.server';
import { ADMIN_AREA, named, ref, type ApiOperation, type Shape } from './api-operation.server';

/**
 * The OpenAPI 3.1 document of the JSON API, assembled from the declarations beside the routes
 * (apiHandler, apiRecord, `declared`): each route's methods with who may call them, their ids,
 * query and body (the zod schemas the server parses with, through zod's own JSON Schema output,
 * made strict as the server reads them) and the answers they declare, whose shapes are in
 * schemas/api-responses.ts. OpenAPI 3.1 speaks JSON Schema 2020-12, zod's default dialect, so the
 * schemas go in as zod writes them. Nothing here lists operations: a route is in the document
 * because it exists, as it is declared.
 */
type JsonSchema = Record<string, unknown>;
type Method = 'get' | 'post' | 'put' | 'delete';

/** One operation of the document: its route's path and method, and its declaration. */
type Op = ApiOperation & { method: Method; path: string; tag: string };

/** A route module of the API, by its file name under app/routes. */
export type ApiRouteModule = { file: string; entry: ApiEntry };

/** A route file's path as the document writes it: `api.parcels.$id.ts` → `/api/parcels/{id}`. */
export function routePath(file: string) {
  return `/${file
    .replace(/\.tsx?$/, '')
    .replace('[.]', '\u0000')
    .split('.')
    .map((s) => s.replace(/^\$(\w+)/, (_, name: string) => `{${name}}`))
    .join('/')
    .replace('\u0000', '.')}`;
}

/** Each operation's tag, from the start of its path: the first that matches. */
const TAG_OF_PATH: [prefix: string, tag: string][] = [
  ['/api/auth/', 'Auth'],
  ['/api/parcels', 'Parcels'],
  ['/api/proof-of-delivery/', 'Parcels'],
  ['/api/tracking/track', 'Public tracking'],
  ['/api/tracking/', 'Tracking'],
  ['/api/scans', 'Scans'],
  ['/api/depots', 'Depots'],
  ['/api/runs', 'Runs'],
  ['/api/pickups', 'Pickups'],
  ['/api/reports/', 'Reports'],
  ['/api/notification', 'Notifications'],
  ['/api/sms/', 'Notifications'],
  ['/api/receipts', 'Receipts'],
  ['/api/dashboard/', 'Dashboard'],
  ['/api/health', 'Meta'],
  ['/api/openapi.json', 'Meta'],
  ['/api/docs', 'Meta'],
  ['/api/api-keys', 'API keys'],
  ['/api/webhooks', 'Webhooks'],
  ['/api/users', 'Users'],
  ['/api/audit', 'Audit'],
  ['/api/accounts', 'Accounts'],
  ['/api/test/', 'Test mode'],
  ['/api/quotes', 'Prices'],
  ['/api/rates', 'Prices'],
  ['/api/stripe/', 'Prices'],
];

/** The operations of the routes given, in the order their files and methods come. */
export function apiOperations(routes: ApiRouteModule[]): Op[] {
  return routes.flatMap(({ file, entry }) => {
    const path = routePath(file);
    const tag = TAG_OF_PATH.find(([prefix]) => path.startsWith(prefix))![1];
    return (Object.entries(entry.operations) as [DeclaredMethod, ApiOperation][]).map(
      ([method, operation]) => ({
        ...operation,
        method: method.toLowerCase() as Method,
        path,
        tag,
      }),
    );
  });
}

/** What an operation's description adds about who may call it. */
function accessNote(op: Op): string {
  if (op.access === 'public') return '';
  if (op.access === ADMIN_AREA)
    return ' Needs the admin role; an API key also needs the admin scope.';
  const role = typeof op.access === 'string' ? op.access : op.access.role;
  const scope =
    typeof op.access !== 'string' && op.access.scope
      ? '; an API key also needs the admin scope'
      : '';
  const staff = role === 'viewer' ? '' : ` Needs the ${role} role${scope}.`;
  const office =
    typeof op.access !== 'string' && op.access.office ? ' A courier is refused (403).' : '';
  if (typeof op.access === 'string' || !op.access.accounts)
    return `${staff}${office} A shipper account's key or user is refused (403).`;
  return `${staff} A shipper account's key (\`sk_live_\`, \`sk_test_\`) may call it too, for its own records of its key's mode only: any other is 404.`;
}

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
function queryParameters(query: z.ZodType | undefined) {
  if (!query) return [];
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

/**
 * A path parameter: ids are 24 hex digits; those read by resolveParcelRef also take a parcel's
 * tracking number; a template's is its key.
 */
function pathParameter(name: string, { ids, path }: Op) {
  const read = ids?.[name];
  const base = { name, in: 'path', required: true };
  if (name === 'trackingNumber')
    return {
      ...base,
      description: TRACKING_NUMBER_INPUT.description,
      schema: TRACKING_NUMBER,
      example: EXAMPLE_TRACKING_NUMBER,
    };
  if (name === 'month')
    return {
      ...base,
      description: 'A month (YYYY-MM) in the company’s zone',
      schema: { type: 'string', pattern: MONTH_PATTERN.source },
      example: '2026-11',
    };
  if (path.startsWith('/api/notification-templates/'))
    return {
      ...base,
      description: "The template's key",
      schema: { type: 'string', enum: NOTIFICATION_TYPES.map(templateIdOf) },
      example: templateIdOf(NOTIFICATION_TYPES[0]),
    };
  if (
    read === resolveParcelRef ||
    (read === undefined &&
      ((name === 'id' && path.startsWith('/api/parcels/')) || name === 'parcelId'))
  )
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
  const pathParams = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => pathParameter(m[1]!, op));
  const parameters: unknown[] = [
    ...pathParams,
    { $ref: '#/components/parameters/X-Request-Id' },
    ...queryParameters(op.query ?? op.readsQuery),
  ];
  if (op.etag) parameters.push({ $ref: '#/components/parameters/If-None-Match' });
  if (op.ifMatch) parameters.push({ $ref: '#/components/parameters/If-Match' });
  // Only the operations that keep their answer under an Idempotency-Key take one.
  if (op.idempotent) parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });

  const common = {
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    ...(op.rateLimited || authenticated ? RATE_HEADERS : {}),
  };
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(op.responses)) {
    const shape = typeof answer === 'string' ? named(answer) : answer;
    responses[status] = {
      description: 'Success',
      headers: {
        ...common,
        ...(op.etag ? { ETag: { $ref: '#/components/headers/ETag' } } : {}),
        ...(op.idempotent
          ? { 'Idempotent-Replayed': { $ref: '#/components/headers/Idempotent-Replayed' } }
          : {}),
      },
      content: {
        ...media(op.contentType ?? 'application/json', shape),
        ...Object.assign(
          {},
          ...Object.entries(op.alsoAs ?? {}).map(([type, as]) => media(type, as)),
        ),
      },
    };
  }
  if (op.etag)
    responses['304'] = { description: 'Not modified (If-None-Match matched)', headers: common };
  // Any address can be refused as unreadable (malformed percent-encoding): 400 everywhere.
  const errors = new Set([400, ...(op.errors ?? [])]);
  if (authenticated) [401, 403, 429].forEach((s) => errors.add(s));
  const body = op.body ?? op.readsBody;
  if (body || op.rawBody) [413, 415].forEach((s) => errors.add(s));
  if (op.ifMatch) errors.add(412);
  if (op.idempotent) [409, 422].forEach((s) => errors.add(s));
  for (const status of [...errors].sort()) {
    const own =
      op.errorAnswers?.[status] ??
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
  return {
    operationId: `${op.method}${op.path
      .replace(/^\/api/, '')
      .split(/[/{}.-]+/)
      .filter(Boolean)
      .map((p) => p[0]!.toUpperCase() + p.slice(1))
      .join('')}`,
    summary: op.summary,
    description: `${op.description}${accessNote(op)}`,
    tags: [op.tag],
    security: authenticated ? [{ bearerAuth: [] }, { cookieAuth: [] }] : [],
    parameters,
    ...(body
      ? {
          requestBody: {
            required: !op.bodyOptional,
            content: media('application/json', {
              // As the server reads it: an unknown field is refused (readJsonBody).
              schema: jsonSchema(strictSchema(body)),
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
  'parcel.eta_updated':
    "A parcel out for delivery on a started run: its stop's one-hour window or the stops before it changed",
  'tracking_event.created': 'A tracking event was added',
  'tracking_event.updated': 'A tracking event was changed',
  'tracking_event.deleted': 'A tracking event was deleted',
  'notification.sent': 'The mail server accepted a notification e-mail',
  'notification.failed': 'A notification e-mail failed for good',
  'pickup.scheduled': 'A pickup was asked for (API or portal)',
  'pickup.cancelled': 'A pickup was cancelled before its cut-off',
  'pickup.completed': 'Every parcel of a pickup (or its count) was scanned Picked Up',
  'pickup.missed': 'The courier recorded a pickup as not collected, with its reason',
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
          description: `Sent to each active endpoint that subscribes to ${type} (a shipper account's endpoints get only its own parcels' events, live and test; the company's get every live event; \`accountId\` and \`livemode\` say whose and which), signed per the Standard Webhooks specification (verify it with the standardwebhooks library and the endpoint's whsec_ secret). Answer 2xx within ${env.WEBHOOK_TIMEOUT_MS / 1000} s; anything else is tried again after ${retries}, then the delivery is failed (see GET /api/webhooks/{id}/deliveries). No bearer token is sent: the signature is the credential.`,
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
                  accountId: null,
                  livemode: true,
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
  Prices:
    'The rate card, and quotes: a price per service for a parcel, held for a booking (`quoteId`)',
  Tracking: "A parcel's tracking events: each one moves the parcel's status",
  Scans: 'What couriers record at depots and doors',
  Depots: 'The places scans are recorded at, each with its time zone',
  Runs: "Couriers' runs: a depot's day given to a courier, its stops in order, and their expected times",
  Reports: 'Delivery performance, computed by the database',
  'Public tracking': 'Tracking by number for anyone, without a token, from any site (CORS)',
  Notifications: 'E-mails to customers, their templates and the automatic rules',
  Receipts: 'Receipts stored per parcel',
  Dashboard: "The staff overview's figures",
  Meta: 'Health and this document',
  'API keys': 'Long-lived credentials for integrations (admin)',
  Webhooks: 'Endpoints that receive signed events, and their deliveries (admin)',
  Users: 'Staff accounts and roles (admin)',
  Audit: 'Who changed what, and when',
  Accounts:
    "Shipper accounts: the courier's customers, each with its own parcels, users, keys and webhooks (admin)",
  'Test mode':
    "An account's test data (`sk_test_` keys): parcels with `livemode: false`, moved along a realistic life on request",
};

/** The document of the routes given (every API route module: app/api-routes.server.ts). */
export function buildOpenApiDocument(routes: ApiRouteModule[]): Record<string, unknown> {
  // By tag, in the order the tags are described, so that a reader meets sign-in first.
  const order = Object.keys(TAG_DESCRIPTIONS);
  const ops = apiOperations(routes).sort((a, b) => order.indexOf(a.tag) - order.indexOf(b.tag));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) (paths[op.path] ??= {})[op.method] = operation(op);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: `${env.COMPANY_NAME} API`,
      version: '1.0.0',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      description: `Parcels, tracking events, notifications and receipts. A guide (getting started, verifying webhooks, retries, error codes) is at /api/docs.

Errors are \`{error, message, code}\` (\`error\` and \`message\` the same text for people, \`code\` a stable snake_case name to branch on) with per-field \`details\` on validation errors. Unknown body fields are refused (400, naming the field). Every answer carries X-Request-Id; authenticated answers carry RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset. POSTs that create or record something accept Idempotency-Key (kept 24 h per credential; each such operation lists it). Each credential (an API key, or a user's tokens and session together) may make ${env.RATE_LIMIT_API_PER_MINUTE} requests a minute; past that, 429 with Retry-After.

Compatibility: fields are added, never renamed or removed, so a client must ignore fields it does not know.`,
    },
    tags: [...new Set(ops.map((op) => op.tag))].map((name) => ({
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
            "A token from POST /api/auth/login (7 days), or a long-lived API key with scopes: read (GET), write (changes), admin (users, API keys and webhooks). A company key (`sk_…`, made by an admin) acts as the admin who made it. A shipper account's key (`sk_live_…` for its live data, `sk_test_…` for its test data, made with POST /api/accounts/{id}/api-keys) acts for the account: it reads and changes only the account's own records of its mode (any other is 404), staff routes answer it 403, and it is 401 once the account is suspended. Any other Authorization scheme is a 401.",
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
