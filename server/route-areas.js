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
  const builds = new Map();
  for (const area of [...AREAS, 'rest']) {
    const kept = new Set();
    for (const route of Object.values(build.routes)) {
      const first = firstSegment(build.routes, route);
      const mayMatch =
        first === null || first.startsWith(':') || first === '*'
          ? true
          : area === 'rest'
            ? !AREAS.includes(first.toLowerCase())
            : first.toLowerCase() === area;
      if (!mayMatch) continue;
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
  const area = decoded.toLowerCase();
  return AREAS.includes(area) ? area : 'rest';
}

/** A route's first path segment (its parents' first), or null for a layout with no path of its own yet. */
function firstSegment(routes, route) {
  const segments = [];
  for (let at = route; at; at = at.parentId ? routes[at.parentId] : undefined)
    if (at.path) segments.unshift(...at.path.split('/').filter(Boolean));
  return segments[0] ?? null;
}

function pick(record, ids) {
  return Object.fromEntries(Object.entries(record).filter(([id]) => ids.has(id)));
}
