import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyKey } from '~/models/idempotency-key.server';
import { Parcel } from '~/models/parcel.server';
import { action as parcelsAction } from '~/routes/api.parcels';
import { action as eventsAction } from '~/routes/api.tracking.$parcelId.events';
import { connectDb, disconnectDb } from '~/lib/db.server';
import { callRoute } from '../support/api';
import { createApiKey, createUser } from '../support/factories';
import { apiError } from '../support/api-error';

let tokenAuth: Record<string, string>;
let keyAuth: Record<string, string>;

beforeAll(async () => {
  await connectDb();
  const admin = await createUser('admin', { username: 'idem' });
  tokenAuth = admin.auth;
  keyAuth = (await createApiKey(['read', 'write'], admin)).auth;
});

afterAll(async () => {
  await disconnectDb();
});

const parcel = (name: string) => ({ recipient: { name, address: '8 Retry Lane' }, weight: 1 });

function createParcel(body: unknown, key: string | null, auth = tokenAuth) {
  return callRoute(parcelsAction, '/api/parcels', {
    method: 'POST',
    headers: { ...auth, ...(key === null ? {} : { 'Idempotency-Key': key }) },
    body,
  });
}

describe('Idempotency-Key on POST', () => {
  it('replays the first answer for the same key and body, and refuses another body with 422', async () => {
    const first = await createParcel(parcel('Ida Once'), 'order-1001');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const created = await first.json();

    const again = await createParcel(parcel('Ida Once'), 'order-1001');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toMatch(/application\/json/);
    expect(await again.json()).toEqual(created);
    expect(await Parcel.countDocuments({ 'recipient.name': 'Ida Once' })).toBe(1);

    const other = await createParcel(parcel('Someone Else'), 'order-1001');
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual(
      apiError(
        'This Idempotency-Key was already used with a different request',
        'idempotency_key_reused',
      ),
    );
    expect(await Parcel.countDocuments({ 'recipient.name': 'Someone Else' })).toBe(0);

    // The same key on another endpoint is another request too.
    const event = await callRoute(eventsAction, `/api/tracking/${created.parcel.id}/events`, {
      method: 'POST',
      headers: { ...tokenAuth, 'Idempotency-Key': 'order-1001' },
      params: { parcelId: created.parcel.id },
      body: parcel('Ida Once'),
    });
    expect(event.status).toBe(422);
  });

  it('makes one parcel from thirty concurrent creates with one key', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => createParcel(parcel('Thirty Times'), 'burst-key', keyAuth)),
    );
    const statuses = responses.map((r) => r.status);
    expect(await Parcel.countDocuments({ 'recipient.name': 'Thirty Times' })).toBe(1);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const fresh = responses.filter(
      (r) => r.status === 201 && r.headers.get('idempotent-replayed') !== 'true',
    );
    expect(fresh).toHaveLength(1);
    for (const res of responses.filter((r) => r.status === 409)) {
      expect((await res.json()).error).toMatch(/still being processed/);
      expect(res.headers.get('retry-after')).toBe('1');
    }
    // Once the first has answered, every retry gets its answer.
    const later = await createParcel(parcel('Thirty Times'), 'burst-key', keyAuth);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers 409 while the first request with the key is still running', async () => {
    // What the first request leaves while it runs: the key claimed, no answer yet.
    const first = await createParcel(parcel('Slow One'), 'running-key');
    expect(first.status).toBe(201);
    await IdempotencyKey.updateOne(
      { key: 'running-key' },
      { $set: { state: 'running', runningUntil: new Date(Date.now() + 60_000) } },
    );
    const second = await createParcel(parcel('Slow One'), 'running-key');
    expect(second.status).toBe(409);
    // A first request that died (its time ran out) leaves the key to a retry, which runs.
    await IdempotencyKey.updateOne(
      { key: 'running-key' },
      { $set: { runningUntil: new Date(Date.now() - 1000) } },
    );
    const retry = await createParcel(parcel('Slow One'), 'running-key');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('keeps keys per credential, for 24 hours, and checks their form', async () => {
    const byToken = await createParcel(parcel('Per Credential'), 'shared-key');
    const byKey = await createParcel(parcel('Per Credential'), 'shared-key', keyAuth);
    expect(byToken.status).toBe(201);
    expect(byKey.status).toBe(201);
    expect(byKey.headers.get('idempotent-replayed')).toBeNull();
    expect(await Parcel.countDocuments({ 'recipient.name': 'Per Credential' })).toBe(2);

    const stored = await IdempotencyKey.findOne({ key: 'shared-key' }).lean();
    const ttl = stored!.expiresAt.getTime() - stored!.createdAt.getTime();
    // Kept for 24 hours from when the key was first used (createdAt is stamped a moment later).
    expect(Math.abs(ttl - 24 * 60 * 60 * 1000)).toBeLessThan(1000);
    const indexes = await IdempotencyKey.collection.indexes();
    expect(indexes).toContainEqual(
      expect.objectContaining({ key: { expiresAt: 1 }, expireAfterSeconds: 0 }),
    );

    for (const bad of ['', 'x'.repeat(256), 'has space']) {
      const res = await createParcel(parcel('Bad Key'), bad);
      expect(res.status).toBe(400);
      expect(Object.keys((await res.json()).details)).toEqual(['Idempotency-Key']);
    }
    expect((await createParcel(parcel('Long Key'), 'k'.repeat(255))).status).toBe(201);
    // Without the header nothing changes: two creates, two parcels.
    await createParcel(parcel('No Key'), null);
    await createParcel(parcel('No Key'), null);
    expect(await Parcel.countDocuments({ 'recipient.name': 'No Key' })).toBe(2);
  });

  it('replays a validation error too, and forgets nothing when the body is the same', async () => {
    const bad = await createParcel({ recipient: {} }, 'bad-body');
    expect(bad.status).toBe(400);
    const again = await createParcel({ recipient: {} }, 'bad-body');
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await bad.json());
  });
});
