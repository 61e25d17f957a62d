// `npm start` as a newcomer runs it, on the checkout npm test has just built (scripts/test.mjs builds
// before the browser tests): it serves the existing build, on a fresh embedded database, without
// building again and without touching the build another instance (Playwright's server) is serving.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/** `npm start` in a process group of its own, on `port` and a fresh embedded database in a temporary directory. */
function npmStart(port: number, extraEnv: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "npm-start-"));
  const child = spawn("npm", ["start", "--silent"], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "", BASE_URL: `http://localhost:${port}`, LOG_LEVEL: "warn", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  /** Whether any process of the group (npm, the shell, node) still runs. */
  const groupAlive = () => {
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  return {
    child,
    output: () => output,
    exited,
    groupAlive,
    /** Polls `probe` until it gives 200, failing at once if npm start exits first. */
    async ready(probe: () => Promise<number | undefined>) {
      await expect
        .poll(
          async () => {
            if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
            return probe();
          },
          { timeout: 90_000 },
        )
        .toBe(200);
    },
    /** Ends whatever of the group is left, and removes the data directory. */
    cleanUp() {
      if (groupAlive()) process.kill(-child.pid!, "SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const health = (port: number) =>
  fetch(`http://localhost:${port}/api/health`).then(
    (r) => r.status,
    () => undefined,
  );

test("npm start serves the build npm run build made, without building again", async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = ".next/service-build.json";
  const before = { text: readFileSync(stamp, "utf8"), mtime: statSync(stamp).mtimeMs, buildId: readFileSync(".next/BUILD_ID", "utf8") };
  const port = 3290 + test.info().workerIndex;
  const started = npmStart(port);
  try {
    await started.ready(() => health(port));
    const output = started.output();
    expect(output, output).not.toContain("Building the service");
    expect(output).toContain(`Service listening on http://localhost:${port}`);
    await page.goto(`http://localhost:${port}/`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Every route the manifest lists is served, the connector tools' too: a call without a key is 401, not 404.
    const tool = await fetch(`http://localhost:${port}/v1/tools/service_gmail_search`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect([tool.status, ((await tool.json()) as { error: { code: string } }).error.code]).toEqual([401, "api_key_required"]);
    expect({ text: readFileSync(stamp, "utf8"), mtime: statSync(stamp).mtimeMs, buildId: readFileSync(".next/BUILD_ID", "utf8") }).toEqual(before);
  } finally {
    if (started.groupAlive()) {
      process.kill(-started.child.pid!, "SIGTERM");
      await started.exited;
    }
    started.cleanUp();
  }
});

// The process an operator starts is the one that stops: npm runs the script through `sh -c`, so the
// script execs node (package.json), which hands the signal to the server and exits with it.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`${signal} to the npm start process ends the server, and nothing of it keeps running`, async () => {
    test.setTimeout(120_000);
    const port = 3280 + test.info().workerIndex;
    const started = npmStart(port);
    try {
      await started.ready(() => health(port));
      // The signal goes to npm's own process only, as `kill <pid>` or a process manager sends it.
      started.child.kill(signal);
      await Promise.race([
        started.exited,
        new Promise((_, reject) => setTimeout(() => reject(new Error(`npm start still running 15 s after ${signal}:\n${started.output()}`)), 15_000)),
      ]);
      await expect.poll(started.groupAlive, { timeout: 5_000 }).toBe(false);
      expect(await fetch(`http://localhost:${port}/api/health`).catch(() => "refused")).toBe("refused");
    } finally {
      started.cleanUp();
    }
  });
}

test("SIGTERM while a client keeps its connection busy: the connection is let go at once, and the server exits within SHUTDOWN_TIMEOUT_MS", async () => {
  test.setTimeout(120_000);
  const port = 3270 + test.info().workerIndex;
  const started = npmStart(port, { SHUTDOWN_TIMEOUT_MS: "5000" });
  // One kept-alive connection, used back to back, as a busy client or a proxy's pool uses it.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (pathname: string) =>
    new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: pathname, agent }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      });
      req.on("error", reject);
      req.end();
    });
  try {
    await started.ready(async () => (await get("/api/ready").catch(() => null))?.status);
    expect((await get("/api/ready")).connection).toBe("keep-alive");

    // The client sends request after request on its one connection; the signal lands among them.
    let signalledAt = 0;
    const afterSignal: Array<{ status: number; connection: string | undefined; body: string }> = [];
    const busy = (async () => {
      for (;;) {
        const answer = await get("/api/ready").catch(() => null);
        if (!answer) return;
        if (signalledAt) afterSignal.push(answer);
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    signalledAt = performance.now();
    started.child.kill("SIGTERM");
    await busy;
    // Served a moment longer at most (the signal passes npm and scripts/start.mjs first, which on a loaded
    // machine takes a second), and well before the 5 s deadline would cut the connection: what let it go
    // was the answer's Connection: close, and what it was told then: this instance is going.
    expect(performance.now() - signalledAt).toBeLessThan(2_500);
    // Answers served before the server heard the signal are ordinary; the first it gives after closes
    // the connection. The connection is never closed under the client between two requests (which
    // could lose one being sent): idle, it stays open for SHUTDOWN_DRAIN_MS.
    const closing = afterSignal.findIndex((a) => a.connection === "close");
    expect(closing, JSON.stringify(afterSignal)).toBe(afterSignal.length - 1);
    for (const answer of afterSignal.filter((a) => a.status !== 200)) {
      expect([answer.status, answer.connection, JSON.parse(answer.body)]).toEqual([503, "close", { status: "shutting_down", database: "ok" }]);
    }
    // No new connection is taken.
    expect(
      await get("/api/health").then(
        () => "served",
        () => "refused",
      ),
    ).toBe("refused");

    const code = await Promise.race([started.exited, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 8_000))]);
    expect(code, started.output()).toBe(0);
    expect(performance.now() - signalledAt).toBeLessThan(5_000 + 1_000);
  } finally {
    agent.destroy();
    started.cleanUp();
  }
});

