import { MongoClient } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { startEmbeddedMongoHere } from '../../embedded-mongo';
import { runCommand } from '../../embedded-mongo/commands';
import { Engine } from '../../embedded-mongo/engine';

const ctx = { connectionId: 1 };

function run(engine: Engine, cmd: Record<string, unknown>) {
  const reply = runCommand(engine, { ...cmd, $db: 'ttl' }, ctx);
  expect(reply).toMatchObject({ ok: 1 });
  return reply;
}

describe('TTL indexes', () => {
  it('deletes documents once their date is expireAfterSeconds in the past', () => {
    const engine = new Engine();
    run(engine, {
      createIndexes: 'sessions',
      indexes: [{ key: { expiresAt: 1 }, name: 'expiresAt_1', expireAfterSeconds: 0 }],
    });
    run(engine, {
      createIndexes: 'keys',
      indexes: [{ key: { createdAt: 1 }, name: 'createdAt_1', expireAfterSeconds: 60 }],
    });
    const now = Date.UTC(2026, 0, 1, 12);
    run(engine, {
      insert: 'sessions',
      documents: [
        { _id: 'past', expiresAt: new Date(now - 1000) },
        { _id: 'future', expiresAt: new Date(now + 1000) },
        { _id: 'array', expiresAt: [new Date(now + 5000), new Date(now - 5000)] },
        { _id: 'not-a-date', expiresAt: 'tomorrow' },
        { _id: 'none' },
      ],
    });
    run(engine, {
      insert: 'keys',
      documents: [
        { _id: 'old', createdAt: new Date(now - 61_000) },
        { _id: 'recent', createdAt: new Date(now - 59_000) },
      ],
    });
    engine.takeOps();
    expect(engine.expireTtl(now)).toBe(3);
    const ops = engine.takeOps();
    expect(ops.map((op) => op.o)).toEqual(['r', 'r', 'r']);
    const ids = (coll: string) =>
      [...engine.collection('ttl', coll)!.docs.values()].map((d) => d._id).sort();
    expect(ids('sessions')).toEqual(['future', 'none', 'not-a-date']);
    expect(ids('keys')).toEqual(['recent']);
    expect(engine.expireTtl(now + 2000)).toBe(2);
    expect(ids('sessions')).toEqual(['none', 'not-a-date']);
    expect(ids('keys')).toEqual([]);
  });

  it('keeps the option in the index definition and rejects a bad value', () => {
    const engine = new Engine();
    run(engine, {
      createIndexes: 'c',
      indexes: [{ key: { at: 1 }, name: 'at_1', expireAfterSeconds: 30, background: true }],
    });
    const listed = run(engine, { listIndexes: 'c' }) as {
      cursor: { firstBatch: Array<Record<string, unknown>> };
    };
    expect(listed.cursor.firstBatch[1]).toMatchObject({ name: 'at_1', expireAfterSeconds: 30 });
    const bad = runCommand(
      engine,
      {
        createIndexes: 'c',
        indexes: [{ key: { other: 1 }, name: 'other_1', expireAfterSeconds: -1 }],
        $db: 'ttl',
      },
      ctx,
    );
    expect(bad).toMatchObject({ ok: 0, code: 67 });
  });

  it('runs the monitor every ttlMonitorSleepSecs, which setParameter changes', async () => {
    const db = await startEmbeddedMongoHere();
    const client = await MongoClient.connect(db.uri);
    try {
      const admin = client.db('admin');
      expect(await admin.command({ getParameter: 1, ttlMonitorSleepSecs: 1 })).toMatchObject({
        ttlMonitorSleepSecs: 60,
      });
      const coll = client.db('ttl').collection('expiring');
      await coll.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
      await coll.insertOne({ at: new Date(Date.now() - 1000) });
      expect(await admin.command({ setParameter: 1, ttlMonitorSleepSecs: 1 })).toMatchObject({
        was: 60,
      });
      const deadline = Date.now() + 5000;
      while ((await coll.countDocuments()) > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await coll.countDocuments()).toBe(0);
      await expect(
        admin.command({ setParameter: 1, ttlMonitorSleepSecs: 0 }),
      ).rejects.toMatchObject({ code: 2 });
      await expect(admin.command({ setParameter: 1, notablescan: true })).rejects.toMatchObject({
        code: 238,
        message: expect.stringContaining('notablescan'),
      });
    } finally {
      await client.close();
      await db.stop();
    }
  });
});
