import { normalizeTrackingNumber, TRACKING_NUMBER_PATTERN } from '~/schemas/constants';
import { rateLimitHeaders, type RateLimitResult } from '~/lib/rate-limit.server';
import { malformedTrackingNumber } from '~/services/public-tracking.server';
import { apiRoute, handleApi, type ApiArgs } from './api.server';
import {
  declared,
  type DeclaredHandler,
  type OperationChecks,
  type OperationDoc,
} from './api-operation.server';

/**
 * The public endpoints' HTTP side: CORS for other sites' pages, the preflight, caching, and the
 * RateLimit-* headers of the tracking budget (trackingLimiter in services/public-tracking.server.ts).
 */

/** Headers that let other sites call the public tracking endpoints from a browser. */
function withPublicCors(response: Response, methods: string): Response {
  response.headers.set('Access-Control-Allow-Origin', '*');
  response.headers.set('Access-Control-Allow-Methods', methods);
  response.headers.set('Access-Control-Allow-Headers', 'Content-Type, If-None-Match, X-Request-Id');
  response.headers.set(
    'Access-Control-Expose-Headers',
    'ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-Request-Id',
  );
  response.headers.set('Access-Control-Max-Age', '86400');
  return response;
}

/**
 * A public endpoint (no token, other sites may call it from a browser): the route's handlers, a
 * CORS preflight (OPTIONS, which counts nothing), and on every answer, 405s included, its caching
 * and the CORS headers.
 */
export function publicApiRoute(
  handlers: Partial<Record<'GET' | 'POST', DeclaredHandler>>,
  { cacheControl }: { cacheControl: string },
) {
  for (const handler of Object.values(handlers)) handler.operation.cors = true;
  return apiRoute(handlers, {
    preflight: () => new Response(null, { status: 204 }),
    finish: (response, methods) => {
      response.headers.set('Cache-Control', cacheControl);
      return withPublicCors(response, methods.join(', '));
    },
  });
}

/** What is left of the caller's budget after a counted request, on its answer. */
export function withRateLimit(response: Response, limit: RateLimitResult | undefined): Response {
  if (limit)
    for (const [name, value] of Object.entries(rateLimitHeaders(limit)))
      response.headers.set(name, value);
  return response;
}

/** What a public request about one parcel, named by its path's tracking number, is told. */
export type TrackingNumberCall = ApiArgs & {
  trackingNumber: string;
  /** The caller's budget after a counted attempt, for the answer's RateLimit-* headers. */
  counted: (limit: RateLimitResult) => void;
};

/**
 * A public request about one parcel by its path's tracking number: a number that cannot be one
 * is a 400 before anything runs, and every answer after a counted attempt says what is left.
 */
export function trackingNumberHandler(
  doc: OperationDoc & Pick<OperationChecks, 'body'>,
  run: (call: TrackingNumberCall) => Promise<Response>,
): DeclaredHandler {
  return declared({ access: 'public', rateLimited: true, ...doc }, async (args) => {
    let limit: RateLimitResult | undefined;
    const response = await handleApi(async () => {
      const trackingNumber = normalizeTrackingNumber(args.params.trackingNumber ?? '');
      if (!TRACKING_NUMBER_PATTERN.test(trackingNumber)) throw malformedTrackingNumber();
      return run({ ...args, trackingNumber, counted: (counted) => (limit = counted) });
    });
    return withRateLimit(response, limit);
  });
}
