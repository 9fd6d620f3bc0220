import { describe, expect, it } from 'vitest';
import { formatEventTime } from '~/utils/format';
import {
  isTimeZone,
  TIME_ZONE_CHOICES,
  timeZoneAbbreviation,
  toZonedInputs,
  zonedDateTimeToUtc,
} from '~/utils/time-zone';

describe('event times where they happened', () => {
  it("shows the time on the local clocks with the zone's abbreviation", () => {
    const at = '2026-11-22T20:15:00.000Z';
    expect(formatEventTime(at, 'America/New_York')).toBe('22 Nov 2026, 3:15 pm EST');
    expect(formatEventTime(at, 'America/Los_Angeles')).toBe('22 Nov 2026, 12:15 pm PST');
    expect(formatEventTime(at, 'Europe/Paris')).toBe('22 Nov 2026, 9:15 pm CET');
    expect(formatEventTime(at, 'UTC')).toBe('22 Nov 2026, 8:15 pm UTC');
    // Summer time, and zones without a common abbreviation.
    expect(formatEventTime('2026-07-01T12:00:00Z', 'Europe/London')).toBe('1 Jul 2026, 1 pm BST');
    expect(formatEventTime(at, 'Asia/Tokyo')).toBe('23 Nov 2026, 5:15 am GMT+9');
    expect(timeZoneAbbreviation(new Date(at), 'Australia/Sydney')).toBe('AEDT');
    expect(formatEventTime(null, 'UTC')).toBe('—');
  });

  it('reads a wall-clock time in a zone, across summer-time changes', () => {
    const utc = (date: string, time: string, zone: string) =>
      zonedDateTimeToUtc(date, time, zone).toISOString();
    expect(utc('2026-11-22', '15:15', 'America/New_York')).toBe('2026-11-22T20:15:00.000Z');
    expect(utc('2026-07-01', '15:15', 'America/New_York')).toBe('2026-07-01T19:15:00.000Z');
    expect(utc('2026-11-22', '09:00', 'Asia/Kolkata')).toBe('2026-11-22T03:30:00.000Z');
    // 02:30 does not exist the night clocks go forward: read with the offset from before.
    expect(utc('2026-03-08', '02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    // 01:30 happens twice the night clocks go back: the first one.
    expect(utc('2026-11-01', '01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(Number.isNaN(zonedDateTimeToUtc('2026-02-30', '10:00', 'UTC').getTime())).toBe(true);
    expect(Number.isNaN(zonedDateTimeToUtc('2026-02-01', '24:00', 'UTC').getTime())).toBe(true);
    expect(toZonedInputs('2026-11-22T20:15:00Z', 'Asia/Tokyo')).toEqual({
      date: '2026-11-23',
      time: '05:15',
    });
  });

  it('knows IANA zones and offers only real ones', () => {
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    for (const bad of ['', 'Mars/Olympus_Mons', '../../etc', 'EST5EDT; drop'])
      expect(isTimeZone(bad), bad).toBe(false);
    for (const zone of TIME_ZONE_CHOICES) expect(isTimeZone(zone), zone).toBe(true);
  });
});
