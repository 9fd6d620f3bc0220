import { randomBytes } from 'node:crypto';
import helmet from 'helmet';
import onHeaders from 'on-headers';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Security headers helmet sets that a route may also set for itself. */
const OWN_SECURITY_HEADERS = [
  'Content-Security-Policy',
  'X-Content-Type-Options',
  'X-Frame-Options',
  'Referrer-Policy',
];

/**
 * Security headers on every answer, through helmet: a Content-Security-Policy whose scripts must
 * carry this request's nonce (`res.locals.cspNonce`, handed to Remix in the load context), no
 * framing, nosniff, a strict referrer policy, and HSTS on requests that came over https.
 */
export function securityHeaders() {
  const nonce = (req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString('base64');
    // A 304 tells the browser to show the page it holds, whose inline script carries the nonce of
    // the answer that first sent it. That answer's policy must stay with it: a 304 carrying this
    // request's policy would replace it and block the script.
    onHeaders(res, () => {
      if (res.statusCode === 304) res.removeHeader('Content-Security-Policy');
    });
    next();
  };
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${res.locals.cspNonce}'`],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
    },
    // Sent below, only where the request came over https (a plain-http development server
    // must not pin a browser to https).
    strictTransportSecurity: false,
    crossOriginEmbedderPolicy: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  const hsts = helmet.strictTransportSecurity({ maxAge: 365 * 24 * 60 * 60 });
  // Remix's adapter appends a route's headers to these: a route that sets one of them (a file's
  // nosniff, a print page's own policy) means its own, and the answer carries it once.
  const once = (_req, res, next) => {
    onHeaders(res, () => {
      for (const name of OWN_SECURITY_HEADERS) {
        const value = res.getHeader(name);
        if (Array.isArray(value)) res.setHeader(name, value.at(-1));
      }
    });
    next();
  };
  return [
    nonce,
    once,
    headers,
    (req, res, next) => (req.secure ? hsts(req, res, next) : next()),
    (_req, res, next) => {
      res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
      next();
    },
  ];
}

/**
 * Staff pages and authenticated API answers carry personal data: no cache may keep them. Applied
 * as the headers go out, so it holds whatever the route said.
 */
export function noStoreForPrivateAnswers({ sessionCookie }) {
  return (req, res, next) => {
    // Routes match whatever the case of the path: so does this.
    const path = req.path.toLowerCase();
    const staffPage = path.startsWith('/dashboard') || path.startsWith('/management');
    const authenticatedApi =
      path.startsWith('/api/') &&
      (Boolean(req.headers.authorization) || hasCookie(req, sessionCookie));
    // An API answer that already forbids storing (`private, no-store`, a proof's photo) keeps
    // its words.
    if (staffPage || authenticatedApi)
      onHeaders(res, () => {
        const own = String(res.getHeader('Cache-Control') ?? '');
        if (!(authenticatedApi && /\bno-store\b/.test(own)))
          res.setHeader('Cache-Control', 'no-store');
      });
    next();
  };
}

/**
 * Cross-site request forgery: a request that changes something must come from the site itself.
 * Browsers say where a request comes from in `Origin` (and, for navigations, `Sec-Fetch-Site`), for
 * documents, `?_data=` fetches and resource routes alike, so one check here covers them all:
 * - an API request with a bearer token (API tokens and keys) is authenticated by the token alone,
 *   never by a cookie beside it, so it carries no ambient credential to abuse: allowed. Any other
 *   `Authorization` changes nothing: a request with the session cookie is checked as any other;
 * - an `Origin` must be this site's (the request's own origin or PUBLIC_URL's), and for a page's
 *   action also name the host the request was sent to, as Remix requires (it refuses any other
 *   with an error of its own);
 * - without `Origin`, `Sec-Fetch-Site` must be `same-origin` or `none`;
 * - with neither (old browsers, command-line clients) only a request without the session cookie is
 *   allowed, since it carries no authority.
 * `openPaths` (exact paths, or patterns) are public endpoints other sites may post to: they read no
 * cookie and grant nothing a cookie would, so where a request comes from does not matter to them —
 * the public tracking lookups and subscription requests (CORS), and one-click unsubscribe, which a
 * mail provider posts without cookies (RFC 8058) and whose only credential is the link's token.
 * A token scheme (double-submit cookies) would protect the same requests with more moving parts.
 */
export function sameOriginMutations({ publicUrl, sessionCookie, openPaths = [] }) {
  const trusted = publicUrl ? new URL(publicUrl).origin : null;
  const open = new Set(openPaths.filter((p) => typeof p === 'string'));
  const openPatterns = openPaths.filter((p) => p instanceof RegExp);
  const isOpen = (path) => open.has(path) || openPatterns.some((pattern) => pattern.test(path));
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method) || isOpen(req.path)) return next();
    const api = req.path.toLowerCase().startsWith('/api/');
    // The API authenticates a bearer request by its token alone, never by the cookie beside it.
    if (api && /^bearer\s/i.test(req.headers.authorization ?? '')) return next();
    const cookie = hasCookie(req, sessionCookie);
    const origin = req.headers.origin;
    const own = `${req.protocol}://${req.get('host')}`;
    let allowed;
    if (origin)
      allowed = (origin === own || origin === trusted) && (api || sameHostAsRemix(req, origin));
    else if (req.headers['sec-fetch-site'])
      allowed = ['same-origin', 'none'].includes(req.headers['sec-fetch-site']);
    else allowed = !cookie;
    if (allowed) return next();
    const message = 'Cross-site requests cannot change anything here';
    res.status(403);
    if (api || '_data' in req.query) res.json({ error: message, message, code: 'forbidden' });
    else res.type('text/plain').send(message);
  };
}

/**
 * Remix runs a page's action only when `Origin` names the host the request was sent to
 * (`X-Forwarded-Host`, else `Host`), and answers 500 otherwise: such a request is refused here.
 */
function sameHostAsRemix(req, origin) {
  const forwarded = req.get('x-forwarded-host')?.split(',')[0]?.trim();
  const host = forwarded || req.get('host');
  try {
    return Boolean(host) && new URL(origin).host === host;
  } catch {
    return false;
  }
}

function hasCookie(req, name) {
  const header = req.headers.cookie;
  return Boolean(header) && header.split(';').some((pair) => pair.trim().startsWith(`${name}=`));
}
