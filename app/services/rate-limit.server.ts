import cluster from 'node:cluster';

/**
 * Fixed-window counters. `RateLimiter` keeps them in this process; `SharedRateLimiter` is what
 * the app uses: under server.js's cluster, the app processes ask the primary, which keeps one
 * set of counts for all of them (the tracking limit hands out shares of a budget, so that not
 * every lookup asks). Behind a load balancer in front of several machines, the effective limit
 * is per machine.
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
    if (!window || window.resetAt <= now)
      return { allowed: true, remaining: this.limit, retryAfterSeconds: 0 };
    return this.result(window, now, extra);
  }

  /**
   * Counts `hits` more for `key` in its current window (one that `hit` just opened) and says until
   * when they are valid.
   */
  take(key: string, hits: number, now = Date.now()): { hits: number; resetAt: number } {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) return { hits: 0, resetAt: now };
    window.count += hits;
    return { hits, resetAt: window.resetAt };
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
    dropExpired(this.windows, now);
  }
}

/** Deletes the entries whose window has ended. */
function dropExpired(entries: Map<string, { resetAt: number }>, now: number) {
  for (const [key, entry] of entries) if (entry.resetAt <= now) entries.delete(key);
}

type LimitOp = 'hit' | 'peek' | 'reset' | 'lease';
export type LimitRequest = {
  type: 'rate-limit';
  id: number;
  name: string;
  limit: number;
  windowMs: number;
  op: LimitOp;
  key: string;
  extra: number;
};
/** `lease`: hits granted to the asking process beyond the one it asked for, until `resetAt`. */
export type LimitReply = {
  type: 'rate-limit';
  id: number;
  result: RateLimitResult;
  lease?: { hits: number; resetAt: number };
};
/** How a process reaches the primary's counts. */
export type LimitTransport = (request: Omit<LimitRequest, 'type' | 'id'>) => Promise<LimitReply>;

const pending = new Map<
  number,
  { resolve: (reply: LimitReply) => void; reject: (error: Error) => void }
>();
let nextRequestId = 1;
let listening = false;

/** The transport of a cluster worker: IPC to the primary (see serveSharedRateLimits). */
const askPrimary: LimitTransport = (request) => {
  if (!listening) {
    listening = true;
    process.on('message', (message: LimitReply) => {
      if (message?.type !== 'rate-limit') return;
      pending.get(message.id)?.resolve(message);
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
};

const ALLOWED: RateLimitResult = { allowed: true, remaining: 0, retryAfterSeconds: 0 };

type Lease = { hits: number; resetAt: number };

/**
 * A named limit that holds across every process of the app (see the note at the top).
 *
 * With `leased`, `hit` asks the primary only now and then: the primary grants the asking process
 * a share of what is left of the key's budget (up to half of it split between the processes; one
 * hit when little is left), and the process counts those hits itself until its window ends. The
 * limit is never exceeded. Near the end of a budget a client may be refused a hit or two early,
 * when another process still holds part of it. Meant for a limit that is hit on every request
 * (public tracking); `peek` and `reset` also look at the process's own share.
 */
export class SharedRateLimiter {
  /** The counts when this process is not a cluster worker (tests, a single process). */
  readonly local: RateLimiter;
  private readonly leased: boolean;
  private readonly transport: LimitTransport | undefined;
  private readonly leases = new Map<string, Lease>();
  private lastSweep = Date.now();

  constructor(
    readonly name: string,
    limit: number,
    windowMs: number,
    options: { leased?: boolean; transport?: LimitTransport } = {},
  ) {
    this.local = new RateLimiter(limit, windowMs);
    this.leased = options.leased ?? false;
    this.transport = options.transport;
  }

  hit(key: string): Promise<RateLimitResult> {
    const lease = this.leased ? this.lease(key) : undefined;
    if (lease) {
      lease.hits -= 1;
      return Promise.resolve({ allowed: true, remaining: lease.hits, retryAfterSeconds: 0 });
    }
    return this.run('hit', key, 0);
  }

  peek(key: string, extra = 0): Promise<RateLimitResult> {
    const lease = this.leased ? this.lease(key) : undefined;
    if (lease && lease.hits >= extra)
      return Promise.resolve({ allowed: true, remaining: lease.hits, retryAfterSeconds: 0 });
    return this.run('peek', key, extra);
  }

  async reset(key: string): Promise<void> {
    this.leases.delete(key);
    await this.run('reset', key, 0);
  }

  clear() {
    this.local.clear();
    this.leases.clear();
  }

  /** This process's unexpired share of the key's budget, if it has hits left. */
  private lease(key: string): Lease | undefined {
    const now = Date.now();
    if (now - this.lastSweep >= this.local.windowMs) {
      this.lastSweep = now;
      dropExpired(this.leases, now);
    }
    const lease = this.leases.get(key);
    return lease && lease.resetAt > now && lease.hits > 0 ? lease : undefined;
  }

  private async run(op: LimitOp, key: string, extra: number): Promise<RateLimitResult> {
    const transport = this.transport ?? (cluster.isWorker && process.send ? askPrimary : undefined);
    if (!transport) return apply(this.local, op, key, extra);
    const wire = op === 'hit' && this.leased ? 'lease' : op;
    const reply = await transport({
      name: this.name,
      limit: this.local.limit,
      windowMs: this.local.windowMs,
      op: wire,
      key,
      extra,
    });
    if (reply.lease) this.leases.set(key, { ...reply.lease });
    return reply.result;
  }
}

function apply(limiter: RateLimiter, op: LimitOp, key: string, extra: number): RateLimitResult {
  if (op === 'hit' || op === 'lease') return limiter.hit(key);
  if (op === 'peek') return limiter.peek(key, Date.now(), extra);
  limiter.reset(key);
  return ALLOWED;
}

/**
 * The primary's side: one set of counters per limit name, answering the processes' requests.
 * `processes()` says how many processes share the limits (it sizes the leases).
 */
export class RateLimitServer {
  private limiters = new Map<string, RateLimiter>();

  constructor(private readonly processes: () => number) {}

  handle(message: LimitRequest): LimitReply {
    let limiter = this.limiters.get(message.name);
    if (!limiter) {
      limiter = new RateLimiter(message.limit, message.windowMs);
      this.limiters.set(message.name, limiter);
    }
    if (message.op !== 'lease')
      return {
        type: 'rate-limit',
        id: message.id,
        result: apply(limiter, message.op, message.key, message.extra),
      };
    const now = Date.now();
    const result = limiter.hit(message.key, now);
    // Up to half of what is left, split between the processes; a lease is hits counted now.
    const hits = result.allowed
      ? Math.floor(result.remaining / (2 * Math.max(1, this.processes())))
      : 0;
    return {
      type: 'rate-limit',
      id: message.id,
      result,
      lease: hits > 0 ? limiter.take(message.key, hits, now) : undefined,
    };
  }
}

/**
 * Runs in the cluster's primary: answers the workers' rate-limit requests from one set of
 * counters per limit name.
 */
export function serveSharedRateLimits(clusterModule: typeof cluster) {
  const server = new RateLimitServer(() => Object.keys(clusterModule.workers ?? {}).length);
  clusterModule.on('message', (worker, message: LimitRequest) => {
    if (message?.type !== 'rate-limit') return;
    const reply = server.handle(message);
    if (worker.isConnected()) worker.send(reply);
  });
}

/** The client's address as the server saw it (server.js puts it in the load context). */
export function clientAddress(context: unknown): string {
  return (context as { clientAddress?: string } | undefined)?.clientAddress ?? 'unknown';
}
