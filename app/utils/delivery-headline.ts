import { minuteOf, remembered } from './remembered';
import { timeZoneAbbreviation } from './time-zone';

/**
 * What the recipient reads first on the tracking page and in e-mails: one sentence that answers
 * "when will it arrive?", in the recipient's terms (weekday and date spelled out, 12-hour times
 * named by their zone: the recipient's, or the delivery's own), and the journey as a few steps.
 * A promise is compared with now in the recipient's zone, so it is never one already broken:
 * once its day, its window or its "by" time has passed, the sentence says it is running late and
 * when it is now expected. Pure, so that every status and date case is tested in one table.
 * This module is also the one place the date style of the tracking page and the customer's
 * e-mails lives: English as "Thursday, 26 November", "2:32 pm EST", every other language as
 * `Intl` writes it ("viernes 27 de noviembre", "18:00 EST"). Its sentences come from the
 * language's messages (`Words`, the `delivery` messages of app/locales/<language>/public.json).
 * Safe in the browser.
 */

/** A language's code (for `Intl`) and its messages about deliveries (`delivery.<key>`). */
export type Words = {
  lang: string;
  t: (key: string, values?: Record<string, string | number>) => string;
};

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
function format(
  key: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
  lang = 'en-GB',
) {
  const id = `${key} ${timeZone} ${lang}`;
  let f = formats.get(id);
  if (!f) {
    f = new Intl.DateTimeFormat(lang, { ...options, timeZone });
    formats.set(id, f);
  }
  return f;
}

const isEnglish = (lang: string) => lang === 'en' || lang.startsWith('en-');

