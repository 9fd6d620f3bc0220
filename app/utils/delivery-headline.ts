import { timeZoneAbbreviation } from './time-zone';

/**
 * What the recipient reads first on the tracking page and in e-mails: one sentence that answers
 * "when will it arrive?", in the recipient's terms (weekday and date spelled out, 12-hour times
 * named by their zone: the recipient's, or the delivery's own), and the journey as a few steps.
 * A promise is compared with now in the recipient's zone, so it is never one already broken:
 * once its day, its window or its "by" time has passed, the sentence says it is running late and
 * when it is now expected. Pure, so that every status and date case is tested in one table.
 * This module is also the one place the English date style of the tracking page and the
 * customer's e-mails lives ("Thursday, 26 November", "2:32 pm EST"). Safe in the browser.
 */

export type DeliveryWindow = { from: string | null; until: string };

export type HeadlineInput = {
  status: string;
  /** A day without a time: midnight UTC of that day (as the parcel stores it). */
  estimatedDelivery: string | null;
  /** The expected window on that day (instants), if one is known. */
  window: DeliveryWindow | null;
  /** When it was delivered, and the zone it happened in. */
  deliveredAt: string | null;
  deliveredTimeZone?: string;
  /** The name the courier recorded; only its initials are shown. */
  receivedBy: string | null;
  /** After a failed attempt: the day of the next one (YYYY-MM-DD), if known. */
  nextAttemptDate: string | null;
  /** The day the recipient asked for (YYYY-MM-DD), and whether they collect it at the depot. */
  requestedDate?: string | null;
  holdAtDepot?: boolean;
  /** The zone "today" and the times are read in: the recipient's. */
  timeZone: string;
  now: Date;
};

const formats = new Map<string, Intl.DateTimeFormat>();
function format(key: string, timeZone: string, options: Intl.DateTimeFormatOptions) {
  const id = `${key} ${timeZone}`;
  let f = formats.get(id);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    formats.set(id, f);
  }
  return f;
}

