import { z } from './zod';
import { countSms, MAX_SMS_SEGMENTS } from '~/utils/sms-segments';
import { unknownPlaceholderMessage, unknownPlaceholders } from './notification-template';

/**
 * The automatic texts: the events that send one, the languages their templates are written in
 * (English stands in for a language without its own), and the admin's template form.
 */
export const TEXT_EVENTS = ['outForDelivery', 'failed', 'delivered', 'dayBefore'] as const;
export type TextEvent = (typeof TEXT_EVENTS)[number];

export const TEXT_EVENT_LABELS: Record<TextEvent, string> = {
  outForDelivery: 'Out for delivery',
  failed: 'Failed delivery attempt',
  delivered: 'Delivered',
  dayBefore: 'The day before delivery',
};

export const TEXT_LANGUAGES = ['en', 'es', 'fr', 'de', 'ar'] as const;
export type TextLanguage = (typeof TEXT_LANGUAGES)[number];
export const TEXT_LANGUAGE_NAMES: Record<TextLanguage, string> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  ar: 'Arabic',
};

/** The language of a recipient's texts: theirs when a template language, else English. */
export function textLanguage(language: unknown): TextLanguage {
  const code = typeof language === 'string' ? language.trim().slice(0, 2).toLowerCase() : '';
  return (TEXT_LANGUAGES as readonly string[]).includes(code) ? (code as TextLanguage) : 'en';
}

/** The placeholders a text template may use. */
export const TEXT_PLACEHOLDERS = [
  'companyName',
  'trackingNumber',
  'deliveryDay',
  'deliveryWindow',
  'reason',
  'nextStep',
  'receivedBy',
  'trackingUrl',
] as const;

export const TEXT_TEMPLATE_MAX = 1000;
export const TOO_MANY_SEGMENTS = `A text is at most ${MAX_SMS_SEGMENTS} messages: shorten it`;

export const TextTemplateSchema = z.object({
  event: z.enum(TEXT_EVENTS, { error: 'Choose an event from the list' }),
  language: z.enum(TEXT_LANGUAGES, { error: 'Choose a language from the list' }),
  intent: z.enum(['save', 'reset']).default('save'),
  body: z
    .string({ error: 'Write the text' })
    .trim()
    .max(TEXT_TEMPLATE_MAX, `At most ${TEXT_TEMPLATE_MAX} characters`)
    .refine((body) => countSms(body).segments <= MAX_SMS_SEGMENTS, TOO_MANY_SEGMENTS)
    .refine((body) => unknownPlaceholders(body, TEXT_PLACEHOLDERS).length === 0, {
      error: (issue) => unknownPlaceholderMessage(String(issue.input), TEXT_PLACEHOLDERS),
    })
    .default(''),
});

/** The automatic texts on or off, by event (the rules page and PUT /api/notification-settings). */
export const TextRulesSchema = z
  .object(
    Object.fromEntries(
      TEXT_EVENTS.map((event) => [
        event,
        z.boolean({ error: `${event} must be true or false` }).optional(),
      ]),
    ) as Record<TextEvent, z.ZodOptional<z.ZodBoolean>>,
  )
  .describe(
    'The automatic texts to the recipient’s mobile, on or off by event; on by default once a provider (SMS_URL) is configured',
  );
export type TextRules = Record<TextEvent, boolean>;
