import cluster from 'node:cluster';

/**
 * Fixed-window counters. `RateLimiter` keeps them in this process; `SharedRateLimiter` is what
 * the app uses: under server.js's cluster, every app process asks the primary, which keeps one
 * set of counts for all of them. Behind a load balancer in front of several machines, the
 * effective limit is per machine.
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

type LimitOp = 'hit' | 'peek' | 'reset';
type LimitRequest = { type: 'rate-limit'; id: number; name: string; limit: number; windowMs: number; op: LimitOp; key: string; extra: number };
type LimitReply = { type: 'rate-limit'; id: number; result: RateLimitResult };

const pending = new Map<number, { resolve: (result: RateLimitResult) => void; reject: (error: Error) => void }>();
let nextRequestId = 1;
let listening = false;

function askPrimary(request: Omit<LimitRequest, 'type' | 'id'>): Promise<RateLimitResult> {
  if (!listening) {
    listening = true;
    process.on('message', (message: LimitReply) => {
      if (message?.type !== 'rate-limit') return;
      pending.get(message.id)?.resolve(message.result);
      pending.delete(message.id);
    });
    process.once('disconnect', () => {
      for (const { reject } of pending.values()) reject(new Error('The primary process went away'));
      pending.clear();
    });
  }
  const id = nextRequestId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    process.send!({ type: 'rate-limit', id, ...request } satisfies LimitRequest);
  });
}

const ALLOWED: RateLimitResult = { allowed: true, remaining: 0, retryAfterSeconds: 0 };

/** A named limit that holds across every process of the app (see the note at the top). */
export class SharedRateLimiter {
  /** The counts when this process is not a cluster worker (tests, a single process). */
  readonly local: RateLimiter;

  constructor(
    readonly name: string,
    limit: number,
    windowMs: number,
  ) {
    this.local = new RateLimiter(limit, windowMs);
  }

  hit(key: string): Promise<RateLimitResult> {
    return this.run('hit', key, 0);
  }

  peek(key: string, extra = 0): Promise<RateLimitResult> {
    return this.run('peek', key, extra);
  }

  async reset(key: string): Promise<void> {
    await this.run('reset', key, 0);
  }

  clear() {
    this.local.clear();
  }

  private run(op: LimitOp, key: string, extra: number): Promise<RateLimitResult> {
    if (cluster.isWorker && process.send) {
      return askPrimary({ name: this.name, limit: this.local.limit, windowMs: this.local.windowMs, op, key, extra });
    }
    return Promise.resolve(apply(this.local, op, key, extra));
  }
}

function apply(limiter: RateLimiter, op: LimitOp, key: string, extra: number): RateLimitResult {
  if (op === 'hit') return limiter.hit(key);
  if (op === 'peek') return limiter.peek(key, Date.now(), extra);
  limiter.reset(key);
  return ALLOWED;
}

/**
 * Runs in the cluster's primary: answers the workers' rate-limit requests from one set of
 * counters per limit name.
 */
export function serveSharedRateLimits(clusterModule: typeof cluster) {
  const limiters = new Map<string, RateLimiter>();
  clusterModule.on('message', (worker, message: LimitRequest) => {
    if (message?.type !== 'rate-limit') return;
    let limiter = limiters.get(message.name);
    if (!limiter) {
      limiter = new RateLimiter(message.limit, message.windowMs);
      limiters.set(message.name, limiter);
    }
    const reply: LimitReply = { type: 'rate-limit', id: message.id, result: apply(limiter, message.op, message.key, message.extra) };
    if (worker.isConnected()) worker.send(reply);
  });
}

/** The client's address as the server saw it (server.js puts it in the load context). */
export function clientAddress(context: unknown): string {
  return (context as { clientAddress?: string } | undefined)?.clientAddress ?? 'unknown';
}
