import { configureCoercion } from '@conform-to/zod/v4/future';
import { z } from './zod';
import { LABEL_PAPERS, MAX_LABELS_PER_SHEET } from './label';
import {
  BOOKING_PAYMENT_METHODS,
  DEFAULT_DELIVERY_DAYS,
  MAX_PAGE_SIZE,
  MAX_PARCEL_DESTINATIONS,
  OBJECT_ID_PATTERN,
  PARCEL_CREATION_COST,
  PARCEL_SEARCH_MAX_LENGTH,
  PARCEL_SORT_KEYS,
  PARCEL_STATUSES,
  PARCELS_PAGE_SIZE,
  PRIORITIES,
  SERVICE_TYPES,
  SORT_ORDERS,
  TRACKING_NUMBER_FORMAT_MESSAGE,
  TRACKING_NUMBER_PATTERN,
} from './constants';
import { syncCursor, updatedSince } from './sync';
import { positiveInt } from './paging';
import { textField } from './text';
import { TIME_ZONE_MESSAGE } from './depot';
import { canonicalTimeZone, isTimeZone } from '~/utils/time-zone';
import { canonicalLanguageTag, LANGUAGE_CODES } from './languages';

const SOURCE_LANGUAGE_NOTE = 'the company’s default language (DEFAULT_LANGUAGE)';

const text = (max: number) =>
  z.string({ error: 'Must be a string' }).trim().max(max, `At most ${max} characters`);

const email = text(254)
  .refine((value) => value === '' || z.email().safeParse(value).success, 'Invalid email address')
  .meta({
    anyOf: [{ const: '' }, { format: 'email' }],
    description: 'An e-mail address, or empty',
  });

const ContactShape = {
  name: text(200),
  email,
  phone: text(50),
  address: text(500),
  // Optional structured parts of the address, for labels printed in the country's order.
  city: text(100),
  region: text(100),
  postalCode: text(20),
  country: text(100),
  // The address's IANA zone when it should not be derived from the rest of the address.
  timeZone: text(64)
    .refine((value) => value === '' || isTimeZone(value), TIME_ZONE_MESSAGE)
    .transform((value) => (value ? canonicalTimeZone(value) : ''))
    .meta({
      description:
        'The address’s IANA time zone (e.g. America/Los_Angeles), or empty to derive it from the country, region, city and postcode',
    }),
};

/** The language (BCP 47) written to a recipient: canonical ("fr-CA"), or '' when not known. */
export const RecipientLanguageSchema = text(35)
  .refine((value) => value === '' || canonicalLanguageTag(value) !== null, {
    error: 'Language must be a BCP 47 language tag, e.g. fr or es-MX',
  })
  .transform((value) => (value ? (canonicalLanguageTag(value) ?? '') : ''))
  .meta({
    description: `The language (BCP 47) the recipient's e-mails and tracking page are written in, or empty for ${SOURCE_LANGUAGE_NOTE}. Written in: ${LANGUAGE_CODES.join(', ')}; another language gets the default's.`,
    examples: ['fr'],
  });

/** The structured address fields of a contact: each optional, '' when not given. */
const contactAddressParts = {
  city: ContactShape.city.default(''),
  region: ContactShape.region.default(''),
  postalCode: ContactShape.postalCode.default(''),
  country: ContactShape.country.default(''),
  timeZone: ContactShape.timeZone.default(''),
};

/** A contact with nothing filled in: the sender of a parcel created without one. */
export const EMPTY_CONTACT = {
  name: '',
  email: '',
  phone: '',
  address: '',
  city: '',
  region: '',
  postalCode: '',
  country: '',
  timeZone: '',
};

export const SenderSchema = z.object({
  name: ContactShape.name.default(''),
  email: ContactShape.email.default(''),
  phone: ContactShape.phone.default(''),
  address: ContactShape.address.default(''),
  ...contactAddressParts,
});

/**
 * The API answers the recipient's phone in E.164 beside it, worked out and never stored: taken
 * back and ignored (the model keeps only its own fields), so an answer can be sent back as it came.
 */
