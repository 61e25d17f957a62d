// npm run dev: the Next.js development server, listening where the configuration says (HOSTNAME:
// 127.0.0.1 in development mode) rather than on every interface, as `next dev` would by default.
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { ConfigError, loadEnv } from "../lib/env";
import { requireSupportedNode } from "./node-version.mjs";

requireSupportedNode();

let config;
try {
  config = loadEnv();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`\nService failed to start: ${err.message}\n`);
  process.exit(1);
}
// The route manifest first: proxy.ts answers /v1 paths it does not list with 404, a route added since included.
spawnSync(process.execPath, ["scripts/route-manifest.mjs"], { stdio: "inherit" });
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
// `next dev` also builds each request's URL from this name, and proxy.ts sees every loopback address as
// "localhost": given 127.0.0.1 itself, a rewrite to the same app would look like one to another origin.
const hostname = /^(127\.|::1$)/.test(config.HOSTNAME) ? "localhost" : config.HOSTNAME;
const child = spawn(process.execPath, [nextBin, "dev", "--hostname", hostname, "--port", String(config.PORT), ...process.argv.slice(2)], { stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
