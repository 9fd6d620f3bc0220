import { monthField } from '~/schemas/statement';
import { ApiError } from './api.server';

/**
 * The month of a statement's API path: YYYY-MM, a 400 otherwise (read once the account is
 * known, so that another account's statement is a 404 whatever the month).
 */
export function statementMonthParam(value: string | undefined) {
  const month = monthField.safeParse(value);
  if (!month.success)
    throw new ApiError(400, 'Invalid month', { month: ['Enter a month as YYYY-MM'] });
  return month.data;
}
