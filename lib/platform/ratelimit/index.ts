// Rate limits on rate-limiter-flexible: in memory by default, shared through Redis when REDIS_URL is set.
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { env } from "../env";
import { logger } from "../log";
import { processWide, processWideSlot } from "../process-wide";

export interface LimitSpec {
  /** Distinguishes limiters sharing one store. */
  name: string;
  points: number;
  durationSeconds: number;
}

export type LimitResult = { allowed: true } | { allowed: false; retryAfter: number };

export interface Limiter {
  readonly spec: LimitSpec;
  consume(key: string): Promise<LimitResult>;
}

/** The process's one Redis connection, opened on first use. */
const redis = processWideSlot<Redis>("ratelimit.redis");

function redisClient(url: string): Redis {
  if (!redis.current) {
    // Commands wait for the first connection (so early requests count in Redis too), but give up
    // after one retry: while Redis is down the in-memory insurance limiter takes over.
    const client = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 1, connectTimeout: 1000 });
    client.on("error", (err) => logger().warn({ err: err.message }, "redis error; rate limits fall back to memory"));
    redis.current = client;
  }
  return redis.current;
}

function build(spec: LimitSpec): RateLimiterAbstract {
  const opts = { keyPrefix: `${env().RATE_LIMIT_PREFIX}:${spec.name}`, points: spec.points, duration: spec.durationSeconds };
  const url = env().REDIS_URL;
  if (!url) return new RateLimiterMemory(opts);
  // While Redis is unreachable each instance limits on its own rather than letting everything through.
  return new RateLimiterRedis({ ...opts, storeClient: redisClient(url), insuranceLimiter: new RateLimiterMemory(opts) });
}

// One store per limit name in the process, shared by the API fast path and the app router, which
// bundle this module separately: a limit the two both apply must count once.
const stores = processWide("ratelimit.stores", () => new Map<string, RateLimiterAbstract>());

export function createLimiter(spec: LimitSpec): Limiter {
  return {
    spec,
    async consume(key) {
      let store = stores.get(spec.name);
      if (!store) stores.set(spec.name, (store = build(spec)));
      try {
        await store.consume(key);
        return { allowed: true };
      } catch (res) {
        if (res instanceof RateLimiterRes) {
          return { allowed: false, retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
        }
        throw res;
      }
    },
  };
}

/** A limiter whose spec is read (from configuration) on first use, not when its module loads. */
export function lazyLimiter(spec: () => LimitSpec): Limiter {
  let limiter: Limiter | undefined;
  return {
    get spec() {
      return (limiter ??= createLimiter(spec())).spec;
    },
    consume: (key) => (limiter ??= createLimiter(spec())).consume(key),
  };
}

/** Closes the shared Redis connection (tests, shutdown). */
export async function closeRateLimitStore(): Promise<void> {
  const r = redis.current;
  redis.current = undefined;
  stores.clear();
  if (r) await r.quit().catch(() => r.disconnect());
}