const answeredPhone = {
  phoneE164: z.string().max(20).nullable().optional().describe('Ignored: the server works it out'),
  phoneProblem: z
    .string()
    .max(200)
    .nullable()
    .optional()
    .describe('Ignored: the server works it out'),
};

export const RecipientSchema = z.object({
  name: ContactShape.name.min(1, 'Recipient name is required'),
  email: ContactShape.email.default(''),
  phone: ContactShape.phone.default(''),
  address: ContactShape.address.min(1, 'Recipient address is required'),
  ...contactAddressParts,
  language: RecipientLanguageSchema.optional(),
  ...answeredPhone,
});

export const DestinationSchema = z.object({
  name: text(200).default(''),
  address: text(500).default(''),
  city: text(100).default(''),
  // Optional where other fields default: stops stored before it was kept have none.
  region: text(100).optional(),
  country: text(100).default('USA'),
  postalCode: text(20).default(''),
  // A stop as the API answers it carries its id: taken back and ignored, so an answer can be sent
  // back as it came.
  id: z.string().max(64).optional(),
  _id: z.string().max(64).optional(),
});
export type DestinationInput = z.output<typeof DestinationSchema>;

/** A stored stop's fields without its id: what the edit form and the CSV import compare. */
export function destinationFields({
  name,
  address,
  city,
  region,
  country,
  postalCode,
}: DestinationInput): DestinationInput {
  return { name, address, city, ...(region ? { region } : {}), country, postalCode };
}

const measure = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .finite(`${label} must be a number`)
    .nonnegative(`${label} cannot be negative`)
    .max(1_000_000, `${label} is too large`);

export const DimensionsSchema = z.object({
  length: measure('Length').default(0),
  width: measure('Width').default(0),
  height: measure('Height').default(0),
});

// Plain dates from a date input or full ISO timestamps; nothing looser (Date.parse accepts '1').
const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO date string; empty or null means "not given". */
const OptionalDateSchema = z
  .string({ error: 'Must be an ISO date string' })
  .trim()
  .nullish()
  .refine(
    (value) => !value || (ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))),
    'Invalid date',
  )
  .transform((value) => (value ? new Date(value) : undefined));

const WINDOW_ORDER_MESSAGE = 'The window must end after it starts';

const windowInstant = (label: string) =>
  z
    .string({ error: `${label} must be an ISO date-time` })
    .trim()
    .pipe(
      z.iso.datetime({
        offset: true,
        error: `${label} must be an ISO date-time with its zone, e.g. 2026-05-06T14:00:00-04:00`,
      }),
    )
    .transform((value) => new Date(value));

/**
 * The API's delivery window: two instants on the estimated day (in the recipient's zone, which the
 * service checks), or null to clear it.
 */
export const DeliveryWindowInputSchema = z
  .object({ from: windowInstant('from'), until: windowInstant('until') })
  .refine((window) => window.until > window.from, {
    path: ['until'],
    error: WINDOW_ORDER_MESSAGE,
    // Only once both are instants: a bad one is reported on its own.
    when: (payload) => payload.issues.length === 0,
  })
  .nullable()
  .optional()
  .describe(
    'The expected window on the estimated day, in any zone (the day is read in the recipient’s, from their address or its timeZone); null clears it. A new estimated day without a window clears a window on another day.',
  );

/** The forms' window: two times (HH:MM) on the estimated day, in the recipient's zone; both or neither. */
const WindowTimesSchema = z
  .object({
    from: z.string().trim().default(''),
    until: z.string().trim().default(''),
  })
  .default({ from: '', until: '' })
  .superRefine((window, ctx) => {
    let wellFormed = true;
    for (const key of ['from', 'until'] as const)
      if (window[key] && !/^([01]\d|2[0-3]):[0-5]\d$/.test(window[key])) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'Enter a time as HH:MM' });
        wellFormed = false;
      }
    if (window.from && !window.until)
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'Enter when the window ends' });
    if (window.until && !window.from)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'Enter when the window starts' });
    if (wellFormed && window.from && window.until && window.until <= window.from)
      ctx.addIssue({ code: 'custom', path: ['until'], message: WINDOW_ORDER_MESSAGE });
  })
  .transform((window): WindowTimes | null =>
    window.from && window.until ? { fromTime: window.from, untilTime: window.until } : null,
  );

