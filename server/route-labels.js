import FindMyWay from 'find-my-way';

/** The label of a path no route answers (only builds without a catch-all route have such paths). */
export const UNMATCHED = 'unmatched';

/**
 * The route a request is logged and counted under: the pattern of the Remix route that answers
 * its path (`/api/parcels/:id`, `/*` for the catch-all), from the build's route manifest, or one
 * of `extra` (`/build/*`, `/metrics`). A label never carries an id, a tracking number or anything
 * else a client wrote in the path, so the metrics' series stay as few as the app's routes.
 *
 * Remix's own matching flattens and ranks every route on each call (a third of a millisecond for
 * this app's routes), too slow to run a second time for a label. find-my-way, Fastify's router,
 * answers from a tree built once, in under a microsecond, and prefers a static segment to a
 * parameter and a parameter to a splat, as Remix does; like Remix it ignores letter case and a
 * trailing slash.
 *
 * @param {{ routes: Record<string, { id: string, parentId?: string, path?: string }> }} build
 * @param {string[]} extra
 * @returns {(pathname: string) => string}
 */
export function routeLabels(build, extra = []) {
  const router = FindMyWay({
    caseSensitive: false,
    ignoreTrailingSlash: true,
    ignoreDuplicateSlashes: true,
    // A path is at most what the server reads of a request's head (16 KB).
    maxParamLength: 16 * 1024,
  });
  const patterns = new Set(extra);
  for (const route of Object.values(build.routes)) patterns.add(patternOf(build.routes, route));
  for (const pattern of patterns)
    for (const path of withoutOptionalSegments(pattern))
      router.on('GET', path, () => undefined, { label: pattern });
  return (pathname) => {
    try {
      return router.find('GET', pathname)?.store.label ?? UNMATCHED;
    } catch {
      return UNMATCHED;
    }
  };
}

/** A route's full path: its own after its parents'. */
export function patternOf(routes, route) {
  const segments = [];
  for (let at = route; at; at = at.parentId ? routes[at.parentId] : undefined)
    if (at.path) segments.unshift(at.path.replace(/^\/+|\/+$/g, ''));
  return `/${segments.filter(Boolean).join('/')}`;
}

/** Every path an optional segment (`:lang?`, `edit?`) makes: with it and without it. */
function withoutOptionalSegments(pattern) {
  let paths = [''];
  for (const segment of pattern.split('/').filter(Boolean)) {
    const optional = segment.endsWith('?');
    const name = optional ? segment.slice(0, -1) : segment;
    paths = paths.flatMap((path) => (optional ? [path, `${path}/${name}`] : [`${path}/${name}`]));
  }
  return [...new Set(paths.map((path) => path || '/'))];
}
