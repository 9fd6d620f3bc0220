import { z } from './zod';
import { limitField } from './paging';

export const RECENT_PARCELS_DEFAULT_LIMIT = 5;
export const RECENT_TRACKING_DEFAULT_LIMIT = 10;
export const OVERVIEW_ACTIVITY_LIMIT = 5;

function limitSchema(defaultLimit: number) {
  return z.object({ limit: limitField(defaultLimit) });
}

export const RecentParcelsQuerySchema = limitSchema(RECENT_PARCELS_DEFAULT_LIMIT);
export const RecentTrackingQuerySchema = limitSchema(RECENT_TRACKING_DEFAULT_LIMIT);
