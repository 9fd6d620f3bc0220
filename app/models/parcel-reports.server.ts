import type { PipelineStage } from 'mongoose';
import type { ReportGroup } from '~/schemas/run';
import { Parcel } from './parcel.server';

/**
 * Delivery performance, computed by the database in one aggregation over the parcels of the
 * period: their delivery facts (app/lib/delivery-facts.server.ts, worked out when the parcel's
 * status or events were written) are found through the indexes on the delivery and failed
 * attempt times, and only those facts and the few fields the figures need are read. The
 * deliveries within the period are grouped at their time, and the failed attempts within it at
 * theirs, by the company's day or ISO week (as the facts hold them: a delivery at 23:30 there
 * counts on that day), the depot, courier or account; the two are then summed per group.
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

const DELIVERED = '$deliveryFacts.delivered';
const FAILURE = '$deliveryFacts.failures';

/** A delivery is on time within its window, or without one by its promised day. */
const onTime = {
  $cond: [
    { $ifNull: ['$deliveryWindow.until', false] },
    { $lte: [`${DELIVERED}.at`, '$deliveryWindow.until'] },
    {
      $lte: [
        `${DELIVERED}.day`,
        { $dateToString: { date: '$estimatedDelivery', format: '%Y-%m-%d' } },
      ],
    },
  ],
};

/** The group of a fact (a delivery or a failed attempt, `fact` its path). */
function groupKey(groupBy: ReportGroup, fact: string) {
  switch (groupBy) {
    case 'day':
      return `${fact}.day`;
    case 'week':
      return `${fact}.week`;
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
  where = {},
}: {
  start: Date;
  end: Date;
  groupBy: ReportGroup;
  /** The parcels counted (one account's live parcels, for its statement): every one if empty. */
  where?: Record<string, unknown>;
}): PipelineStage[] {
  const period = inPeriod(start, end);
  return [
    // Only the period's deliveries and failed attempts are read, each through its index.
    {
      $match: {
        ...where,
        $or: [
          { 'deliveryFacts.delivered.at': period },
          { 'deliveryFacts.failures': { $elemMatch: { at: period } } },
        ],
      },
    },
    // The few fields the figures need.
    {
      $project: {
        deliveryFacts: 1,
        estimatedDelivery: 1,
        'deliveryWindow.until': 1,
        run: 1,
        accountId: 1,
      },
    },
    {
      $facet: {
        // Each delivery within the period, at its time; first attempt when no attempt failed.
        deliveries: [
          { $match: { 'deliveryFacts.delivered.at': period } },
          {
            $group: {
              _id: { key: groupKey(groupBy, DELIVERED), reason: null },
              delivered: { $sum: 1 },
              firstAttempt: {
                $sum: { $cond: [{ $eq: [{ $size: { $ifNull: [FAILURE, []] } }, 0] }, 1, 0] },
              },
              onTime: { $sum: { $cond: [onTime, 1, 0] } },
              ...runsAndStops,
            },
          },
        ],
        // Each failed attempt within the period, at its time, by reason.
        failures: [
          { $unwind: FAILURE },
          { $match: { 'deliveryFacts.failures.at': period } },
          {
            $group: {
              _id: { key: groupKey(groupBy, FAILURE), reason: `${FAILURE}.reason` },
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
