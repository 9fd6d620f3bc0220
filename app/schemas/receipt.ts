import { z } from './zod';
import { OBJECT_ID_PATTERN, PAYMENT_METHODS, RECEIPT_FORMATS, RECEIPT_STATUSES } from './constants';
import { syncCursor, updatedSince } from './sync';
import { limitField, pageField } from './paging';

export type ReceiptFormat = (typeof RECEIPT_FORMATS)[number];
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

export const DEFAULT_PAYMENT_METHOD: PaymentMethod = 'Credit Card';
export const DEFAULT_RECEIPT_FORMAT: ReceiptFormat = 'pdf';

/** RCP-{year}-{sequence}: at least four digits, growing past 9999 without breaking. */
export function formatReceiptNumber(year: number, sequence: number): string {
  return `RCP-${year}-${String(sequence).padStart(4, '0')}`;
}

export const RECEIPT_NUMBER_PATTERN = /^RCP-\d{4}-\d{4,}$/;

export const RECEIPT_CONTENT_TYPES: Record<ReceiptFormat, string> = {
  pdf: 'application/pdf',
  html: 'text/html; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

export function receiptFilename(receiptNumber: string, format: ReceiptFormat): string {
  return `receipt-${receiptNumber}.${format}`;
}

// Forms send empty strings for untouched fields; they mean "not given".
const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const customerName = z.preprocess(
  blankToUndefined,
  z
    .string({ error: 'Customer name must be text' })
    .trim()
    .max(200, 'Customer name is too long')
    .optional(),
);
const customerEmail = z
  .preprocess(
    blankToUndefined,
    z
      .string({ error: 'Customer e-mail must be text' })
      .trim()
      .max(254, 'Customer e-mail is too long')
      .pipe(z.email('Enter a valid e-mail address'))
      .optional(),
  )
  .meta({ anyOf: [{ const: '' }, { format: 'email' }], maxLength: 254 });
const paymentMethod = z.preprocess(
  blankToUndefined,
  z
    .enum(PAYMENT_METHODS, {
      error: `Payment method must be one of: ${PAYMENT_METHODS.join(', ')}`,
    })
    .optional(),
);
const format = z.preprocess(
  blankToUndefined,
  z
    .enum(RECEIPT_FORMATS, { error: `Format must be one of: ${RECEIPT_FORMATS.join(', ')}` })
    .optional(),
);
const status = z.preprocess(
  blankToUndefined,
  z
    .enum(RECEIPT_STATUSES, { error: `Status must be one of: ${RECEIPT_STATUSES.join(', ')}` })
    .optional(),
);

const builtByClient = (what: string) =>
  z
    .unknown()
    .optional()
    .describe(`${what}, as the spec's client builds it: accepted and ignored (the server sets it)`);

/**
 * The fields of the receipt object the spec's client builds on its side and posts whole to
 * generate or change a receipt: known, so that a strict body takes them, and ignored.
 */
const CLIENT_RECEIPT_FIELDS = {
  id: builtByClient('The receipt id'),
  receiptNumber: builtByClient('The receipt number'),
  trackingNumber: builtByClient('The parcel’s tracking number'),
  amount: builtByClient('The total'),
  subtotal: builtByClient('The subtotal'),
  tax: builtByClient('The tax'),
  service: builtByClient('The service type'),
  date: builtByClient('The date'),
};
const withoutClientFields = <T extends Record<string, unknown>>(input: T) => {
  const chosen = { ...input };
  for (const key of [...Object.keys(CLIENT_RECEIPT_FIELDS), 'status']) delete chosen[key];
  return chosen as Omit<T, keyof typeof CLIENT_RECEIPT_FIELDS | 'status'>;
};

const ReceiptChoices = z.object({ customerName, customerEmail, paymentMethod, format });

/**
 * What may be chosen when generating a receipt; the rest comes from the parcel. The spec's client
 * posts its whole receipt object: its own fields (CLIENT_RECEIPT_FIELDS, and `status`) are taken
 * and ignored.
 */
export const ReceiptGenerateSchema = ReceiptChoices.extend({
  ...CLIENT_RECEIPT_FIELDS,
  status: builtByClient('The status'),
}).transform(withoutClientFields);
export type ReceiptGenerateInput = z.infer<typeof ReceiptGenerateSchema>;

const objectId = z
  .string({ error: 'Choose a parcel' })
  .trim()
  .regex(OBJECT_ID_PATTERN, 'Choose a parcel');

/** The dialog's form: the API takes the parcel from the URL instead. */
export const ReceiptGenerateFormSchema = ReceiptChoices.extend({ parcelId: objectId });

const ReceiptUpdateFields = z.object({
  customerName,
  customerEmail,
  paymentMethod,
  format,
  status,
});

/** The fields given change; the spec's client's own fields (CLIENT_RECEIPT_FIELDS) are ignored. */
export const ReceiptUpdateSchema = ReceiptUpdateFields.extend(CLIENT_RECEIPT_FIELDS)
  .transform((input) => ({ ...withoutClientFields(input), status: input.status }))
  .refine((input) => Object.values(input).some((v) => v !== undefined), {
    message: 'Nothing to update: give customerName, customerEmail, paymentMethod, format or status',
  });
export type ReceiptUpdateInput = z.infer<typeof ReceiptUpdateSchema>;

export const ReceiptListQuerySchema = z.object({
  page: pageField(),
  limit: limitField(20),
  status: z.preprocess(
    blankToUndefined,
    z
      .enum(RECEIPT_STATUSES, { error: `Status must be one of: ${RECEIPT_STATUSES.join(', ')}` })
      .optional(),
  ),
  updatedSince,
  cursor: syncCursor('receipts'),
});
export type ReceiptListQuery = z.infer<typeof ReceiptListQuerySchema>;

export const RECEIPT_LIST_INTENTS = ['email', 'downloaded', 'printed'] as const;

/** The Generated Receipts list's buttons, one action switched by intent. */
export const ReceiptActionSchema = z.object({
  intent: z.enum(RECEIPT_LIST_INTENTS, { error: 'Choose Download, Print or Email' }),
  receiptId: z.string().regex(OBJECT_ID_PATTERN, 'Invalid receipt'),
});
