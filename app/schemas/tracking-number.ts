/** A tracking number's shape, how a typed one is read, and what a lookup that finds none says. */

/** What every client reads when a number is not found (spec section 8). */
export const TRACKING_NOT_FOUND = 'Tracking number not found';

export const TRACKING_NUMBER_PATTERN = /^[A-Z]{3}\d{9}$/;
export const TRACKING_NUMBER_PLACEHOLDER = 'e.g. SWX123456789';
/**
 * A tracking number as requests may give it, for the API's document: any case, spaces around
 * it trimmed. The check digit cannot be a pattern, so it is described.
 */
export const TRACKING_NUMBER_INPUT = {
  pattern: '^\\s*[A-Za-z]{3}\\d{9}\\s*$',
  description:
    'Three letters and nine digits, in any case (e.g. SWX123456785). The ninth digit of numbers issued now is the UPU S10 check digit of the eight before it; older numbers without it stay valid.',
};
/** What a visitor is told when a number does not have that shape. */
export const TRACKING_NUMBER_FORMAT_MESSAGE =
  'Tracking numbers are three letters and nine digits, like ABC123456789';
/** How many numbers one lookup (the track page, the batch API) takes at once. */
export const MAX_TRACKING_NUMBERS = 30;

/** Normalises what a visitor typed into the stored form of a tracking number. */
export function normalizeTrackingNumber(input: string): string {
  return input.trim().toUpperCase();
}

/**
 * The numbers in what a visitor typed or pasted: separated by commas, spaces or new lines,
 * normalised, each once, in the order given.
 */
export function splitTrackingNumbers(input: string): string[] {
  const numbers = input
    .split(/[\s,;]+/)
    .map(normalizeTrackingNumber)
    .filter(Boolean);
  return [...new Set(numbers)];
}
