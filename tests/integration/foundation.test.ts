import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo } from '../../embedded-mongo';
import { callRoute } from '../support/api';

// This file owns its database engine so it can stop it; set before any app module loads.
const engine = await startEmbeddedMongo();
process.env.MONGODB_URI = `${engine.uri.replace(/\/?$/, '/')}foundation`;
process.env.ADMIN_USERNAME = 'boss';
process.env.ADMIN_PASSWORD = 'correct-horse-battery';

const { parseEnv } = await import('~/lib/env.server');
const { Parcel } = await import('~/models/parcel.server');
const { generateTrackingNumber, insertWithTrackingNumber } =
  await import('~/models/parcel-tracking-numbers.server');
const { User, verifyLogin } = await import('~/models/user.server');
const { describeSeed, seedIfEmpty } = await import('~/services/seed.server');
const { env } = await import('~/lib/env.server');
const { loader: meLoader } = await import('~/routes/api.auth.me');
const { action: loginAction } = await import('~/routes/api.auth.login');
/** A bearer token from POST /api/auth/login. */
async function login(username: string, password: string): Promise<string> {
  const res = await callRoute(loginAction, '/api/auth/login', {
    method: 'POST',
    body: { username, password },
  });
  expect(res.status).toBe(200);
  return (await res.json()).token;
}
const { connectDb, disconnectDb } = await import('~/lib/db.server');
const { loader: healthLoader } = await import('~/routes/api.health');
const health = () => callRoute(healthLoader, '/api/health');
const { TRACKING_NUMBER_PATTERN } = await import('~/schemas/constants');

afterAll(async () => {
  await disconnectDb().catch(() => {});
  await engine.stop().catch(() => {});
});

describe('environment', () => {
  it('applies defaults', () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.COMPANY_NAME).toBeTruthy();
    expect(env.MONGODB_URI).toBeUndefined();
    expect(env.PASSWORD_HASH_COST).toBe(16384);
  });

  it('hashes a new password at PASSWORD_HASH_COST and still checks a hash stored at another', async () => {
    const { hashPassword, verifyPassword } = await import('~/lib/password.server');
    // The suites lower the cost (tests/support/vitest-setup.ts); production keeps 16384.
    const hash = await hashPassword('horse-battery');
    expect(hash.split('$').slice(0, 4)).toEqual([
      'scrypt',
      String(env.PASSWORD_HASH_COST),
      '8',
      '1',
    ]);
    expect(await verifyPassword('horse-battery', hash)).toBe(true);
    const stored =
      'scrypt$16384$8$1$MDEyMzQ1Njc4OWFiY2RlZg==$OQ+n5Fg6k0yuwn2TdGtR5Dr/fV+dpSrLPN71yzgOU8pwXvAxrc25EwoKW7wrLi1wmqK18TcSbBb5k8DXxjLXpA==';
    expect(await verifyPassword('horse-battery', stored)).toBe(true);
    expect(await verifyPassword('horse-batteries', stored)).toBe(false);
  });

  it('names the variable that is wrong', () => {
    expect(() => parseEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => parseEnv({ MONGODB_URI: 'postgres://x' })).toThrow(/MONGODB_URI/);
    expect(() => parseEnv({ COMPANY_EMAIL: 'not-an-email' })).toThrow(/COMPANY_EMAIL/);
    expect(() => parseEnv({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
    expect(() => parseEnv({ PASSWORD_HASH_COST: '1000' })).toThrow(/PASSWORD_HASH_COST/);
    expect(() => parseEnv({ PASSWORD_HASH_COST: '512' })).toThrow(/PASSWORD_HASH_COST/);
  });

  it('treats empty values as unset', () => {
    expect(parseEnv({ SMTP_URL: '', PORT: '' }).PORT).toBe(3000);
  });

  it('reads TRUST_PROXY as express takes it: no proxy, a number of hops, or the proxies themselves', () => {
    const trust = (value?: string) => parseEnv({ TRUST_PROXY: value }).TRUST_PROXY;
    expect(trust()).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    // `true` is one proxy, never "believe the first X-Forwarded-For entry".
    expect(trust('true')).toBe(1);
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 192.0.2.7,loopback, fd00::/8')).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'loopback',
      'fd00::/8',
    ]);
    for (const bad of ['yes', '-1', '1.5', '10.0.0.0/99', 'loopback,', 'proxy.example'])
      expect(() => trust(bad), bad).toThrow(/TRUST_PROXY: must be false, the number of proxies/);
  });
});

