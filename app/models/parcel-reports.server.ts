import type { PipelineStage } from 'mongoose';
import type { ReportGroup } from '~/schemas/run';
import { FAILED_DELIVERY } from '~/schemas/constants';
import { Parcel } from './parcel.server';

/**
 * Delivery performance, computed by the database in one aggregation over the parcels: each
 * parcel gives a fact for its delivery within the period and one for each failed attempt within
 * it; the facts are grouped by the company's day or ISO week (in its zone: a delivery at 23:30
 * there counts on that day), the depot, courier or account, and summed.
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

const inPeriod = (value: string, start: Date, end: Date) => ({
  $and: [{ $gte: [value, start] }, { $lt: [value, end] }],
});

const failedAttempts = { $eq: ['$$e.status', FAILED_DELIVERY] };

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

function groupKey(groupBy: ReportGroup, timeZone: string) {
  const at = '$facts.at';
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
  return [
    {
      $match: {
        ...where,
        $or: [
          { actualDelivery: { $gte: start, $lt: end } },
          {
            events: {
              $elemMatch: { status: FAILED_DELIVERY, timestamp: { $gte: start, $lt: end } },
            },
          },
        ],
      },
    },
    {
      $project: {
        run: 1,
        accountId: 1,
        facts: {
          $concatArrays: [
            {
              $cond: [
                {
                  $and: [
                    { $eq: ['$status', 'Delivered'] },
                    inPeriod('$actualDelivery', start, end),
                  ],
                },
                [
                  {
                    at: '$actualDelivery',
                    delivered: 1,
                    firstAttempt: {
                      $cond: [
                        {
                          $eq: [
                            {
                              $size: {
                                $filter: {
                                  input: { $ifNull: ['$events', []] },
                                  as: 'e',
                                  cond: failedAttempts,
                                },
                              },
                            },
                            0,
                          ],
                        },
                        1,
                        0,
                      ],
                    },
                    onTime: { $cond: [onTime(timeZone), 1, 0] },
                    failed: 0,
                    reason: null,
                  },
                ],
                [],
              ],
            },
            {
              $map: {
                input: {
                  $filter: {
                    input: { $ifNull: ['$events', []] },
                    as: 'e',
                    cond: { $and: [failedAttempts, inPeriod('$$e.timestamp', start, end)] },
                  },
                },
                as: 'e',
                in: {
                  at: '$$e.timestamp',
                  delivered: 0,
                  firstAttempt: 0,
                  onTime: 0,
                  failed: 1,
                  reason: { $ifNull: ['$$e.reason', 'other'] },
                },
              },
            },
          ],
        },
      },
    },
    { $unwind: '$facts' },
    {
      $group: {
        _id: { key: groupKey(groupBy, timeZone), reason: '$facts.reason' },
        delivered: { $sum: '$facts.delivered' },
        firstAttempt: { $sum: '$facts.firstAttempt' },
        onTime: { $sum: '$facts.onTime' },
        failed: { $sum: '$facts.failed' },
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
      },
    },
    {
      $group: {
        _id: '$_id.key',
        delivered: { $sum: '$delivered' },
        firstAttempt: { $sum: '$firstAttempt' },
        onTime: { $sum: '$onTime' },
        failed: { $sum: '$failed' },
        reasons: { $push: { k: '$_id.reason', v: '$failed' } },
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
