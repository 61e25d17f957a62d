// WEB_CONCURRENCY > 1: this process starts that many server processes (scripts/server.mjs under
// node:cluster), which share PORT; it serves nothing itself but the metrics of all of them (METRICS_PORT,
// prom-client's cluster aggregator). A process that dies is replaced. On SIGTERM or SIGINT each process
// gets the signal and shuts down as one alone does (scripts/server.mjs); this one exits when they all
// have, 0 when every one stopped cleanly.
import cluster from "node:cluster";
import { holdServerPid } from "./build-stamp.mjs";
import { listeningLine, serveMetrics } from "./server-metrics.mjs";

export async function runPrimary(config) {
  const processes = config.WEB_CONCURRENCY;
  holdServerPid();
  let stopping = false;
  let failed = false;
  let listening = 0;
  cluster.on("listening", () => {
    if (++listening === processes) process.stdout.write(`${listeningLine(config, processes)}\n`);
  });
  cluster.on("exit", (worker, code, signal) => {
    if (code !== 0) failed = true;
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(failed ? 1 : 0);
      return;
    }
    // Died on its own (a crash, the out-of-memory killer): start another in its place after a moment.
    console.error(`Server process ${worker.process.pid} ended (${signal ?? `exit ${code}`}); starting another.`);
    setTimeout(() => {
      if (!stopping) cluster.fork();
    }, 1_000).unref();
  });
  for (let i = 0; i < processes; i++) cluster.fork();

  if (config.METRICS_PORT) {
    const { AggregatorRegistry } = await import("prom-client");
    const aggregator = new AggregatorRegistry();
    serveMetrics(config, async () => ({ contentType: aggregator.contentType, body: await aggregator.clusterMetrics() }));
  }

  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      if (stopping) return;
      stopping = true;
      const running = Object.values(cluster.workers ?? {});
      if (!running.length) process.exit(0);
      for (const worker of running) worker?.process.kill(sig);
      // Each process keeps its own SHUTDOWN_TIMEOUT_MS; this only guards against one that hangs past it.
      setTimeout(() => {
        console.error("A server process did not stop within its shutdown timeout: ending it.");
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
        process.exit(1);
      }, config.SHUTDOWN_TIMEOUT_MS + 2_000).unref();
    });
  }
}
