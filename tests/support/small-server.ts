import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { ServerBuild } from '@remix-run/node';

/**
 * What the server suites build their own servers from: a small Remix build of resource routes,
 * enough to drive server/index.js end to end, and a free port for server.js.
 */

type RouteModule = object;

/**
 * A production build whose routes are `routes` (id → [path, module]) under an empty root, its
 * assets in `dir`/build/assets, with the entry's `handleError`.
 */
export function smallBuild(
  dir: string,
  handleError: (...args: never[]) => void,
  routes: Record<string, [routePath: string, module: RouteModule]>,
  extra: object = {},
): ServerBuild {
  return {
    mode: 'production',
    entry: { module: { default: () => new Response('no documents here'), handleError } },
    routes: {
      root: { id: 'root', path: '', module: {} },
      ...Object.fromEntries(
        Object.entries(routes).map(([id, [routePath, module]]) => [
          `routes/${id}`,
          { id: `routes/${id}`, parentId: 'root', path: routePath, module },
        ]),
      ),
    },
    assets: {
      url: '/build/manifest.js',
      version: '1',
      entry: { module: '', imports: [] },
      routes: {},
    },
    publicPath: '/build/',
    assetsBuildDirectory: path.join(dir, 'build', 'assets'),
    future: {},
    ...extra,
  } as unknown as ServerBuild;
}

/** A port nothing listens on now, for server.js, which takes its port from PORT. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
