import { Long, ObjectId, type Timestamp } from 'bson';
import { computeValue, type Options } from 'mingo/core';
import { compiledOperators } from './compiled';
import { fail } from './errors';
import { notImplemented, nullish, type Expression } from './expression-support';
import { numeric, type Num } from './arithmetic';
import { decimalToBigInt } from './numbers';
import { bsonType, isPlainObject, typeName } from './values';

// Dates in time zones as MongoDB 7 computes them with timelib: a named zone's offset is the one in
// force at the instant converted (from the IANA data Node carries, through Intl), never the offset
// at the time the query runs; local times that a transition skips or repeats resolve as timelib
// resolves them; units of a day or more are added on the local calendar (the end of a month
// clamped), smaller ones as elapsed time; $dateTrunc bins in the zone from 2000-01-01; $dateDiff
// counts boundaries crossed on the local calendar.

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

// --- Time zones

export interface Zone {
  /** UTC, or a fixed offset: the same offset at every instant. */
  readonly fixed: number | null;
  /** Written as UTC (the default format of $dateToString ends with `Z`). */
  readonly utc: boolean;
  /** Milliseconds east of UTC at the instant. */
  offsetAt(ms: number): number;
}

const fixedZone = (offset: number, utc = false): Zone => ({
  fixed: offset,
  utc,
  offsetAt: () => offset,
});

export const UTC = fixedZone(0, true);

const UTC_NAMES = new Set(['UTC', 'GMT', 'Etc/UTC', 'Etc/GMT', 'Z']);

const zones = new Map<string, Zone>();

/** A local wall time's milliseconds, as if in UTC, whatever the year (Date.UTC maps 0–99 to 19xx). */
export function wallTime(
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
  millisecond = 0,
): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, millisecond);
  return d.getTime();
}

function namedZone(name: string): Zone | null {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    return null;
  }
  // Intl takes any letter case and canonical aliases; MongoDB's zone names are case-sensitive.
  const resolved = format.resolvedOptions().timeZone;
  if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return null;
  const exactly = (ms: number): number => {
    const second = Math.floor(ms / 1000) * 1000;
    const fields: Record<string, string> = {};
    for (const p of format.formatToParts(second)) fields[p.type] = p.value;
    const year =
      fields.era === 'BC' || fields.era === 'B' ? 1 - Number(fields.year) : Number(fields.year);
    return (
      wallTime(
        year,
        Number(fields.month),
        Number(fields.day),
        Number(fields.hour),
        Number(fields.minute),
        Number(fields.second),
      ) - second
    );
  };
  // The offset of each hour asked about, when it is the same at the hour's first and last second
  // (a zone's offset changes at most once in an hour); an hour with a change is worked out anew.
  const hours = new Map<number, number | null>();
  return {
    fixed: null,
    utc: false,
    offsetAt(ms) {
      const hour = Math.floor(ms / HOUR);
      let offset = hours.get(hour);
      if (offset === undefined) {
        const first = exactly(hour * HOUR);
        offset = first === exactly(hour * HOUR + HOUR - 1000) ? first : null;
        if (hours.size >= 100_000) hours.clear();
        hours.set(hour, offset);
      }
      return offset ?? exactly(ms);
    },
  };
}

/** An offset written `+HH`, `+HHMM` or `+HH:MM`, in milliseconds; null for anything else. */
function parseOffset(spec: string): number | null {
  const m = /^([+-])(\d{2})(?::?(\d{2}))?$/.exec(spec);
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * HOUR + Number(m[3] ?? 0) * MINUTE);
}

/** The zone a timezone argument names; 40485 for one MongoDB does not know. */
export function zoneNamed(name: string, context?: string): Zone {
  let zone = zones.get(name);
  if (!zone) {
    if (UTC_NAMES.has(name)) zone = UTC;
    else {
      const offset = parseOffset(name);
      zone = offset !== null ? fixedZone(offset) : (namedZone(name) ?? undefined);
    }
    if (!zone)
      fail(
        40485,
        `${context ? `${context} :: caused by :: ` : ''}unrecognized time zone identifier: "${name}"`,
      );
    if (zones.size < 1000) zones.set(name, zone);
  }
  return zone;
}

/** A timezone argument's zone: UTC when absent, null when it evaluates to null or nothing. */
function zoneArgument(
  obj: unknown,
  expr: unknown,
  options: Options,
  notString: (v: unknown) => never,
  context?: string,
): Zone | null {
  if (expr === undefined) return UTC;
  const tz = computeValue(obj, expr, null, options);
  if (nullish(tz)) return null;
  if (typeof tz !== 'string') notString(tz);
  return zoneNamed(tz, context);
}

const timezoneNotString = (tz: unknown): never =>
  fail(40517, `timezone must evaluate to a string, found ${typeName(tz)}`);

// --- Local calendar fields

export interface Local {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Milliseconds east of UTC. */
  offset: number;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** 1 … 366. */
  dayOfYear: number;
}

export function localTime(ms: number, zone: Zone): Local {
  const offset = zone.offsetAt(ms);
  const d = new Date(ms + offset);
  const year = d.getUTCFullYear();
  return {
    year,
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    offset,
    weekday: d.getUTCDay(),
    dayOfYear:
      Math.floor(
        (wallTime(year, d.getUTCMonth() + 1, d.getUTCDate()) - wallTime(year, 1, 1)) / DAY,
      ) + 1,
  };
}

