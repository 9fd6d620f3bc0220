import mongoose from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { addressKey, RateLimit, rateLimitHeaders } from '~/lib/rate-limit.server';
import { loginFailures, userAddressKey } from '~/http/auth.server';
import { postcodeClientLimiter } from '~/services/delivery-preferences.server';
import { contactLimiter, newsletterLimiter, quoteLimiter } from '~/services/inquiries.server';
import { subscribeClientLimiter } from '~/services/parcel-subscriptions.server';
import { trackingLimiter } from '~/services/public-tracking.server';

// Each RateLimit object stands for one app process: they share nothing but the database.
beforeAll(async () => {
  await connectDb();
});

afterAll(async () => {
  await disconnectDb();
});

describe('RateLimit (counted in MongoDB)', () => {
  it('allows exactly the budget, in order, across two processes, then refuses with a wait', async () => {
    const a = new RateLimit('seq', 60, 60_000);
    const b = new RateLimit('seq', 60, 60_000);
    const answers: boolean[] = [];
    for (let i = 0; i < 70; i++) answers.push((await (i % 2 ? a : b).hit('1.2.3.4')).allowed);
    expect(answers.indexOf(false)).toBe(60);
    expect(answers.slice(60).every((allowed) => !allowed)).toBe(true);
    const refused = await a.hit('1.2.3.4');
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Another address has its own budget.
    expect((await b.hit('5.6.7.8')).allowed).toBe(true);
  });

  it('goes on counting after the app reconnects to the database', async () => {
    const limit = new RateLimit('reconnect', 3, 60_000);
    expect((await limit.hit('9.9.9.9')).remaining).toBe(2);
    await disconnectDb();
    await connectDb();
    // The count is in the database, so it carries over to the new connection.
    expect((await limit.hit('9.9.9.9')).remaining).toBe(1);
    expect((await limit.peek('9.9.9.9')).remaining).toBe(1);
  });

  it('lets 300 concurrent hits through on a budget of 1,000', async () => {
    const processes = [new RateLimit('burst', 1000, 60_000), new RateLimit('burst', 1000, 60_000)];
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) => processes[i % 2]!.hit('10.0.0.1')),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(300);
    expect(Math.min(...results.map((r) => r.remaining))).toBe(700);
  });

  it('never lets more than the budget through concurrently', async () => {
    const limit = new RateLimit('race', 25, 60_000);
    const results = await Promise.all(Array.from({ length: 80 }, () => limit.hit('10.0.0.2')));
    expect(results.filter((r) => r.allowed)).toHaveLength(25);
  });

  it('gives back refunded hits, so that a refused hit refunded leaves the count where it was', async () => {
    const limit = new RateLimit('refund', 2, 60_000);
    await limit.hit('k');
    await limit.hit('k');
    expect((await limit.hit('k')).allowed).toBe(false);
    await limit.refund('k');
    expect((await limit.peek('k')).remaining).toBe(0);
    await limit.refund('k');
    expect((await limit.hit('k')).allowed).toBe(true);
  });

  it('peeks without counting, resets a key and starts a new window when one ends', async () => {
    const limit = new RateLimit('window', 2, 1_000);
    await limit.hit('k');
    expect((await limit.peek('k', 1)).allowed).toBe(true);
    await limit.hit('k');
    expect((await limit.peek('k', 1)).allowed).toBe(false);
    expect((await limit.peek('k')).allowed).toBe(true);
    await limit.reset('k');
    expect((await limit.hit('k')).remaining).toBe(1);
    await limit.hit('k');
    expect((await limit.hit('k')).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await limit.hit('k')).allowed).toBe(true);
  });

  it('keeps its counts in the rate_limits collection, one document per key', async () => {
    const limit = new RateLimit('stored', 5, 60_000);
    await limit.hit('192.0.2.1');
    await limit.hit('192.0.2.1');
    const docs = await mongoose.connection
      .collection('rate_limits')
      .find({ key: 'stored:192.0.2.1' })
      .toArray();
    expect(docs).toHaveLength(1);
    expect(docs[0]!.points).toBe(2);
    await limit.clear();
    expect(
      await mongoose.connection.collection('rate_limits').countDocuments({ key: /^stored:/ }),
    ).toBe(0);
  });

  it('describes itself in the standard headers', async () => {
    const limit = new RateLimit('headers', 1, 60_000);
    expect(rateLimitHeaders(await limit.hit('h'))).toMatchObject({
      'RateLimit-Limit': '1',
      'RateLimit-Remaining': '0',
    });
    const refused = rateLimitHeaders(await limit.hit('h'));
    expect(Number(refused['Retry-After'])).toBeGreaterThan(0);
  });

  it('counts an IPv6 client by its /64 network and an IPv4 one written as IPv6 as itself', () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('unknown')).toBe('unknown');
    expect(userAddressKey('Ann', '2001:db8:1:2::9')).toBe('ann|2001:db8:1:2::/64');
  });

  it('every per-address limit holds a client that changes its address within one /64', async () => {
    const limits = [
      trackingLimiter,
      subscribeClientLimiter,
      contactLimiter,
      quoteLimiter,
      newsletterLimiter,
      postcodeClientLimiter,
      loginFailures.address,
    ];
    const network = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:1`;
    for (const limit of limits) {
      await limit.hit(`${network}::1`, limit.limit);
      const moved = await limit.hit(`${network}:ffff:ffff:ffff:ffff`);
      expect(moved.allowed, limit.name).toBe(false);
      expect((await limit.hit('2001:db8:ffff:ffff::1')).allowed, limit.name).toBe(true);
    }
  });
});
