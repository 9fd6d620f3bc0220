/**
 * Money: an integer amount of the currency's minor unit with its ISO 4217 code
 * (`{amount: 2599, currency: 'USD'}` is $25.99). Amounts are added and scaled as integers; a
 * fraction of a minor unit (a percentage of a price) is rounded half away from zero, so 0.5 cent
 * is 1 cent and −0.5 cent is −1 cent. Shown with `Intl.NumberFormat` in the reader's language.
 */
export type Money = { amount: number; currency: string };

/** How many decimals the currency's minor unit has (USD 2, JPY 0, KWD 3), as Intl knows it. */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits as number;
}

/** Whether `code` is an ISO 4217 currency Intl knows. */
export function isCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    return Intl.supportedValuesOf('currency').includes(code);
  } catch {
    return false;
  }
}

/** A number rounded to an integer, halves away from zero (2.5 → 3, −2.5 → −3). */
export function roundHalfAwayFromZero(value: number): number {
  // The nudge takes back what binary fractions lose (1.005 * 100 = 100.49999…).
  const rounded = Math.round(Math.abs(value) + Number.EPSILON * Math.abs(value));
  return value < 0 ? -rounded : rounded;
}

/** `percent` % of an amount of minor units, rounded to a whole minor unit. */
export function percentOf(amount: number, percent: number): number {
  return roundHalfAwayFromZero((amount * percent) / 100);
}

/** The amount in major units (2599 USD → 25.99), as the spec's `cost` has it. */
export function toMajor({ amount, currency }: Money): number {
  return amount / 10 ** minorDigits(currency);
}

/**
 * Major units as written ("9.99", 9.99) in minor units, or null when it has more decimals than
 * the currency has or is not a number.
 */
export function fromMajor(value: string | number, currency: string): number | null {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const digits = minorDigits(currency);
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[3]?.length ?? 0) > digits) return null;
  const [, sign, whole, fraction = ''] = match;
  const amount = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return sign ? -amount : amount;
}

/** The sum of amounts of one currency. */
export function sumAmounts(amounts: number[]): number {
  return amounts.reduce((total, amount) => total + amount, 0);
}

/** Money as the reader's language writes it ("$9.99", "9,99 $US"). */
export function formatMoney({ amount, currency }: Money, locale = 'en'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(
    toMajor({ amount, currency }),
  );
}

/** A price as a price list writes it: a whole amount without its cents ("$100", "$9.99", "100 $"). */
export function formatPrice(money: Money, locale = 'en'): string {
  const major = toMajor(money);
  const whole = Number.isInteger(major)
    ? { minimumFractionDigits: 0, maximumFractionDigits: 0 }
    : {};
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: money.currency,
    ...whole,
  }).format(major);
}

/** An amount as a plain number of major units, for files (CSV, PDF): 1250 USD → "12.50". */
export function formatAmount(amount: number, currency: string): string {
  return toMajor({ amount, currency }).toFixed(minorDigits(currency));
}
