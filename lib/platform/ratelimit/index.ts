// Rate limits on rate-limiter-flexible: in memory by default, shared through Redis when REDIS_URL is set.
//
// Redis away never slows a request. While the connection is not ready (refused, dropped, reconnecting)
// each limit counts in this process's memory at once. A command that fails, or that Redis does not
// answer within REDIS_COMMAND_TIMEOUT_MS (a server that hangs, a network that drops packets), counts in
// memory too and opens a circuit: for REDIS_CIRCUIT_OPEN_MS every limit counts in memory without asking
// Redis, then the next request tries it again (so at most one request a second waits the timeout). The client reconnects in the background; once Redis
// answers again the counts go back to it, shared by every instance.
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { env } from "../../env";
import { logger } from "../log";
import { countRateLimitInMemory } from "../metrics";
import { processWide, processWideSlot } from "../../process-wide";

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

/**
 * The longest a limit waits for Redis's answer before it counts in memory instead. Generous beside a
 * round trip of a millisecond: a busy process's own event loop (a collection, a key generated) must
 * not make a healthy Redis look hung.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/**
 * How long a connection attempt may take; attempts repeat in the background. Only the very first is
 * waited for, at start-up (lib/startup.ts), before the server takes requests.
 */
export const REDIS_CONNECT_TIMEOUT_MS = 2_000;
/** The longest pause between reconnection attempts while Redis is away. */
export const REDIS_RECONNECT_MAX_MS = 2_000;
/** After a failed or timed-out command, how long limits count in memory before Redis is tried again. */
export const REDIS_CIRCUIT_OPEN_MS = 1_000;

/** Where each limit counts now: "redis" while the connection is ready, "memory" otherwise. */
export type LimitStore = "redis" | "memory";

/** The process's one Redis connection, opened on first use, and the first outcome of connecting it. */
const redis = processWideSlot<{ client: Redis; connected: Promise<void> }>("ratelimit.redis");

function redisClient(url: string): Redis {
  if (!redis.current) {
    const client = new Redis(url, {
      // A command while the connection is not ready fails at once rather than waiting in a queue, and
      // one already sent gives up after REDIS_COMMAND_TIMEOUT_MS: either way the memory store decides.
      enableOfflineQueue: false,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 10), REDIS_RECONNECT_MAX_MS),
    });
    let away = false;
    client.on("error", (err: Error) => {
      if (!away) logger().warn({ err: err.message }, "redis unreachable; rate limits count in memory until it is back");
      away = true;
    });
    client.on("ready", () => {
      if (away) logger().info("redis is back; rate limits count in redis again");
      away = false;
    });
    // The first attempt's outcome (ready, refused, or no answer within the connect timeout): until
    // then a limit waits for it, once per process, so the counts start where every instance keeps them.
    const connected = new Promise<void>((resolve) => {
      const done = () => resolve();
      client.once("ready", done);
      client.once("error", done);
      client.once("end", done);
      setTimeout(done, REDIS_CONNECT_TIMEOUT_MS).unref();
    });
    redis.current = { client, connected };
  }
  return redis.current.client;
}

/** Opens the Redis connection now, when REDIS_URL is set (start-up), so no request waits for it. */
export async function connectRateLimitStore(): Promise<void> {
  const url = env().REDIS_URL;
  if (!url) return;
  redisClient(url);
  await redis.current?.connected;
}

/** A limit's two stores: Redis (shared by every instance) and this process's memory. */
interface Stores {
  redis?: RateLimiterAbstract;
  memory: RateLimiterAbstract;
}

function build(spec: LimitSpec): Stores {
  const opts = { keyPrefix: `${env().RATE_LIMIT_PREFIX}:${spec.name}`, points: spec.points, duration: spec.durationSeconds };
  const memory = new RateLimiterMemory(opts);
  const url = env().REDIS_URL;
  if (!url) return { memory };
  return { memory, redis: new RateLimiterRedis({ ...opts, storeClient: redisClient(url) }) };
}

/** Until when (performance.now()) limits count in memory after Redis failed a command. */
const circuit = processWide("ratelimit.circuit", () => ({ openUntil: 0 }));

/** Where limits count at this moment: Redis while its connection is ready and its circuit closed. */
export function limitStore(): LimitStore {
  return redis.current?.client.status === "ready" && performance.now() >= circuit.openUntil ? "redis" : "memory";
}

function tripCircuit(err: unknown): void {
  circuit.openUntil = performance.now() + REDIS_CIRCUIT_OPEN_MS;
  logger().warn({ err: err instanceof Error ? err.message : String(err) }, "redis command failed; rate limits count in memory for a moment");
}

async function consumeIn(store: RateLimiterAbstract, key: string): Promise<LimitResult> {
  try {
    await store.consume(key);
    return { allowed: true };
  } catch (res) {
    if (res instanceof RateLimiterRes) return { allowed: false, retryAfter: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
    throw res;
  }
}

// One pair of stores per limit name in the process, shared by the API fast path and the app router,
// which bundle this module separately: a limit the two both apply must count once.
const stores = processWide("ratelimit.stores", () => new Map<string, Stores>());

export function createLimiter(spec: LimitSpec): Limiter {
  return {
    spec,
    async consume(key) {
      let pair = stores.get(spec.name);
      if (!pair) stores.set(spec.name, (pair = build(spec)));
      if (pair.redis) await redis.current?.connected;
      // The connection's state and the circuit decide without a round trip: no request waits for a
      // Redis that is away.
      if (pair.redis && limitStore() === "redis") {
        try {
          return await consumeIn(pair.redis, key);
        } catch (err) {
          tripCircuit(err);
        }
      }
      if (pair.redis) countRateLimitInMemory();
      return consumeIn(pair.memory, key);
    },
  };
}

/** Bumped when the stores close: lazy limiters read their spec again on their next use. */
const storesClosed = processWide("ratelimit.stores-closed", () => ({ count: 0 }));

/**
 * A limiter whose spec is read (from configuration) on first use, not when its module loads, and
 * again after the stores close (closeRateLimitStore: shutdown, or tests changing the configuration).
 */
export function lazyLimiter(spec: () => LimitSpec): Limiter {
  let made: { limiter: Limiter; closed: number } | undefined;
  const limiter = () => {
    if (made?.closed !== storesClosed.count) made = { limiter: createLimiter(spec()), closed: storesClosed.count };
    return made.limiter;
  };
  return {
    get spec() {
      return limiter().spec;
    },
    consume: (key) => limiter().consume(key),
  };
}

/** Closes the shared Redis connection (tests, shutdown). */
export async function closeRateLimitStore(): Promise<void> {
  const r = redis.current?.client;
  redis.current = undefined;
  stores.clear();
  storesClosed.count += 1;
  circuit.openUntil = 0;
  if (r) await r.quit().catch(() => r.disconnect());
}
