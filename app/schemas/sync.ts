import { z } from './zod';

/**
 * `updatedSince` on the API's lists: an ISO 8601 date-time with its zone. A list given it holds
 * only the records changed at or after that instant (inclusive: a client that asks again from the
 * last `updatedAt` it saw misses nothing changed in that same millisecond, and skips what it has
 * by id), oldest change first, so a client can page through the changes.
 */
export const updatedSince = z.iso
  .datetime({
    offset: true,
    error: 'updatedSince must be an ISO 8601 date and time, e.g. 2024-12-15T09:30:00Z',
  })
  .transform((value) => new Date(value))
  .optional()
  .describe(
    'Only records changed at or after this instant (ISO 8601), oldest change first (updatedAt, then id)',
  );

export const ChangedSinceQuerySchema = z.object({ updatedSince });
