import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { matchRoutes, type AgnosticRouteObject as RouteObject } from '@remix-run/router';
import { describe, expect, it } from 'vitest';
import { routeAreas } from '../../server/route-areas.js';

/**
 * Each start of a path is answered over its own share of the routes (server/route-areas.js): for
 * every route's own path, and for paths only a catch-all takes, the share matches exactly what
 * the whole table matches.
 */
type ServerRoute = {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
};
type Build = { routes: Record<string, ServerRoute>; assets: { routes: Record<string, unknown> } };

const build = (await import(
  pathToFileURL(path.resolve(process.env.BUILD_DIR || 'build', 'index.js')).href
)) as unknown as Build;

function tree(routes: Record<string, ServerRoute>, parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map((route) =>
      route.index
        ? { id: route.id, path: route.path, index: true }
        : {
            id: route.id,
            path: route.path,
            caseSensitive: route.caseSensitive,
            children: tree(routes, route.id),
          },
    );
}

function fullPath(route: ServerRoute): string {
  const segments: string[] = [];
  for (
    let at: ServerRoute | undefined = route;
    at;
    at = at.parentId ? build.routes[at.parentId] : undefined
  )
    if (at.path) segments.unshift(at.path);
  return `/${segments.join('/')}`
    .replace(/:[^/]+\?/g, '')
    .replace(/:[^/]+/g, 'x1')
    .replace(/\*/g, 'any/thing');
}

const ids = (routes: RouteObject[], pathname: string) =>
  (matchRoutes(routes, pathname) ?? []).map((match) => match.route.id);

describe('the route table of each side of the app', () => {
  const { areaOf, forPath: tableFor } = routeAreas(build, (table) => table);
  const whole = tree(build.routes);
  const paths = [
    ...Object.values(build.routes).map(fullPath),
    '/',
    '/api',
    '/API/Parcels',
    '/%61pi/parcels',
    '/dashboard',
    '/dashboardx/y',
    '//api/parcels',
    '/no/such/page',
    '/api/no/such/endpoint',
    '/dashboard/no/such/page',
    '/api/',
    '/api%2Ftracking/track/x',
    '/Track',
    '/api/tracking/TRACK/abc',
  ];

  it.each(paths)('%s matches the same routes in its share as in the whole', (pathname) => {
    const share = tableFor(pathname);
    expect(ids(tree(share.routes), pathname)).toEqual(ids(whole, pathname));
    expect(Object.keys(share.assets.routes).sort()).toEqual(Object.keys(share.routes).sort());
  });

  it('keeps a small share for each start, and no more starts than the routes have', () => {
    const all = Object.keys(build.routes).length;
    const size = (pathname: string) => Object.keys(tableFor(pathname).routes).length;
    expect(size('/track')).toBeLessThan(all / 10);
    expect(size('/api/tracking/track/ABC123456789')).toBeLessThan(all / 10);
    expect(size('/dashboard/scan')).toBeLessThan(all / 10);
    expect(areaOf('/track')).toBe('track/*');
    expect(areaOf('/Api/Parcels/123')).toBe('api/parcels');
    expect(areaOf('/dashboard/scan')).toBe('dashboard/scan');
    expect(areaOf('/no/such/page')).toBe('*/*');
    expect(areaOf('/api/nothing-here')).toBe('api/*');
    expect(tableFor('/api/one-invented')).toBe(tableFor('/api/another'));
  });
});
