import { describe, expect, it } from 'vitest';
import { deliveryHeadline, progressSteps, type HeadlineInput } from '~/utils/delivery-headline';
import { wordsFor } from '~/lib/i18n.server';
import { remembered } from '~/utils/remembered';

const ENGLISH = wordsFor('en');

const ZONE = 'America/New_York';
// Wednesday, 25 November 2026, 10:00 in New York.
const NOW = new Date('2026-11-25T15:00:00Z');
const BY_SIX = { from: null, until: '2026-11-26T23:00:00.000Z' };

function headline(input: Partial<HeadlineInput>) {
  return deliveryHeadline(
    {
      status: 'In Transit',
      estimatedDelivery: null,
      window: null,
      deliveredAt: null,
      receivedBy: null,
      nextAttemptDate: null,
      timeZone: ZONE,
      now: NOW,
      ...input,
    },
    ENGLISH,
  );
}

describe('the headline sentence', () => {
  it.each<[string, Partial<HeadlineInput>, string]>([
    [
      'an estimate later this week, with the service rule’s time',
      {
        estimatedDelivery: '2026-11-27T00:00:00.000Z',
        window: { ...BY_SIX, until: '2026-11-27T23:00:00.000Z' },
      },
      'Arriving Friday, 27 November, by 6 pm EST',
    ],
    [
      'an estimate tomorrow',
      { estimatedDelivery: '2026-11-26T00:00:00.000Z', window: BY_SIX },
      'Arriving tomorrow, by 6 pm EST',
    ],
    [
      'an estimate today with a window of two hours',
      {
        status: 'Picked Up',
        estimatedDelivery: '2026-11-25T00:00:00.000Z',
        window: { from: '2026-11-25T19:00:00.000Z', until: '2026-11-25T21:30:00.000Z' },
      },
      'Arriving today, between 2 pm and 4:30 pm EST',
    ],
    [
      'an estimate that has passed: late, and the next working day promised',
      { estimatedDelivery: '2026-11-24T00:00:00.000Z' },
      'Running late — we now expect it tomorrow',
    ],
    ['no estimate, in transit', {}, 'On its way'],
    ['no estimate, label only', { status: 'Pending' }, 'Label created — waiting for the parcel'],
    [
      'pending with an estimate',
      { status: 'Pending', estimatedDelivery: '2026-12-02T00:00:00.000Z' },
      'Arriving Wednesday, 2 December',
    ],
    [
      'out for delivery with a window',
      {
        status: 'Out for Delivery',
        estimatedDelivery: '2026-11-25T00:00:00.000Z',
        window: { from: null, until: '2026-11-25T17:00:00.000Z' },
      },
      'Out for delivery today, by 12 pm EST',
    ],
    ['out for delivery without a window', { status: 'Out for Delivery' }, 'Out for delivery today'],
    [
      'a failed attempt with the next one on Friday',
      { status: 'Failed', nextAttemptDate: '2026-11-27' },
      "Delivery attempted — we'll try again Friday",
    ],
    [
      'a failed attempt with the next one tomorrow',
      { status: 'Failed', nextAttemptDate: '2026-11-26' },
      "Delivery attempted — we'll try again tomorrow",
    ],
    [
      'a failed attempt with the next one more than a week away',
      { status: 'Failed', nextAttemptDate: '2026-12-07' },
      "Delivery attempted — we'll try again Monday, 7 December",
    ],
    [
      'a failed attempt without a next date',
      { status: 'Failed' },
      "Delivery attempted — we'll be in touch about the next try",
    ],
    [
      'delivered, received by a named person, in the zone it happened',
      {
        status: 'Delivered',
        estimatedDelivery: '2026-11-26T00:00:00.000Z',
        deliveredAt: '2026-11-24T19:32:00.000Z',
        deliveredTimeZone: ZONE,
        receivedBy: 'Jane  smith',
      },
      'Delivered Tuesday, 24 November at 2:32 pm EST, received by J. S.',
    ],
    [
      'delivered in another zone, nobody named',
      {
        status: 'Delivered',
        deliveredAt: '2026-11-24T19:32:00.000Z',
        deliveredTimeZone: 'America/Los_Angeles',
      },
      'Delivered Tuesday, 24 November at 11:32 am PST',
    ],
    ['delivered without a time', { status: 'Delivered' }, 'Delivered'],
    [
      'returned',
      { status: 'Returned', estimatedDelivery: '2026-11-27T00:00:00.000Z' },
      'Returned to the sender',
    ],
  ])('%s', (_case, input, expected) => {
    expect(headline(input)).toBe(expected);
  });

  it('reads "today" in the recipient’s zone, not UTC', () => {
    // 23:30 in New York on the 25th is already the 26th in UTC.
    const late = new Date('2026-11-26T04:30:00Z');
    expect(headline({ now: late, estimatedDelivery: '2026-11-26T00:00:00.000Z' })).toBe(
      'Arriving tomorrow',
    );
  });

  // 23:12 in Los Angeles on Wednesday 25 November.
  const NIGHT = new Date('2026-11-26T07:12:00Z');
  const LA = 'America/Los_Angeles';
  const BY_1030 = { from: null, until: '2026-11-25T18:30:00.000Z' };

  it.each<[string, Partial<HeadlineInput>, string]>([
    [
      'a "by" time today that has passed, late at night: the next working day',
      { estimatedDelivery: '2026-11-25T00:00:00.000Z', window: BY_1030 },
      'Running late — we now expect it tomorrow',
    ],
    [
      'out for delivery past its window, late at night',
      {
        status: 'Out for Delivery',
        estimatedDelivery: '2026-11-25T00:00:00.000Z',
        window: BY_1030,
      },
      'Running late — we now expect it tomorrow',
    ],
    [
      'out for delivery past its window while rounds are still out: later today',
      {
        status: 'Out for Delivery',
        estimatedDelivery: '2026-11-25T00:00:00.000Z',
        window: BY_1030,
        now: new Date('2026-11-25T22:00:00Z'),
      },
      'Running late — we now expect it later today',
    ],
    [
      'a window still ahead in the recipient’s zone, though passed in the company’s',
      {
        estimatedDelivery: '2026-11-25T00:00:00.000Z',
        window: { from: '2026-11-25T17:00:00.000Z', until: '2026-11-25T20:00:00.000Z' },
        now: new Date('2026-11-25T19:30:00Z'),
      },
      'Arriving today, between 9 am and 12 pm PST',
    ],
    [
      'a Friday night past its time: Monday',
      {
        estimatedDelivery: '2026-11-27T00:00:00.000Z',
        window: { from: null, until: '2026-11-28T02:00:00.000Z' },
        now: new Date('2026-11-28T07:00:00Z'),
      },
      'Running late — we now expect it Monday',
    ],
    [
      'a day the recipient asked for',
      { estimatedDelivery: '2026-12-01T00:00:00.000Z', requestedDate: '2026-12-01' },
      'Arriving Tuesday, 1 December, the day you asked for',
    ],
    [
      'out for delivery though the recipient asked for another day',
      { status: 'Out for Delivery', requestedDate: '2026-12-01' },
      'Out for delivery today — you asked for Tuesday, 1 December',
    ],
    [
      'held at the depot',
      { estimatedDelivery: '2026-11-27T00:00:00.000Z', holdAtDepot: true },
      'Held at the depot for you to collect',
    ],
  ])('never a promise in the past: %s', (_case, input, expected) => {
    expect(headline({ now: NIGHT, timeZone: LA, ...input })).toBe(expected);
  });
});

