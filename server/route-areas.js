import { patternOf } from './route-labels.js';

/**
 * The sides of the app whose paths start with a segment of their own: `/api/…` and
 * `/dashboard/…`. Everything else (the public site, the shippers' portal, the sign-in pages) is
 * the rest.
 */
const AREAS = ['api', 'dashboard'];

/**
 * The build cut into one route table per side of the app, and the side of a request's path.
 *
 * Remix v2's route matching flattens and ranks every route of the table on each call, and a
 * request calls it three times or more (the request handler, the data router, the render): with
 * this app's 160 routes that was a third of a tracking page's CPU time. (React Router 7 keeps the
 * ranked table instead: remix-run/react-router#14967.) A path under `/api/` can only match the
 * API's routes, the catch-alls and the layouts above them, so each side is answered by Remix's
 * own request handler over a build that holds just those; the result is the same route, found
 * among a fraction of them.
 *
 * @param {{ routes: Record<string, { id: string, parentId?: string, path?: string }>, assets: { routes: Record<string, unknown> } }} build
 * @returns {{ builds: Map<string, typeof build>, areaOf: (pathname: string) => string }}
 */
export function routeAreas(build) {
  // The side of each route: its first segment's, or every side's for a route whose first
  // segment is a parameter or a splat (or a layout with no path of its own).
  const sides = Object.values(build.routes).map((route) => {
    const first = patternOf(build.routes, route).split('/').find(Boolean) ?? null;
    const anywhere = first === null || first.startsWith(':') || first === '*';
    return { route, side: anywhere ? null : areaOfSegment(first) };
  });
  const builds = new Map();
  for (const area of [...AREAS, 'rest']) {
    const kept = new Set();
    for (const { route, side } of sides) {
      if (side !== null && side !== area) continue;
      // The route and every layout above it.
      for (let at = route; at && !kept.has(at.id); at = build.routes[at.parentId]) kept.add(at.id);
    }
    builds.set(area, {
      ...build,
      routes: pick(build.routes, kept),
      assets: { ...build.assets, routes: pick(build.assets.routes, kept) },
    });
  }
  return { builds, areaOf };
}

/**
 * The side a path belongs to, read as Remix reads it (each segment decoded, letters in any case):
 * a path whose first segment is not exactly an area's name is the rest's.
 */
function areaOf(pathname) {
  const segment = /^\/([^/]*)(?:\/|$)/.exec(pathname)?.[1] ?? '';
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Remix matches a segment it cannot decode as it stands.
  }
  return areaOfSegment(decoded);
}

/** The side a first segment names, in any case: an area's, else the rest. */
function areaOfSegment(segment) {
  const name = segment.toLowerCase();
  return AREAS.includes(name) ? name : 'rest';
}

function pick(record, ids) {
  return Object.fromEntries(Object.entries(record).filter(([id]) => ids.has(id)));
}
