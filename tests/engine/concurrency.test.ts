import mongoose, { Schema, type Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from './helpers';

let opened: TestDb;
let conn: Connection;

beforeAll(async () => {
  opened = await openTestDb('concurrency', { maxPoolSize: 20 });
  conn = await mongoose
    .createConnection(opened.target.uri + opened.db.databaseName, { maxPoolSize: 20 })
    .asPromise();
});

afterAll(async () => {
  await conn?.close();
  await opened.close();
});

describe('concurrency', () => {
  it('lets exactly one of 20 concurrent creates of the same unique key succeed', async () => {
    const Parcel = conn.model(
      'Parcel',
      new Schema({ trackingNumber: { type: String, unique: true }, n: Number }),
    );
    await Parcel.init();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, n) => Parcel.create({ trackingNumber: 'SAME', n })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(19);
    for (const f of failed) expect(f.reason).toMatchObject({ code: 11000 });
    expect(await Parcel.countDocuments({ trackingNumber: 'SAME' })).toBe(1);
  });

  it('applies 500 concurrent $inc exactly', async () => {
    const coll = opened.db.collection<{ _id: string; seq: number }>('counters');
    await Promise.all(
      Array.from({ length: 500 }, () =>
        coll.findOneAndUpdate(
          { _id: 'receipt' },
          { $inc: { seq: 1 } },
          { upsert: true, returnDocument: 'after' },
        ),
      ),
    );
    expect((await coll.findOne({ _id: 'receipt' }))!.seq).toBe(500);
    await Promise.all(
      Array.from({ length: 500 }, () => coll.updateOne({ _id: 'receipt' }, { $inc: { seq: 1 } })),
    );
    expect((await coll.findOne({ _id: 'receipt' }))!.seq).toBe(1000);
  });
});
