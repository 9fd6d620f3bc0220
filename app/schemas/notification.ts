import { z } from './zod';
import { unknownPlaceholders, TEMPLATE_PLACEHOLDERS } from './notification-template';
import {
  normalizeTrackingNumber,
  NOTIFICATION_STATUSES,
  NOTIFICATIONS_PAGE_SIZE,
  NOTIFICATION_TYPES,
  OBJECT_ID_PATTERN,
  TRACKING_NUMBER_INPUT,
  TRACKING_NUMBER_PATTERN,
} from './constants';
import { syncCursor, updatedSince } from './sync';
import { limitField } from './paging';
import { requiredText } from './text';

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

/** The send dialog offers the newest parcels (spec: the notifications screen loads 50). */
export const NOTIFICATION_PARCEL_CHOICES = 50;
export const NOTIFICATION_TITLE_MAX = 200;
export const NOTIFICATION_MESSAGE_MAX = 5000;

const typeField = z.enum(NOTIFICATION_TYPES, {
  error: `Type must be one of: ${NOTIFICATION_TYPES.join(', ')}`,
});
const statusField = z.enum(NOTIFICATION_STATUSES, {
  error: `Status must be one of: ${NOTIFICATION_STATUSES.join(', ')}`,
});

/** Placeholders such as {{trackingNumber}} are filled in for the parcel; others are refused. */
const knownPlaceholders = {
  error: (issue: { input?: unknown }) =>
    `Unknown placeholder ${unknownPlaceholders(String(issue.input))
      .map((name) => `{{${name}}}`)
      .join(', ')}. Use ${TEMPLATE_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ')}.`,
};

const titleField = requiredText('Subject', NOTIFICATION_TITLE_MAX).refine(
  (value) => unknownPlaceholders(value).length === 0,
  knownPlaceholders,
);

const messageField = requiredText('Message', NOTIFICATION_MESSAGE_MAX).refine(
  (value) => unknownPlaceholders(value).length === 0,
  knownPlaceholders,
);

const trackingNumberField = z
  .string({ error: 'Tracking number is required' })
  .transform(normalizeTrackingNumber)
  .pipe(
    z
      .string()
      .regex(
        TRACKING_NUMBER_PATTERN,
        'Tracking number must be three letters followed by nine digits',
      ),
  )
  .meta(TRACKING_NUMBER_INPUT);

/** POST /api/notifications. */
export const NotificationCreateSchema = z.object({
  type: typeField,
  recipient: z
    .string({ error: 'Recipient e-mail is required' })
    .trim()
    .toLowerCase()
    .pipe(z.email('Recipient must be a valid e-mail address').max(254))
    .meta({ format: 'email', maxLength: 254 }),
  title: titleField,
  message: messageField,
  trackingNumber: trackingNumberField,
});
export type NotificationCreateInput = z.infer<typeof NotificationCreateSchema>;

/**
 * PUT /api/notifications/:id. Read only to answer: a status is refused (409), since it follows
 * the delivery; nothing else can be changed.
 */
export const NotificationUpdateSchema = z.object({ status: z.unknown().optional() });

/** GET /api/notifications query. */
export const NotificationListQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'Page must be a number' })
    .int('Page must be a whole number')
    .min(1, 'Page starts at 1')
    .default(1),
  limit: limitField(NOTIFICATIONS_PAGE_SIZE),
  type: typeField.optional(),
  status: statusField.optional(),
  trackingNumber: trackingNumberField.optional(),
  automatic: z
    .enum(['true', 'false'], { error: 'Automatic must be true or false' })
    .transform((value) => value === 'true')
    .optional(),
  updatedSince,
  cursor: syncCursor('notifications'),
});

/**
 * The dashboard's Send Notification form: what the API takes, except that the recipient and the
 * tracking number come from the chosen parcel.
 */
export const NotificationSendFormSchema = NotificationCreateSchema.pick({
  type: true,
  title: true,
  message: true,
}).extend({
  parcelId: z
    .string({ error: 'Please select a parcel' })
    .regex(OBJECT_ID_PATTERN, 'Please select a parcel'),
});

/** The dashboard's Retry and Delete buttons. */
export const NotificationActionSchema = z.object({
  intent: z.enum(['retry', 'delete'], { error: 'Choose Retry or Delete' }),
  notificationId: z.string().regex(OBJECT_ID_PATTERN, 'Invalid notification'),
});
