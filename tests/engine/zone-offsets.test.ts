import { describe, expect, it } from 'vitest';
import { aggregate } from '../../embedded-mongo/pipeline';

// A named zone's offsets are kept per hour; the seconds around a change of offset, within an hour
// or on one, still read in the offset they are in.
const local = (timezone: string, ...instants: string[]) =>
  aggregate(
    instants.map((at, _id) => ({ _id, at: new Date(at) })),
    [
      {
        $project: {
          _id: 0,
          s: { $dateToString: { date: '$at', format: '%Y-%m-%d %H:%M:%S %z', timezone } },
        },
      },
    ],
    () => [],
  ).map((d) => d.s);

describe('named time zones', () => {
  it('write each second in the offset it is in, around changes of offset', () => {
    expect(
      local(
        'America/New_York',
        '2030-03-10T06:59:59Z',
        '2030-03-10T07:00:00Z',
        '2030-03-10T06:30:00Z',
      ),
    ).toEqual([
      '2030-03-10 01:59:59 -0500',
      '2030-03-10 03:00:00 -0400',
      '2030-03-10 01:30:00 -0500',
    ]);
    expect(
      local(
        'Australia/Lord_Howe',
        '2030-10-05T15:00:00Z',
        '2030-10-05T15:29:59Z',
        '2030-10-05T15:30:00Z',
        '2030-10-05T15:59:59Z',
      ),
    ).toEqual([
      '2030-10-06 01:30:00 +1030',
      '2030-10-06 01:59:59 +1030',
      '2030-10-06 02:30:00 +1100',
      '2030-10-06 02:59:59 +1100',
    ]);
  });
});
