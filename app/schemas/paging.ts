import { MAX_PAGE_SIZE } from './constants';
import { z } from './zod';

/** The `page` and `limit` of a list's query, read the same way wherever a list takes them. */

/** `page`, counted from 1. */
export const pageField = () =>
  z.coerce
    .number({ error: 'Page must be a number' })
    .int('Page must be a whole number')
    .min(1, 'Page must be at least 1')
    .max(1_000_000, 'Page is too large')
    .default(1);

/** `limit`: how many to a page, at most MAX_PAGE_SIZE; `defaultLimit` when not given. */
export const limitField = (defaultLimit: number) =>
  z.coerce
    .number({ error: 'Limit must be a number' })
    .int('Limit must be a whole number')
    .min(1, 'Limit must be at least 1')
    .max(MAX_PAGE_SIZE, `Limit must be at most ${MAX_PAGE_SIZE}`)
    .default(defaultLimit);

/** A whole number from 1 (and at most `max`) written in digits only: no sign, point or exponent. */
export const positiveInt = (label: string, max?: number) => {
  const int = z.number().int().min(1, `${label} must be at least 1`);
  return z
    .string()
    .trim()
    .regex(/^\d+$/, `${label} must be a whole number`)
    .transform(Number)
    .pipe(max === undefined ? int : int.max(max, `${label} must be at most ${max}`));
};