/** A window as the forms give it: times on the estimated day, read in the recipient's zone. */
export type WindowTimes = { fromTime: string; untilTime: string };
/** A window as a change gives it: instants (the API), times on the day (the forms), or none. */
export type DeliveryWindowInput = { from: Date; until: Date } | WindowTimes | null | undefined;

export function defaultEstimatedDelivery(now = Date.now()): Date {
  return new Date(now + DEFAULT_DELIVERY_DAYS * 24 * 60 * 60 * 1000);
}

function isBlankDestination(d: DestinationInput) {
  return !d.name && !d.address && !d.city && !d.region && !d.postalCode;
}

/** The one destination a parcel gets when none was given: the recipient's. */
export function defaultDestination(recipient: {
  name: string;
  address: string;
  city?: string;
  region?: string;
  postalCode?: string;
  country?: string;
}): DestinationInput {
  return {
    name: recipient.name,
    address: recipient.address,
    city: recipient.city ?? '',
    ...(recipient.region ? { region: recipient.region } : {}),
    country: recipient.country || 'USA',
    postalCode: recipient.postalCode ?? '',
  };
}

const DestinationsSchema = z
  .array(DestinationSchema, { error: 'Must be a list of destinations' })
  .max(MAX_PARCEL_DESTINATIONS, `At most ${MAX_PARCEL_DESTINATIONS} destinations`)
  .transform((list) => list.filter((d) => !isBlankDestination(d)).map(destinationFields));

const STATUS_MESSAGE = `Status must be one of: ${PARCEL_STATUSES.join(', ')}`;
const StatusSchema = z.enum(PARCEL_STATUSES, { error: STATUS_MESSAGE });
const PrioritySchema = z.enum(PRIORITIES, {
  error: `Priority must be one of: ${PRIORITIES.join(', ')}`,
});
const ServiceTypeSchema = z.enum(SERVICE_TYPES, {
  error: `Service type must be one of: ${SERVICE_TYPES.join(', ')}`,
});

/** The shipper account a parcel belongs to, as staff set it on a new parcel or a change. */
const accountIdField = z
  .string({ error: 'Invalid account' })
  .regex(OBJECT_ID_PATTERN, 'Invalid account')
  .transform((value) => value.toLowerCase())
  .nullable()
  .optional()
  .meta({
    description:
      "Staff: the shipper account the parcel belongs to (null: the courier's own). An account's key cannot set it: its parcels are its own",
  });

/** The shipper's own reference for a parcel (an order number), which the portal searches. */
const referenceField = textField('Reference', 100)
  .optional()
  .meta({ description: "The shipper's own reference for the parcel, such as an order number" });

/** The fields of a new parcel, before the defaults that need the whole input (below). */
const ParcelCreateFields = z.object({
  sender: SenderSchema.default(EMPTY_CONTACT),
  recipient: RecipientSchema,
  destinations: DestinationsSchema.default([]),
  weight: measure('Weight').default(0),
  dimensions: DimensionsSchema.default({ length: 0, width: 0, height: 0 }),
  serviceType: ServiceTypeSchema.default('Standard'),
  priority: PrioritySchema.default('Standard'),
  estimatedDelivery: OptionalDateSchema,
});

/** No destination means the recipient's; no estimated delivery means DEFAULT_DELIVERY_DAYS from now. */
function withCreateDefaults<
  T extends {
    recipient: { name: string; address: string; city: string; postalCode: string; country: string };
    destinations: DestinationInput[];
    estimatedDelivery: Date | undefined;
  },
>(input: T) {
  return {
    ...input,
    destinations: input.destinations.length
      ? input.destinations
      : [defaultDestination(input.recipient)],
    estimatedDelivery: input.estimatedDelivery ?? defaultEstimatedDelivery(),
  };
}

/**
 * A new parcel. Status and cost are not taken from the body: new parcels are always 'Pending'
 * at the fixed creation cost. The spec's client sends both (25.99 and 'Pending'): they are read
 * as the fields they are, and ignored.
 */