describe('tracking numbers', () => {
  it('are three capital letters and nine digits', () => {
    const numbers = new Set(Array.from({ length: 2000 }, generateTrackingNumber));
    for (const n of numbers) expect(n).toMatch(TRACKING_NUMBER_PATTERN);
    expect(numbers.size).toBeGreaterThan(1990);
  });

  it('are retried when the unique index reports a collision', async () => {
    await connectDb();
    const first = await Parcel.create({ trackingNumber: 'DUP000000001' });
    const candidates = ['DUP000000001', 'DUP000000001', 'NEW000000002'];
    const created = await insertWithTrackingNumber(
      (trackingNumber) => Parcel.create({ trackingNumber }),
      () => candidates.shift()!,
    );
    expect(created.trackingNumber).toBe('NEW000000002');
    expect(await Parcel.countDocuments({ trackingNumber: first.trackingNumber })).toBe(1);
  });

  it('gives up after repeated collisions instead of looping', async () => {
    await expect(
      insertWithTrackingNumber(
        (trackingNumber) => Parcel.create({ trackingNumber }),
        () => 'DUP000000001',
        3,
      ),
    ).rejects.toMatchObject({ code: 11000 });
  });
});

describe('first-start seed', () => {
  it('creates the admin and demo parcels once, and never on a database with data', async () => {
    await connectDb();
    await Parcel.deleteMany({});
    await User.deleteMany({});
    const first = await seedIfEmpty({ demoParcels: true });
    expect(first.seeded).toBe(true);
    if (!first.seeded) return;
    expect(first.username).toBe('boss');
    expect(first.trackingNumbers.length).toBeGreaterThanOrEqual(4);
    const statuses = await Parcel.distinct('status');
    expect(statuses.length).toBeGreaterThanOrEqual(4);
    expect(await verifyLogin('BOSS', 'correct-horse-battery')).toMatchObject({
      username: 'boss',
      role: 'admin',
    });

    const second = await seedIfEmpty({ demoParcels: true });
    expect(second.seeded).toBe(false);
    expect(await User.countDocuments()).toBe(1);
    expect(await Parcel.countDocuments()).toBe(first.trackingNumbers.length);
    // ADMIN_PASSWORD is the operator's own: the admin uses it at once.
    expect(
      await callRoute(meLoader, '/api/auth/me', {
        token: await login('boss', 'correct-horse-battery'),
      }).then((r) => r.status),
    ).toBe(200);
  });

  it('prints a made-up password as temporary: the admin must change it at the first sign-in', async () => {
    await Parcel.deleteMany({});
    await User.deleteMany({});
    const given = env.ADMIN_PASSWORD;
    env.ADMIN_PASSWORD = undefined;
    try {
      const seeded = await seedIfEmpty({ demoParcels: false });
      if (!seeded.seeded) throw new Error('not seeded');
      expect(describeSeed(seeded)).toContain(
        `Password:       ${seeded.password} (temporary: choose your own at the first sign-in)`,
      );
      const token = await login('boss', seeded.password!);
      const me = await callRoute(meLoader, '/api/auth/me', { token });
      expect(me.status).toBe(403);
      expect(await me.json()).toMatchObject({ code: 'password_change_required' });
    } finally {
      env.ADMIN_PASSWORD = given;
    }
  });
});

describe('GET /api/health', () => {
  it('is up while the database answers, 503 once it is gone', async () => {
    const up = await health();
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ status: 'ok', database: 'up' });

    await engine.stop();
    const down = await health();
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ database: 'down' });
  });
});
