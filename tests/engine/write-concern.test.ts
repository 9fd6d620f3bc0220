import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedMongo } from '../../embedded-mongo';

const dir = mkdtempSync(join(tmpdir(), 'embedded-mongo-wc-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('write concern { j: false }', () => {
  it('acknowledges without waiting for the journal, and the write is still journaled', async () => {
    const engine = await startEmbeddedMongo({ dir });
    const client = await MongoClient.connect(engine.uri);
    const counts = client.db('wc').collection('counts', { writeConcern: { w: 1, j: false } });
    for (let i = 0; i < 50; i++)
      await counts.updateOne({ _id: 'k' as never }, { $inc: { n: 1 } }, { upsert: true });
    const durable = client.db('wc').collection('durable');
    await durable.insertOne({ _id: 'd' as never, ok: true });
    expect(await counts.findOne({ _id: 'k' as never })).toEqual({ _id: 'k', n: 50 });
    await client.close();
    await engine.stop();

    const again = await startEmbeddedMongo({ dir });
    const reader = await MongoClient.connect(again.uri);
    expect(
      await reader
        .db('wc')
        .collection('counts')
        .findOne({ _id: 'k' as never }),
    ).toEqual({
      _id: 'k',
      n: 50,
    });
    expect(await reader.db('wc').collection('durable').countDocuments()).toBe(1);
    await reader.close();
    await again.stop();
  });
});
