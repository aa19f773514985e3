import type { Redis as RedisClient, RedisOptions } from 'ioredis';
import type { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateQuota } from '../config/rate-quota.ts';
import { logEvent } from '../log/log.ts';
import type { Eventually, QuotaLimiter, RateDecision } from './rate-limiter.ts';

type RedisConstructor = new (url: string, options: RedisOptions) => RedisClient;
type RateLimiterRedisConstructor = typeof RateLimiterRedis;

/** What RedisQuotaStore needs of its drivers. */
interface RedisDrivers {
  Redis: RedisConstructor;
  RateLimiterRedis: RateLimiterRedisConstructor;
}

/**
 * The drivers, loaded only when REDIS_URL selects this engine: an instance on the embedded engine
 * never loads them. The server bundle leaves them out (read from node_modules at run time); a
 * function bundle carries them, since esbuild bundles what a dynamic import names.
 */
async function drivers(): Promise<RedisDrivers> {
  // Both are CommonJS: Node.js gives their exports as the default export, and as named exports
  // only where it can tell them from the source; a bundle gives both.
  type Module<T> = Partial<T> & { default: Partial<T> };
  const [ioredis, flexible] = (await Promise.all([import('ioredis'), import('rate-limiter-flexible')])) as unknown as [
    Module<{ Redis: RedisConstructor }>,
    Module<{ RateLimiterRedis: RateLimiterRedisConstructor }>,
  ];
  const Redis = ioredis.Redis ?? ioredis.default.Redis;
  const RateLimiterRedis = flexible.RateLimiterRedis ?? flexible.default.RateLimiterRedis;
  if (Redis === undefined || RateLimiterRedis === undefined)
    throw new Error('ioredis or rate-limiter-flexible changed its exports');
  return { Redis, RateLimiterRedis };
}

/**
 * The longest a Redis command may take before its quota is counted here instead. A count takes
 * a few milliseconds even on a busy machine; a Redis that accepts connections but does not answer
 * (stopped, swapping, stuck in a slow command) would otherwise hold every charged request.
 */
const REDIS_COMMAND_TIMEOUT_MS = 1000;
/** While Redis is counted as down on an open connection, it is asked to answer a PING this often. */
const PROBE_INTERVAL_MS = 1000;

/**
 * One connection to Redis for every quota of the process, and whether it answers. Commands fail
 * at once while the connection is down (no offline queue, one retry) and after
 * REDIS_COMMAND_TIMEOUT_MS while it is open but Redis does not answer. Either way the quotas fall
 * back to their fallback counts (this instance's, or PostgreSQL's: see QuotaBook), and go on
 * doing so without asking Redis until it answers again: a new connection becoming ready, or a
 * PING on the open one. The outage is logged once when it starts and once when Redis is back.
 */
export class RedisQuotaStore {
  readonly client: RedisClient;
  readonly RateLimiterRedis: RateLimiterRedisConstructor;
  private down = false;
  private probe: NodeJS.Timeout | undefined;
  private probing = false;

  /**
   * A store on a new connection to the Redis at `url`, its drivers loaded first. `whileDown` says
   * where the quotas are counted during an outage, for its log line ("per instance").
   */
  static async open(url: string, whileDown = 'per instance'): Promise<RedisQuotaStore> {
    return new RedisQuotaStore(url, await drivers(), whileDown);
  }

  private constructor(
    url: string,
    loaded: RedisDrivers,
    private readonly whileDown: string,
  ) {
    this.RateLimiterRedis = loaded.RateLimiterRedis;
    this.client = new loaded.Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      // The counts of requests answered at the same time go out in one write and come back in one
      // read (a pipeline per event-loop tick) instead of a write and a read each: under load, the
      // system calls were most of a charged request's cost. Each count is still its own atomic script.
      enableAutoPipelining: true,
    });
    // ioredis reconnects by itself; an 'error' event nobody listens to would crash the process.
    this.client.on('error', (error: Error) => this.markDown(error));
    this.client.on('ready', () => this.markUp());
  }

  /** False while Redis is counted as down: quotas are then counted by their fallbacks without asking it. */
  get answering(): boolean {
    return !this.down;
  }

  /**
   * Settles once the first connection attempt has: Redis answered, or it failed (then the outage
   * is logged and quotas start per instance). A service waits for this before it listens, so its
   * first requests are not counted apart merely because the connection was still being made.
   */
  firstConnection(timeoutMs = 3000): Promise<void> {
    if (this.client.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const settle = (connected: boolean) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        this.client.off('error', onError);
        if (!connected) this.markDown();
        resolve();
      };
      const onReady = () => settle(true);
      const onError = () => settle(false);
      const timer = setTimeout(() => settle(false), timeoutMs);
      this.client.once('ready', onReady);
      this.client.once('error', onError);
    });
  }

  markDown(cause?: unknown): void {
    if (this.down) return;
    this.down = true;
    logEvent(`Redis unreachable: quotas are counted ${this.whileDown} until it returns`, {
      ...(cause === undefined ? {} : { error: cause instanceof Error ? cause.message : String(cause) }),
    });
    // A stalled Redis keeps the connection open, so no new 'ready' will say it is back: ask it.
    this.probe = setInterval(() => this.ping(), PROBE_INTERVAL_MS);
    this.probe.unref();
  }

  private ping(): void {
    if (this.probing || this.client.status !== 'ready') return;
    this.probing = true;
    this.client
      .ping()
      .then(
        () => this.markUp(),
        () => undefined,
      )
      .finally(() => (this.probing = false));
  }

  private markUp(): void {
    if (!this.down) return;
    this.down = false;
    clearInterval(this.probe);
    logEvent('Redis is back: quotas are counted across instances again');
  }

  close(): void {
    clearInterval(this.probe);
    this.client.disconnect();
  }
}