/**
 * The instant a local wall time (fields may overflow, as timelib normalizes them) stands for in
 * the zone. A time a transition skips is read with the offset before it; a time it repeats with
 * the zone's offset at the wall time read as UTC — timelib's do_adjust_timezone.
 */
export function fromWall(wall: number, zone: Zone): number {
  if (zone.fixed !== null) return wall - zone.fixed;
  const before = zone.offsetAt(wall);
  const after = zone.offsetAt(wall - before);
  if (before === after) return wall - before;
  const inTransition = after > before && zone.offsetAt(wall - after) !== after;
  return inTransition ? wall - before : wall - after;
}

export function fromLocal(
  zone: Zone,
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  millisecond: number,
): number {
  return fromWall(wallTime(year, month, day, hour, minute, second, millisecond), zone);
}

/** ISO 8601 week-numbering year and week of a calendar date. */
export function isoWeekOf(year: number, month: number, day: number): [number, number] {
  const t = new Date(wallTime(year, month, day));
  const weekday = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - weekday);
  const isoYear = t.getUTCFullYear();
  const week = Math.floor((t.getTime() - wallTime(isoYear, 1, 1)) / DAY / 7) + 1;
  return [isoYear, week];
}

/** MongoDB's $week: weeks start on Sunday, days before the year's first Sunday are week 0. */
export function sundayWeek(local: Local): number {
  const previousSunday = local.dayOfYear - (local.weekday + 1);
  return Math.floor((previousSunday + 7) / 7);
}

const isoWeekday = (local: Local): number => local.weekday || 7;

/** A value read as a date where MongoDB coerces one: a date, a Timestamp's seconds, an ObjectId's. */
function dateOf(v: unknown): number | null {
  if (v instanceof Date) return v.getTime();
  if (v instanceof ObjectId) return v.getTimestamp().getTime();
  if (bsonType(v) === 'Timestamp') return (v as Timestamp).high * 1000;
  return null;
}

function coerceToDate(v: unknown): number {
  const ms = dateOf(v);
  if (ms === null) fail(16006, `can't convert from BSON type ${typeName(v)} to Date`);
  return ms;
}

// --- $year, $month, … : one date, or { date, timezone }

function datePart(name: string, part: (local: Local) => unknown): Expression {
  return (obj, expr, options) => {
    let dateExpr = expr;
    let tzExpr: unknown;
    if (Array.isArray(expr)) {
      if (expr.length !== 1)
        fail(
          40536,
          `${name} accepts exactly one argument if given an array, but was given ${expr.length}`,
        );
      dateExpr = expr[0];
    } else if (isPlainObject(expr) && !Object.keys(expr)[0]?.startsWith('$')) {
      for (const k of Object.keys(expr))
        if (k !== 'date' && k !== 'timezone') fail(40535, `unrecognized option to ${name}: "${k}"`);
      if (!('date' in expr)) fail(40539, `missing 'date' argument to ${name}`);
      dateExpr = expr.date;
      tzExpr = expr.timezone;
    }
    const date = computeValue(obj, dateExpr, null, options);
    if (nullish(date)) return null;
    const ms = coerceToDate(date);
    const zone = zoneArgument(obj, tzExpr, options, (tz) =>
      fail(
        40533,
        `${name} requires a string for the timezone argument, but was given a ${typeName(tz)} (${String(tz)})`,
      ),
    );
    if (!zone) return null;
    return part(localTime(ms, zone));
  };
}

// --- $dateToString

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const TO_STRING_SPECIFIERS = new Set('bBdGHjLmMSuUVwYzZ%');

function validateFormat(format: string, specifiers: Set<string>): void {
  for (let i = 0; i < format.length; i++) {
    if (format[i] !== '%') continue;
    if (i === format.length - 1) fail(18535, "Unmatched '%' at end of format string");
    const spec = format[++i]!;
    if (!specifiers.has(spec)) fail(18536, `Invalid format character '%${spec}' in format string`);
  }
}

const pad = (n: number, width: number): string => {
  if (n < 0 || n > 9999)
    fail(
      18537,
      `Could not convert date to string: date component was outside the supported range of 0-9999: ${n}`,
    );
  return String(n).padStart(width, '0');
};

export const ISO_FORMAT = '%Y-%m-%dT%H:%M:%S.%LZ';

/** Each $dateToString specifier's text for a date's local fields. */
const SPECIFIER_TEXT: Record<string, (local: Local) => string> = {
  '%': () => '%',
  Y: (l) => pad(l.year, 4),
  m: (l) => pad(l.month, 2),
  d: (l) => pad(l.day, 2),
  H: (l) => pad(l.hour, 2),
  M: (l) => pad(l.minute, 2),
  S: (l) => pad(l.second, 2),
  L: (l) => pad(l.millisecond, 3),
  j: (l) => pad(l.dayOfYear, 3),
  w: (l) => pad(l.weekday + 1, 1), // 1 (Sunday) … 7 (Saturday)
  u: (l) => pad(isoWeekday(l), 1), // 1 (Monday) … 7 (Sunday)
  U: (l) => pad(sundayWeek(l), 2),
  G: (l) => pad(isoWeekOf(l.year, l.month, l.day)[0], 4),
  V: (l) => pad(isoWeekOf(l.year, l.month, l.day)[1], 2),
  b: (l) => MONTHS[l.month - 1]!.slice(0, 3),
  B: (l) => MONTHS[l.month - 1]!,
  z: (l) => {
    const minutes = Math.trunc(l.offset / MINUTE);
    return `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(minutes) / 60), 2)}${pad(Math.abs(minutes) % 60, 2)}`;
  },
  Z: (l) => String(Math.trunc(l.offset / MINUTE)),
};

