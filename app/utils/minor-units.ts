/**
 * Money in a currency's minor units (cents for USD, yen for JPY), as statements keep it, and as
 * people read it.
 */

/** How many minor units a major unit of `currency` has (100 for USD, 1 for JPY). */
export function minorUnitsPer(currency: string): number {
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  return 10 ** digits;
}

/** An amount in minor units as people read it: "12.50" (the currency beside it). */
export function formatAmount(amount: number, currency: string): string {
  const per = minorUnitsPer(currency);
  return (amount / per).toFixed(Math.round(Math.log10(per)));
}
