import { parseWithZod } from '@conform-to/zod/v4';
import { z } from './zod';

/** Plans a visitor can ask about; the values are what `/quote?plan=` accepts. */
export const QUOTE_PLANS = [
  { value: 'basic', label: 'Basic ($9.99 per shipment)' },
  { value: 'premium', label: 'Premium ($19.99 per shipment)' },
  { value: 'enterprise', label: 'Enterprise (custom pricing)' },
  { value: 'not-sure', label: 'Not sure yet' },
] as const;
export const QUOTE_PLAN_VALUES = ['basic', 'premium', 'enterprise', 'not-sure'] as const;
export type QuotePlan = (typeof QUOTE_PLAN_VALUES)[number];

export function planLabel(plan: string | null | undefined) {
  return QUOTE_PLANS.find((p) => p.value === plan)?.label ?? 'Not sure yet';
}

export const SHIPMENT_VOLUMES = [
  '1-10',
  '11-50',
  '51-200',
  '201-1,000',
  'More than 1,000',
] as const;

/** What an inquiry's rows read: the stored contact message or quote request. */
type InquiryValues = {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  company?: string | null;
  subject?: string | null;
  plan?: string | null;
  shipmentsPerMonth?: string | null;
  origin?: string | null;
  destination?: string | null;
};

/** A contact message's or quote request's fields as the support team reads them, in order. */
export function inquiryRows(
  kind: string,
  inquiry: InquiryValues,
): Array<[string, string | null | undefined]> {
  const person: Array<[string, string | null | undefined]> = [
    ['Name', inquiry.name],
    ['Email', inquiry.email],
    ['Phone', inquiry.phone],
  ];
  if (kind !== 'quote') return [...person, ['Subject', inquiry.subject]];
  return [
    ...person,
    ['Company', inquiry.company],
    ['Plan', planLabel(inquiry.plan)],
    ['Shipments per month', inquiry.shipmentsPerMonth],
    ['Origin', inquiry.origin],
    ['Destination', inquiry.destination],
  ];
}

/** Accepted submissions per form and client address within the window. */
export const PUBLIC_FORM_RATE_LIMIT = { limit: 5, windowMs: 10 * 60 * 1000 } as const;

/** The field bots fill in and people never see. */
export const HONEYPOT_FIELD = 'website';

function requiredText(label: string, max: number) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);
}

function optionalText(label: string, max: number) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .optional()
    .transform((value) => value || undefined);
}

const emailField = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email must be at most 254 characters')
  .pipe(z.email('Enter a valid email address'))
  .transform((value) => value.toLowerCase())
  .meta({ format: 'email' });

const PHONE_PATTERN = /^\+?[0-9 ().-]{6,30}$/;

const requiredPhone = requiredText('Phone', 30).refine(
  (value) => PHONE_PATTERN.test(value),
  'Enter a valid phone number',
);

const optionalPhone = optionalText('Phone', 30).refine(
  (value) => value === undefined || PHONE_PATTERN.test(value),
  'Enter a valid phone number',
);

export const ContactMessageSchema = z.object({
  firstName: requiredText('First name', 80),
  lastName: requiredText('Last name', 80),
  email: emailField,
  phone: optionalPhone,
  subject: requiredText('Subject', 150),
  message: requiredText('Message', 5000).refine(
    (value) => value.length >= 10,
    'Message must be at least 10 characters',
  ),
});
export type ContactMessageInput = z.infer<typeof ContactMessageSchema>;

export const QuoteRequestSchema = z.object({
  name: requiredText('Name', 120),
  email: emailField,
  phone: requiredPhone,
  company: optionalText('Company', 150),
  plan: z.enum(QUOTE_PLAN_VALUES, { error: 'Choose a plan' }),
  shipmentsPerMonth: z.enum(SHIPMENT_VOLUMES, {
    error: 'Choose how many shipments you send per month',
  }),
  origin: requiredText('Origin', 150),
  destination: requiredText('Destination', 150),
  message: optionalText('Message', 5000),
});
export type QuoteRequestInput = z.infer<typeof QuoteRequestSchema>;

export const NewsletterSchema = z.object({
  email: emailField,
});
export type NewsletterInput = z.infer<typeof NewsletterSchema>;

export function isQuotePlan(value: unknown): value is QuotePlan {
  return typeof value === 'string' && (QUOTE_PLAN_VALUES as readonly string[]).includes(value);
}

/** The most people (pending or confirmed) who may follow one parcel by e-mail. */
export const MAX_PARCEL_SUBSCRIBERS = 5;

/**
 * Requests for a parcel's updates per e-mail address, over every parcel, within the window. Past
 * it nothing is sent, silently: whatever the address, the answer is the same. (The limit per
 * client address is RATE_LIMIT_SUBSCRIBE_PER_HOUR, and is said.)
 */
export const PARCEL_SUBSCRIBE_EMAIL_LIMIT = { limit: 5, windowMs: 60 * 60 * 1000 } as const;

export const ParcelSubscribeSchema = z.object({
  email: emailField,
});
export type ParcelSubscribeInput = z.infer<typeof ParcelSubscribeSchema>;

/** A subscription link's token: the subscription's id, a dot, and its signature. */
export const SUBSCRIPTION_LINK_TOKEN = /^([a-f\d]{24})\.([\w-]{43})$/;

/** The query of the links in subscribers' e-mails (confirm, unsubscribe, one-click). */
export const SubscriptionLinkSchema = z.object({
  token: z.string().regex(SUBSCRIPTION_LINK_TOKEN, 'This link is not valid'),
});

/** The token of a subscription link's address, when it has the shape of one (else null). */
export function subscriptionLinkToken(request: Request): string | null {
  const link = parseWithZod(new URL(request.url).searchParams, { schema: SubscriptionLinkSchema });
  return link.status === 'success' ? link.value.token : null;
}
