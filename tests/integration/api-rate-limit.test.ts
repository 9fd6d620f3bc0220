import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '~/models/api-key.server';
import { issueApiToken } from '~/models/api-token.server';
import { Parcel } from '~/models/parcel.server';
import { createUser } from '~/models/user.server';
import { loader as meLoader } from '~/routes/api.auth.me';
import { action as parcelsAction, loader as parcelsLoader } from '~/routes/api.parcels';
import { API_RATE_LIMITED, USER_SESSION_KEY } from '~/http/auth.server';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { env } from '~/lib/env.server';
import { sessionStorage } from '~/http/session.server';
import { callRoute } from '../support/api';

// A small budget, in force before the first API request of this file.
const LIMIT = 3;
env.RATE_LIMIT_API_PER_MINUTE = LIMIT;

let userId: string;

beforeAll(async () => {
  await connectDb();
  userId = (await createUser({ username: 'busy-client', password: 'busy-client-pw' })).id;
});

afterAll(async () => {
  await disconnectDb();
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const list = (headers: Record<string, string>) =>
  callRoute(parcelsLoader, '/api/parcels', { headers });

describe('the API rate limit per credential', () => {
  it('answers 429 with Retry-After and RateLimit-* past the budget, and changes nothing', async () => {
    const { key } = await createApiKey({ name: 'Busy sync', scopes: ['read', 'write'] }, userId);
    for (let i = 0; i < LIMIT; i++) expect((await list(bearer(key))).status).toBe(200);

    const refused = await list(bearer(key));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: API_RATE_LIMITED,
      message: API_RATE_LIMITED,
      code: 'rate_limited',
    });
    expect(refused.headers.get('RateLimit-Limit')).toBe(String(LIMIT));
    expect(refused.headers.get('RateLimit-Remaining')).toBe('0');
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // A write past the budget is refused before it is read: no parcel is made.
    const before = await Parcel.countDocuments();
    const create = await callRoute(parcelsAction, '/api/parcels', {
      method: 'POST',
      headers: bearer(key),
      body: { recipient: { name: 'Never Made', address: '1 Nowhere St' } },
    });
    expect(create.status).toBe(429);
    expect(await Parcel.countDocuments()).toBe(before);

    // Another key of the same user has a budget of its own.
    const other = await createApiKey({ name: 'Other sync', scopes: ['read'] }, userId);
    expect((await list(bearer(other.key))).status).toBe(200);
  });

  it("counts a user's login tokens and session cookie together", async () => {
    const session = await sessionStorage.getSession();
    session.set(USER_SESSION_KEY, userId);
    const cookie = (await sessionStorage.commitSession(session)).split(';')[0]!;
    const first = (await issueApiToken(userId)).token;
    const second = (await issueApiToken(userId)).token;

    expect((await list(bearer(first))).status).toBe(200);
    expect((await list(bearer(second))).status).toBe(200);
    expect((await list({ Cookie: cookie })).status).toBe(200);
    expect((await list(bearer(first))).status).toBe(429);
    expect(
      (await callRoute(meLoader, '/api/auth/me', { headers: { Cookie: cookie } })).status,
    ).toBe(429);
  });

  it('leaves requests without a valid credential to the 401 they get', async () => {
    for (let i = 0; i <= LIMIT; i++)
      expect((await list(bearer('sk_not-a-real-key'))).status).toBe(401);
  });
});