/** `ms` formatted with MongoDB's $dateToString specifiers in the zone. */
export function formatDate(ms: number, format: string, zone: Zone): string {
  const local = localTime(ms, zone);
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%') {
      out += c;
      continue;
    }
    out += SPECIFIER_TEXT[format[++i]!]?.(local) ?? '';
  }
  return out;
}

/** A `format` argument, evaluated and checked: a string of known specifiers, or nullish. */
function formatArgument(
  name: string,
  obj: unknown,
  expr: Record<string, unknown>,
  options: Options,
  notStringCode: number,
  specifiers: Set<string>,
): unknown {
  if (!('format' in expr)) return undefined;
  const format = computeValue(obj, expr.format, null, options);
  if (nullish(format)) return format;
  if (typeof format !== 'string')
    fail(
      notStringCode,
      `${name} requires that 'format' be a string, found: ${typeName(format)} with value ${String(format)}`,
    );
  validateFormat(format, specifiers);
  return format;
}

const $dateToString: Expression = (obj, argument, options) => {
  const expr = checkArguments(
    '$dateToString',
    argument,
    ['date', 'format', 'timezone', 'onNull'],
    ['date'],
    [18629, 18534, 18628],
  );
  const date = computeValue(obj, expr.date, null, options);
  const format = formatArgument('$dateToString', obj, expr, options, 18533, TO_STRING_SPECIFIERS);
  const zone = zoneArgument(obj, expr.timezone, options, timezoneNotString);
  if (nullish(date)) return 'onNull' in expr ? computeValue(obj, expr.onNull, null, options) : null;
  if (!zone) return null;
  if ('format' in expr && nullish(format)) return null;
  const f = (format as string | undefined) ?? (zone.utc ? ISO_FORMAT : '%Y-%m-%dT%H:%M:%S.%L');
  return formatDate(coerceToDate(date), f, zone);
};

/**
 * Compiled (see compiled.ts) when the format and the zone are constants, checked once: then only
 * the date is evaluated for each document. Anything else is evaluated as above.
 */
const FIRST_YEAR = Date.parse('0000-01-01T00:00:00Z');
const AFTER_YEAR_9999 = Date.parse('+010000-01-01T00:00:00Z');

compiledOperators.set('$dateToString', (argument, compile) => {
  if (!isPlainObject(argument) || !('date' in argument)) return null;
  const keys = Object.keys(argument);
  if (keys.some((k) => k !== 'date' && k !== 'format' && k !== 'timezone')) return null;
  const constant = (v: unknown): v is string | undefined =>
    v === undefined || (typeof v === 'string' && !v.startsWith('$'));
  const { format, timezone } = argument;
  if (!constant(format) || !constant(timezone)) return null;
  let zone: Zone;
  try {
    if (format !== undefined) validateFormat(format, TO_STRING_SPECIFIERS);
    zone = timezone === undefined ? UTC : zoneNamed(timezone);
  } catch {
    return null;
  }
  const f = format ?? (zone.utc ? ISO_FORMAT : '%Y-%m-%dT%H:%M:%S.%L');
  const date = compile(argument.date);
  // A UTC day of the years 0 to 9999 is the start of the date's ISO 8601 form.
  const utcDay = zone.fixed === 0 && f === '%Y-%m-%d';
  return (doc, options) => {
    const value = date(doc, options);
    if (nullish(value)) return null;
    const ms = coerceToDate(value);
    return utcDay && ms >= FIRST_YEAR && ms < AFTER_YEAR_9999
      ? new Date(ms).toISOString().slice(0, 10)
      : formatDate(ms, f, zone);
  };
});

// --- $dateToParts and $dateFromParts

const $dateToParts: Expression = (obj, argument, options) => {
  const expr = checkArguments(
    '$dateToParts',
    argument,
    ['date', 'timezone', 'iso8601'],
    ['date'],
    [40524, 40520, 40522],
  );
  const date = computeValue(obj, expr.date, null, options);
  const zone = zoneArgument(obj, expr.timezone, options, timezoneNotString);
  if (!zone) return null;
  let iso = false;
  if (expr.iso8601 !== undefined) {
    const flag = computeValue(obj, expr.iso8601, null, options);
    if (nullish(flag)) return null;
    if (typeof flag !== 'boolean')
      fail(40521, `iso8601 must evaluate to a bool, found ${typeName(flag)}`);
    iso = flag;
  }
  if (nullish(date)) return null;
  const local = localTime(coerceToDate(date), zone);
  const time = {
    hour: local.hour,
    minute: local.minute,
    second: local.second,
    millisecond: local.millisecond,
  };
  if (!iso) return { year: local.year, month: local.month, day: local.day, ...time };
  const [isoWeekYear, isoWeek] = isoWeekOf(local.year, local.month, local.day);
  return { isoWeekYear, isoWeek, isoDayOfWeek: isoWeekday(local), ...time };
};

