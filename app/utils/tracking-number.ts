/**
 * The UPU S10 check digit that ends new tracking numbers: the eight digits before it weighted
 * 8,6,4,2,3,5,9,7, C = 11 − (S mod 11), with 10 written 0 and 11 written 5. Numbers issued before
 * it was used stay valid, so a failing check alone proves nothing: only a number that is also
 * unknown is reported as mistyped. Safe in the browser.
 */
const WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7] as const;

/** The check digit of eight digits ("47312482" → 9). */
export function s10CheckDigit(eightDigits: string): number {
  if (!/^\d{8}$/.test(eightDigits)) throw new Error('Expected eight digits');
  const sum = WEIGHTS.reduce((total, weight, i) => total + weight * Number(eightDigits[i]), 0);
  const check = 11 - (sum % 11);
  return check === 10 ? 0 : check === 11 ? 5 : check;
}

/** Whether a number shaped like ours (three letters, nine digits) ends in its check digit. */
export function hasValidCheckDigit(trackingNumber: string): boolean {
  const match = /^[A-Z]{3}(\d{8})(\d)$/.exec(trackingNumber);
  return !!match && s10CheckDigit(match[1]!) === Number(match[2]);
}

/**
 * What a visitor is told after "Tracking number not found" when the number fails its check digit:
 * which digits to look at again.
 */
export function mistypedHint(trackingNumber: string): string {
  const digits = trackingNumber.slice(3);
  return `Please check the digits of ${trackingNumber.slice(0, 3)} ${digits.slice(0, 8)} ${digits.slice(8)}: the last digit, ${digits.slice(8)}, does not match the eight before it, so one of these nine digits is probably mistyped.`;
}
