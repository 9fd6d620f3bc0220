import { z } from './zod';
import { MAX_TRACKING_NUMBERS, normalizeTrackingNumber, splitTrackingNumbers } from './constants';

export const EMPTY_TRACKING_MESSAGE = 'Please enter a tracking number';

export function tooManyTrackingNumbersMessage(count: number) {
  return `You can track up to ${MAX_TRACKING_NUMBERS} numbers at once, and ${count} were entered. Please track them in smaller groups.`;
}

/** A list of numbers, each once (normalised), between one and MAX_TRACKING_NUMBERS of them. */
const trackingNumberList = z
  .array(z.string({ error: 'Each tracking number must be text' }))
  .transform((list) => [...new Set(list.map(normalizeTrackingNumber).filter(Boolean))])
  .pipe(
    z
      .array(z.string())
      .min(1, { error: EMPTY_TRACKING_MESSAGE })
      .max(MAX_TRACKING_NUMBERS, {
        error: (issue) => tooManyTrackingNumbersMessage((issue.input as unknown[]).length),
      }),
  );

/** `POST /api/tracking/track`: `{"trackingNumbers": ["SWX123456789", …]}`. */
export const TrackingBatchSchema = z.object({
  trackingNumbers: z
    .array(z.string().max(100, { error: 'A tracking number is at most 100 characters' }), {
      error: 'trackingNumbers must be a list of tracking numbers',
    })
    .max(1000, {
      error: (issue) => tooManyTrackingNumbersMessage((issue.input as unknown[]).length),
    })
    .pipe(trackingNumberList)
    // What the list is held to once normalised (trimmed, upper-cased, each number once).
    .meta({
      minItems: 1,
      maxItems: MAX_TRACKING_NUMBERS,
      description: `From 1 to ${MAX_TRACKING_NUMBERS} different numbers; each is trimmed and read in any case, and a number given twice counts once`,
    }),
});

/**
 * The track page's `number` (`/track?number=A,B,C`, repeatable): numbers separated by commas,
 * spaces or new lines.
 */
export const TrackingQuerySchema = z
  .array(z.string())
  .transform((values) => splitTrackingNumbers(values.join(' ')))
  .pipe(trackingNumberList);
