import { z } from 'zod';
import {
  DEFAULT_DELIVERY_DAYS,
  MAX_PAGE_SIZE,
  MAX_PARCEL_DESTINATIONS,
  PARCEL_SEARCH_MAX_LENGTH,
  PARCEL_STATUSES,
  PARCELS_PAGE_SIZE,
  PRIORITIES,
  SERVICE_TYPES,
} from './constants';

const text = (max: number) =>
  z.string({ error: 'Must be a string' }).trim().max(max, `At most ${max} characters`);

const email = text(254).refine(
  (value) => value === '' || z.email().safeParse(value).success,
  'Invalid email address',
);

const ContactShape = {
  name: text(200),
  email,
  phone: text(50),
  address: text(500),
};

export const SenderSchema = z.object({
  name: ContactShape.name.default(''),
  email: ContactShape.email.default(''),
  phone: ContactShape.phone.default(''),
  address: ContactShape.address.default(''),
});

export const RecipientSchema = z.object({
  name: ContactShape.name.min(1, 'Recipient name is required'),
  email: ContactShape.email.default(''),
  phone: ContactShape.phone.default(''),
  address: ContactShape.address.min(1, 'Recipient address is required'),
});

export const DestinationSchema = z.object({
  name: text(200).default(''),
  address: text(500).default(''),
  city: text(100).default(''),
  country: text(100).default('USA'),
  postalCode: text(20).default(''),
});
export type DestinationInput = z.output<typeof DestinationSchema>;

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

export function defaultEstimatedDelivery(now = Date.now()): Date {
  return new Date(now + DEFAULT_DELIVERY_DAYS * 24 * 60 * 60 * 1000);
}

function isBlankDestination(d: DestinationInput) {
  return !d.name && !d.address && !d.city && !d.postalCode;
}

/** The one destination a parcel gets when none was given: the recipient's. */
export function defaultDestination(recipient: { name: string; address: string }): DestinationInput {
  return {
    name: recipient.name,
    address: recipient.address,
    city: '',
    country: 'USA',
    postalCode: '',
  };
}

const DestinationsSchema = z
  .array(DestinationSchema, { error: 'Must be a list of destinations' })
  .max(MAX_PARCEL_DESTINATIONS, `At most ${MAX_PARCEL_DESTINATIONS} destinations`)
  .transform((list) => list.filter((d) => !isBlankDestination(d)));

const StatusSchema = z.enum(PARCEL_STATUSES, {
  error: `Status must be one of: ${PARCEL_STATUSES.join(', ')}`,
});
const PrioritySchema = z.enum(PRIORITIES, {
  error: `Priority must be one of: ${PRIORITIES.join(', ')}`,
});
const ServiceTypeSchema = z.enum(SERVICE_TYPES, {
  error: `Service type must be one of: ${SERVICE_TYPES.join(', ')}`,
});

/**
 * A new parcel. Status and cost are not taken from the body: new parcels are always 'Pending'
 * at the fixed creation cost (unknown keys such as `status` and `cost` are dropped).
 */
export const ParcelCreateSchema = z
  .object({
    sender: SenderSchema.default({ name: '', email: '', phone: '', address: '' }),
    recipient: RecipientSchema,
    destinations: DestinationsSchema.default([]),
    weight: measure('Weight').default(0),
    dimensions: DimensionsSchema.default({ length: 0, width: 0, height: 0 }),
    serviceType: ServiceTypeSchema.default('Standard'),
    priority: PrioritySchema.default('Standard'),
    estimatedDelivery: OptionalDateSchema,
  })
  .transform((input) => ({
    ...input,
    destinations: input.destinations.length
      ? input.destinations
      : [defaultDestination(input.recipient)],
    estimatedDelivery: input.estimatedDelivery ?? defaultEstimatedDelivery(),
  }));
export type ParcelCreateInput = z.output<typeof ParcelCreateSchema>;

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
});
export type ParcelUpdateInput = z.output<typeof ParcelUpdateSchema>;

