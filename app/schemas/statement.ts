import { OBJECT_ID_PATTERN } from './constants';
import { dayField } from './run';
import { textField } from './text';
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