/** The calendar day (YYYY-MM-DD) `instant` fell on in `timeZone`. */
export function dayIn(instant: Date, timeZone: string): string {
  const parts = format('day', timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(instant)
    .reduce<Record<string, string>>((acc, p) => ((acc[p.type] = p.value), acc), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** "Thursday, 26 November": a day (YYYY-MM-DD, or an instant read in `timeZone`). */
export function longDay(day: string): string {
  const parts = format('long', 'UTC', { weekday: 'long', day: 'numeric', month: 'long' })
    .formatToParts(new Date(`${day}T00:00:00Z`))
    .reduce<Record<string, string>>((acc, p) => ((acc[p.type] = p.value), acc), {});
  return `${parts.weekday}, ${parts.day} ${parts.month}`;
}

function weekday(day: string): string {
  return format('weekday', 'UTC', { weekday: 'long' }).format(new Date(`${day}T00:00:00Z`));
}

/** "2:32 pm EST": a time named by its zone. */
export function zonedTime(instant: Date, timeZone: string): string {
  return `${shortTime(instant, timeZone)} ${timeZoneAbbreviation(instant, timeZone)}`;
}

/** "Tuesday, 24 November, 2:32 pm PST": an instant where it happened, named by its zone. */
export function longDateTime(value: string | Date, timeZone: string): string {
  const instant = new Date(value);
  return `${longDay(dayIn(instant, timeZone))}, ${zonedTime(instant, timeZone)}`;
}

/** "2:32 pm", "6 pm": a time as the spec's sentences print it. */
export function shortTime(instant: Date, timeZone: string): string {
  const parts = format('time', timeZone, { hour: 'numeric', minute: '2-digit', hour12: true })
    .formatToParts(instant)
    .reduce<Record<string, string>>((acc, p) => ((acc[p.type] = p.value), acc), {});
  const period = (parts.dayPeriod ?? '').toLowerCase().replace(/\./g, '');
  const minutes = parts.minute === '00' ? '' : `:${parts.minute}`;
  return `${Number(parts.hour) || 12}${minutes} ${period}`;
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** "today", "tomorrow", "Friday" within the week, else "Friday, 4 December". */
function relativeDay(day: string, today: string, { bare }: { bare: boolean }): string {
  const diff = daysBetween(today, day);
  if (diff === 0) return 'today';
  if (diff === 1) return 'tomorrow';
  if (bare && diff > 1 && diff < 7) return weekday(day);
  return longDay(day);
}

/** "J. S." for "Jane Smith": enough for the recipient to recognise, not a full name in public. */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => `${word.charAt(0).toUpperCase()}.`)
    .join(' ');
}

/** "by 6 pm EST", or "between 2 pm and 4 pm EST" when the window has a start: in `timeZone`, named. */
export function windowPhrase(window: DeliveryWindow | null, timeZone: string): string | null {
  if (!window) return null;
  const until = zonedTime(new Date(window.until), timeZone);
  if (!window.from) return `by ${until}`;
  return `between ${shortTime(new Date(window.from), timeZone)} and ${until}`;
}

/** The next working day (Monday to Friday) after `day`. */
export function nextWorkingDay(day: string): string {
  let next = addDays(day, 1);
  while ([0, 6].includes(new Date(`${next}T00:00:00Z`).getUTCDay())) next = addDays(next, 1);
  return next;
}

/** Until when (local hour) a parcel out for delivery may still come the same day. */
const LAST_ROUND_HOUR = 20;

function localHour(instant: Date, timeZone: string): number {
  return Number(format('hour', timeZone, { hour: '2-digit', hourCycle: 'h23' }).format(instant));
}

/**
 * What the recipient may now expect: on time (the expected day and its window still ahead), or
 * late, with when it is now expected (later today while a round is still out, else the next
 * working day). Null when there is no promise to keep (no day, or the journey is over).
 */
export function expectation(
  input: Pick<
    HeadlineInput,
    'status' | 'estimatedDelivery' | 'window' | 'now' | 'timeZone' | 'holdAtDepot'
  >,
): { late: boolean; day: string; window: DeliveryWindow | null } | null {
  if (['Delivered', 'Returned', 'Failed'].includes(input.status) || input.holdAtDepot) return null;
  const today = dayIn(input.now, input.timeZone);
  const out = input.status === 'Out for Delivery';
  const day = out ? today : input.estimatedDelivery?.slice(0, 10);
  if (!day) return null;
  const window = day === input.estimatedDelivery?.slice(0, 10) || out ? input.window : null;
  const passed =
    day < today || (day === today && !!window && Date.parse(window.until) <= input.now.getTime());
  if (!passed)
    return {
      late: false,
      day,
      window: window && dayIn(new Date(window.until), input.timeZone) === day ? window : null,
    };
  if (out && localHour(input.now, input.timeZone) < LAST_ROUND_HOUR)
    return { late: true, day: today, window: null };
  return { late: true, day: nextWorkingDay(today), window: null };
}

function windowText(window: DeliveryWindow | null, timeZone: string): string {
  const phrase = windowPhrase(window, timeZone);
  return phrase ? `, ${phrase}` : '';
}

/** The headline sentence: "Arriving Thursday, 26 November, by 6 pm EST", "Delivered …". */
export function deliveryHeadline(input: HeadlineInput): string {
  const { status, timeZone } = input;
  const today = dayIn(input.now, timeZone);
  if (status === 'Delivered') {
    if (!input.deliveredAt) return 'Delivered';
    const zone = input.deliveredTimeZone || timeZone;
    const at = new Date(input.deliveredAt);
    const received = input.receivedBy?.trim() ? `, received by ${initials(input.receivedBy)}` : '';
    return `Delivered ${longDay(dayIn(at, zone))} at ${zonedTime(at, zone)}${received}`;
  }
  if (status === 'Returned') return 'Returned to the sender';
  if (status === 'Failed') {
    if (!input.nextAttemptDate) return "Delivery attempted — we'll be in touch about the next try";
    return `Delivery attempted — we'll try again ${relativeDay(input.nextAttemptDate, today, { bare: true })}`;
  }
  if (input.holdAtDepot) return 'Held at the depot for you to collect';
  const asked = input.requestedDate && input.requestedDate >= today ? input.requestedDate : null;
  if (status === 'Out for Delivery' && asked && asked > today)
    return `Out for delivery today — you asked for ${relativeDay(asked, today, { bare: false })}`;
  const expected = expectation(input);
  if (!expected)
    return status === 'Pending' ? 'Label created — waiting for the parcel' : 'On its way';
  if (expected.late) {
    const when =
      expected.day === today ? 'later today' : relativeDay(expected.day, today, { bare: true });
    return `Running late — we now expect it ${when}`;
  }
  const yours = asked === expected.day ? ', the day you asked for' : '';
  if (status === 'Out for Delivery')
    return `Out for delivery today${windowText(expected.window, timeZone)}${yours}`;
  const when = relativeDay(expected.day, today, { bare: false });
  return `Arriving ${when}${windowText(expected.window, timeZone)}${yours}`;
}

export type ProgressStep = { label: string; state: 'done' | 'current' | 'upcoming' };

const STEPS = ['Label created', 'Picked up', 'In transit', 'Out for delivery', 'Delivered'];
const CURRENT: Record<string, number> = {
  Pending: 0,
  'Picked Up': 1,
  'In Transit': 2,
  'Out for Delivery': 3,
  Failed: 3,
  Delivered: 4,
};

/** The journey in steps; a failed attempt is the delivery step, a return replaces the last two. */
export function progressSteps(status: string): ProgressStep[] {
  const labels =
    status === 'Returned'
      ? [...STEPS.slice(0, 3), 'Returned to sender']
      : status === 'Failed'
        ? [...STEPS.slice(0, 3), 'Delivery attempted', 'Delivered']
        : STEPS;
  const current = status === 'Returned' ? 3 : (CURRENT[status] ?? 0);
  return labels.map((label, index) => ({
    label,
    state: index < current ? 'done' : index === current ? 'current' : 'upcoming',
  }));
}
