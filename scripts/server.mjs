// The production server. A plain Node HTTP server that
// - stamps every request with the client's address (lib/http/request.ts, stampClientIp): the socket's
//   peer, or behind TRUSTED_PROXY_HOPS proxies the entry the outermost one appended to
//   X-Forwarded-For, replacing any client-sent header of that name; per-IP limits read only that;
// - serves the JSON API and the MCP servers (every defineRoute and plainRoute handler) on its fast
//   path, built by scripts/build-api.mjs (lib/http/node-dispatch.ts says why);
// - hands everything else to Next.js.
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import next from "next";
import { holdServerPid } from "./build-stamp.mjs";

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
  // A refused configuration (lib/platform/env.ts) says what to change, and nothing is served.
  console.error(`\nService failed to start: ${err.message}\n`);
  process.exit(1);
}
const port = config.PORT;
const hostname = config.HOSTNAME;
// Next.js builds each request's URL from this name but calls every loopback address "localhost" in the
// URLs proxy.ts sees: given 127.0.0.1, a rewrite to the same app would look like one to another origin.
const loopback = /^(127\.|::1$|localhost$)/.test(hostname);
const app = next({ dev: false, hostname: loopback ? "localhost" : hostname, port });
const handle = app.getRequestHandler();
await Promise.all([api.startService(), app.prepare()]);

function onSeparateHost(req) {
  if (!req.headers.host) return false;
  try {
    return api.rewriteForHost(new URL(req.url ?? "/", `http://${req.headers.host}`), config) !== null;
  } catch {
    return false; // an unreadable Host header: Next.js answers it
  }
}

const server = createServer((req, res) => {
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
});
server.keepAliveTimeout = 65_000;
holdServerPid();
// The address to open in a browser on this machine (a loopback or every-interface address is localhost),
// and, on a loopback address, that nothing else can reach it.
const shown = loopback || hostname === "0.0.0.0" ? "localhost" : hostname;
server.listen(port, hostname, () =>
  console.log(`Service listening on http://${shown}:${port}${loopback && hostname !== "localhost" ? ` (on ${hostname} only: this machine)` : ""}`),
);

/** The longest a shutdown waits for connections and work to settle before the process ends anyway. */
const SHUTDOWN_DEADLINE_MS = 10_000;
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  // No new connections; then the job workers stop, the logs' waiting rows are written and the database
  // closes (lib/startup.ts, stopService). Whatever still hangs at the deadline does not keep the process.
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      console.error(`Shutdown did not finish within ${SHUTDOWN_DEADLINE_MS / 1000} s: exiting.`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    server.close(() => void api.stopService().finally(() => process.exit(0)));
  });
}
