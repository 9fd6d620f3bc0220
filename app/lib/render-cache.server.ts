import { LRUCache } from 'lru-cache';
import { etagFor } from './http-cache.server';

/**
 * The public pages' HTML, rendered once for what they show. A page is drawn from its address and
 * the data its loaders gave (the parcel looked up, the company's details): the same address with
 * the same data draws the same page, so React renders it once and the next requests get that
 * HTML, with their own CSP nonce put where the placeholder stands. The loaders still run on
 * every request (rate limits, lookups), so nothing stale is shown; only what a component reads
 * of the clock itself (the year in the footer) could lag, which is why an entry lives a minute.
 * It is per process and holds only what can be drawn again: nothing processes must agree on.
 *
 * The profile of `npm run bench` put most of a public page's time in renderToString.
 */

/** Stands for the request's nonce in a kept page: letters only, so React writes it unescaped. */
export const NONCE_PLACEHOLDER = 'cachedpagenonceplaceholder';

type KeptPage = { html: string; etag: string };

const pages = new LRUCache<string, KeptPage>({
  max: 500,
  // A tracking result is a few dozen kilobytes: at most some 15 MB for the lot.
  maxSize: 16 * 1024 * 1024,
  sizeCalculation: (page, key) => page.html.length + key.length,
  ttl: 60_000,
});

/**
 * The page's HTML for `key` (null: a page not to keep), rendered by `render` with the nonce it
 * is given when it is not kept yet, with `nonce` in it; a kept page also has its ETag, worked out
 * once from the page without the nonce.
 */
export function renderPage(
  key: string | null,
  nonce: string,
  render: (nonce: string) => string,
): { html: string; etag?: string } {
  if (key === null || !nonce) return { html: render(nonce) };
  let page = pages.get(key);
  if (page === undefined) {
    const html = render(NONCE_PLACEHOLDER);
    page = { html, etag: etagFor(html) };
    pages.set(key, page);
  }
  return { html: page.html.replaceAll(NONCE_PLACEHOLDER, nonce), etag: page.etag };
}
