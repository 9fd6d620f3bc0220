import ipaddr from 'ipaddr.js';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { connection } from './db.server';

/**
 * Rate limits counted in MongoDB by rate-limiter-flexible, so every app process on every machine
 * shares one count per key: the collection `rate_limits` holds one document per limit and key
 * (an atomic `$inc`), and a TTL index removes it when its window ends.
 */
export type RateLimitResult = {
  allowed: boolean;
  /** The window's budget. */
  limit: number;
  /** What is left of it after this request. */
  remaining: number;
  /** Seconds until the window ends (the budget is whole again). */
  resetSeconds: number;
  /** When refused: seconds to wait. */
  retryAfterSeconds: number;
};

const COLLECTION = 'rate_limits';

/**
 * What a limit per client address counts under: an IPv4 address as it is, an IPv6 one by its /64
 * network (one subscriber's line holds a whole /64, so a client could otherwise take a fresh
 * address for every try), and an IPv4 address written as IPv6 (::ffff:1.2.3.4) as the IPv4 one.
 */
export function addressKey(address: string): string {
  const text = address.trim().replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(text)) return text;
  const parsed = ipaddr.process(text.replace(/%.*$/, ''));
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const network = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${network.join(':')}::/64`;
}

export class RateLimit {
  private limiter: Promise<RateLimiterMongo> | undefined;
  private readonly keyOf: (key: string) => string;

  /**
   * `perAddress`: the key is a client's address, counted by addressKey (IPv6 by its /64).
   */
  constructor(
    readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
    { perAddress = false }: { perAddress?: boolean } = {},
  ) {
    this.keyOf = perAddress ? addressKey : (key) => key;
  }

  /** Counts `points` hits for `key` and says whether they were within the limit. */
  async hit(key: string, points = 1): Promise<RateLimitResult> {
    const limiter = await this.store();
    try {
      return this.result(await limiter.consume(this.keyOf(key), points), true);
    } catch (error) {
      if (error instanceof RateLimiterRes) return this.result(error, false);
      throw error;
    }
  }

  /** Says whether `extra` more hits for `key` would still be within the limit, counting none. */
  async peek(key: string, extra = 0): Promise<RateLimitResult> {
    const limiter = await this.store();
    const res = await limiter.get(this.keyOf(key));
    if (!res) return this.result(new RateLimiterRes(this.limit, 0, 0), true);
    const allowed = res.consumedPoints + extra <= this.limit;
    return this.result(res, allowed);
  }

  /** Gives back `points` hits counted for `key` (an attempt that turned out not to count). */
  async refund(key: string, points = 1): Promise<void> {
    const limiter = await this.store();
    await limiter.reward(this.keyOf(key), points);
  }

  async reset(key: string): Promise<void> {
    const limiter = await this.store();
    await limiter.delete(this.keyOf(key));
  }

  /** Forgets every count of this limit (tests). */
  async clear(): Promise<void> {
    const conn = await connection();
    await conn.connection
      .collection(COLLECTION)
      .deleteMany({ key: { $regex: `^${escapeRegExp(this.name)}:` } });
  }

  /** The connection the store was made on: after a reconnect, a new store on the new one. */
  private storeConnection: ReturnType<typeof connection> | undefined;

  private store(): Promise<RateLimiterMongo> {
    const current = connection();
    if (this.limiter && this.storeConnection === current) return this.limiter;
    this.storeConnection = current;
    this.limiter = current.then(async (conn) => {
      // Counts need not survive a crash: the write is acknowledged without waiting for the
      // journal (w: 1, j: false), so a lookup doesn't wait for a disk flush.
      const db = conn.connection
        .getClient()
        .db(conn.connection.name, { writeConcern: { w: 1, j: false } });
      const limiter = new RateLimiterMongo({
        storeClient: db,
        tableName: COLLECTION,
        keyPrefix: this.name,
        points: this.limit,
        duration: Math.ceil(this.windowMs / 1000),
        disableIndexesCreation: true,
      });
      await limiter.createIndexes();
      return limiter;
    });
    this.limiter.catch(() => (this.limiter = undefined));
    return this.limiter;
  }

  private result(res: RateLimiterRes, allowed: boolean): RateLimitResult {
    const resetSeconds = Math.max(0, Math.ceil(res.msBeforeNext / 1000));
    return {
      allowed,
      limit: this.limit,
      remaining: Math.max(0, this.limit - res.consumedPoints),
      resetSeconds,
      retryAfterSeconds: allowed ? 0 : Math.max(1, resetSeconds),
    };
  }
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The client's address, as the server put it in the load context. */
export function clientAddress(context: unknown): string {
  return (context as { clientAddress?: string } | undefined)?.clientAddress ?? 'unknown';
}

/** The standard rate-limit headers (IETF draft `RateLimit-*`), plus Retry-After when refused. */
export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(result.limit),
    'RateLimit-Remaining': String(result.remaining),
    'RateLimit-Reset': String(result.resetSeconds),
  };
  if (!result.allowed) headers['Retry-After'] = String(result.retryAfterSeconds);
  return headers;
}
