import { z } from './zod';
import { NOTIFICATION_TYPES } from './constants';
import { LANGUAGES } from './languages';

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

/** Names used between {{ and }} that are not placeholders (of `known`: the e-mails' by default). */
export function unknownPlaceholders(
  text: string,
  known: readonly string[] = TEMPLATE_PLACEHOLDERS,
): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!known.includes(name)) unknown.add(name);
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

/** What a field with an unknown placeholder says: which ones, and the ones to use. */
export const unknownPlaceholderMessage = (
  value: string,
  known: readonly string[] = TEMPLATE_PLACEHOLDERS,
) =>
  `Unknown placeholder ${unknownPlaceholders(value, known)
    .map((name) => `{{${name}}}`)
    .join(', ')}. Use ${known.map((name) => `{{${name}}}`).join(', ')}.`;
const unknownMessage = (value: string) => unknownPlaceholderMessage(value);

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

const TEMPLATE_LANGUAGES = LANGUAGES.map((language) => language.code);

/** Which language's version of a template (GET, PUT, DELETE /api/notification-templates/:id). */
export const TemplateLanguageQuerySchema = z.object({
  language: z
    .enum(TEMPLATE_LANGUAGES as [string, ...string[]], {
      error: `Language must be one of: ${TEMPLATE_LANGUAGES.join(', ')}`,
    })
    .default('en')
    .describe("The template's language; en by default"),
});

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
  /** The language this version is written in. */
  language: string;
  /** False when the language has no version of its own: English's is sent in its place. */
  translated: boolean;
  subject: string;
  text: string;
  html: string;
  /** False while it is the default one (never saved, or reset). */
  customized: boolean;
  updatedAt: string | null;
};