/** The calendar day (YYYY-MM-DD) `instant` fell on in `timeZone`. */
export const dayIn = remembered(
  (instant: Date, timeZone: string): string => {
    const parts = format('day', timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(instant)
      .reduce<Record<string, string>>((acc, p) => ((acc[p.type] = p.value), acc), {});
    return `${parts.year}-${parts.month}-${parts.day}`;
  },
  (instant, timeZone) => `${timeZone} ${minuteOf(instant)}`,
);

/**
 * "Thursday, 26 November": a day (YYYY-MM-DD, or an instant read in `timeZone`); in another
 * language as `Intl` writes it ("viernes 27 de noviembre", "Freitag, 27. November").
 */
export const longDay = remembered(
  (day: string, lang: string = 'en'): string => {
    const date = new Date(`${day}T00:00:00Z`);
    const options = { weekday: 'long', day: 'numeric', month: 'long' } as const;
    if (!isEnglish(lang)) {
      const parts = format('long', 'UTC', options, lang).formatToParts(date);
      // Spanish runs the weekday into the date ("viernes 27 de noviembre"), as its style guides do.
      const spanish = lang === 'es' || lang.startsWith('es-');
      return parts
        .map((p, i) =>
          spanish && p.type === 'literal' && parts[i - 1]?.type === 'weekday' ? ' ' : p.value,
        )
        .join('');
    }
    const parts = format('long', 'UTC', options)
      .formatToParts(date)
      .reduce<Record<string, string>>((acc, p) => ((acc[p.type] = p.value), acc), {});
    return `${parts.weekday}, ${parts.day} ${parts.month}`;
  },
  (day: string, lang = 'en') => `${day} ${lang}`,
);

function weekday(day: string, lang: string): string {
  return format('weekday', 'UTC', { weekday: 'long' }, isEnglish(lang) ? 'en-GB' : lang).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** "2:32 pm EST", "14:32 EST": a time named by its zone. */
export function zonedTime(instant: Date, timeZone: string, lang = 'en'): string {
  return `${shortTime(instant, timeZone, lang)} ${timeZoneAbbreviation(instant, timeZone)}`;
}

/** "Tuesday, 24 November, 2:32 pm PST": an instant where it happened, named by its zone. */
export function longDateTime(value: string | Date, timeZone: string, lang = 'en'): string {
  const instant = new Date(value);
  const comma = lang === 'ar' || lang.startsWith('ar-') ? '، ' : ', ';
  return `${longDay(dayIn(instant, timeZone), lang)}${comma}${zonedTime(instant, timeZone, lang)}`;
}

/** "2:32 pm", "6 pm": a time as the spec's sentences print it; "18:00" in another language. */
export const shortTime = remembered(
  (instant: Date, timeZone: string, lang: string = 'en'): string => {
    if (!isEnglish(lang))
      return format('time', timeZone, { timeStyle: 'short' }, lang).format(instant);
    const parts = format('time', timeZone, { hour: 'numeric', minute: '2-digit', hour12: true })
      .formatToParts(instant)
      .reduce<Record<string, string>>((acc, p) => ((acc[p.type] = p.value), acc), {});
    const period = (parts.dayPeriod ?? '').toLowerCase().replace(/\./g, '');
    const minutes = parts.minute === '00' ? '' : `:${parts.minute}`;
    return `${Number(parts.hour) || 12}${minutes} ${period}`;
  },
  (instant: Date, timeZone: string, lang = 'en') => `${timeZone} ${lang} ${minuteOf(instant)}`,
);

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * "today", "tomorrow", "Friday" within the week, else "Friday, 4 December": the language's
 * `delivery.when` message, which says each kind of day its own way ("el viernes", "le vendredi
 * 4 décembre", "am Freitag").
 */
function relativeDay(
  day: string,
  today: string,
  { bare }: { bare: boolean },
  words: Words,
): string {
  const diff = daysBetween(today, day);
  const kind =
    diff === 0
      ? 'today'
      : diff === 1
        ? 'tomorrow'
        : bare && diff > 1 && diff < 7
          ? 'weekday'
          : 'date';
  const named = kind === 'weekday' ? weekday(day, words.lang) : longDay(day, words.lang);
  return words.t('when', { kind, day: named });
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
export function windowPhrase(
  window: DeliveryWindow | null,
  timeZone: string,
  words: Words,
): string | null {
  if (!window) return null;
  const until = zonedTime(new Date(window.until), timeZone, words.lang);
  if (!window.from) return words.t('windowBy', { time: until });
  return words.t('windowBetween', {
    from: shortTime(new Date(window.from), timeZone, words.lang),
    until,
  });
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

/** "Tuesday, 24 November at 2:32 pm PST": when a delivery happened, where it happened. */
export function deliveredAt(instant: Date, timeZone: string, words: Words): string {
  return words.t('dayAtTime', {
    day: longDay(dayIn(instant, timeZone), words.lang),
    time: zonedTime(instant, timeZone, words.lang),
  });
}

/** The headline sentence: "Arriving Thursday, 26 November, by 6 pm EST", "Delivered …". */
export function deliveryHeadline(input: HeadlineInput, words: Words): string {
  const { status, timeZone } = input;
  const { t } = words;
  const today = dayIn(input.now, timeZone);
  if (status === 'Delivered') {
    if (!input.deliveredAt) return t('delivered');
    const zone = input.deliveredTimeZone || timeZone;
    const at = deliveredAt(new Date(input.deliveredAt), zone, words);
    return input.receivedBy?.trim()
      ? t('deliveredAtReceivedBy', { at, initials: initials(input.receivedBy) })
      : t('deliveredAt', { at });
  }
  if (status === 'Returned') return t('returned');
  if (status === 'Failed') {
    if (!input.nextAttemptDate) return t('attempted');
    return t('attemptedNext', {
      when: relativeDay(input.nextAttemptDate, today, { bare: true }, words),
    });
  }
  if (input.holdAtDepot) return t('held');
  const asked = input.requestedDate && input.requestedDate >= today ? input.requestedDate : null;
  if (status === 'Out for Delivery' && asked && asked > today)
    return t('outAsked', { when: relativeDay(asked, today, { bare: false }, words) });
  const expected = expectation(input);
  if (!expected) return status === 'Pending' ? t('labelCreated') : t('onItsWay');
  if (expected.late) {
    const when =
      expected.day === today
        ? t('when', { kind: 'laterToday', day: '' })
        : relativeDay(expected.day, today, { bare: true }, words);
    return t('late', { when });
  }
  const window = windowPhrase(expected.window, timeZone, words);
  const sentence =
    status === 'Out for Delivery'
      ? window
        ? t('outTodayWindow', { window })
        : t('outToday')
      : window
        ? t('arrivingWindow', {
            when: relativeDay(expected.day, today, { bare: false }, words),
            window,
          })
        : t('arriving', { when: relativeDay(expected.day, today, { bare: false }, words) });
  return asked === expected.day ? t('askedDay', { sentence }) : sentence;
}

export type ProgressStep = { label: string; state: 'done' | 'current' | 'upcoming' };

const STEPS = ['labelCreated', 'pickedUp', 'inTransit', 'outForDelivery', 'delivered'];
const CURRENT: Record<string, number> = {
  Pending: 0,
  'Picked Up': 1,
  'In Transit': 2,
  'Out for Delivery': 3,
  Failed: 3,
  Delivered: 4,
};

/** The journey in steps; a failed attempt is the delivery step, a return replaces the last two. */
export function progressSteps(status: string, words: Words): ProgressStep[] {
  const steps =
    status === 'Returned'
      ? [...STEPS.slice(0, 3), 'returned']
      : status === 'Failed'
        ? [...STEPS.slice(0, 3), 'attempted', 'delivered']
        : STEPS;
  const current = status === 'Returned' ? 3 : (CURRENT[status] ?? 0);
  return steps.map((step, index) => ({
    label: words.t(`steps.${step}`),
    state: index < current ? 'done' : index === current ? 'current' : 'upcoming',
  }));
}
