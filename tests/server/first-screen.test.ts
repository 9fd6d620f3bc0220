import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * `npm start` builds, then starts the server, whose first start prints the staff login: the
 * build's notices must not come before it. The build runs through scripts/quietly.js, which
 * shows a command's output only when the command fails.
 */
function quietly(script: string) {
  const run = spawnSync(process.execPath, ['scripts/quietly.js', process.execPath, '-e', script], {
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('the first screen of npm start', () => {
  it('builds quietly before the server starts', () => {
    const { scripts } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts.start).toMatch(/^node scripts\/quietly\.js remix build && .*node server\.js$/);
  });

  it('hides what a command prints when it succeeds', () => {
    expect(quietly("console.log('[info] built'); console.error('warn - experimental')")).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('shows everything a failing command printed, on its own stream, and its status', () => {
    expect(
      quietly("console.log('[info] building'); console.error('Syntax error'); process.exit(3)"),
    ).toEqual({ status: 3, stdout: '[info] building\n', stderr: 'Syntax error\n' });
  });
});
