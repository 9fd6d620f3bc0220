import fc from 'fast-check';
import { type Collection, type Db, type Document } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Local } from '../../embedded-mongo/dates';
import { openTestDb, type TestDb } from './helpers';

// Dates in named time zones across daylight saving time, against an independent reading of the
// IANA data through Intl: every operator uses the zone's offset at the instant it converts, never
// the offset when the query runs. Instants are drawn around every transition of zones north and
// south of the equator, with half-hour and 45-minute offsets, and one (America/Santiago) whose
// transitions fall at midnight. Local times a transition skips or repeats resolve as MongoDB's
// timelib resolves them: a skipped time is read with the offset before the transition, a repeated
// one with the zone's offset at the wall time read as UTC.

let opened: TestDb;
let db: Db;
let coll: Collection;

beforeAll(async () => {
  opened = await openTestDb('parity_dates');
  ({ db } = opened);
  coll = db.collection('instants');
});

afterAll(() => opened.close());

const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Sydney',
  'Australia/Adelaide',
  'America/St_Johns',
  'America/Santiago',
  'Asia/Kolkata',
  'Asia/Kathmandu',
];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// --- The reference: fields and offsets as Intl formats them.

const formats = new Map<string, Intl.DateTimeFormat>();
function format(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
      timeZoneName: 'longOffset',
    });
    formats.set(zone, f);
  }
  return f;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The engine's local fields, but for the day of the year, with the offset in minutes east of UTC. */
type Fields = Omit<Local, 'offset' | 'dayOfYear'> & { offset: number };

function fields(ms: number, zone: string): Fields {
  const parts: Record<string, string> = {};
  for (const p of format(zone).formatToParts(ms)) parts[p.type] = p.value;
  const offset = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(parts.timeZoneName!)!;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: ((ms % 1000) + 1000) % 1000,
    weekday: WEEKDAYS.indexOf(parts.weekday!),
    offset: offset[1]
      ? (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]))
      : 0,
  };
}

const offsetAt = (ms: number, zone: string): number => fields(ms, zone).offset * MINUTE;

const dayNumber = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) / DAY;
const dayOfYear = (f: Fields): number =>
  dayNumber(f.year, f.month, f.day) - dayNumber(f.year, 1, 1) + 1;

/** Week of the year from Sunday: days before the first Sunday are week 0. */
function sundayWeek(f: Fields): number {
  const firstSunday = (7 - new Date(Date.UTC(f.year, 0, 1)).getUTCDay()) % 7;
  const index = dayOfYear(f) - 1;
  return index < firstSunday ? 0 : Math.floor((index - firstSunday) / 7) + 1;
}

/** ISO week-numbering year and week: the week that holds the date's Thursday. */
function isoWeek(f: Fields): [number, number] {
  const n = dayNumber(f.year, f.month, f.day);
  const thursday = n + 3 - ((f.weekday + 6) % 7);
  const year = new Date(thursday * DAY).getUTCFullYear();
  return [year, Math.floor((thursday - dayNumber(year, 1, 1)) / 7) + 1];
}

/** The instant a local wall time names in the zone: the candidates whose fields match it. */
function resolve(
  zone: string,
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
): number {
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const offsets = new Set([-2, -1, 0, 1, 2].map((k) => offsetAt(wall + k * 6 * HOUR, zone)));
  const matches = [...offsets]
    .map((o) => wall - o)
    .filter((t) => {
      const f = fields(t, zone);
      return (
        Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second, f.millisecond) === wall
      );
    })
    .sort((a, b) => a - b);
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const asUtc = offsetAt(wall, zone);
    return matches.find((t) => offsetAt(t, zone) === asUtc) ?? matches[0]!;
  }
  // Skipped: read with the offset in force before the transition (the earliest reading is before it).
  const earliest = Math.min(...[...offsets].map((o) => wall - o));
  return wall - offsetAt(earliest, zone);
}

