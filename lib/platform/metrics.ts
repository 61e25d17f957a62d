// Prometheus metrics (prom-client), served on METRICS_PORT by scripts/server.mjs (docs/operations.md):
// requests by route pattern and status with their latency, the database pool, the job queues, text
// messages and e-mails sent by outcome, rate limits counted in memory because Redis was away, and
// whether the process is shutting down. Recorded in prom-client's default registry, which its cluster
// aggregator reads from every process when WEB_CONCURRENCY runs several (prom-client is one module per
// process: an external package of both bundles).
import cluster from "node:cluster";
import client from "prom-client";
import { env } from "../env";
import { processWide } from "../process-wide";
import { nameRequestSpan } from "./tracing";

type Collect = () => Promise<void> | void;

/** What the gauges read when scraped; set once the database and the job system exist (lib/startup.ts). */
const sources = processWide("metrics.sources", () => ({ pool: null as null | (() => { total: number; idle: number; waiting: number }), queues: null as null | Collect }));

/** The metrics, made on first use (never when the module loads: configuration is read by then). */
const metrics = () =>
  processWide("metrics", () => {
    const registry = client.register;
    // The process's own figures (CPU, memory, event-loop delay, garbage collection) cost a little on every
    // collection of garbage: gathered only where something reads them.
    if (env().METRICS_PORT) client.collectDefaultMetrics({ register: registry });
    // Under a primary (WEB_CONCURRENCY > 1), the aggregator's construction is what makes this process
    // answer the primary's requests for its metrics.
    if (cluster.isWorker) new client.AggregatorRegistry();
    const buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
    const pool = {
      total: new client.Gauge({ name: "service_db_pool_connections", help: "Connections the PostgreSQL pool holds." }),
      idle: new client.Gauge({ name: "service_db_pool_idle_connections", help: "Idle connections in the PostgreSQL pool." }),
      waiting: new client.Gauge({ name: "service_db_pool_waiting_requests", help: "Queries waiting for a free connection of the PostgreSQL pool." }),
    };
    return {
      requests: new client.Counter({
        name: "service_http_requests_total",
        help: "Answered requests of the API and the MCP servers, by route pattern, method and status.",
        labelNames: ["route", "method", "status"] as const,
      }),
      latency: new client.Histogram({
        name: "service_http_request_duration_seconds",
        help: "Time to answer a request of the API or the MCP servers, by route pattern and method.",
        labelNames: ["route", "method"] as const,
        buckets,
      }),
      pool,
      poolGauge: new client.Gauge({
        name: "service_db_pool_processes",
        help: "Processes whose PostgreSQL pool the pool gauges count (0 on the embedded database).",
        collect() {
          const read = sources.pool?.();
          this.set(read ? 1 : 0);
          if (read) {
            pool.total.set(read.total);
            pool.idle.set(read.idle);
            pool.waiting.set(read.waiting);
          }
        },
      }),
      queueDepth: new client.Gauge({
        name: "service_job_queue_ready",
        help: "Jobs ready to run now, by queue.",
        labelNames: ["queue"] as const,
        // Every process reads the same queues: several processes' readings are one reading.
        aggregator: "max",
        async collect() {
          await sources.queues?.();
        },
      }),
      queueActive: new client.Gauge({ name: "service_job_queue_active", help: "Jobs running now, by queue.", labelNames: ["queue"] as const, aggregator: "max" }),
      jobFailures: new client.Counter({ name: "service_job_failures_total", help: "Job runs that failed (each try), by queue.", labelNames: ["queue"] as const }),
      sms: new client.Counter({ name: "service_sms_sent_total", help: "Text messages handed to the SMS driver, by outcome (sent, failed).", labelNames: ["outcome"] as const }),
      email: new client.Counter({ name: "service_email_sent_total", help: "E-mails handed to the e-mail driver, by outcome (sent, failed).", labelNames: ["outcome"] as const }),
      rateLimitFallbacks: new client.Counter({
        name: "service_rate_limit_memory_total",
        help: "Rate-limit decisions made in this process's memory because Redis was away (REDIS_URL set).",
      }),
      shuttingDown: new client.Gauge({ name: "service_shutting_down", help: "1 from the moment the process began to shut down.", aggregator: "max" }),
    };
  });

/** One answered request: its metrics, and its trace's name (lib/platform/tracing.ts). */
export function observeRequest(r: { route: string; method: string; status: number; latencyMs: number }): void {
  nameRequestSpan(r.method, r.route);
  metrics().requests.inc({ route: r.route, method: r.method, status: String(r.status) });
  metrics().latency.observe({ route: r.route, method: r.method }, r.latencyMs / 1000);
}

export function countJobFailure(queue: string): void {
  metrics().jobFailures.inc({ queue });
}

/** `driver` with each send counted by outcome: a text-message or e-mail driver as /metrics sees it. */
export function countingSends<M, D extends { send(message: M): Promise<void> }>(channel: "sms" | "email", driver: D): D {
  return {
    ...driver,
    async send(message: M) {
      try {
        await driver.send(message);
        metrics()[channel].inc({ outcome: "sent" });
      } catch (err) {
        metrics()[channel].inc({ outcome: "failed" });
        throw err;
      }
    },
  };
}

export function countRateLimitInMemory(): void {
  metrics().rateLimitFallbacks.inc();
}

export function markShuttingDown(): void {
  metrics().shuttingDown.set(1);
}

/**
 * Makes the metrics now (start-up): scraped before the first request, they read zero rather than
 * missing, and under a primary this process answers its requests for them from the start.
 */
export function startMetrics(): void {
  metrics();
}

/** Where the pool's gauges are read at each scrape. */
export function measurePool(read: () => { total: number; idle: number; waiting: number }): void {
  sources.pool = read;
}

/** How the job queues' depths are read at each scrape. */
export function measureQueues(read: () => Promise<Array<{ name: string; ready: number; active: number }>>): void {
  sources.queues = async () => {
    try {
      for (const q of await read()) {
        metrics().queueDepth.set({ queue: q.name }, q.ready);
        metrics().queueActive.set({ queue: q.name }, q.active);
      }
    } catch {
      // The database away: the gauges keep their last values, and the scrape still answers.
    }
  };
}

/** This process's metrics in Prometheus's text format. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  metrics();
  return { contentType: client.register.contentType, body: await client.register.metrics() };
}
