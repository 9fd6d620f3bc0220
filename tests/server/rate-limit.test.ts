import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  RateLimiter,
  RateLimitServer,
  SharedRateLimiter,
  type LimitTransport,
} from '~/services/rate-limit.server';

/** `count` app processes sharing one primary, each with its own limiter object, as in the cluster. */
function processes(count: number, limit: number, windowMs: number, leased: boolean) {
  const server = new RateLimitServer(() => count);
  let messages = 0;
  let id = 0;
  const transport: LimitTransport = async (request) => {
    messages += 1;
    return server.handle({ type: 'rate-limit', id: ++id, ...request });
  };
  const limiters = Array.from(
    { length: count },
    () => new SharedRateLimiter('tracking', limit, windowMs, { leased, transport }),
  );
  return { limiters, messages: () => messages };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RateLimiter', () => {
  it('allows the limit in a window, then says how long to wait', () => {
    const limiter = new RateLimiter(3, 60_000);
    const start = 1_000_000;
    expect([1, 2, 3].map(() => limiter.hit('1.2.3.4', start).allowed)).toEqual([true, true, true]);
    expect(limiter.hit('1.2.3.4', start + 15_000)).toEqual({
      allowed: false,
      remaining: 0,
      retryAfterSeconds: 45,
    });
    expect(limiter.hit('5.6.7.8', start).allowed).toBe(true);
    expect(limiter.peek('1.2.3.4', start + 59_000).allowed).toBe(false);
    expect(limiter.hit('1.2.3.4', start + 60_000).allowed).toBe(true);
    limiter.reset('1.2.3.4');
    expect(limiter.peek('1.2.3.4', start + 60_000)).toMatchObject({ allowed: true, remaining: 3 });
  });
});

describe('a shared limit across app processes', () => {
  it('without leases asks the primary on every hit and holds exactly', async () => {
    const { limiters, messages } = processes(2, 5, 60_000, false);
    const results = [];
    for (let i = 0; i < 8; i++) results.push((await limiters[i % 2]!.hit('1.2.3.4')).allowed);
    expect(results).toEqual([true, true, true, true, true, false, false, false]);
    expect(messages()).toBe(8);
  });

  it('with leases holds a small limit exactly, whichever process a request reaches', async () => {
    const { limiters } = processes(2, 4, 60_000, true);
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await limiters[i % 2]!.hit('1.2.3.4'));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, false, false]);
    expect(results[5]!.retryAfterSeconds).toBeGreaterThan(0);
  });

  it('with leases never lets more than the limit through and asks the primary only now and then', async () => {
    const { limiters, messages } = processes(2, 60, 60_000, true);
    let allowed = 0;
    for (let i = 0; i < 100; i++)
      if ((await limiters[i % 3 === 0 ? 1 : 0]!.hit('1.2.3.4')).allowed) allowed += 1;
    expect(allowed).toBeLessThanOrEqual(60);
    expect(allowed).toBeGreaterThanOrEqual(57);
    expect(messages()).toBeLessThan(60);
    // Another client has its own budget.
    expect((await limiters[0]!.hit('5.6.7.8')).allowed).toBe(true);
  });

  it('with leases starts over when the window ends', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T10:00:00Z'));
    const { limiters } = processes(2, 40, 60_000, true);
    let allowed = 0;
    for (let i = 0; i < 50; i++) if ((await limiters[i % 2]!.hit('1.2.3.4')).allowed) allowed += 1;
    expect(allowed).toBeLessThanOrEqual(40);
    expect((await limiters[0]!.peek('1.2.3.4', 1)).allowed).toBe(false);
    vi.setSystemTime(new Date('2026-01-01T10:01:00Z'));
    expect((await limiters[0]!.peek('1.2.3.4', 1)).allowed).toBe(true);
    expect((await limiters[1]!.hit('1.2.3.4')).allowed).toBe(true);
  });

  it('with leases, a reset drops the process share and the primary count', async () => {
    const { limiters } = processes(2, 40, 60_000, true);
    for (let i = 0; i < 45; i++) await limiters[i % 2]!.hit('1.2.3.4');
    expect((await limiters[0]!.hit('1.2.3.4')).allowed).toBe(false);
    await limiters[0]!.reset('1.2.3.4');
    expect((await limiters[0]!.hit('1.2.3.4')).allowed).toBe(true);
  });
});
