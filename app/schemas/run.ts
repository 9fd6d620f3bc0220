import { OBJECT_ID_PATTERN } from './constants';
import { depotId } from './depot';
import { parcelIdsField, parcelIdsSchema, readParcelIds } from './parcel';
import { z } from './zod';

/**
 * A courier's run: the parcels of one depot's day given to one courier, in the order they are
 * delivered. The API, the Dispatch page and the courier's own page take these.
 */
export const RUN_STATUSES = ['planned', 'started', 'completed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A stop delivers a parcel or collects a shipper's pickup. */
export const STOP_KINDS = ['delivery', 'pickup'] as const;
export type StopKind = (typeof STOP_KINDS)[number];
/** What became of a stop: a delivery delivered or failed, a pickup collected or not. */
export const STOP_OUTCOMES = ['delivered', 'failed', 'collected', 'not_collected'] as const;
export type StopOutcome = (typeof STOP_OUTCOMES)[number];

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

const uniqueIds = (ids: string[]) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length;

const parcelStops = parcelIdsSchema(MAX_RUN_STOPS, 'Give the run at least one parcel').refine(
  uniqueIds,
  'A parcel is once on a run',
);

const pickupId = z.string().regex(OBJECT_ID_PATTERN, 'Not a pickup id');
const pickupStops = z
  .array(pickupId, { error: 'Give pickup ids' })
  .max(MAX_RUN_STOPS, `At most ${MAX_RUN_STOPS} stops on a run`)
  .refine(uniqueIds, 'A pickup is once on a run');

/** One stop of a run as it is given: a parcel to deliver or a pickup to make. */
export const RunStopInputSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('delivery'),
    parcelId: z.string().regex(OBJECT_ID_PATTERN, 'Not a parcel id'),
  }),
  z.object({ kind: z.literal('pickup'), pickupId }),
]);
export type RunStopInput = z.output<typeof RunStopInputSchema>;

const stopList = z
  .array(RunStopInputSchema, { error: 'Give the stops as a list' })
  .min(1, 'Give the run at least one stop')
  .max(MAX_RUN_STOPS, `At most ${MAX_RUN_STOPS} stops on a run`)
  .refine(
    (stops) =>
      uniqueIds(stops.map((stop) => (stop.kind === 'pickup' ? stop.pickupId : stop.parcelId))),
    'A parcel or a pickup is once on a run',
  );

/**
 * A run's stops, given as `parcelIds` and/or `pickupIds` (deliveries, then pickups) or as one
 * ordered `stops` list mixing both.
 */
const runStops = {
  parcelIds: parcelStops
    .optional()
    .meta({ description: 'The parcels to deliver, in the order they are delivered' }),
  pickupIds: pickupStops.optional().meta({
    description: 'The day’s pickups to make (scheduled, of the run’s day), after the parcels',
  }),
  stops: stopList.optional().meta({
    description: 'Every stop in order, deliveries and pickups mixed (instead of the two lists)',
  }),
};
type RunStopsGiven = { parcelIds?: string[]; pickupIds?: string[]; stops?: RunStopInput[] };
const givenOnce = (value: RunStopsGiven) =>
  value.stops ? !value.parcelIds && !value.pickupIds : !!(value.parcelIds || value.pickupIds);
const GIVEN_ONCE = {
  path: ['parcelIds'],
  error: 'Give the stops as parcelIds and pickupIds, or as stops',
};

/** POST /api/runs: the stops in the order given. */
export const RunCreateSchema = z
  .object({ date: dayField, depotId, courierId, ...runStops })
  .refine(givenOnce, GIVEN_ONCE)
  .refine(
    (value) => (value.stops ?? [...(value.parcelIds ?? []), ...(value.pickupIds ?? [])]).length > 0,
    {
      path: ['parcelIds'],
      error: 'Give the run at least one stop',
    },
  );
export type RunCreateInput = z.output<typeof RunCreateSchema>;

/**
 * PUT /api/runs/:id: the stops as they are to be, in order (one on another run moves here).
 * `parcelIds` alone changes the deliveries and keeps the pickups where they are, `pickupIds`
 * alone the reverse; `stops`, or both lists, gives every stop.
 */
export const RunUpdateSchema = z.object(runStops).refine(givenOnce, GIVEN_ONCE);
export type RunUpdateInput = z.output<typeof RunUpdateSchema>;

/** GET /api/runs and the Dispatch page: one depot's day. */
export const RunListQuerySchema = z.object({
  date: dayField,
  depotId,
});

/** The Dispatch page: the ticked parcels and pickups go on the chosen courier's run. */
export const DispatchAssignSchema = z
  .object({
    intent: z.literal('assign'),
    ids: parcelIdsField(MAX_RUN_STOPS).optional(),
    pickupIds: z
      .array(z.string())
      .transform(readParcelIds)
      .pipe(z.array(pickupId).max(MAX_RUN_STOPS))
      .optional(),
    courierId,
  })
  .refine((value) => value.ids?.length || value.pickupIds?.length, {
    path: ['ids'],
    error: 'Select at least one parcel or pickup',
  });

/**
 * A stop moved on the Dispatch page: one place up or down (the buttons), or to a position from 0
 * (dragged there). Both go through the same service.
 */
export const DispatchMoveSchema = z
  .object({
    intent: z.literal('move'),
    runId: z.string().regex(OBJECT_ID_PATTERN, 'Unknown run'),
    parcelId: z.string().regex(OBJECT_ID_PATTERN, 'Unknown parcel').optional(),
    pickupId: z.string().regex(OBJECT_ID_PATTERN, 'Unknown pickup').optional(),
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
  })
  .refine((value) => !value.parcelId !== !value.pickupId, { message: 'Unknown stop' });

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
