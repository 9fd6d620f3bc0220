import { FAILED_DELIVERY } from '~/schemas/constants';
import { dayIn } from '~/utils/delivery-headline';

/**
 * What the delivery performance report needs to know of one parcel, worked out once when its
 * status or events are written (the parcel model keeps them beside what they come from) instead
 * of for every parcel each time the report is asked for: when it was delivered and each failed
 * attempt, each with its company day (YYYY-MM-DD) and ISO week (YYYY-Www) in the company's zone,
 * and the zone they were read in (a parcel whose facts are in another zone is worked out again
 * at start, see refreshDeliveryFacts). The report's database query then only reads and sums them.
 *
 * This module is the one place they are computed; it reads no database.
 */
export type DeliveryFacts = {
  zone: string;
  /** The delivery, while the parcel's status is Delivered. */
  delivered?: FactTime;
  /** Every failed attempt among its events, with its reason ("other" when none is given). */
  failures: Array<FactTime & { reason: string }>;
};
type FactTime = { at: Date; day: string; week: string };

type FactSource = {
  status?: string | null;
  actualDelivery?: Date | string | null;
  events?: ReadonlyArray<{
    status?: string | null;
    timestamp?: Date | string | null;
    reason?: string | null;
  }> | null;
};

const validDate = (value: Date | string | null | undefined): Date | null => {
  if (value === null || value === undefined) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** The ISO 8601 week (YYYY-Www) of a calendar day, as MongoDB's `%G-W%V` writes it. */
export function isoWeekOf(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  // The Thursday of its week decides the week's year.
  date.setUTCDate(date.getUTCDate() + 3 - ((date.getUTCDay() + 6) % 7));
  const year = date.getUTCFullYear();
  const week = 1 + Math.floor((date.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return `${String(year).padStart(4, '0')}-W${String(week).padStart(2, '0')}`;
}

/** An instant with its company day and week. */
export function factTime(at: Date, zone: string): FactTime {
  const day = dayIn(at, zone);
  return { at, day, week: isoWeekOf(day) };
}

/** The facts of a parcel as stored (its status, delivery time and events), in `zone`. */
export function deliveryFactsOf(parcel: FactSource, zone: string): DeliveryFacts {
  const deliveredAt = parcel.status === 'Delivered' ? validDate(parcel.actualDelivery) : null;
  const failures: DeliveryFacts['failures'] = [];
  for (const event of parcel.events ?? []) {
    const at = event.status === FAILED_DELIVERY ? validDate(event.timestamp) : null;
    if (at) failures.push({ ...factTime(at, zone), reason: event.reason ?? 'other' });
  }
  return { zone, ...(deliveredAt ? { delivered: factTime(deliveredAt, zone) } : {}), failures };
}

const sameTime = (a: FactTime | undefined, b: FactTime | undefined) =>
  a === b ||
  (!!a &&
    !!b &&
    new Date(a.at).getTime() === new Date(b.at).getTime() &&
    a.day === b.day &&
    a.week === b.week);

/** Whether stored facts (possibly missing, or from before they were kept) are these. */
export function sameDeliveryFacts(
  stored: Partial<DeliveryFacts> | null | undefined,
  facts: DeliveryFacts,
): boolean {
  const failures = stored?.failures ?? [];
  return (
    stored?.zone === facts.zone &&
    sameTime(stored.delivered ?? undefined, facts.delivered) &&
    failures.length === facts.failures.length &&
    failures.every(
      (f, i) => sameTime(f, facts.failures[i]) && f.reason === facts.failures[i]!.reason,
    )
  );
}