describe('the progress steps', () => {
  const current = (status: string) =>
    progressSteps(status, ENGLISH)
      .filter((s) => s.state === 'current')
      .map((s) => s.label);

  it.each([
    ['Pending', 'Label created'],
    ['Picked Up', 'Picked up'],
    ['In Transit', 'In transit'],
    ['Out for Delivery', 'Out for delivery'],
    ['Failed', 'Delivery attempted'],
    ['Delivered', 'Delivered'],
    ['Returned', 'Returned to sender'],
  ])('%s: the current step is %s, with those before it done', (status, label) => {
    expect(current(status)).toEqual([label]);
    const steps = progressSteps(status, ENGLISH);
    const index = steps.findIndex((s) => s.state === 'current');
    expect(steps.slice(0, index).every((s) => s.state === 'done')).toBe(true);
    expect(steps.slice(index + 1).every((s) => s.state === 'upcoming')).toBe(true);
  });
});

describe('the formatting kept between requests', () => {
  it('computes an answer once per key, and keeps at most as many as it is given', () => {
    const calls: string[] = [];
    const upper = remembered(
      (text: string) => {
        calls.push(text);
        return text.toUpperCase();
      },
      (text) => text,
      2,
    );
    expect([upper('a'), upper('a'), upper('b')]).toEqual(['A', 'A', 'B']);
    expect(calls).toEqual(['a', 'b']);
    upper('c'); // 'a', the oldest, is forgotten
    expect([upper('b'), upper('a')]).toEqual(['B', 'A']);
    expect(calls).toEqual(['a', 'b', 'c', 'a']);
  });

  it('gives the same sentence the second time, in each language', () => {
    const input = { status: 'Out for Delivery', window: BY_SIX, estimatedDelivery: null };
    expect(headline(input)).toEqual(headline(input));
    const spanish = wordsFor('es');
    expect(spanish.t('windowBy', { time: '6 pm' })).toBe(spanish.t('windowBy', { time: '6 pm' }));
    expect(spanish.t('windowBy', { time: '7 pm' })).not.toBe(
      spanish.t('windowBy', { time: '6 pm' }),
    );
  });
});
