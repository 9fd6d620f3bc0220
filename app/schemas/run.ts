import { OBJECT_ID_PATTERN } from './constants';
import { depotId } from './depot';
import { parcelIdsField, parcelIdsSchema } from './parcel';
import { z } from './zod';

/**
 * A courier's run: the parcels of one depot's day given to one courier, in the order they are
 * delivered. The API, the Dispatch page and the courier's own page take these.
 */
export const RUN_STATUSES = ['planned', 'started', 'completed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** The most stops one run takes. */
export const MAX_RUN_STOPS = 200;

/** A day as YYYY-MM-DD, in the company's zone. */
export const dayField = z
  .string({ error: 'Enter a day as YYYY-MM-DD' })
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a day as YYYY-MM-DD')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, 'Enter a valid day')
  .meta({ description: 'A day (YYYY-MM-DD) in the company’s zone', examples: ['2026-11-28'] });

const courierId = z
  .string({ error: 'Choose a courier' })
  .trim()
  .regex(OBJECT_ID_PATTERN, 'Choose a courier from the list');

const stops = parcelIdsSchema(MAX_RUN_STOPS, 'Give the run at least one parcel').refine(
  (ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length,
  'A parcel is once on a run',
);

/** POST /api/runs: the stops in the order given. */
export const RunCreateSchema = z.object({
  date: dayField,
  depotId,
  courierId,
  parcelIds: stops.meta({ description: 'The stops, in the order they are delivered' }),
});
export type RunCreateInput = z.output<typeof RunCreateSchema>;

/** PUT /api/runs/:id: the stops as they are to be, in order (a parcel on another run moves here). */
export const RunUpdateSchema = z.object({
  parcelIds: stops.meta({ description: 'Every stop of the run, in order' }),
});

/** GET /api/runs and the Dispatch page: one depot's day. */
export const RunListQuerySchema = z.object({
  date: dayField,
  depotId,
});

/** The Dispatch page: the ticked parcels go on the chosen courier's run. */
export const DispatchAssignSchema = z.object({
  intent: z.literal('assign'),
  ids: parcelIdsField(MAX_RUN_STOPS),
  courierId,
});

/** The Dispatch page: a stop one place up or down its run. */
/**
 * A stop moved on the Dispatch page: one place up or down (the buttons), or to a position from 0
 * (dragged there). Both go through the same service.
 */
export const DispatchMoveSchema = z
  .object({
    intent: z.literal('move'),
    runId: z.string().regex(OBJECT_ID_PATTERN, 'Unknown run'),
    parcelId: z.string().regex(OBJECT_ID_PATTERN, 'Unknown parcel'),
    direction: z.enum(['up', 'down']).optional(),
    position: z.coerce
      .number({ error: 'Position must be a whole number' })
      .int('Position must be a whole number')
      .min(0, 'Position must be a whole number')
      .max(MAX_RUN_STOPS - 1, 'Position must be a whole number')
      .optional(),
  })
  .refine((value) => (value.direction === undefined) !== (value.position === undefined), {
    message: 'Move the stop up, down or to a position',
  });

/** The courier's page: Start run. */
export const RunStartSchema = z.object({
  intent: z.literal('start'),
  runId: z.string().regex(OBJECT_ID_PATTERN, 'Unknown run'),
});

/** What a depot's ETA starts from before the courier's own pace is known. */
export const DEFAULT_STOP_MINUTES = 5;
export const DEFAULT_TRAVEL_MINUTES = 10;
/** The window a recipient is given around their stop's expected time. */
export const ETA_WINDOW_MINUTES = 60;
/** How far the window may move before the recipient is told. */
export const ETA_NOTICE_MINUTES = 30;

export const REPORT_GROUPS = ['day', 'week', 'depot', 'courier', 'account'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

/** GET /api/reports/delivery-performance and the Reports page. */
export const DeliveryPerformanceQuerySchema = z
  .object({
    from: dayField,
    to: dayField,
    groupBy: z
      .enum(REPORT_GROUPS, { error: `Group by one of: ${REPORT_GROUPS.join(', ')}` })
      .default('day'),
  })
  .refine((query) => query.from <= query.to, {
    path: ['to'],
    error: 'The last day comes after the first',
  })
  .refine(
    (query) =>
      Date.parse(`${query.to}T00:00:00Z`) - Date.parse(`${query.from}T00:00:00Z`) <=
      366 * 86_400_000,
    { path: ['to'], error: 'At most a year at a time' },
  );
export type DeliveryPerformanceQuery = z.output<typeof DeliveryPerformanceQuerySchema>;
