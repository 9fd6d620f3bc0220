import { CLOSED_STATUSES, eventStatusOf } from '~/schemas/constants';
import { eventTimeZone, Parcel, serializeParcel, type LeanParcel } from './parcel.server';
import { iso } from '~/lib/records.server';

/**
 * How a figure's "change from last month" is computed:
 *
 * Each figure is also taken over the parcels *created* in the current calendar month (UTC) and
 * over those created in the previous calendar month: Total Parcels counts them, Active Parcels
 * counts those not Delivered/Failed/Returned, Delivered Parcels counts the Delivered ones and
 * Total Revenue sums their cost. The change is (this month − last month) / last month as a whole
 * signed percentage ('+12%', '-5%', '0%'). When last month's figure is 0 there is no base to
 * compare with: the label is 'New' if this month has any, '—' if neither month has.
 */
export type MonthChange = {
  thisMonth: number;
  lastMonth: number;
  /** Rounded signed percentage, or null when last month's figure is 0. */
  percent: number | null;
  label: string;
};

export type DashboardStats = {
  totalParcels: number;
  activeParcels: number;
  deliveredParcels: number;
  totalRevenue: number;
  changes: {
    totalParcels: MonthChange;
    activeParcels: MonthChange;
    deliveredParcels: MonthChange;
    totalRevenue: MonthChange;
  };
};

const roundMoney = (n: number) => Math.round(n * 100) / 100;

export function monthChange(thisMonth: number, lastMonth: number): MonthChange {
  if (lastMonth === 0) {
    return { thisMonth, lastMonth, percent: null, label: thisMonth > 0 ? 'New' : '—' };
  }
  // `|| 0` turns a rounded -0 into 0.
  const percent = Math.round(((thisMonth - lastMonth) / lastMonth) * 100) || 0;
  return { thisMonth, lastMonth, percent, label: percent > 0 ? `+${percent}%` : `${percent}%` };
}

/** Start of the calendar month (UTC) containing `now`, and of the month before it. */
export function monthBounds(now: Date) {
  const thisMonthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const lastMonthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return { thisMonthStart, lastMonthStart };
}

const isActive = { $not: [{ $in: ['$status', [...CLOSED_STATUSES]] }] };
const isDelivered = { $eq: ['$status', 'Delivered'] };

function countIf(condition: unknown) {
  return { $sum: { $cond: [condition, 1, 0] } };
}

function sumIf(condition: unknown, field: string) {
  return { $sum: { $cond: [condition, { $ifNull: [field, 0] }, 0] } };
}

type StatsRow = {
  total: number;
  active: number;
  delivered: number;
  revenue: number;
  totalThis: number;
  totalLast: number;
  activeThis: number;
  activeLast: number;
  deliveredThis: number;
  deliveredLast: number;
  revenueThis: number;
  revenueLast: number;
};

export async function getDashboardStats({
  now = new Date(),
}: { now?: Date } = {}): Promise<DashboardStats> {
  const { thisMonthStart, lastMonthStart } = monthBounds(now);
  const inThis = { $gte: ['$createdAt', thisMonthStart] };
  const inLast = {
    $and: [{ $gte: ['$createdAt', lastMonthStart] }, { $lt: ['$createdAt', thisMonthStart] }],
  };

  const [row] = await Parcel.aggregate<StatsRow>([
    {
      $group: {
        _id: null,
        total: { $sum: 1 },
        active: countIf(isActive),
        delivered: countIf(isDelivered),
        revenue: { $sum: { $ifNull: ['$cost', 0] } },
        totalThis: countIf(inThis),
        totalLast: countIf(inLast),
        activeThis: countIf({ $and: [inThis, isActive] }),
        activeLast: countIf({ $and: [inLast, isActive] }),
        deliveredThis: countIf({ $and: [inThis, isDelivered] }),
        deliveredLast: countIf({ $and: [inLast, isDelivered] }),
        revenueThis: sumIf(inThis, '$cost'),
        revenueLast: sumIf(inLast, '$cost'),
      },
    },
  ]);

  const r: StatsRow = row ?? {
    total: 0,
    active: 0,
    delivered: 0,
    revenue: 0,
    totalThis: 0,
    totalLast: 0,
    activeThis: 0,
    activeLast: 0,
    deliveredThis: 0,
    deliveredLast: 0,
    revenueThis: 0,
    revenueLast: 0,
  };

  return {
    totalParcels: r.total,
    activeParcels: r.active,
    deliveredParcels: r.delivered,
    totalRevenue: roundMoney(r.revenue),
    changes: {
      totalParcels: monthChange(r.totalThis, r.totalLast),
      activeParcels: monthChange(r.activeThis, r.activeLast),
      deliveredParcels: monthChange(r.deliveredThis, r.deliveredLast),
      totalRevenue: monthChange(roundMoney(r.revenueThis), roundMoney(r.revenueLast)),
    },
  };
}

/** The newest parcels, as the API shows them. */
export async function listRecentParcels({ limit }: { limit: number }) {
  const parcels = await Parcel.find()
    .sort({ createdAt: -1, _id: -1 })
    .limit(limit)
    .lean<LeanParcel[]>();
  return parcels.map((p) => serializeParcel(p));
}

export type RecentTrackingEvent = {
  id: string;
  _id: string;
  status: string;
  customStatus: string | null;
  location: string;
  description: string;
  timestamp: string | null;
  timeZone: string;
  parcelId: string;
  trackingNumber: string;
};

type RecentEventRow = {
  _id: unknown;
  trackingNumber: string;
  event: {
    _id: unknown;
    status: string;
    customStatus?: string | null;
    location?: string | null;
    description?: string | null;
    timestamp?: Date | null;
    timeZone?: string | null;
  };
};

/** The newest tracking events across all parcels, newest first. */
export async function listRecentTrackingEvents({
  limit,
}: {
  limit: number;
}): Promise<RecentTrackingEvent[]> {
  const rows = await Parcel.aggregate<RecentEventRow>([
    { $match: { 'events.0': { $exists: true } } },
    { $project: { trackingNumber: 1, events: 1 } },
    { $unwind: '$events' },
    { $sort: { 'events.timestamp': -1, 'events._id': -1 } },
    { $limit: limit },
    { $project: { _id: 1, trackingNumber: 1, event: '$events' } },
  ]);
  return rows.map((row) => {
    const id = String(row.event._id);
    return {
      id,
      _id: id,
      ...eventStatusOf(row.event),
      location: row.event.location ?? '',
      description: row.event.description ?? '',
      timestamp: iso(row.event.timestamp),
      timeZone: eventTimeZone(row.event),
      parcelId: String(row._id),
      trackingNumber: row.trackingNumber,
    };
  });
}