/** A number MongoDB reads as a 64-bit integer (integral64Bit), or null when it is not one. */
function integral64(v: unknown): number | null {
  const n: Num | null = numeric(v);
  if (!n) return null;
  let value: bigint | null;
  if (n.type === 'double') value = Number.isInteger(n.value) ? BigInt(n.value) : null;
  else if (n.type === 'decimal') value = decimalToBigInt(n.value);
  else value = n.value;
  if (value === null || value < -(2n ** 63n) || value >= 2n ** 63n) return null;
  return Number(value);
}

const DATE_PARTS = [
  'year',
  'month',
  'day',
  'hour',
  'minute',
  'second',
  'millisecond',
  'isoWeekYear',
  'isoWeek',
  'isoDayOfWeek',
  'timezone',
];

const $dateFromParts: Expression = (obj, expr, options) => {
  if (!isPlainObject(expr)) fail(40519, '$dateFromParts only supports an object as its argument');
  for (const k of Object.keys(expr))
    if (!DATE_PARTS.includes(k)) fail(40518, `Unrecognized argument to $dateFromParts: ${k}`);
  if (!('year' in expr) && !('isoWeekYear' in expr))
    fail(40516, "$dateFromParts requires either 'year' or 'isoWeekYear' to be present");
  if ('year' in expr && ('isoWeekYear' in expr || 'isoWeek' in expr || 'isoDayOfWeek' in expr))
    fail(40489, '$dateFromParts does not allow mixing natural dates with ISO dates');
  if ('isoWeekYear' in expr && ('month' in expr || 'day' in expr))
    fail(40525, '$dateFromParts does not allow mixing ISO dates with natural dates');
  /** A part's value, its default when absent, or null when it is null or missing. */
  const part = (name: string, byDefault: number, bounded: boolean): number | null => {
    if (!(name in expr)) return byDefault;
    const v = computeValue(obj, expr[name], null, options);
    if (nullish(v)) return null;
    const n = integral64(v);
    if (n === null)
      fail(
        40515,
        `'${name}' must evaluate to an integer, found ${typeName(v)} with value ${String(v)}`,
      );
    if (bounded && (n < -32768 || n > 32767))
      fail(
        31034,
        `'${name}' must evaluate to a value in the range [-32768, 32767]; value ${n} is not in range`,
      );
    return n;
  };
  const hour = part('hour', 0, true);
  const minute = part('minute', 0, true);
  const second = part('second', 0, false);
  const millisecond = part('millisecond', 0, false);
  if (hour === null || minute === null || second === null || millisecond === null) return null;
  const zone = zoneArgument(obj, expr.timezone, options, timezoneNotString);
  if (!zone) return null;
  if ('year' in expr) {
    const year = part('year', 1970, false);
    const month = part('month', 1, true);
    const day = part('day', 1, true);
    if (year === null || month === null || day === null) return null;
    if (year < 1 || year > 9999)
      fail(40523, `'year' must evaluate to an integer in the range 1 to 9999, found ${year}`);
    return new Date(fromLocal(zone, year, month, day, hour, minute, second, millisecond));
  }
  const isoYear = part('isoWeekYear', 1970, false);
  const isoWeek = part('isoWeek', 1, true);
  const isoDay = part('isoDayOfWeek', 1, true);
  if (isoYear === null || isoWeek === null || isoDay === null) return null;
  if (isoYear < 1 || isoYear > 9999)
    fail(
      31095,
      `'isoWeekYear' must evaluate to an integer in the range 1 to 9999, found ${isoYear}`,
    );
  // Monday of week 1 is the Monday on or before 4 January.
  const jan4 = new Date(wallTime(isoYear, 1, 4));
  const monday = wallTime(isoYear, 1, 4 - ((jan4.getUTCDay() || 7) - 1));
  const wall =
    monday +
    ((isoWeek - 1) * 7 + (isoDay - 1)) * DAY +
    hour * HOUR +
    minute * MINUTE +
    second * 1000 +
    millisecond;
  return new Date(fromWall(wall, zone));
};

// --- Units of time: $dateAdd, $dateSubtract, $dateDiff, $dateTrunc

const UNITS = [
  'year',
  'quarter',
  'month',
  'week',
  'day',
  'hour',
  'minute',
  'second',
  'millisecond',
] as const;
type Unit = (typeof UNITS)[number];
const FIXED_UNITS: Partial<Record<Unit, number>> = { hour: HOUR, minute: MINUTE, second: 1000 };

const DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A startOfWeek name, as MongoDB's DayOfWeek: 1 = Monday … 7 = Sunday. */
function dayOfWeekNamed(name: string): number | null {
  const lower = name.toLowerCase();
  const i = DAY_NAMES.findIndex((d) => d === lower || d.slice(0, 3) === lower);
  return i < 0 ? null : i + 1;
}

const daysInMonth = (year: number, month: number): number =>
  new Date(wallTime(year, month + 1, 0)).getUTCDate();