/**
 * A quota counted in Redis (rate-limiter-flexible's atomic fixed window), so every instance
 * sharing the Redis counts one window per client. While Redis is unreachable, the same quota's
 * `fallback` answers instead: this instance's in-memory count (each instance then enforces the
 * quota on its own) or a count in PostgreSQL (still one for every instance). It is asked for
 * only when first needed, so an in-memory fallback costs nothing while Redis answers.
 */
export class RedisLimiter implements QuotaLimiter {
  private readonly limiter: RateLimiterRedis;

  constructor(
    readonly quota: RateQuota,
    keyPrefix: string,
    private readonly store: RedisQuotaStore,
    private readonly fallback: () => QuotaLimiter,
  ) {
    this.limiter = new store.RateLimiterRedis({
      storeClient: store.client,
      keyPrefix,
      points: quota.count,
      duration: quota.seconds,
      rejectIfRedisNotReady: true,
    });
  }

  async consume(key: string, units = 1): Promise<RateDecision> {
    if (units === 0) return this.peek(key);
    if (!this.store.answering) return this.fallback().consume(key, units);
    try {
      return this.decision(await this.limiter.consume(key, units), true);
    } catch (refusal) {
      if (!isLimiterAnswer(refusal)) return this.fallBack(refusal, () => this.fallback().consume(key, units));
      // The window counted the refused units too; give them back, so that a refusal counts nothing.
      const back = await this.giveBack(key, units).catch(() => 0);
      return this.decision(
        { consumedPoints: refusal.consumedPoints - back, msBeforeNext: refusal.msBeforeNext },
        false,
      );
    }
  }

  async peek(key: string): Promise<RateDecision> {
    if (!this.store.answering) return this.fallback().peek(key);
    try {
      const state = await this.limiter.get(key);
      return state === null ? this.fresh() : this.decision(state, true);
    } catch (error) {
      return this.fallBack(error, () => this.fallback().peek(key));
    }
  }

  async refund(key: string, units = 1): Promise<void> {
    if (!this.store.answering) return this.fallback().refund(key, units);
    try {
      await this.giveBack(key, units);
    } catch (error) {
      await this.fallBack(error, () => this.fallback().refund(key, units));
    }
  }

  /**
   * Gives back up to `units` of what the current window of `key` counted; how many it gave back.
   * rate-limiter-flexible's reward would count below zero, or start a window below zero when the
   * one counted in has ended, and so allow more than the quota.
   */
  private async giveBack(key: string, units: number): Promise<number> {
    return Number(await this.store.client.eval(GIVE_BACK, 1, this.limiter.getKey(key), units));
  }

  private async fallBack<T>(cause: unknown, answer: () => Eventually<T>): Promise<T> {
    this.store.markDown(cause);
    return answer();
  }

  private decision(state: Pick<RateLimiterRes, 'consumedPoints' | 'msBeforeNext'>, allowed: boolean): RateDecision {
    return {
      allowed,
      limit: this.quota.count,
      remaining: Math.max(0, this.quota.count - state.consumedPoints),
      resetSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)),
    };
  }

  private fresh(): RateDecision {
    return { allowed: true, limit: this.quota.count, remaining: this.quota.count, resetSeconds: this.quota.seconds };
  }
}

/**
 * Takes up to ARGV[1] units off the count at KEYS[1] (rate-limiter-flexible's window: an integer
 * with the window's expiry), never below zero, and never from a window that has ended (no key);
 * DECRBY keeps the expiry. Atomic, so concurrent counts stay exact. Returns the units taken off.
 */
const GIVE_BACK = `
  local counted = tonumber(redis.call('get', KEYS[1]) or '0')
  local back = math.min(counted, tonumber(ARGV[1]))
  if back <= 0 then return 0 end
  redis.call('decrby', KEYS[1], back)
  return back`;

/** rate-limiter-flexible refuses with the window's state; any other rejection is a Redis failure. */
function isLimiterAnswer(value: unknown): value is RateLimiterRes {
  return typeof value === 'object' && value !== null && 'consumedPoints' in value && 'msBeforeNext' in value;
}
