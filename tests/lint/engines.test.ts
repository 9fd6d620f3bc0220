import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

// What `npm install` checks against the running Node (EBADENGINE), checked here against the
// oldest Node the README names: every package the lockfile installs must accept it.
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const pkg = readJson('package.json') as { engines: { node: string } };
const lock = readJson('package-lock.json') as {
  packages: Record<string, { engines?: { node?: unknown } }>;
};

describe('the Node version the README names', () => {
  const oldest = semver.minVersion(pkg.engines.node)!.version;

  it('is the one package.json asks for', () => {
    const [, named] = /Node\.js (\d+\.\d+)\+/.exec(fs.readFileSync('README.md', 'utf8')) ?? [];
    expect(named && `${named}.0`).toBe(oldest);
  });

  it('is accepted by every package npm installs, so installing prints no engine warnings', () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name]) => name !== '')
      .map(([name, entry]) => ({ name, wants: entry.engines?.node }))
      .filter(({ wants }) => typeof wants === 'string' && !semver.satisfies(oldest, wants));
    expect(refusing).toEqual([]);
  });
});
