import { z } from './zod';
import { requiredText, textField } from './text';
import { API_KEY_NAME_MAX } from './integrations';
import { FAILURE_REASON_CODES } from './constants';

/**
 * Shipper accounts: the courier's customers, each seeing its own parcels through its users and
 * keys. The forms of Settings → Accounts and /api/accounts read these schemas.
 */
export const ACCOUNT_STATUSES = ['active', 'suspended'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];
export const ACCOUNT_LANGUAGES = ['en', 'es', 'fr', 'de', 'ar'] as const;
export type AccountLanguage = (typeof ACCOUNT_LANGUAGES)[number];

/** An address, structured as a parcel's. */
export const AccountAddressSchema = z.object({
  address: requiredText('Address', 500),
  city: requiredText('City', 100),
  region: textField('Region', 100).default(''),
  postalCode: textField('Postal code', 20).default(''),
  country: requiredText('Country', 100),
});
export type AccountAddress = z.output<typeof AccountAddressSchema>;

const email = requiredText('Email', 254).pipe(z.email('Invalid email address'));
const language = z.enum(ACCOUNT_LANGUAGES, {
  error: `Language must be one of: ${ACCOUNT_LANGUAGES.join(', ')}`,
});
const status = z.enum(ACCOUNT_STATUSES, { error: 'Status must be active or suspended' });

/** POST /api/accounts and the Settings form. Without a pickup address, the billing one. */
export const AccountCreateSchema = z.object({
  name: requiredText('Company name', 200),
  email,
  phone: textField('Phone', 50).default(''),
  address: AccountAddressSchema,
  pickupAddress: AccountAddressSchema.optional(),
  language: language.default('en'),
});
export type AccountCreateInput = z.output<typeof AccountCreateSchema>;

/** PUT /api/accounts/:id: the fields given; `{status: "suspended"}` suspends. */
export const AccountUpdateSchema = z.object({
  name: requiredText('Company name', 200).optional(),
  email: email.optional(),
  phone: textField('Phone', 50).optional(),
  address: AccountAddressSchema.optional(),
  pickupAddress: AccountAddressSchema.optional(),
  language: language.optional(),
  status: status.optional(),
});
export type AccountUpdateInput = z.output<typeof AccountUpdateSchema>;

export const ACCOUNT_KEY_MODES = ['live', 'test'] as const;
export type AccountKeyMode = (typeof ACCOUNT_KEY_MODES)[number];
export const ACCOUNT_KEY_SCOPES = ['read', 'write'] as const;

/** POST /api/accounts/:id/api-keys: a key that acts for the account, live or test. */
export const AccountApiKeyCreateSchema = z.object({
  name: requiredText('Name', API_KEY_NAME_MAX),
  scopes: z
    .array(
      z.enum(ACCOUNT_KEY_SCOPES, {
        error: `Scope must be one of: ${ACCOUNT_KEY_SCOPES.join(', ')}`,
      }),
      { error: 'Choose at least one scope' },
    )
    .min(1, 'Choose at least one scope')
    .max(10, 'At most 10 scopes')
    .transform((scopes) => ACCOUNT_KEY_SCOPES.filter((scope) => scopes.includes(scope))),
  mode: z.enum(ACCOUNT_KEY_MODES, { error: 'Mode must be live or test' }).default('live'),
});
export type AccountApiKeyCreateInput = z.output<typeof AccountApiKeyCreateSchema>;

/** Where a test parcel can be moved: its life's next steps, or a failed attempt. */
export const TEST_ADVANCE_STEPS = [
  'In Transit',
  'Out for Delivery',
  'Delivered',
  'Failed',
] as const;
export type TestAdvanceStep = (typeof TEST_ADVANCE_STEPS)[number];

/** POST /api/test/parcels/:id/advance. */
export const TestAdvanceSchema = z.object({
  to: z
    .enum(TEST_ADVANCE_STEPS, {
      error: `To must be one of: ${TEST_ADVANCE_STEPS.join(', ')}`,
    })
    .optional()
    .meta({
      description:
        'Where to move it, through every step before it (default: the next step). Failed is a failed attempt from Out for Delivery',
    }),
  reason: z
    .enum(FAILURE_REASON_CODES, {
      error: `Reason must be one of: ${FAILURE_REASON_CODES.join(', ')}`,
    })
    .optional()
    .meta({ description: 'A failed attempt’s reason (default recipient_unavailable)' }),
});
export type TestAdvanceInput = z.output<typeof TestAdvanceSchema>;

export const ACCOUNT_USER_ROLES = ['admin', 'member'] as const;

/** POST /api/accounts/:id/users and the portal's invite form. */
export const AccountUserInviteSchema = z.object({
  name: requiredText('Name', 100),
  email,
  accountRole: z
    .enum(ACCOUNT_USER_ROLES, { error: 'Role must be admin or member' })
    .optional()
    .meta({
      description:
        "admin (invites users, makes keys and webhooks) or member (reads and ships); default: admin for an account's first user, else member",
    }),
});
export type AccountUserInviteInput = z.output<typeof AccountUserInviteSchema>;

/** The portal's sign-in. */
export const ShipperSignInSchema = z.object({
  email: requiredText('Email', 254),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
  redirectTo: z.string().optional(),
});

/** Asking for a new access link (a password reset, or an invitation that has run out). */
export const AccessRequestSchema = z.object({ email });

/** Choosing a password through an access link. */
export const ChoosePasswordSchema = z
  .object({
    password: z
      .string({ error: 'Password is required' })
      .min(8, 'Password must be at least 8 characters')
      .max(200, 'Password must be at most 200 characters'),
    confirm: z.string({ error: 'Repeat the password' }),
  })
  .refine((value) => value.password === value.confirm, {
    message: 'The passwords differ',
    path: ['confirm'],
  });

/** Settings → Accounts: suspending or reactivating an account. */
export const AccountStatusFormSchema = z.object({
  intent: z.literal('status'),
  accountId: z.string().regex(/^[a-f\d]{24}$/i, 'Invalid account'),
  status,
});

/** The portal's Users page: an account's admin disables or enables one of its users. */
export const AccountUserStatusFormSchema = z.object({
  intent: z.literal('user-status'),
  userId: z.string().regex(/^[a-f\d]{24}$/i, 'Invalid user'),
  disabled: z.enum(['true', 'false'], { error: 'Invalid status' }).transform((v) => v === 'true'),
});