export const ParcelCreateSchema = ParcelCreateFields.extend({
  cost: measure('Cost')
    .optional()
    .describe(`Ignored: a new parcel costs ${PARCEL_CREATION_COST}, as the spec's client sends`),
  status: StatusSchema.optional().describe("Ignored: a new parcel is 'Pending'"),
  deliveryWindow: DeliveryWindowInputSchema,
  accountId: accountIdField,
  reference: referenceField,
  quoteId: z
    .string({ error: 'Invalid quote' })
    .regex(OBJECT_ID_PATTERN, 'Invalid quote')
    .optional()
    .describe(
      'A quote of POST /api/quotes: the parcel is booked at its price, service, weight and dimensions, and the quote is used',
    ),
  paymentMethod: z
    .enum(BOOKING_PAYMENT_METHODS, {
      error: `Payment method must be one of: ${BOOKING_PAYMENT_METHODS.join(', ')}`,
    })
    .optional()
    .describe(
      "How a booking is paid: 'account', billed on the account's monthly statement (an account's default), or 'card' through Stripe Checkout (with `quoteId`; only where card payment is offered, else 400 card_payment_unavailable): the parcel's `payment.checkoutUrl` is where it is paid",
    ),
}).transform(({ cost: _cost, status: _status, ...input }) => withCreateDefaults(input));
export type ParcelCreateInput = Omit<z.output<typeof ParcelCreateSchema>, 'deliveryWindow'> & {
  deliveryWindow?: DeliveryWindowInput;
};

/** A tracking number as stored: three letters and nine digits, upper-cased. */
export const TrackingNumberSchema = z
  .string({ error: 'Must be a string' })
  .trim()
  .transform((value) => value.toUpperCase())
  .refine((value) => TRACKING_NUMBER_PATTERN.test(value), TRACKING_NUMBER_FORMAT_MESSAGE);

/**
 * One parcel of a CSV import: the create schema's fields, plus what an export carries that a new
 * parcel does not choose — its tracking number (a new one when not given), status, cost, delivery
 * time and creation time — so that an exported parcel comes back as it was.
 */
export const ParcelImportRowSchema = ParcelCreateFields.extend({
  trackingNumber: TrackingNumberSchema.optional(),
  status: StatusSchema.default('Pending'),
  cost: measure('Cost').default(PARCEL_CREATION_COST),
  actualDelivery: OptionalDateSchema,
  createdAt: OptionalDateSchema,
  // The portal's bulk booking's column: the export has none, so the staff's import never reads one.
  reference: referenceField,
}).transform(withCreateDefaults);
export type ParcelImportRow = z.output<typeof ParcelImportRowSchema>;

/** `POST /api/parcels/import?dryRun=true` only validates. */
export const ParcelImportQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false'], { error: 'dryRun must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
});

/**
 * Changes to a parcel: only the fields given are changed (nested contact fields too), so the
 * edit form can send everything and an API client just what it means to change.
 */
export const ParcelUpdateSchema = z.object({
  sender: z
    .object({ ...ContactShape })
    .partial()
    .optional(),
  recipient: z
    .object({
      ...ContactShape,
      name: ContactShape.name.min(1, 'Recipient name is required'),
      address: ContactShape.address.min(1, 'Recipient address is required'),
      language: RecipientLanguageSchema,
      ...answeredPhone,
    })
    .partial()
    .optional(),
  destinations: DestinationsSchema.optional(),
  weight: measure('Weight').optional(),
  dimensions: DimensionsSchema.partial().optional(),
  serviceType: ServiceTypeSchema.optional(),
  status: StatusSchema.optional(),
  priority: PrioritySchema.optional(),
  estimatedDelivery: OptionalDateSchema,
  deliveryWindow: DeliveryWindowInputSchema,
  accountId: accountIdField,
  reference: referenceField,
});
export type ParcelUpdateInput = Omit<z.output<typeof ParcelUpdateSchema>, 'deliveryWindow'> & {
  deliveryWindow?: DeliveryWindowInput;
};