const positiveInt = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, `${label} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().min(1, `${label} must be at least 1`));

export const ParcelListQuerySchema = z.object({
  page: positiveInt('Page').default(1),
  limit: positiveInt('Limit')
    .pipe(z.number().max(MAX_PAGE_SIZE, `Limit must be at most ${MAX_PAGE_SIZE}`))
    .default(PARCELS_PAGE_SIZE),
  status: z
    .union([z.literal(''), StatusSchema])
    .optional()
    .transform((value) => value || undefined),
  search: z
    .string()
    .trim()
    .max(PARCEL_SEARCH_MAX_LENGTH, `Search must be at most ${PARCEL_SEARCH_MAX_LENGTH} characters`)
    .optional()
    .transform((value) => value || undefined),
});
export type ParcelListQuery = z.output<typeof ParcelListQuerySchema>;

/* ---------- Form data → schema input ---------- */

function formString(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === 'string' ? value : '';
}

/** The spec's form rule: numbers that don't parse (or are empty) count as 0. */
export function formNumber(value: string): number {
  const n = Number.parseFloat(value.trim());
  return Number.isFinite(n) ? n : 0;
}

/** How many destination rows the form carries (`destinations.N.*` fields). */
export function destinationRowCount(formData: FormData): number {
  let max = -1;
  for (const key of formData.keys()) {
    const match = /^destinations\.(\d+)\./.exec(key);
    if (match) max = Math.max(max, Number(match[1]));
  }
  return Math.min(max + 1, MAX_PARCEL_DESTINATIONS);
}

export type ParcelFormValues = {
  sender: { name: string; email: string; phone: string; address: string };
  recipient: { name: string; email: string; phone: string; address: string };
  destinations: Array<{
    name: string;
    address: string;
    city: string;
    country: string;
    postalCode: string;
  }>;
  weight: number;
  dimensions: { length: number; width: number; height: number };
  serviceType: string;
  priority: string;
  status?: string;
  estimatedDelivery: string;
};

/**
 * Reads the parcel form (flat names like `sender.name`, `destinations.0.city`) into the shape the
 * shared schemas take. Numbers are parsed here, so the schemas stay strict for the JSON API.
 */
export function parcelFormToInput(formData: FormData): ParcelFormValues {
  const contact = (prefix: string) => ({
    name: formString(formData, `${prefix}.name`),
    email: formString(formData, `${prefix}.email`),
    phone: formString(formData, `${prefix}.phone`),
    address: formString(formData, `${prefix}.address`),
  });
  const destinations = Array.from({ length: destinationRowCount(formData) }, (_, i) => ({
    name: formString(formData, `destinations.${i}.name`),
    address: formString(formData, `destinations.${i}.address`),
    city: formString(formData, `destinations.${i}.city`),
    country: formString(formData, `destinations.${i}.country`),
    postalCode: formString(formData, `destinations.${i}.postalCode`),
  }));
  const status = formData.get('status');
  return {
    sender: contact('sender'),
    recipient: contact('recipient'),
    destinations,
    weight: formNumber(formString(formData, 'weight')),
    dimensions: {
      length: formNumber(formString(formData, 'dimensions.length')),
      width: formNumber(formString(formData, 'dimensions.width')),
      height: formNumber(formString(formData, 'dimensions.height')),
    },
    serviceType: formString(formData, 'serviceType') || 'Standard',
    priority: formString(formData, 'priority') || 'Standard',
    ...(typeof status === 'string' ? { status } : {}),
    estimatedDelivery: formString(formData, 'estimatedDelivery'),
  };
}

/** Per-field messages keyed by the form's field names (`recipient.name`, `destinations.0.city`). */
export function formFieldErrors(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues)
    (errors[issue.path.map(String).join('.')] ??= []).push(issue.message);
  return errors;
}

/* ---------- Adding and removing destination rows without JavaScript ---------- */

export const SAVE_INTENT = 'save';
export const ADD_DESTINATION_INTENT = 'add-destination';
export const REMOVE_DESTINATION_PREFIX = 'remove-destination-';

export function emptyDestination(): ParcelFormValues['destinations'][number] {
  return { name: '', address: '', city: '', country: 'USA', postalCode: '' };
}

/**
 * The form's add/remove destination buttons submit to the action (so they work with JS off);
 * this applies such an intent to the submitted values. Returns false for any other intent.
 */
export function applyDestinationIntent(
  values: ParcelFormValues,
  intent: FormDataEntryValue | null,
): boolean {
  if (intent === ADD_DESTINATION_INTENT) {
    if (values.destinations.length < MAX_PARCEL_DESTINATIONS)
      values.destinations.push(emptyDestination());
    return true;
  }
  if (typeof intent === 'string' && intent.startsWith(REMOVE_DESTINATION_PREFIX)) {
    const index = Number(intent.slice(REMOVE_DESTINATION_PREFIX.length));
    if (Number.isInteger(index) && index >= 0) values.destinations.splice(index, 1);
    return true;
  }
  return false;
}