/**
 * `amount` units added to `ms` as MongoDB's dateAdd: a day or more on the zone's calendar (the
 * day clamped to the month's last), keeping the local time of day; hours and less as elapsed time.
 */
export function dateAdd(ms: number, unit: Unit, amount: number, zone: Zone): number {
  if (unit === 'millisecond') return ms + amount;
  const local = localTime(ms, zone);
  let days = 0;
  let months = 0;
  switch (unit) {
    case 'year':
      months = amount * 12;
      break;
    case 'quarter':
      months = amount * 3;
      break;
    case 'month':
      months = amount;
      break;
    case 'week':
      days = amount * 7;
      break;
    case 'day':
      days = amount;
      break;
    default:
      if (zone.fixed === null) return ms + amount * FIXED_UNITS[unit]!;
  }
  let { year, month, day } = local;
  if (months !== 0) {
    const total = year * 12 + (month - 1) + months;
    year = Math.floor(total / 12);
    month = total - year * 12 + 1;
    day = Math.min(day, daysInMonth(year, month));
  }
  const wall =
    wallTime(year, month, day + days, local.hour, local.minute, local.second, local.millisecond) +
    (FIXED_UNITS[unit] ?? 0) * (days === 0 && months === 0 ? amount : 0);
  return fromWall(wall, zone);
}

/** MongoDB's reckoning of days between years (daysBetweenYears), with C++'s truncating division. */
function daysBetweenYears(start: number, end: number): number {
  const leaps = (year: number): number => {
    const y = year + 1_000_000_000;
    return Math.trunc(y / 4) - Math.trunc(y / 100) + Math.trunc(y / 400);
  };
  return leaps(end - 1) - leaps(start - 1) + (end - start) * 365;
}

function dayDiff(a: Local, b: Local): number {
  return b.dayOfYear - a.dayOfYear + daysBetweenYears(a.year, b.year);
}

/** The boundaries of `unit` crossed from `start` to `end` on the zone's calendar (dateDiff). */
export function dateDiff(
  start: number,
  end: number,
  unit: Unit,
  zone: Zone,
  startOfWeek: number,
): number {
  if (unit === 'millisecond') return end - start;
  const a = localTime(start, zone);
  const b = localTime(end, zone);
  const seconds = (a.offset - b.offset) / 1000;
  switch (unit) {
    case 'year':
      return b.year - a.year;
    case 'quarter':
      return Math.floor((b.month - 1) / 3) - Math.floor((a.month - 1) / 3) + (b.year - a.year) * 4;
    case 'month':
      return b.month - a.month + (b.year - a.year) * 12;
    case 'week': {
      const weekday = (l: Local): number => (isoWeekday(l) - startOfWeek + 7) % 7;
      return Math.trunc((dayDiff(a, b) + weekday(a) - weekday(b)) / 7);
    }
    case 'day':
      return dayDiff(a, b);
  }
  const hours = b.hour - a.hour + dayDiff(a, b) * 24;
  if (unit === 'hour') return hours + Math.trunc(seconds / 3600);
  const minutes = b.minute - a.minute + hours * 60;
  if (unit === 'minute') return minutes + Math.trunc(seconds / 60);
  return b.second - a.second + minutes * 60 + seconds;
}

const REFERENCE = 946_684_800_000; // 2000-01-01T00:00:00Z

/** The lower bound of the bin `ms` falls in: bins of `binSize` units from 2000-01-01 in the zone. */
export function dateTrunc(
  ms: number,
  unit: Unit,
  binSize: number,
  zone: Zone,
  startOfWeek: number,
): number {
  let reference = REFERENCE - zone.offsetAt(REFERENCE);
  const fixed = unit === 'millisecond' ? 1 : FIXED_UNITS[unit];
  if (fixed !== undefined) {
    const size = binSize * fixed;
    const shifted = ms - reference;
    return ms - (((shifted % size) + size) % size);
  }
  if (unit === 'week') reference += ((7 - ((6 - startOfWeek + 7) % 7)) % 7) * DAY;
  const distance = dateDiff(reference, ms, unit, zone, startOfWeek);
  const lower = distance - (((distance % binSize) + binSize) % binSize);
  return dateAdd(reference, unit, lower, zone);
}

function unitArgument(
  name: string,
  v: unknown,
  notString: number,
  unknown: number,
  message?: string,
): Unit {
  if (typeof v !== 'string')
    fail(notString, `${name} requires 'unit' to be a string, but got ${typeName(v)}`);
  if (!(UNITS as readonly string[]).includes(v))
    fail(
      unknown,
      message ?? `${name} parameter 'unit' value cannot be recognized as a time unit: ${v}`,
    );
  return v as Unit;
}

function startOfWeekArgument(name: string, v: unknown): number {
  if (typeof v !== 'string')
    fail(5439015, `${name} requires 'startOfWeek' to be a string, but got ${typeName(v)}`);
  const day = dayOfWeekNamed(v);
  if (day === null)
    fail(
      5439016,
      `${name} parameter 'startOfWeek' value cannot be recognized as a day of a week: ${v}`,
    );
  return day;
}

