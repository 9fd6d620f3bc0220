import { spawn } from 'node:child_process';

/**
 * Inserts `count` parcels (`_id` 0 … count-1) in a process of its own on `dir` and SIGKILLs it
 * once every insert is acknowledged, which leaves them all in the journal.
 */
export async function fillAndKill(dir: string, count: number): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/engine/fixtures/fill.ts', dir, String(count)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('done')) resolve();
    });
    void exited.then(() => reject(new Error(`the filling process exited early: ${err}`)));
  });
  child.kill('SIGKILL');
  await exited;
}
