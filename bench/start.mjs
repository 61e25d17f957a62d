// Cold start as a user sees it: `npm start` on a built checkout, timed from the command to the first
// 200 from GET /api/health, on a fresh embedded data directory each run. Prints each run and the median.
// Usage: node bench/start.mjs [--runs 5] [--port 3900]   (run `npm run build` first)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildState } from "../scripts/build-stamp.mjs";

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const runs = arg("runs", 5);
const port = arg("port", 3900);
if (buildState() !== "current") {
  console.error(`The build is ${buildState()}: run npm run build first, so this measures a start and not a build.`);
  process.exit(1);
}

async function once() {
  const dataDir = mkdtempSync(path.join(tmpdir(), "start-bench-"));
  const started = performance.now();
  const child = spawn("npm", ["start", "--silent"], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}: ${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(1000) }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return { ms: performance.now() - started, rebuilt: output.includes("Building the service") };
      if (performance.now() - started > 120_000) throw new Error("no answer within 120 s");
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    process.kill(-child.pid, "SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const times = [];
for (let i = 1; i <= runs; i++) {
  const { ms, rebuilt } = await once();
  times.push(ms);
  console.log(`run ${i}: ${(ms / 1000).toFixed(2)} s to the first 200 from /api/health${rebuilt ? " (rebuilt!)" : ""}`);
}
times.sort((a, b) => a - b);
console.log(
  `median ${(times[Math.floor(times.length / 2)] / 1000).toFixed(2)} s · fastest ${(times[0] / 1000).toFixed(2)} s · slowest ${(times.at(-1) / 1000).toFixed(2)} s (budget 3 s)`,
);
