// The production server. A plain Node HTTP server that
// - stamps every request with the client's address (lib/http/request.ts, stampClientIp): the socket's
//   peer, or behind TRUSTED_PROXY_HOPS proxies the entry the outermost one appended to
//   X-Forwarded-For, replacing any client-sent header of that name; per-IP limits read only that;
// - serves the JSON API and the MCP servers (every defineRoute and plainRoute handler) on its fast
//   path, built by scripts/build-api.mjs (lib/http/node-dispatch.ts says why);
// - hands everything else to Next.js;
// - runs WEB_CONCURRENCY such processes sharing the port (node:cluster; scripts/server-primary.mjs), and
//   serves Prometheus's /metrics on METRICS_PORT when it is set.
import cluster from "node:cluster";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import next from "next";
import { holdServerPid } from "./build-stamp.mjs";
import { listeningLine } from "./server-metrics.mjs";

const apiBundle = path.resolve(import.meta.dirname, "../.next/service-api/server.mjs");
if (!existsSync(apiBundle)) {
  console.error("The API bundle is missing: run `npm run build` (or `npm start`, which builds when needed).");
  process.exit(1);
}
const api = await import(pathToFileURL(apiBundle).href);

// Configuration, secrets and the migrated database first, so both halves of the app share them;
// Next.js prepares meanwhile (its own start-up step waits for the same database).
let config;
try {
  config = api.env();
} catch (err) {
  // A refused configuration (lib/env.ts) says what to change, and nothing is served.
  console.error(`\nService failed to start: ${err.message}\n`);
  process.exit(1);
}
const port = config.PORT;
const hostname = config.HOSTNAME;
// From here on, what Next.js, the libraries and these scripts write to the console is a JSON line of the
// log; the one plain line, where the service listens, is written to stdout directly.
api.consoleToLog();
if (cluster.isPrimary && config.WEB_CONCURRENCY > 1) {
  // The primary serves nothing itself: it starts the processes that do, and stops them.
  const { runPrimary } = await import("./server-primary.mjs");
  await runPrimary(config);
} else {
  await serve();
}

async function serve() {
  // Next.js builds each request's URL from this name but calls every loopback address "localhost" in the
  // URLs proxy.ts sees: given 127.0.0.1, a rewrite to the same app would look like one to another origin.
  const loopback = /^(127\.|::1$|localhost$)/.test(hostname);
  const app = next({ dev: false, hostname: loopback ? "localhost" : hostname, port });
  const handle = app.getRequestHandler();
  await Promise.all([api.startService(), app.prepare(), api.startTracing()]);

  function onSeparateHost(req) {
    if (!req.headers.host) return false;
    try {
      return api.rewriteForHost(new URL(req.url ?? "/", `http://${req.headers.host}`), config) !== null;
    } catch {
      return false; // an unreadable Host header: Next.js answers it
    }
  }

  /** Set on SIGTERM or SIGINT: every answer from then on closes its connection. */
  let stopping = false;

  // With OTEL_EXPORTER_OTLP_ENDPOINT, each request runs inside its span (lib/platform/tracing.ts).
  const server = createServer((req, res) => api.traceRequest(req, res, () => serveRequest(req, res)));
  function serveRequest(req, res) {
    // A client that keeps its connection busy still goes: it gets its answer, then the connection closes.
    if (stopping) res.setHeader("connection", "close");
    api.stampClientIp(req, config.TRUSTED_PROXY_HOPS);
    // Requests to a separately hosted sign-in or MCP address are rewritten by proxy.ts inside Next.js.
    if (onSeparateHost(req)) return void handle(req, res);
    api.dispatch(api.router, req, res).then(
      (served) => {
        if (!served) handle(req, res);
      },
      (err) => {
        console.error(err);
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end();
      },
    );
  }
  server.keepAliveTimeout = 65_000;
  holdServerPid();
  server.listen(port, hostname, () => {
    // Under a primary, the primary says where the processes listen, once.
    if (cluster.isPrimary) process.stdout.write(`${listeningLine(config)}\n`);
  });
  // Alone, this process serves its own metrics; under a primary, the primary serves every process's.
  if (cluster.isPrimary && config.METRICS_PORT) {
    const { serveMetrics } = await import("./server-metrics.mjs");
    serveMetrics(config, () => api.metricsText());
  }

  // Graceful shutdown, within SHUTDOWN_TIMEOUT_MS (10 s by default):
  // 1. readiness fails at once (GET /api/ready answers 503 shutting_down), and the server stops accepting
  //    connections (a load balancer sends a refused connection to another instance);
  // 2. every answer from then on carries `Connection: close`, so a busy kept-alive connection closes after
  //    the request in flight; an idle one stays open for SHUTDOWN_DRAIN_MS, while the load balancer sees
  //    readiness fail and stops sending on it, and is closed then: closed earlier, it could race a request
  //    being sent on it, which would be lost with the connection (a proxy cannot send a write again);
  // 3. once no connection is left, the job workers stop, every batched log writes what waits and the
  //    database closes (lib/startup.ts, stopService), and the process exits 0;
  // 4. whatever still runs at the deadline does not keep the process: the connections are cut and it exits 1.
  const shutdownTimeoutMs = config.SHUTDOWN_TIMEOUT_MS;
  for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      api.beginShutdown();
      const deadline = setTimeout(() => {
        console.error(`Shutdown did not finish within ${shutdownTimeoutMs / 1000} s: exiting.`);
        server.closeAllConnections();
        process.exit(1);
      }, shutdownTimeoutMs);
      deadline.unref();
      // http.Server's close() would also close the idle connections at once: net.Server's stops accepting only.
      net.Server.prototype.close.call(server, () => void api.stopService().finally(() => process.exit(0)));
      setTimeout(() => server.closeIdleConnections(), config.SHUTDOWN_DRAIN_MS).unref();
    });
  }
}
