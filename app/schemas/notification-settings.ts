import { z } from './zod';
import { NOTIFICATION_TYPES, PARCEL_STATUSES, type ParcelStatus } from './constants';
import { TEXT_EVENTS, TextRulesSchema } from './texts';

type TemplateType = (typeof NOTIFICATION_TYPES)[number];

/** Automatic e-mails: for each parcel status, whether reaching it e-mails the recipient, and how. */
export type AutomaticRule = { status: ParcelStatus; enabled: boolean; template: TemplateType };

export const DEFAULT_AUTOMATIC_STATUSES: readonly ParcelStatus[] = [
  'Picked Up',
  'Out for Delivery',
  'Delivered',
  'Failed',
];

export function defaultTemplateFor(status: ParcelStatus): TemplateType {
  if (status === 'Picked Up') return 'Pickup Confirmation';
  if (status === 'Delivered') return 'Delivery Confirmation';
  return 'Status Update';
}

export const DEFAULT_AUTOMATIC_RULES: AutomaticRule[] = PARCEL_STATUSES.map((status) => ({
  status,
  enabled: DEFAULT_AUTOMATIC_STATUSES.includes(status),
  template: defaultTemplateFor(status),
}));

/** The day-before e-mail: whether it goes to the recipient, and with which template. */
export type DayBeforeRule = { enabled: boolean; template: TemplateType };
export const DEFAULT_DAY_BEFORE_RULE: DayBeforeRule = {
  enabled: true,
  template: 'Delivery Reminder',
};
/** How the settings page and the API name the day-before rule. */
export const DAY_BEFORE_LABEL = 'The day before delivery';

const choiceShape = {
  enabled: z.boolean({ error: 'Enabled must be true or false' }).default(false),
  template: z.enum(NOTIFICATION_TYPES, {
    error: `Template must be one of: ${NOTIFICATION_TYPES.join(', ')}`,
  }),
};

const ruleSchema = z.object({
  status: z.enum(PARCEL_STATUSES, {
    error: `Status must be one of: ${PARCEL_STATUSES.join(', ')}`,
  }),
  ...choiceShape,
});

const dayBeforeSchema = z
  .object(choiceShape)
  .describe(
    'The e-mail the day before the estimated delivery day (in the company’s zone), with the day and the expected window',
  );

/**
 * PUT /api/notification-settings and the dashboard's form: the rules to change (statuses not
 * listed keep theirs), each status at most once, and the day-before e-mail's when given.
 */
export const NotificationSettingsSchema = z.object({
  rules: z
    .array(ruleSchema, { error: 'Rules must be a list' })
    .max(PARCEL_STATUSES.length, `At most ${PARCEL_STATUSES.length} rules`)
    .refine(
      (rules) => new Set(rules.map((rule) => rule.status)).size === rules.length,
      'Each status can appear once',
    )
    .default([]),
  dayBefore: dayBeforeSchema.optional(),
  texts: TextRulesSchema.optional(),
  accountId: z
    .string()
    .regex(/^[a-f\d]{24}$/i, 'Invalid account')
    .optional()
    .describe(
      'A shipper account: only `texts` is read, and turns its parcels’ automatic texts on or off (the others keep the company’s)',
    ),
});
/** GET /api/notification-settings?accountId=: the texts as they are for that account's parcels. */
export const AccountTextsQuerySchema = z.object({
  accountId: z
    .string()
    .regex(/^[a-f\d]{24}$/i, 'Invalid account')
    .optional()
    .describe('A shipper account: `texts` as they are for its parcels'),
});

export type NotificationSettingsInput = z.infer<typeof NotificationSettingsSchema>;

/**
 * The dashboard's form: every status's row, each with what it showed when loaded (`was…`), so
 * only the rows changed here are saved and two admins saving at once do not undo each other.
 */
export const NotificationSettingsFormSchema = z.object({
  rules: z
    .array(
      ruleSchema.extend({
        wasEnabled: z.enum(['true', 'false']).optional(),
        wasTemplate: z.enum(NOTIFICATION_TYPES).optional(),
      }),
    )
    .max(PARCEL_STATUSES.length),
  dayBefore: z
    .object({
      ...choiceShape,
      wasEnabled: z.enum(['true', 'false']).optional(),
      wasTemplate: z.enum(NOTIFICATION_TYPES).optional(),
    })
    .optional(),
  // The automatic texts' boxes: sent only when the page shows them; a box left empty is off.
  texts: z
    .object({
      shown: z.literal('true'),
      ...Object.fromEntries(TEXT_EVENTS.map((event) => [event, z.boolean().default(false)])),
    })
    .optional(),
});
