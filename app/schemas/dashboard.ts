import { z } from './zod';
import { MAX_PAGE_SIZE } from './constants';

export const RECENT_PARCELS_DEFAULT_LIMIT = 5;
export const RECENT_TRACKING_DEFAULT_LIMIT = 10;
export const OVERVIEW_ACTIVITY_LIMIT = 5;

function limitSchema(defaultLimit: number) {
  return z.object({
    limit: z.coerce
      .number({ error: 'Limit must be a number' })
      .int('Limit must be a whole number')
      .min(1, 'Limit must be at least 1')
      .max(MAX_PAGE_SIZE, `Limit must be at most ${MAX_PAGE_SIZE}`)
      .default(defaultLimit),
  });
}

export const RecentParcelsQuerySchema = limitSchema(RECENT_PARCELS_DEFAULT_LIMIT);
export const RecentTrackingQuerySchema = limitSchema(RECENT_TRACKING_DEFAULT_LIMIT);
