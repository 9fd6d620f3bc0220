import { describe, expect, it } from 'vitest';
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
});
