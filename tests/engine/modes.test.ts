import { chmodSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startEmbeddedMongoHere } from '../../embedded-mongo';
import { fillAndKill } from './crash';
import { tempDbDir } from './helpers';

describe('data directory modes', () => {
  it('keeps the directory 0700 and its files 0600, and fixes them at start', async () => {
    const dir = tempDbDir('embedded-mongo-modes-');
    await fillAndKill(dir, 3);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'journal.0.bson')).mode & 0o777).toBe(0o600);
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'journal.0.bson'), 0o644);
    writeFileSync(join(dir, 'notes.txt'), 'x', { mode: 0o666 });
    chmodSync(join(dir, 'notes.txt'), 0o666);
    const engine = await startEmbeddedMongoHere({ dir });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of ['journal.0.bson', 'notes.txt'])
      expect(statSync(join(dir, f)).mode & 0o777, f).toBe(0o600);
    await engine.stop();
    expect(statSync(join(dir, 'snapshot.bson')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'journal.1.bson')).mode & 0o777).toBe(0o600);

    const fresh = tempDbDir('embedded-mongo-modes-');
    const other = await startEmbeddedMongoHere({ dir: fresh, tcp: false });
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    await other.stop();
    for (const f of readdirSync(fresh))
      expect(statSync(join(fresh, f)).mode & 0o777, f).toBe(0o600);
  }, 60_000);
});
