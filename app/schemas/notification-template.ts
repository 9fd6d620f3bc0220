import { z } from './zod';
import { NOTIFICATION_TYPES } from './constants';

/**
 * Notification templates: a subject, a text body and an HTML body per notification type, with
 * placeholders such as {{trackingNumber}} that the server fills in for the parcel when it sends.
 * Shared by the server and the browser (the dashboard's editor validates as the server does).
 */
export const TEMPLATE_PLACEHOLDERS = [
  'trackingNumber',
  'status',
  'recipientName',
  'estimatedDelivery',
  'trackingUrl',
  'companyName',
  'deliveryDay',
  'deliveryWindow',
] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];
export type PlaceholderValues = Record<TemplatePlaceholder, string>;

export const TEMPLATE_SUBJECT_MAX = 200;
export const TEMPLATE_TEXT_MAX = 5000;
export const TEMPLATE_HTML_MAX = 20_000;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Names used between {{ and }} that are not placeholders. */
export function unknownPlaceholders(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name)) unknown.add(name);
  }
  return [...unknown];
}

/** Fills every known placeholder; `escape` is applied to each value (for HTML). */
export function fillPlaceholders(
  text: string,
  values: PlaceholderValues,
  escape: (value: string) => string = (value) => value,
): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    (TEMPLATE_PLACEHOLDERS as readonly string[]).includes(name)
      ? escape(values[name as TemplatePlaceholder])
      : whole,
  );
}

const placeholdersKnown = (value: string) => unknownPlaceholders(value).length === 0;
const unknownMessage = (value: string) =>
  `Unknown placeholder ${unknownPlaceholders(value)
    .map((name) => `{{${name}}}`)
    .join(', ')}. Use ${TEMPLATE_PLACEHOLDERS.map((name) => `{{${name}}}`).join(', ')}.`;

function templateText(label: string, max: number, required: boolean) {
  const base = z
    .string({ error: `${label} is required` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);
  return (required ? base.min(1, `${label} is required`) : base).refine(placeholdersKnown, {
    error: (issue) => unknownMessage(String(issue.input)),
  });
}

export const templateTypeField = z.enum(NOTIFICATION_TYPES, {
  error: `Template must be one of: ${NOTIFICATION_TYPES.join(', ')}`,
});

/** PUT /api/notification-templates/:id and the dashboard's template editor. */
export const NotificationTemplateSchema = z.object({
  subject: templateText('Subject', TEMPLATE_SUBJECT_MAX, true),
  text: templateText('Text body', TEMPLATE_TEXT_MAX, true),
  html: templateText('HTML body', TEMPLATE_HTML_MAX, false).default(''),
});
export type NotificationTemplateInput = z.infer<typeof NotificationTemplateSchema>;

/** The dashboard editor's buttons: save the fields, or go back to the default template. */
export const NotificationTemplateFormSchema = z.discriminatedUnion('intent', [
  NotificationTemplateSchema.extend({
    intent: z.literal('save'),
    parcelId: z.string().optional(),
  }),
  NotificationTemplateSchema.extend({
    intent: z.literal('preview'),
    parcelId: z.string({ error: 'Please select a parcel' }),
  }),
  z.object({ intent: z.literal('reset') }),
]);

export type NotificationTemplate = {
  id: string;
  type: (typeof NOTIFICATION_TYPES)[number];
  subject: string;
  text: string;
  html: string;
  /** False while it is the default one (never saved, or reset). */
  customized: boolean;
  updatedAt: string | null;
};

type TemplateType = NotificationTemplate['type'];

/** The templates as shipped; an admin's saved version replaces one until it is reset. */
export const DEFAULT_NOTIFICATION_TEMPLATES: Record<
  TemplateType,
  { subject: string; text: string; html: string }
> = {
  'Status Update': {
    subject: 'Status update for your parcel {{trackingNumber}}',
    text: 'Dear {{recipientName}},\n\nThere is news about your parcel {{trackingNumber}}: its current status is "{{status}}".\n\nYou can follow every step of its journey on our tracking page: {{trackingUrl}}\n\nThank you for shipping with {{companyName}}.',
    html: '<p>Dear {{recipientName}},</p>\n<p>There is news about your parcel <strong>{{trackingNumber}}</strong>: its current status is <strong>{{status}}</strong>.</p>\n<p>You can follow every step of its journey on our <a href="{{trackingUrl}}">tracking page</a>.</p>\n<p>Thank you for shipping with {{companyName}}.</p>',
  },
  'Delivery Confirmation': {
    subject: 'Your parcel {{trackingNumber}} has been delivered',
    text: 'Dear {{recipientName}},\n\nGood news: your parcel {{trackingNumber}} has been delivered (status: "{{status}}").\n\nIf anything is missing or damaged, please contact our support team within 24 hours of delivery.\n\nThank you for choosing {{companyName}}.',
    html: '<p>Dear {{recipientName}},</p>\n<p>Good news: your parcel <strong>{{trackingNumber}}</strong> has been delivered (status: <strong>{{status}}</strong>).</p>\n<p>If anything is missing or damaged, please contact our support team within 24 hours of delivery.</p>\n<p>Thank you for choosing {{companyName}}.</p>',
  },
  'Pickup Confirmation': {
    subject: 'Your parcel {{trackingNumber}} has been picked up',
    text: 'Dear {{recipientName}},\n\nWe have picked up your parcel {{trackingNumber}} and it is now on its way (status: "{{status}}"). Estimated delivery: {{estimatedDelivery}}.\n\nWe will keep you informed as it moves through our network, and you can track it at any time: {{trackingUrl}}\n\nThank you for shipping with {{companyName}}.',
    html: '<p>Dear {{recipientName}},</p>\n<p>We have picked up your parcel <strong>{{trackingNumber}}</strong> and it is now on its way (status: <strong>{{status}}</strong>). Estimated delivery: {{estimatedDelivery}}.</p>\n<p>We will keep you informed as it moves through our network, and you can <a href="{{trackingUrl}}">track it at any time</a>.</p>\n<p>Thank you for shipping with {{companyName}}.</p>',
  },
  Custom: { subject: '', text: '', html: '' },
  'Delivery Reminder': {
    subject: 'Your parcel {{trackingNumber}} arrives tomorrow, {{deliveryWindow}}',
    text: "Dear {{recipientName}},\n\nYour parcel {{trackingNumber}} is due tomorrow, {{deliveryDay}}, {{deliveryWindow}}.\n\nWon't be in? On the tracking page you can ask for another day, a safe place or to collect it from the depot: {{trackingUrl}}\n\nThank you for choosing {{companyName}}.",
    html: '<p>Dear {{recipientName}},</p>\n<p>Your parcel <strong>{{trackingNumber}}</strong> is due tomorrow, <strong>{{deliveryDay}}, {{deliveryWindow}}</strong>.</p>\n<p>Won\'t be in? On the <a href="{{trackingUrl}}">tracking page</a> you can ask for another day, a safe place or to collect it from the depot.</p>\n<p>Thank you for choosing {{companyName}}.</p>',
  },
};
