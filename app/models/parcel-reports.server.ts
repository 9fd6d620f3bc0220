import type { PipelineStage } from 'mongoose';
import type { ReportGroup } from '~/schemas/run';
import { FAILED_DELIVERY } from '~/schemas/constants';
import { Parcel } from './parcel.server';

/**
 * Delivery performance, computed by the database in one aggregation over the parcels of the
 * period (found through the indexes on delivery and attempt times, and only the fields the
 * figures need): the deliveries within the period are grouped at their time, and the failed
 * attempts within it at theirs, by the company's day or ISO week (in its zone: a delivery at 23:30
 * there counts on that day), the depot, courier or account; the two are then summed per group.
 */
export type PerformanceRow = {
  key: string;
  delivered: number;
  firstAttemptRate: number | null;
  onTimeRate: number | null;
  failedAttempts: number;
  failedByReason: Record<string, number>;
  averageStopsPerRun: number | null;
};

const inPeriod = (start: Date, end: Date) => ({ $gte: start, $lt: end });

/** A delivery is on time within its window, or without one by its promised day. */
function onTime(timeZone: string) {
  return {
    $cond: [
      { $ifNull: ['$deliveryWindow.until', false] },
      { $lte: ['$actualDelivery', '$deliveryWindow.until'] },
      {
        $lte: [
          { $dateToString: { date: '$actualDelivery', format: '%Y-%m-%d', timezone: timeZone } },
          { $dateToString: { date: '$estimatedDelivery', format: '%Y-%m-%d' } },
        ],
      },
    ],
  };
}

/** The group of a fact that happened at `at` (a delivery or a failed attempt). */
function groupKey(groupBy: ReportGroup, timeZone: string, at: string) {
  switch (groupBy) {
    case 'day':
      return { $dateToString: { date: at, format: '%Y-%m-%d', timezone: timeZone } };
    case 'week':
      return { $dateToString: { date: at, format: '%G-W%V', timezone: timeZone } };
    case 'depot':
      return { $ifNull: [{ $toString: '$run.depotId' }, 'none'] };
    case 'courier':
      return { $ifNull: [{ $toString: '$run.courierId' }, 'none'] };
    case 'account':
      // Accounts may not be stored yet: a parcel without one counts as "none".
      return { $ifNull: [{ $toString: '$accountId' }, 'none'] };
  }
}

/** The runs and the stops (run and parcel) of a group's parcels, for the stops per run. */
const runsAndStops = {
  runs: { $addToSet: { $ifNull: ['$run.id', null] } },
  stops: {
    $addToSet: {
      $cond: [
        { $ifNull: ['$run.id', false] },
        { $concat: [{ $toString: '$run.id' }, ':', { $toString: '$_id' }] },
        null,
      ],
    },
  },
};

const setUnion = (field: string) => ({
  $reduce: { input: field, initialValue: [], in: { $setUnion: ['$$value', '$$this'] } },
});
const sizeWithoutNull = (field: string) => ({
  $size: { $filter: { input: field, as: 'x', cond: { $ne: ['$$x', null] } } },
});
const rate = (part: string) => ({
  $cond: [{ $gt: ['$delivered', 0] }, { $divide: [part, '$delivered'] }, null],
});

export function deliveryPerformancePipeline({
  start,
  end,
  groupBy,
  timeZone,
  where = {},
}: {
  start: Date;
  end: Date;
  groupBy: ReportGroup;
  timeZone: string;
  /** The parcels counted (one account's live parcels, for its statement): every one if empty. */
  where?: Record<string, unknown>;
}): PipelineStage[] {
  const period = inPeriod(start, end);
  const failedInPeriod = { status: FAILED_DELIVERY, timestamp: period };
  return [
    // Only the period's deliveries and failed attempts are read, each through its index.
    {
      $match: {
        ...where,
        $or: [{ actualDelivery: period }, { events: { $elemMatch: failedInPeriod } }],
      },
    },
    // The few fields the figures need.
    {
      $project: {
        status: 1,
        actualDelivery: 1,
        estimatedDelivery: 1,
        'deliveryWindow.until': 1,
        run: 1,
        accountId: 1,
        'events.status': 1,
        'events.timestamp': 1,
        'events.reason': 1,
      },
    },
    {
      $facet: {
        // Each delivery within the period, at its time; first attempt when no attempt failed.
        deliveries: [
          { $match: { status: 'Delivered', actualDelivery: period } },
          {
            $group: {
              _id: { key: groupKey(groupBy, timeZone, '$actualDelivery'), reason: null },
              delivered: { $sum: 1 },
              firstAttempt: {
                $sum: {
                  $cond: [{ $in: [FAILED_DELIVERY, { $ifNull: ['$events.status', []] }] }, 0, 1],
                },
              },
              onTime: { $sum: { $cond: [onTime(timeZone), 1, 0] } },
              ...runsAndStops,
            },
          },
        ],
        // Each failed attempt within the period, at its time, by reason.
        failures: [
          { $match: { events: { $elemMatch: failedInPeriod } } },
          { $unwind: '$events' },
          { $match: { 'events.status': FAILED_DELIVERY, 'events.timestamp': period } },
          {
            $group: {
              _id: {
                key: groupKey(groupBy, timeZone, '$events.timestamp'),
                reason: { $ifNull: ['$events.reason', 'other'] },
              },
              failed: { $sum: 1 },
              ...runsAndStops,
            },
          },
        ],
      },
    },
    { $project: { facts: { $concatArrays: ['$deliveries', '$failures'] } } },
    { $unwind: '$facts' },
    { $replaceRoot: { newRoot: '$facts' } },
    {
      $group: {
        _id: '$_id.key',
        delivered: { $sum: '$delivered' },
        firstAttempt: { $sum: '$firstAttempt' },
        onTime: { $sum: '$onTime' },
        failed: { $sum: '$failed' },
        reasons: { $push: { k: '$_id.reason', v: { $ifNull: ['$failed', 0] } } },
        runs: { $push: '$runs' },
        stops: { $push: '$stops' },
      },
    },
    { $addFields: { runs: setUnion('$runs'), stops: setUnion('$stops') } },
    {
      $project: {
        _id: 0,
        key: '$_id',
        delivered: 1,
        firstAttemptRate: rate('$firstAttempt'),
        onTimeRate: rate('$onTime'),
        failedAttempts: '$failed',
        failedByReason: {
          $arrayToObject: {
            $filter: {
              input: '$reasons',
              as: 'r',
              cond: { $and: [{ $ne: ['$$r.k', null] }, { $gt: ['$$r.v', 0] }] },
            },
          },
        },
        averageStopsPerRun: {
          $cond: [
            { $gt: [sizeWithoutNull('$runs'), 0] },
            { $divide: [sizeWithoutNull('$stops'), sizeWithoutNull('$runs')] },
            null,
          ],
        },
      },
    },
    { $sort: { key: 1 } },
  ];
}

export async function deliveryPerformance(
  options: Parameters<typeof deliveryPerformancePipeline>[0],
): Promise<PerformanceRow[]> {
  return Parcel.aggregate<PerformanceRow>(deliveryPerformancePipeline(options));
}