function checkArguments(
  name: string,
  expr: unknown,
  known: string[],
  required: string[],
  codes: [number, number, number],
): Record<string, unknown> {
  if (!isPlainObject(expr)) fail(codes[0], `${name} only supports an object as its argument`);
  for (const k of Object.keys(expr))
    if (!known.includes(k)) fail(codes[1], `Unrecognized argument to ${name}: ${k}`);
  for (const k of required) if (!(k in expr)) fail(codes[2], `Missing '${k}' parameter to ${name}`);
  return expr;
}

/** The furthest a JavaScript date reaches from 1970, in milliseconds. */
const MAX_DATE = 8.64e15;

/** MongoDB's bound on a $dateAdd amount, by unit (isDateAddAmountValid). */
function maxAmount(unit: Unit): number {
  const days = Math.floor(2 ** 64 / DAY) + 1;
  const years = Math.floor(days / 365) + 1;
  switch (unit) {
    case 'year':
      return years;
    case 'quarter':
      return years * 4;
    case 'month':
      return years * 12;
    case 'week':
      return Math.floor(days / 7);
    case 'day':
      return days;
    case 'hour':
      return days * 24;
    case 'minute':
      return days * 24 * 60;
    case 'second':
      return days * 24 * 3600;
    default:
      return Infinity;
  }
}

/** The expressions' values in turn, or null at the first that is null or missing (the rest unread). */
function presentValues(obj: unknown, options: Options, ...exprs: unknown[]): unknown[] | null {
  const values: unknown[] = [];
  for (const expr of exprs) {
    const value = computeValue(obj, expr, null, options);
    if (nullish(value)) return null;
    values.push(value);
  }
  return values;
}

function dateArithmetic(name: '$dateAdd' | '$dateSubtract', sign: 1 | -1): Expression {
  return (obj, expr, options) => {
    const args = checkArguments(
      name,
      expr,
      ['startDate', 'unit', 'amount', 'timezone'],
      ['startDate', 'unit', 'amount'],
      [5166400, 5166401, 5166402],
    );
    const given = presentValues(obj, options, args.startDate, args.unit);
    if (!given) return null;
    const [start, unitValue] = given;
    const unit = unitArgument(
      name,
      unitValue,
      5166404,
      9,
      `unknown time unit value: ${String(unitValue)}`,
    );
    const amountValue = computeValue(obj, args.amount, null, options);
    if (nullish(amountValue)) return null;
    const zone = zoneArgument(obj, args.timezone, options, timezoneNotString);
    if (!zone) return null;
    const ms = dateOf(start);
    if (ms === null) fail(5166403, `${name} requires startDate to be convertible to a date`);
    const amount = integral64(amountValue);
    if (amount === null) fail(5166405, `${name} expects integer amount of time units`);
    if (!(Math.abs(amount) < maxAmount(unit)))
      fail(
        5976500,
        `invalid ${name === '$dateAdd' ? 'dateAdd' : 'dateSubtract'} 'amount' parameter value: ${amount} ${unit}`,
      );
    const result = dateAdd(ms, unit, sign * amount, zone);
    if (!(Math.abs(result) <= MAX_DATE))
      notImplemented(`${name} to a date more than 100,000,000 days from 1970`);
    return new Date(result);
  };
}

/**
 * The `unit`, `startOfWeek` (7, Sunday, unless a week's is given) and `timezone` arguments of
 * $dateDiff and $dateTrunc; null when one evaluates to null or nothing.
 */
function unitInZone(
  name: string,
  obj: unknown,
  args: Record<string, unknown>,
  options: Options,
): { unit: ReturnType<typeof unitArgument>; startOfWeek: number; zone: Zone } | null {
  const unitValue = computeValue(obj, args.unit, null, options);
  if (nullish(unitValue)) return null;
  const unit = unitArgument(name, unitValue, 5439013, 5439014);
  let startOfWeek = 7;
  if (unit === 'week' && args.startOfWeek !== undefined) {
    const v = computeValue(obj, args.startOfWeek, null, options);
    if (nullish(v)) return null;
    startOfWeek = startOfWeekArgument(name, v);
  }
  const zone = zoneArgument(
    obj,
    args.timezone,
    options,
    timezoneNotString,
    `${name} parameter 'timezone' value parsing failed`,
  );
  return zone && { unit, startOfWeek, zone };
}

const $dateDiff: Expression = (obj, expr, options) => {
  const args = checkArguments(
    '$dateDiff',
    expr,
    ['startDate', 'endDate', 'unit', 'timezone', 'startOfWeek'],
    ['startDate', 'endDate', 'unit'],
    [5166301, 5166302, 5166303],
  );
  const given = presentValues(obj, options, args.startDate, args.endDate);
  if (!given) return null;
  const [start, end] = given;
  const calendar = unitInZone('$dateDiff', obj, args, options);
  if (!calendar) return null;
  const { unit, startOfWeek, zone } = calendar;
  const convert = (v: unknown, what: string): number => {
    const ms = dateOf(v);
    if (ms === null)
      fail(5166307, `$dateDiff requires '${what}' to be a date, but got ${typeName(v)}`);
    return ms;
  };
  return Long.fromNumber(
    dateDiff(convert(start, 'startDate'), convert(end, 'endDate'), unit, zone, startOfWeek),
  );
};

