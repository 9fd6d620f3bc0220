import type { UIMatch } from '@remix-run/react';

/**
 * What a route tells the document around it. `hydrate: false` on a route (or a layout above it)
 * means the page is complete as the server sent it: the root renders none of the framework's
 * scripts, and the page's interactive parts are HTML and CSS.
 */
export type RouteHandle = { hydrate?: boolean };

export function shouldHydrate(matches: UIMatch[]): boolean {
  return !matches.some((match) => (match.handle as RouteHandle | undefined)?.hydrate === false);
}