export const ParcelListQuerySchema = z.object({
  page: positiveInt('Page').default(1),
  limit: positiveInt('Limit', MAX_PAGE_SIZE).default(PARCELS_PAGE_SIZE),
  // An empty filter (the form's "All") means none; anything else must be a status.
  status: z
    .preprocess((value) => (value === '' ? undefined : value), StatusSchema.optional())
    .meta({ enum: ['', ...PARCEL_STATUSES], description: 'Empty means every status' }),
  search: z
    .string()
    .trim()
    .max(PARCEL_SEARCH_MAX_LENGTH, `Search must be at most ${PARCEL_SEARCH_MAX_LENGTH} characters`)
    .optional()
    .transform((value) => value || undefined),
  sort: z
    .enum(PARCEL_SORT_KEYS, { error: `Sort must be one of: ${PARCEL_SORT_KEYS.join(', ')}` })
    .default('createdAt'),
  order: z.enum(SORT_ORDERS, { error: 'Order must be asc or desc' }).optional(),
  account: z
    .union([z.literal('none'), z.string().regex(OBJECT_ID_PATTERN, 'Invalid account')])
    .optional()
    .meta({
      description:
        "Staff: only this shipper account's parcels, or `none` for the company's own (an account's key always sees its own)",
    }),
  mode: z.enum(['live', 'test'], { error: 'Mode must be live or test' }).optional().meta({
    description:
      "Staff: `live` (the default) or the accounts' `test` parcels (an account's key sees its key's mode)",
  }),
  updatedSince,
  cursor: syncCursor('parcels'),
});
/** The version an edit form was loaded with (the parcel's change number), as it posts it. */
export const ParcelVersionSchema = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number);

/** What the parcel pickers' combobox sends: the list's search alone. */
export const ParcelOptionsQuerySchema = ParcelListQuerySchema.pick({ search: true });

export type ParcelListQuery = z.output<typeof ParcelListQuerySchema>;

export { defaultSortOrder } from './constants';

/** The delete confirmation: a button, no fields. */
export const ParcelDeleteSchema = z.object({});

/* ---------- Selections of parcels (the table's bulk actions and the CSV export) ---------- */

/** The most parcels one bulk action takes: a full page of the table. */
export const MAX_BULK_PARCELS = MAX_PAGE_SIZE;

/**
 * Parcel ids as a form or a query sends them: repeated (`ids=a&ids=b`, the table's checkboxes),
 * separated by commas (`ids=a,b`), or both. Blanks and repeats go; the order stays.
 */