test("with OTEL_EXPORTER_OTLP_ENDPOINT, npm start sends each request's span to the collector, continuing the caller's trace and named by its route", async () => {
  test.setTimeout(120_000);
  // A collector receiving OTLP/HTTP in JSON, as an OpenTelemetry Collector's otlphttp receiver does.
  const received: Array<{ traceId: string; parentSpanId?: string; name: string; kind: number; attributes: Array<{ key: string; value: Record<string, unknown> }> }> = [];
  const collector = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (req.url === "/v1/traces" && req.method === "POST") {
        const payload = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: typeof received }> }> };
        for (const rs of payload.resourceSpans) for (const ss of rs.scopeSpans) received.push(...ss.spans);
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const port = 3280 + test.info().workerIndex;
  const started = npmStart(port, { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}` });
  try {
    await started.ready(() => health(port));
    const traceId = randomBytes(16).toString("hex");
    const parent = randomBytes(8).toString("hex");
    const res = await fetch(`http://localhost:${port}/v1/profile?sections=identity`, { headers: { traceparent: `00-${traceId}-${parent}-01` } });
    expect(res.status).toBe(401);
    await expect.poll(() => received.filter((s) => s.traceId === traceId).length, { timeout: 15_000 }).toBe(1);
    const span = received.find((s) => s.traceId === traceId)!;
    expect(span).toMatchObject({ parentSpanId: parent, name: "GET /v1/profile", kind: 2 });
    const attributes = Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]]));
    expect(attributes).toMatchObject({ "http.request.method": "GET", "http.route": "/v1/profile" });
    expect(Number(attributes["http.response.status_code"])).toBe(401);
    // Never the path or its query: a path may hold a capability, a query a code.
    expect(JSON.stringify(span)).not.toContain("sections=identity");
  } finally {
    started.cleanUp();
    collector.close();
  }
});
