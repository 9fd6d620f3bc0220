import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { matchRoutes, type AgnosticRouteObject as RouteObject } from '@remix-run/router';
import { describe, expect, it } from 'vitest';
import { routeAreas } from '../../server/route-areas.js';

/**
 * Each side of the app is answered over its own share of the routes (server/route-areas.js): for
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
  const { builds, areaOf } = routeAreas(build);
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
  ];

  it.each(paths)('%s matches the same routes in its share as in the whole', (pathname) => {
    const share = builds.get(areaOf(pathname))!;
    expect(ids(tree(share.routes), pathname)).toEqual(ids(whole, pathname));
    expect(Object.keys(share.assets.routes).sort()).toEqual(Object.keys(share.routes).sort());
  });

  it('keeps a small share for the public site', () => {
    const shares = Object.fromEntries(
      [...builds].map(([area, share]) => [area, Object.keys(share.routes).length]),
    );
    expect(shares.rest).toBeLessThan(Object.keys(build.routes).length / 3);
    expect(areaOf('/track')).toBe('rest');
    expect(areaOf('/Api/parcels')).toBe('api');
    expect(areaOf('/dashboard/scan')).toBe('dashboard');
  });
});
