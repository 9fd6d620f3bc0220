import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The scripts a staff tab or a courier's page loads with its HTML (the build's entry, the root's
 * and each matched route's module, and every chunk they import): no zod (the pages' forms are
 * checked by the server, or in the browser once the page is interactive) and no Headless UI (the
 * dialogs' own routes load it), within the page's budget (npm run bench weighs the whole page).
 */
const buildDir = path.resolve(process.env.BUILD_DIR || 'build');

type Metafile = {
  outputs: Record<
    string,
    { imports?: Array<{ path: string; kind: string }>; inputs: Record<string, unknown> }
  >;
};
const { outputs } = JSON.parse(
  fs.readFileSync(path.join(buildDir, 'metafile.js.json'), 'utf8'),
) as Metafile;
const outputPaths = Object.keys(outputs);

function output(pattern: RegExp): string {
  const found = outputPaths.find((file) => file.endsWith('.js') && pattern.test(file));
  if (!found) throw new Error(`No script in the build matches ${pattern}`);
  return found;
}

function loadedWith(file: string, into: Set<string>) {
  if (into.has(file)) return;
  into.add(file);
  for (const imported of outputs[file]?.imports ?? [])
    if (imported.kind === 'import-statement') loadedWith(imported.path, into);
}

function pageScripts(routeIds: string[]): Set<string> {
  const files = new Set<string>();
  loadedWith(output(/\/entry\.client-[A-Z0-9]+\.js$/), files);
  loadedWith(output(/\/assets\/root-[A-Z0-9]+\.js$/), files);
  for (const id of routeIds) {
    const escaped = id.replace(/[.$]/g, (c) => `\\${c}`);
    loadedWith(output(new RegExp(`/routes/${escaped}-[A-Z0-9]+\\.js$`)), files);
  }
  return files;
}

const PAGES: Array<[string, string[], number]> = [
  ['/dashboard', ['dashboard', 'dashboard._index'], 150_000],
  ['/dashboard/parcels', ['dashboard', 'dashboard.parcels'], 150_000],
  [
    '/dashboard/tracking',
    ['dashboard', 'dashboard.tracking', 'dashboard.tracking._index'],
    150_000,
  ],
  ['/dashboard/notifications', ['dashboard', 'dashboard.notifications'], 150_000],
  ['/dashboard/receipts', ['dashboard', 'dashboard.receipts'], 150_000],
  [
    '/dashboard/settings/api-keys',
    ['dashboard', 'dashboard.settings', 'dashboard.settings.api-keys'],
    150_000,
  ],
  ['/dashboard/scan', ['dashboard', 'dashboard.scan'], 120_000],
  ['/dashboard/scan/proof/:parcelId', ['dashboard', 'dashboard.scan_.proof.$parcelId'], 120_000],
  ['/dashboard/my-run', ['dashboard', 'dashboard.my-run'], 120_000],
];

describe('the scripts a staff page loads with it', () => {
  it.each(PAGES)('%s: no zod, no Headless UI, within its budget', (_page, routeIds, budget) => {
    const files = pageScripts(routeIds);
    const packages = new Set(
      [...files].flatMap((file) =>
        Object.keys(outputs[file]!.inputs).flatMap(
          (input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? [],
        ),
      ),
    );
    expect(packages).not.toContain('zod');
    expect(packages).not.toContain('@headlessui/react');
    const compressed = [...files].reduce(
      (sum, file) => sum + gzipSync(fs.readFileSync(path.resolve(file))).length,
      0,
    );
    expect(compressed).toBeLessThan(budget);
  });
});
