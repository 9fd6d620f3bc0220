import { OBJECT_ID_PATTERN } from './constants';
import { dayField } from './run';
import { requiredText, textField } from './text';
import { z } from './zod';

/**
 * Monthly statements: an account's parcels booked in a company month with their prices, the
 * adjustments staff add (a credit or a charge, with a note) and the payments recorded against it.
 * Money is in the currency's minor units (`…Amount`); the forms take it as people write it.
 */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
export const monthField = z
  .string({ error: 'Enter a month as YYYY-MM' })
  .trim()
  .regex(MONTH_PATTERN, 'Enter a month as YYYY-MM')
  .meta({ description: 'A month (YYYY-MM) in the company’s zone', examples: ['2026-11'] });

export const STATEMENT_FORMATS = ['json', 'csv', 'pdf'] as const;
export const StatementQuerySchema = z.object({
  format: z
    .enum(STATEMENT_FORMATS, { error: `Format must be one of: ${STATEMENT_FORMATS.join(', ')}` })
    .optional(),
});

export const ADJUSTMENT_KINDS = ['credit', 'charge'] as const;
export const STATEMENT_NOTE_MAX = 500;
/** The most one adjustment or payment may be, in major units. */
export const STATEMENT_AMOUNT_MAX = 1_000_000;

/** "12.50" as people write an amount: up to the currency's decimals, checked by the service. */
const moneyText = z
  .string({ error: 'Enter an amount' })
  .trim()
  .regex(/^\d{1,7}(\.\d{1,3})?$/, 'Enter an amount such as 12.50')
  .refine((value) => Number(value) > 0, 'Enter an amount above 0')
  .refine((value) => Number(value) <= STATEMENT_AMOUNT_MAX, `At most ${STATEMENT_AMOUNT_MAX}`);

/** Staff add a credit or a charge to a statement. */
export const StatementAdjustmentFormSchema = z.object({
  intent: z.literal('adjust'),
  kind: z.enum(ADJUSTMENT_KINDS, { error: 'Choose credit or charge' }),
  amount: moneyText,
  note: textField('Note', STATEMENT_NOTE_MAX).pipe(z.string().min(1, 'Say what it is for')),
});

/** Staff record a payment against a statement. */
export const StatementPaymentFormSchema = z.object({
  intent: z.literal('pay'),
  amount: moneyText,
  date: dayField,
  note: textField('Note', STATEMENT_NOTE_MAX).default(''),
});

export const StatementMonthParams = z.object({
  accountId: z.string().regex(OBJECT_ID_PATTERN),
  month: monthField,
});

/** An amount of the statement's currency as the API gives it: minor units, never zero. */
const statementMoney = (what: string) =>
  z
    .strictObject({
      amount: z
        .number({ error: 'Amount must be a number' })
        .int('Amount is a whole number of the currency’s minor units')
        .refine((value) => value !== 0, 'Amount cannot be 0')
        .refine((value) => Math.abs(value) <= STATEMENT_AMOUNT_MAX * 1000, 'Amount is too large')
        .describe(what),
      currency: z
        .string({ error: 'Currency must be text' })
        .regex(/^[A-Z]{3}$/, 'Currency is an ISO 4217 code, e.g. USD')
        .describe('ISO 4217: the statement’s currency (COMPANY_CURRENCY)'),
    })
    .meta({ examples: [{ amount: 1250, currency: 'USD' }] });

/** POST /api/accounts/:id/statements/:month/payments: a payment received against the statement. */
export const StatementPaymentBodySchema = z.object({
  amount: statementMoney('In minor units, above 0 (1250 is $12.50)').refine(
    (money) => money.amount > 0,
    { path: ['amount'], message: 'A payment is above 0' },
  ),
  reference: textField('Reference', STATEMENT_NOTE_MAX)
    .default('')
    .describe('The payment’s reference, such as the bank transfer’s'),
  receivedAt: z
    .union([dayField, z.iso.datetime({ offset: true })], {
      error: 'Received at must be a day (YYYY-MM-DD) or an ISO date-time',
    })
    .optional()
    .describe(
      'When it was received: a day, or an instant read as the company’s day; today when not given',
    ),
});
export type StatementPaymentBody = z.output<typeof StatementPaymentBodySchema>;

/** POST /api/accounts/:id/statements/:month/adjustments: a credit (negative) or a charge. */
export const StatementAdjustmentBodySchema = z.object({
  description: requiredText('Description', STATEMENT_NOTE_MAX).describe(
    'What it is for, as the statement shows it',
  ),
  amount: statementMoney(
    'In minor units: negative for a credit (lowers the total), positive for a charge',
  ),
});
export type StatementAdjustmentBody = z.output<typeof StatementAdjustmentBodySchema>;
