/**
 * Fixed-window counters kept in this process. Each app server limits on its own; behind a load
 * balancer the effective limit is per server, which is enough to stop enumeration and guessing.
 */
type Window = { count: number; resetAt: number };

export type RateLimitResult = { allowed: boolean; remaining: number; retryAfterSeconds: number };

export class RateLimiter {
  private windows = new Map<string, Window>();
  private lastSweep = Date.now();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts one hit for `key` and says whether it is within the limit. */
  hit(key: string, now = Date.now()): RateLimitResult {
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return this.result(window, now);
  }

  /**
   * Says whether `key` is over the limit, without counting a hit. With `extra` = 1 it says
   * whether one more hit would still be within the limit.
   */
  peek(key: string, now = Date.now(), extra = 0): RateLimitResult {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) return { allowed: true, remaining: this.limit, retryAfterSeconds: 0 };
    return this.result(window, now, extra);
  }

  reset(key: string) {
    this.windows.delete(key);
  }

  clear() {
    this.windows.clear();
  }

  private result(window: Window, now: number, extra = 0): RateLimitResult {
    const allowed = window.count + extra <= this.limit;
    return {
      allowed,
      remaining: Math.max(0, this.limit - window.count),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((window.resetAt - now) / 1000)),
    };
  }

  private sweep(now: number) {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}

/** The client's address as the server saw it (server.js puts it in the load context). */
export function clientAddress(context: unknown): string {
  return (context as { clientAddress?: string } | undefined)?.clientAddress ?? 'unknown';
}