export function readParcelIds(values: Iterable<unknown>): string[] {
  const ids: string[] = [];
  for (const value of values) {
    if (typeof value !== 'string') continue;
    for (const part of value.split(',')) {
      const id = part.trim().toLowerCase();
      if (id && !ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}

/** A selection: 1 to `max` parcel ids. */
export function parcelIdsSchema(max = MAX_BULK_PARCELS, none = 'Select at least one parcel') {
  return z
    .array(z.string().regex(OBJECT_ID_PATTERN, 'Not a parcel id'), { error: 'Select parcels' })
    .min(1, none)
    .max(max, `Select at most ${max} parcels at a time`);
}

/** A selection as a form or a query sends it (see readParcelIds), checked as parcelIdsSchema. */
export function parcelIdsField(max = MAX_BULK_PARCELS) {
  return z.array(z.string()).transform(readParcelIds).pipe(parcelIdsSchema(max));
}

/** The table's bulk status change as its form posts it: the ticked parcels and their new status. */
export const ParcelBulkStatusFormSchema = z.object({
  intent: z.literal('status', { error: 'Unknown action' }),
  ids: parcelIdsField(),
  newStatus: z.enum(PARCEL_STATUSES, {
    error: (issue) => (issue.input === undefined ? 'Choose the new status' : STATUS_MESSAGE),
  }),
});

const PAPER_MESSAGE = 'The paper must be A4 or Letter';

/** GET /dashboard/parcels/labels.pdf: the paper (A4 unless Letter is asked for) and the parcels. */
export const LabelSheetQuerySchema = z.object({
  paper: z
    .string({ error: PAPER_MESSAGE })
    .toLowerCase()
    .pipe(z.enum(LABEL_PAPERS, { error: PAPER_MESSAGE }))
    .default('a4'),
  ids: parcelIdsField(MAX_LABELS_PER_SHEET),
});

/**
 * The bulk delete: the parcels its confirmation lists (from the table's link) and then posts.
 * Both also carry `back`, the list to return to, which parcelListHref reads.
 */
export const ParcelBulkDeleteFormSchema = z.object({ ids: parcelIdsField() });

/**
 * GET /api/parcels/export.csv: the list's filters and sort, and `ids` to export only those parcels
 * (the table's selection): separated by commas, or the parameter repeated (the route joins them).
 */
export const ParcelExportQuerySchema = ParcelListQuerySchema.omit({
  page: true,
  limit: true,
  cursor: true,
}).extend({
  ids: z
    .string()
    .optional()
    .transform((value) => (value === undefined ? undefined : readParcelIds([value])))
    .pipe(parcelIdsSchema().optional())
    .meta({
      description: `Only these parcels: up to ${MAX_BULK_PARCELS} ids, separated by commas or the parameter repeated`,
    }),
});

/** GET /dashboard/parcels/export.csv: the table's "Export selected", which needs a selection. */
export const ParcelExportSelectionQuerySchema = z.object({
  ids: z
    .array(z.string(), { error: 'Select parcels' })
    .transform(readParcelIds)
    .pipe(parcelIdsSchema(MAX_BULK_PARCELS, 'Tick the parcels to export first')),
});

/* ---------- The create and edit forms ---------- */

/** The spec's form rule: a number that doesn't parse, an empty field included, counts as 0. */
function formNumber(text: string): number {
  const n = Number.parseFloat(text);
  return Number.isFinite(n) ? n : 0;
}

/**
 * How conform reads the parcel form into these schemas. Numbers follow the rule above, and an empty
 * text field stays '' rather than missing: optional contact and destination fields are '' in a
 * parcel, and an empty recipient name or address is reported as required.
 */
const parcelFormCoercion = configureCoercion({
  stripEmptyString: (value) => value,
  type: { number: formNumber },
});

/** The forms' Account: a shipper account's id, or empty for none (the company's own). */
const accountFormField = z.preprocess((value) => (value === '' ? null : value), accountIdField);

export const ParcelCreateFormSchema = parcelFormCoercion.coerceFormValue(
  ParcelCreateFields.extend({
    deliveryWindow: WindowTimesSchema,
    accountId: accountFormField,
  }).transform(withCreateDefaults),
);
/** A field the form always sends: missing is the same as left empty. */
const sentByForm = <T extends z.ZodType>(schema: T) => z.preprocess((value) => value ?? '', schema);

/**
 * The edit form sends the whole parcel, so the recipient's name and address are always there: a
 * post without them is not this form, and changes nothing.
 */
export const ParcelUpdateFormSchema = parcelFormCoercion.coerceFormValue(
  ParcelUpdateSchema.extend({
    // Sent by the form every time: empty times clear the window.
    deliveryWindow: WindowTimesSchema,
    accountId: accountFormField,
    recipient: z
      .object({
        ...ContactShape,
        name: sentByForm(ContactShape.name.min(1, 'Recipient name is required')),
        address: sentByForm(ContactShape.address.min(1, 'Recipient address is required')),
      })
      .partial({
        email: true,
        phone: true,
        city: true,
        region: true,
        postalCode: true,
        country: true,
        timeZone: true,
      }),
  }),
);

/* ---------- The dashboard's CSV import ---------- */

/** An uploaded file as FormData holds it (the browser's File, or the server's multipart part). */
export type UploadedFile = { name: string; size: number; arrayBuffer(): Promise<ArrayBuffer> };
export const isUploadedFile = (value: unknown): value is UploadedFile =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as UploadedFile).size === 'number' &&
  typeof (value as UploadedFile).arrayBuffer === 'function';

/**
 * The import page's two forms: the upload (a file, previewed and checked) and the confirmation
 * (the id the server keeps the checked file under).
 */
export const ParcelImportFormSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('upload'),
    file: z.custom<UploadedFile>((value) => isUploadedFile(value) && value.size > 0, {
      error: 'Choose a CSV file to upload',
    }),
  }),
  z.object({
    intent: z.literal('confirm'),
    id: z.string().regex(/^[a-f\d]{32}$/, 'This upload is not known: upload the file again'),
  }),
]);