const $dateTrunc: Expression = (obj, expr, options) => {
  const args = checkArguments(
    '$dateTrunc',
    expr,
    ['date', 'unit', 'binSize', 'timezone', 'startOfWeek'],
    ['date', 'unit'],
    [5439007, 5439008, 5439009],
  );
  const date = computeValue(obj, args.date, null, options);
  if (nullish(date)) return null;
  let binSize = 1;
  if (args.binSize !== undefined) {
    const v = computeValue(obj, args.binSize, null, options);
    if (nullish(v)) return null;
    const n = integral64(v);
    if (n === null)
      fail(
        5439017,
        `$dateTrunc requires 'binSize' to be a 64-bit integer, but got value '${String(v)}' of type ${typeName(v)}`,
      );
    if (n <= 0)
      fail(5439018, `$dateTrunc requires 'binSize' to be greater than 0, but got value ${n}`);
    binSize = n;
  }
  const calendar = unitInZone('$dateTrunc', obj, args, options);
  if (!calendar) return null;
  const { unit, startOfWeek, zone } = calendar;
  const ms = dateOf(date);
  if (ms === null)
    fail(5439012, `$dateTrunc requires 'date' to be a date, but got ${typeName(date)}`);
  if (
    unit !== 'millisecond' &&
    unit !== 'second' &&
    unit !== 'minute' &&
    unit !== 'hour' &&
    binSize > 100_000_000_000
  )
    fail(5439006, 'dateTrunc unsupported binSize value');
  return new Date(dateTrunc(ms, unit, binSize, zone, startOfWeek));
};

// --- $dateFromString

const FROM_STRING_SPECIFIERS = new Set('bBdGHjLmMSuUVwYzZ%');

function conversionFailure(s: string, why: string): never {
  fail(241, `Error parsing date string '${s}'; ${why}`);
}

interface Parsed {
  year?: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
  dayOfYear?: number;
  isoYear?: number;
  isoWeek?: number;
  isoDay?: number;
  /** An offset the string itself gives, in milliseconds. */
  offset?: number;
}

/** A string read with a $dateFromString format: every specifier must match. */
function parseWithFormat(s: string, format: string): Parsed {
  const out: Parsed = {};
  let at = 0;
  const digits = (max: number, what: string): number => {
    const m = new RegExp(`^\\d{1,${max}}`).exec(s.slice(at));
    if (!m) conversionFailure(s, `${at}: Unexpected data found. (expected ${what})`);
    at += m[0].length;
    return Number(m[0]);
  };
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    if (c !== '%') {
      if (s[at] !== c) conversionFailure(s, `${at}: The format separator does not match`);
      at++;
      continue;
    }
    const spec = format[++i]!;
    switch (spec) {
      case 'Y':
        out.year = digits(4, 'a four digit year');
        break;
      case 'm':
        out.month = digits(2, 'a two digit month');
        break;
      case 'd':
        out.day = digits(2, 'a two digit day');
        break;
      case 'H':
        out.hour = digits(2, 'a two digit hour');
        break;
      case 'M':
        out.minute = digits(2, 'a two digit minute');
        break;
      case 'S':
        out.second = digits(2, 'a two digit second');
        break;
      case 'L':
        out.millisecond = digits(3, 'a three digit millisecond');
        break;
      case 'j':
        out.dayOfYear = digits(3, 'a three digit day-of-year');
        break;
      case 'G':
        out.isoYear = digits(4, 'a four digit ISO year');
        break;
      case 'V':
        out.isoWeek = digits(2, 'a two digit ISO week');
        break;
      case 'u':
        out.isoDay = digits(1, 'a one digit ISO day of week');
        break;
      case 'b':
      case 'B': {
        const rest = s.slice(at).toLowerCase();
        const i = MONTHS.findIndex((m) =>
          rest.startsWith((spec === 'b' ? m.slice(0, 3) : m).toLowerCase()),
        );
        if (i < 0) conversionFailure(s, `${at}: A textual month could not be found`);
        out.month = i + 1;
        at += spec === 'b' ? 3 : MONTHS[i]!.length;
        break;
      }
      case 'z': {
        const m = /^([+-])(\d{2}):?(\d{2})?/.exec(s.slice(at));
        if (!m) conversionFailure(s, `${at}: The timezone could not be found in the database`);
        out.offset = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * HOUR + Number(m[3] ?? 0) * MINUTE);
        at += m[0].length;
        break;
      }
      case 'Z': {
        const m = /^([+-])(\d{1,4})/.exec(s.slice(at));
        if (!m) conversionFailure(s, `${at}: The timezone could not be found in the database`);
        out.offset = (m[1] === '-' ? -1 : 1) * Number(m[2]) * MINUTE;
        at += m[0].length;
        break;
      }
      case '%':
        if (s[at] !== '%') conversionFailure(s, `${at}: The format separator does not match`);
        at++;
        break;
      default:
        notImplemented(`$dateFromString with the format specifier %${spec}`);
    }
  }
  if (at < s.length) conversionFailure(s, `${at}: Trailing data`);
  return out;
}

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;

function parseIso(s: string, name = '$dateFromString'): Parsed {
  const m = ISO_DATE.exec(s);
  if (!m)
    notImplemented(
      `${name} of the string '${s}'${name === '$dateFromString' ? ' without a format' : ''} (only ISO 8601 dates are read)`,
    );
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
    millisecond: m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0,
    offset: m[8] === undefined ? undefined : m[8] === 'Z' ? 0 : parseOffset(m[8])!,
  };
}

