// What scripts/server.mjs and scripts/server-primary.mjs share: the line that says where the service
// listens, and the metrics server on METRICS_PORT (Prometheus's text format at GET /metrics).
import { createServer } from "node:http";

/** "Service listening on http://localhost:3000", with where it can be reached from and how many processes serve it. */
export function listeningLine(config, processes = 1) {
  const { HOSTNAME: hostname, PORT: port } = config;
  const loopback = /^(127\.|::1$|localhost$)/.test(hostname);
  // The address to open in a browser on this machine (a loopback or every-interface address is localhost),
  // and, on a loopback address, that nothing else can reach it.
  const shown = loopback || hostname === "0.0.0.0" ? "localhost" : hostname;
  const notes = [loopback && hostname !== "localhost" && `on ${hostname} only: this machine`, processes > 1 && `${processes} processes`].filter(Boolean);
  return `Service listening on http://${shown}:${port}${notes.length ? ` (${notes.join("; ")})` : ""}`;
}

/** Serves GET /metrics on METRICS_PORT with what `read` gives; anything else is 404. Answers the server. */
export function serveMetrics(config, read) {
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found: metrics are at GET /metrics.\n");
      return;
    }
    read().then(
      ({ contentType, body }) => res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(body),
      (err) => {
        console.error(`metrics: ${err.message}`);
        res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Metrics could not be read.\n");
      },
    );
  });
  server.listen(config.METRICS_PORT, config.METRICS_HOST);
  // Metrics never keep a stopping process alive.
  server.unref();
  return server;
}
