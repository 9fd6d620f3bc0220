import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { canonicalTimeZone, DEFAULT_COMPANY_TIME_ZONE, isTimeZone } from '../utils/time-zone';
import { LANGUAGE_CODES, type Language } from '../schemas/languages';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.join(' or ')}//`,
    )
    .optional();

/** A list of seconds separated by commas ("60,300,1800"), for retry delays. */
export function secondsList(name: string) {
  return z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*$/, `${name} must be seconds separated by commas`)
    .transform((value) => value.split(',').map((part) => Number(part.trim())));
}

/** express's names for address ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * What express's `trust proxy` is given: `false`, the number of proxies in front of the app, or
 * the proxies' addresses and subnets. Never `true`, which would take the client's address from the
 * first `X-Forwarded-For` entry, one the client itself may have written: `true` means one proxy.
 */
export type TrustProxy = false | number | string[];

export const TRUST_PROXY_MESSAGE =
  'must be false, the number of proxies in front of the app (1 behind one load balancer), or a comma-separated list of their addresses or subnets (also loopback, linklocal, uniquelocal)';

export const TrustProxySchema = z
  .string()
  .trim()
  .transform((value, ctx): TrustProxy => {
    if (value === 'false' || value === '0') return false;
    if (value === 'true') return 1;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    // Addresses written in full: ipaddr.js would also take `1.5` for 1.0.0.5.
    const address = (text: string) =>
      ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
    const valid = (entry: string) =>
      PROXY_RANGE_NAMES.includes(entry) ||
      address(entry) ||
      (ipaddr.isValidCIDR(entry) && address(entry.split('/')[0]!));
    if (entries.every(valid)) return entries;
    ctx.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGE });
    return z.NEVER;
  });

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    MONGODB_URI: optionalUrl(['mongodb:', 'mongodb+srv:']),
    DATA_DIR: z.string().trim().min(1).default('.data'),
    SESSION_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    PUBLIC_URL: optionalUrl(['http:', 'https:']),
    SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
    SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    MAIL_FROM: z.string().trim().min(3).optional(),
    COMPANY_NAME: z.string().trim().min(1).default('SwiftShip Courier'),
    COMPANY_PHONE: z.string().trim().min(3).default('+1 (800) 555-0199'),
    COMPANY_EMAIL: z.email().default('support@swiftship.example'),
    /** The head office, printed on receipts. */
    COMPANY_ADDRESS: z
      .string()
      .trim()
      .min(3)
      .max(300)
      .default('350 Fifth Avenue, Suite 4100, New York, NY 10118, United States'),
    /** Where the company is: tracking events without a zone of their own happened in this one. */
    COMPANY_TIMEZONE: z
      .string()
      .trim()
      .refine(isTimeZone, 'must be an IANA time zone, e.g. America/New_York')
      .transform(canonicalTimeZone)
      .default(DEFAULT_COMPANY_TIME_ZONE),
    /** The currency (ISO 4217) of the spec's `cost`: what a parcel booked without a price is billed in. */
    COMPANY_CURRENCY: z
      .string()
      .trim()
      .regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code, e.g. USD')
      .default('USD'),
    /** The public pages' and customers' e-mails' language when nothing says another one. */
    DEFAULT_LANGUAGE: z
      .enum(LANGUAGE_CODES as [Language, ...Language[]], {
        error: `must be one of ${LANGUAGE_CODES.join(', ')}`,
      })
      .default('en'),
    ADMIN_USERNAME: z
      .string()
      .trim()
      .regex(/^[a-zA-Z0-9._-]{3,40}$/, 'must be 3-40 letters, digits, dots, dashes or underscores')
      .optional(),
    ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
    SEED_DEMO: z.enum(['true', 'false']).optional(),
    LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
    LOGIN_WINDOW_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(15),
    RATE_LIMIT_TRACKING_PER_MINUTE: z.coerce.number().int().min(1).default(60),
    RATE_LIMIT_SUBSCRIBE_PER_HOUR: z.coerce.number().int().min(1).default(10),
    RATE_LIMIT_API_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
    TRUST_PROXY: TrustProxySchema.default(false),
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(1024 * 1024),
    // The larger limit of the routes that take uploads (the parcel CSV import, API and dashboard).
    IMPORT_BODY_LIMIT_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .default(20 * 1024 * 1024),
    // The work factor of the scrypt hash of a new password (scrypt's N, a power of two): a hash
    // already stored keeps its own. The test suites lower it; production keeps the default.
    PASSWORD_HASH_COST: z.coerce
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024)
      .refine((n) => (n & (n - 1)) === 0, 'must be a power of two')
      .default(16384),
    // The background queue: how often an idle worker looks for due jobs, and how many it runs at once.
    JOBS_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
    JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    JOBS_WORKER: z.enum(['true', 'false']).default('true'),
    // Webhooks: seconds to wait before each retry of a failed delivery (its length is the number
    // of retries), how long a receiver may take to answer, and whether private addresses are allowed.
    WEBHOOK_RETRY_DELAYS: secondsList('WEBHOOK_RETRY_DELAYS').default([
      5, 300, 1800, 7200, 18000, 36000, 36000,
    ]),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    WEBHOOKS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
    // Seconds to wait before each new attempt at an e-mail the mail server refused.
    MAIL_RETRY_DELAYS: secondsList('MAIL_RETRY_DELAYS').default([60, 300, 1800]),
    // Text messages (app/services/sms-sender.server.ts): twilio://SID:TOKEN@FROM,
    // vonage://KEY:SECRET@FROM, or an http(s):// gateway given {to, from, body}; unset, texts are
    // written to DATA_DIR/sms-outbox. SMS_FROM overrides the sender the URL names.
    SMS_URL: optionalUrl(['twilio:', 'vonage:', 'http:', 'https:']),
    SMS_FROM: z.string().trim().min(2).max(20).optional(),
    SMS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    // Seconds to wait before each new attempt at a text the provider refused.
    SMS_RETRY_DELAYS: secondsList('SMS_RETRY_DELAYS').default([60, 300, 1800]),
    // When no text goes out, in the recipient's zone ("21:00-08:00"), or off.
    SMS_QUIET_HOURS: z
      .string()
      .trim()
      .regex(
        /^(off|([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d)$/,
        'must be HH:MM-HH:MM or off',
      )
      .default('21:00-08:00'),
    // The Standard Webhooks secret (whsec_…) a generic gateway signs inbound texts with.
    SMS_INBOUND_SECRET: z.string().trim().min(16).optional(),
    // The country of a phone number typed without +, when its address names none (ISO 3166 alpha-2).
    DEFAULT_PHONE_COUNTRY: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code, e.g. US')
      .transform((value) => value.toUpperCase())
      .default('US'),
    // Card payment through Stripe Checkout (app/services/card-payments.server.ts): offered only
    // with the secret key; the webhook secret checks the events Stripe posts to /api/stripe/webhook.
    STRIPE_SECRET_KEY: z
      .string()
      .trim()
      .regex(
        /^(sk|rk)_(test|live)_[A-Za-z0-9_]{8,}$/,
        'must be a Stripe secret key (sk_live_… or sk_test_…)',
      )
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .trim()
      .regex(
        /^whsec_[A-Za-z0-9+/=_-]{8,}$/,
        'must be the webhook endpoint’s signing secret (whsec_…)',
      )
      .optional(),
    // The request log's level (app/lib/logger.server.ts): info, or silent under NODE_ENV=test.
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
    // The bearer token GET /metrics asks for; unset, /metrics is not served.
    METRICS_TOKEN: z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{16,}$/, 'must be at least 16 printable characters, without spaces')
      .optional(),
  })
  .superRefine((value, ctx) => {
    // A payment is marked paid only by Stripe's signed event: the key is no use without its secret.
    if (value.STRIPE_SECRET_KEY && !value.STRIPE_WEBHOOK_SECRET)
      ctx.addIssue({
        code: 'custom',
        path: ['STRIPE_WEBHOOK_SECRET'],
        message: 'must be set with STRIPE_SECRET_KEY (the signing secret of the webhook endpoint)',
      });
  });

export type Env = z.infer<typeof EnvSchema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings in .env files mean "not set".
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

function loadEnv(): Env {
  try {
    return parseEnv(process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

const globalForEnv = globalThis as typeof globalThis & { __courierEnv?: Env };

export const env: Env = (globalForEnv.__courierEnv ??= loadEnv());

export function publicCompanyInfo() {
  return {
    name: env.COMPANY_NAME,
    phone: env.COMPANY_PHONE,
    email: env.COMPANY_EMAIL,
    address: env.COMPANY_ADDRESS,
    timeZone: env.COMPANY_TIMEZONE,
  };
}

export type CompanyInfo = ReturnType<typeof publicCompanyInfo>;
