import { createHash } from 'node:crypto';

/**
 * Validators for answers a browser may keep: a weak ETag computed from the body, and the
 * `If-None-Match` check that turns an unchanged answer into a 304 without a body.
 *
 * Express computes ETags like this in `res.send`, but Remix's adapter writes answers through a
 * stream, so the app does it where the body is known: documents in entry.server's handleRequest,
 * JSON in the routes that opt in. Weak, because compression sends other bytes for the same answer.
 */

export const PUBLIC_PAGE_CACHE = 'public, max-age=300';
export const PRIVATE_REVALIDATE = 'private, no-cache';

export function etagFor(body: string): string {
  return `W/"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** Whether the request's If-None-Match names `etag` (weak comparison, as RFC 9110 asks). */
export function matchesIfNoneMatch(request: Request, etag: string): boolean {
  const header = request.headers.get('If-None-Match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/**
 * Whether an If-Match value names `etag`: `*` names any, else one of the listed tags. The API's
 * ETags are weak (see above) and are compared as they were given, W/ or not.
 */
export function matchesIfMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/**
 * The answer for a body that may be revalidated: 304 with the validators when the request already
 * holds it, otherwise the body with its ETag. Only GET and HEAD are conditional.
 */
export function conditionalResponse(
  request: Request,
  body: string,
  init: { status?: number; headers: Headers },
  {
    volatile,
    etag: known,
  }: {
    /** Text that differs per request without changing the page (the CSP nonce): left out of the ETag. */
    volatile?: string;
    /** The body's ETag when it is known already (a kept page's). */
    etag?: string;
  } = {},
): Response {
  const { headers } = init;
  const status = init.status ?? 200;
  if (!['GET', 'HEAD'].includes(request.method) || status !== 200)
    return new Response(body, { status, headers });
  const etag = known ?? etagFor(volatile ? body.replaceAll(volatile, '') : body);
  headers.set('ETag', etag);
  if (matchesIfNoneMatch(request, etag)) {
    headers.delete('Content-Type');
    headers.delete('Content-Length');
    return new Response(null, { status: 304, headers });
  }
  return new Response(body, { status, headers });
}

/**
 * Settles a document's Cache-Control: what its routes asked for (`headers` exports), except that
 * an answer to a form post, or one that sets a cookie (a flash message shown once), is never
 * stored. Answers a cache may keep get an ETag and a 304 when unchanged.
 */
export function documentResponse(
  request: Request,
  status: number,
  headers: Headers,
  html: string,
  nonce: string,
  /** The page's ETag when it is known already (a kept page's). */
  etag?: string,
): Response {
  if (!['GET', 'HEAD'].includes(request.method)) headers.set('Cache-Control', 'no-store');
  else if (headers.has('Set-Cookie')) headers.set('Cache-Control', 'private, no-store');
  const policy = headers.get('Cache-Control');
  if (!policy || /no-store/i.test(policy)) return new Response(html, { status, headers });
  return conditionalResponse(request, html, { status, headers }, { volatile: nonce, etag });
}

/**
 * A file made for the signed-in user (a label, an export, a receipt): never stored by a cache,
 * never sniffed as another type; `inline` shows it in the browser, else it downloads as `filename`.
 */
export function fileResponse(
  body: BodyInit,
  {
    contentType,
    filename,
    inline = false,
  }: { contentType: string; filename: string; inline?: boolean },
) {
  const headers = new Headers({
    'Content-Type': contentType,
    'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${filename}"`,
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  if (body instanceof Uint8Array) headers.set('Content-Length', String(body.length));
  return new Response(body, { headers });
}
