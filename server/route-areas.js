import { patternOf } from './route-labels.js';

/** How many leading segments of a path choose its route table. */
const DEPTH = 2;

/**
 * The build cut into small route tables, one per start of a path (its first two segments), and
 * the table a request's path is answered over.
 *
 * Remix v2's route matching flattens and ranks every route of the table on each call, then
 * compiles each route's pattern until one matches, and a request calls it twice or more (the
 * request handler, the data router, the render): with this app's 160 routes that was a third of
 * a tracking page's CPU time. (React Router 7 keeps the ranked table instead:
 * remix-run/react-router#14967.) A path can only match routes whose leading static segments are
 * its own (letters in any case), or that have a parameter, a splat or an optional segment there,
 * or no segment at all (layouts, the home page), and the layouts above them: `/api/tracking/…`
 * is answered by Remix's own request handler over a build that holds just those. The result is
 * the same route, found among a handful.
 *
 * A table is made the first time a path needs it. The start of a path that no route has (a
 * mistyped address, anything a client invents) is read as "other", so there are never more
 * tables than the routes' own starts.
 *
 * `make` turns a table into what answers its paths (Remix's request handler); it is called once
 * per table, and `forPath` gives what it made for a path's table.
 *
 * @template T
 * @param {{ routes: Record<string, { id: string, parentId?: string, path?: string }>, assets: { routes: Record<string, unknown> } }} build
 * @param {(table: typeof build) => T} make
 * @returns {{ areaOf: (pathname: string) => string, forPath: (pathname: string) => T }}
 */
export function routeAreas(build, make) {
  const routes = Object.values(build.routes).map((route) => ({
    route,
    segments: patternOf(build.routes, route)
      .split('/')
      .filter(Boolean)
      .slice(0, DEPTH)
      .map((segment) => segment.toLowerCase()),
  }));
  // The starts routes have: `api`, `api/tracking`, `track`… up to the first segment that is not
  // static.
  const starts = new Set();
  for (const { segments } of routes) {
    const kept = [];
    for (const segment of segments) {
      if (isDynamic(segment)) break;
      kept.push(segment);
      starts.add(kept.join('/'));
    }
  }

  /** The start of a path as routes know it: `api/tracking`, `api/*` or `*` and so on. */
  function areaOf(pathname) {
    const key = [];
    for (const segment of pathname.split('/').slice(1, DEPTH + 1)) {
      const name = decoded(segment).toLowerCase();
      if (!starts.has([...key, name].join('/'))) break;
      key.push(name);
    }
    return [...key, ...Array(DEPTH - key.length).fill('*')].join('/');
  }

  const made = new Map();
  function forPath(pathname) {
    const area = areaOf(pathname);
    let answer = made.get(area);
    if (!answer) {
      answer = make(tableOf(area.split('/')));
      made.set(area, answer);
    }
    return answer;
  }

  function tableOf(key) {
    const kept = new Set();
    for (const { route, segments } of routes) {
      if (!mayMatch(segments, key)) continue;
      // The route and every layout above it.
      for (let at = route; at && !kept.has(at.id); at = build.routes[at.parentId]) kept.add(at.id);
    }
    return {
      ...build,
      routes: pick(build.routes, kept),
      assets: { ...build.assets, routes: pick(build.assets.routes, kept) },
    };
  }

  return { areaOf, forPath };
}

/**
 * Whether a route's leading segments may match a path whose start is `key` (`*`: a segment no
 * route has there, or none).
 */
function mayMatch(segments, key) {
  for (let i = 0; i < key.length; i++) {
    const segment = segments[i];
    if (segment === undefined || isDynamic(segment)) return true;
    if (segment !== key[i]) return false;
  }
  return true;
}

function isDynamic(segment) {
  return segment.startsWith(':') || segment === '*' || segment.endsWith('?');
}

/**
 * A segment decoded as Remix decodes it (a slash it encodes stays encoded); one it cannot decode
 * stands as it is.
 */
function decoded(segment) {
  try {
    return decodeURIComponent(segment).replace(/\//g, '%2F');
  } catch {
    return segment;
  }
}

function pick(record, ids) {
  return Object.fromEntries(Object.entries(record).filter(([id]) => ids.has(id)));
}