/** Each transition of the zone's offset from 2024 to 2027, to the minute. */
function transitions(zone: string): number[] {
  const out: number[] = [];
  let t = Date.UTC(2024, 0, 1);
  let offset = offsetAt(t, zone);
  for (; t < Date.UTC(2028, 0, 1); t += 6 * HOUR) {
    const next = offsetAt(t + 6 * HOUR, zone);
    if (next === offset) continue;
    let lo = t;
    let hi = t + 6 * HOUR;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (offsetAt(mid, zone) === offset) lo = mid;
      else hi = mid;
    }
    out.push(hi);
    offset = next;
  }
  return out;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const offsetText = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)}`;

const FORMAT = '%Y-%m-%dT%H:%M:%S.%L %z %Z %j %w %u %U %V %G %b';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function expectedFor(t: number, zone: string, other: number): Document {
  const f = fields(t, zone);
  const [isoYear, week] = isoWeek(f);
  const daysInMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
  const nextMonth = f.month === 12 ? [f.year + 1, 1] : [f.year, f.month + 1];
  const tomorrow = new Date(Date.UTC(f.year, f.month - 1, f.day + 1));
  const g = fields(other, zone);
  return {
    hour: f.hour,
    dayOfMonth: f.day,
    dayOfWeek: f.weekday + 1,
    week: sundayWeek(f),
    isoWeek: week,
    parts: {
      year: f.year,
      month: f.month,
      day: f.day,
      hour: f.hour,
      minute: f.minute,
      second: f.second,
      millisecond: f.millisecond,
    },
    text:
      `${f.year}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}:${pad(f.second)}.${pad(f.millisecond, 3)} ` +
      `${offsetText(f.offset)} ${f.offset} ${pad(dayOfYear(f), 3)} ${f.weekday + 1} ${f.weekday || 7} ` +
      `${pad(sundayWeek(f))} ${pad(week)} ${isoYear} ${MONTHS[f.month - 1]}`,
    day: new Date(resolve(zone, f.year, f.month, f.day, 0, 0, 0, 0)),
    nextDay: new Date(
      resolve(
        zone,
        tomorrow.getUTCFullYear(),
        tomorrow.getUTCMonth() + 1,
        tomorrow.getUTCDate(),
        f.hour,
        f.minute,
        f.second,
        f.millisecond,
      ),
    ),
    nextMonth: new Date(
      resolve(
        zone,
        nextMonth[0]!,
        nextMonth[1]!,
        Math.min(f.day, daysInMonth(nextMonth[0]!, nextMonth[1]!)),
        f.hour,
        f.minute,
        f.second,
        f.millisecond,
      ),
    ),
    nextHour: new Date(t + HOUR),
    days: dayNumber(g.year, g.month, g.day) - dayNumber(f.year, f.month, f.day),
    fromParts: new Date(
      resolve(zone, f.year, f.month, f.day, f.hour, f.minute, f.second, f.millisecond),
    ),
  };
}

/** `op` of the document's instant `t` in its zone `z`. */
const inZone = (op: string) => ({ [op]: { date: '$t', timezone: '$z' } });

const PROJECTION = {
  _id: 0,
  hour: inZone('$hour'),
  dayOfMonth: inZone('$dayOfMonth'),
  dayOfWeek: inZone('$dayOfWeek'),
  week: inZone('$week'),
  isoWeek: inZone('$isoWeek'),
  parts: inZone('$dateToParts'),
  text: { $dateToString: { date: '$t', timezone: '$z', format: FORMAT } },
  day: { $dateTrunc: { date: '$t', unit: 'day', timezone: '$z' } },
  nextDay: { $dateAdd: { startDate: '$t', unit: 'day', amount: 1, timezone: '$z' } },
  nextMonth: { $dateAdd: { startDate: '$t', unit: 'month', amount: 1, timezone: '$z' } },
  nextHour: { $dateAdd: { startDate: '$t', unit: 'hour', amount: 1, timezone: '$z' } },
  days: { $dateDiff: { startDate: '$t', endDate: '$u', unit: 'day', timezone: '$z' } },
  fromParts: {
    $dateFromParts: {
      year: inZone('$year'),
      month: inZone('$month'),
      day: inZone('$dayOfMonth'),
      hour: inZone('$hour'),
      minute: inZone('$minute'),
      second: inZone('$second'),
      millisecond: inZone('$millisecond'),
      timezone: '$z',
    },
  },
};

describe('named time zones across daylight saving time', () => {
  it('convert each instant with the offset in force at that instant (property, around every transition)', async () => {
    const around = ZONES.flatMap((zone) => transitions(zone).map((at) => ({ zone, at })));
    expect(around.length).toBeGreaterThan(30);
    const sample = fc.record({
      around: fc.constantFrom(...around),
      delta: fc.integer({ min: -36 * HOUR, max: 36 * HOUR }),
      span: fc.integer({ min: -3 * DAY, max: 3 * DAY }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(sample, { minLength: 40, maxLength: 40 }), async (samples) => {
        await coll.deleteMany({});
        const docs = samples.map((s, i) => {
          const t = s.around.at + s.delta;
          return { i, z: s.around.zone, t: new Date(t), u: new Date(t + s.span) };
        });
        await coll.insertMany(docs);
        const got = await coll.aggregate([{ $sort: { i: 1 } }, { $project: PROJECTION }]).toArray();
        got.forEach((answer, i) => {
          const d = docs[i]!;
          expect(
            { ...answer, days: Number(answer.days) },
            `${d.t.toISOString()} in ${d.z}`,
          ).toEqual(expectedFor(d.t.getTime(), d.z, d.u.getTime()));
        });
      }),
      { numRuns: 6 },
    );
  });
});

describe('dates in MongoDB’s documented cases', () => {
  async function value(expr: unknown): Promise<unknown> {
    await coll.deleteMany({});
    await coll.insertOne({});
    const [out] = await coll.aggregate([{ $project: { _id: 0, r: expr } }]).toArray();
    return out!.r;
  }

  it('read 2026-07-15T22:30Z in Europe/Berlin as midnight on the 16th, in any season the query runs', async () => {
    const at = new Date('2026-07-15T22:30:00Z');
    expect(await value({ $hour: { date: at, timezone: 'Europe/Berlin' } })).toBe(0);
    expect(await value({ $dayOfMonth: { date: at, timezone: 'Europe/Berlin' } })).toBe(16);
    expect(
      await value({ $hour: { date: new Date('2026-01-15T22:30:00Z'), timezone: 'Europe/Berlin' } }),
    ).toBe(23);
    expect(
      await value({
        $dateToString: { date: at, timezone: 'Europe/Berlin', format: '%d.%m.%Y %H:%M %z' },
      }),
    ).toBe('16.07.2026 00:30 +0200');
    expect(
      await value({ $dateTrunc: { date: at, unit: 'day', timezone: 'Europe/Berlin' } }),
    ).toEqual(new Date('2026-07-15T22:00:00Z'));
  });

  it('add months clamped to the month’s end, and days on the local calendar across a transition', async () => {
    const add = (startDate: Date, unit: string, amount: number, timezone?: string) =>
      value({ $dateAdd: { startDate, unit, amount, ...(timezone ? { timezone } : {}) } });
    expect(await add(new Date('2024-01-31T10:00:00Z'), 'month', 1)).toEqual(
      new Date('2024-02-29T10:00:00Z'),
    );
    expect(await add(new Date('2023-01-31T10:00:00Z'), 'month', 1)).toEqual(
      new Date('2023-02-28T10:00:00Z'),
    );
    expect(await add(new Date('2020-10-31T10:10:05Z'), 'month', 1)).toEqual(
      new Date('2020-11-30T10:10:05Z'),
    );
    expect(
      await value({
        $dateSubtract: { startDate: new Date('2020-10-31T10:10:05Z'), unit: 'month', amount: 1 },
      }),
    ).toEqual(new Date('2020-09-30T10:10:05Z'));
    // Across Amsterdam's change back to standard time, 7 days back are 7 × 24 + 1 hours.
    expect(await add(new Date('2020-10-31T10:10:05Z'), 'day', -7, 'Europe/Amsterdam')).toEqual(
      new Date('2020-10-24T09:10:05Z'),
    );
    // Hours are elapsed time, in any zone.
    expect(await add(new Date('2020-11-01T05:50:02Z'), 'hour', 1, 'America/New_York')).toEqual(
      new Date('2020-11-01T06:50:02Z'),
    );
  });

  it('number weeks from Sunday for $week and by ISO 8601 for $isoWeek', async () => {
    const friday = new Date('2027-01-01T12:00:00Z');
    expect(await value({ $week: friday })).toBe(0);
    expect(await value({ $isoWeek: friday })).toBe(53);
    expect(await value({ $isoWeekYear: friday })).toBe(2026);
    expect(await value({ $week: new Date('2027-01-03T12:00:00Z') })).toBe(1);
    expect(await value({ $dateToString: { date: friday, format: '%U %V %G %u %w' } })).toBe(
      '00 53 2026 5 6',
    );
  });

  it('count $dateDiff boundaries in the zone, and weeks from the given first day', async () => {
    // [start, end, unit, other arguments, boundaries crossed]
    const cases: [string, string, string, Document, number][] = [
      ['2020-11-01T18:23:36Z', '2020-11-01T20:00:00Z', 'hour', { timezone: 'GMT' }, 2],
      ['2021-01-24T00:00:00Z', '2021-01-25T00:00:00Z', 'week', { startOfWeek: 'Monday' }, 1],
      ['2021-01-23T00:00:00Z', '2021-01-24T00:00:00Z', 'week', {}, 1],
      // 23:30 and 00:30 local in Berlin are a day apart, though one hour passes.
      ['2026-07-15T21:30:00Z', '2026-07-15T22:30:00Z', 'day', { timezone: 'Europe/Berlin' }, 1],
      ['2026-07-15T21:30:00Z', '2026-07-15T22:30:00Z', 'day', {}, 0],
    ];
    for (const [start, end, unit, extra, boundaries] of cases)
      expect(
        await value({
          $dateDiff: { startDate: new Date(start), endDate: new Date(end), unit, ...extra },
        }),
        `${unit} from ${start} to ${end} ${JSON.stringify(extra)}`,
      ).toBe(boundaries);
  });

  it('refuse a time zone MongoDB does not know with code 40485', async () => {
    for (const timezone of ['Mars/Olympus', 'europe/berlin'])
      await expect(value({ $hour: { date: new Date(0), timezone } })).rejects.toMatchObject({
        code: 40485,
      });
  });
});