/** A date string as $toDate and $convert read it: ISO 8601, in UTC unless it gives an offset. */
export function dateFromText(s: string, name: string): number {
  const p = parseIso(s, name);
  const wall =
    wallTime(p.year!, p.month!, p.day!) +
    p.hour! * HOUR +
    p.minute! * MINUTE +
    p.second! * 1000 +
    p.millisecond!;
  if (p.month! < 1 || p.month! > 12 || p.day! < 1 || p.day! > daysInMonth(p.year!, p.month!))
    conversionFailure(s, 'The parsed date was invalid');
  return wall - (p.offset ?? 0);
}

const $dateFromString: Expression = (obj, expr, options) => {
  if (!isPlainObject(expr))
    fail(40540, `$dateFromString only supports an object as an argument, found: ${typeName(expr)}`);
  for (const k of Object.keys(expr))
    if (!['dateString', 'format', 'timezone', 'onNull', 'onError'].includes(k))
      fail(40541, `Unrecognized argument to $dateFromString: ${k}`);
  if (!('dateString' in expr)) fail(40542, "Missing 'dateString' parameter to $dateFromString");
  const s = computeValue(obj, expr.dateString, null, options);
  const format = formatArgument(
    '$dateFromString',
    obj,
    expr,
    options,
    40684,
    FROM_STRING_SPECIFIERS,
  );
  const zone = zoneArgument(obj, expr.timezone, options, timezoneNotString);
  if (nullish(s)) return 'onNull' in expr ? computeValue(obj, expr.onNull, null, options) : null;
  try {
    if (typeof s !== 'string')
      fail(
        241,
        `$dateFromString requires that 'dateString' be a string, found: ${typeName(s)} with value ${String(s)}`,
      );
    if (!zone) return null;
    if ('format' in expr && nullish(format)) return null;
    const p = typeof format === 'string' ? parseWithFormat(s, format) : parseIso(s);
    if (p.offset !== undefined && expr.timezone !== undefined)
      conversionFailure(
        s,
        'you cannot pass in a date/time string with time zone information together with a timezone argument',
      );
    let wall: number;
    if (p.isoYear !== undefined || p.isoWeek !== undefined || p.isoDay !== undefined) {
      const isoYear = p.isoYear ?? 1970;
      const jan4 = new Date(wallTime(isoYear, 1, 4));
      wall =
        wallTime(isoYear, 1, 4 - ((jan4.getUTCDay() || 7) - 1)) +
        (((p.isoWeek ?? 1) - 1) * 7 + ((p.isoDay ?? 1) - 1)) * DAY;
    } else if (p.dayOfYear !== undefined) wall = wallTime(p.year ?? 1970, 1, p.dayOfYear);
    else {
      if (p.year === undefined || p.month === undefined || p.day === undefined)
        conversionFailure(s, 'not enough data available to satisfy format');
      if (p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysInMonth(p.year, p.month))
        conversionFailure(s, 'The parsed date was invalid');
      wall = wallTime(p.year, p.month, p.day);
    }
    if ((p.hour ?? 0) > 23 || (p.minute ?? 0) > 59 || (p.second ?? 0) > 59)
      conversionFailure(s, 'The parsed time was invalid');
    wall +=
      (p.hour ?? 0) * HOUR +
      (p.minute ?? 0) * MINUTE +
      (p.second ?? 0) * 1000 +
      (p.millisecond ?? 0);
    return new Date(p.offset !== undefined ? wall - p.offset : fromWall(wall, zone));
  } catch (err) {
    if ('onError' in expr && (err as { code?: number }).code === 241)
      return computeValue(obj, expr.onError, null, options);
    throw err;
  }
};

export const dateExpressions: Record<string, Expression> = {
  $year: datePart('$year', (l) => l.year),
  $month: datePart('$month', (l) => l.month),
  $dayOfMonth: datePart('$dayOfMonth', (l) => l.day),
  $hour: datePart('$hour', (l) => l.hour),
  $minute: datePart('$minute', (l) => l.minute),
  $second: datePart('$second', (l) => l.second),
  $millisecond: datePart('$millisecond', (l) => l.millisecond),
  $dayOfYear: datePart('$dayOfYear', (l) => l.dayOfYear),
  $dayOfWeek: datePart('$dayOfWeek', (l) => l.weekday + 1),
  $week: datePart('$week', sundayWeek),
  $isoWeek: datePart('$isoWeek', (l) => isoWeekOf(l.year, l.month, l.day)[1]),
  $isoWeekYear: datePart('$isoWeekYear', (l) =>
    Long.fromNumber(isoWeekOf(l.year, l.month, l.day)[0]),
  ),
  $isoDayOfWeek: datePart('$isoDayOfWeek', isoWeekday),
  $dateToString,
  $dateToParts,
  $dateFromParts,
  $dateFromString,
  $dateAdd: dateArithmetic('$dateAdd', 1),
  $dateSubtract: dateArithmetic('$dateSubtract', -1),
  $dateDiff,
  $dateTrunc,
};
