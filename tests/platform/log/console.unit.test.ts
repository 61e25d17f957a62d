// The production server's console: what Next.js and the libraries write to the console becomes one
// JSON line of the service's log, and an error the service logged itself (instrumentation.ts,
// onRequestError) is not written a second time by Next.js's own line.
import { Writable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { captureLogsForTests, consoleToLog, markLogged } from "@/lib/platform/log";

let lines: Array<Record<string, unknown>>;
const saved = { error: console.error, warn: console.warn, info: console.info, log: console.log };

beforeEach(() => {
  lines = [];
  captureLogsForTests(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  consoleToLog();
});

afterEach(() => {
  Object.assign(console, saved);
});

describe("consoleToLog", () => {
  it("writes Next.js's error line as JSON, with the error's stack and without its prefix or colours", () => {
    const err = new Error("render failed");
    console.error("\u001b[31m⨯\u001b[39m", err);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", msg: "render failed", err: { type: "Error", message: "render failed" } });
    expect((lines[0]!.err as { stack: string }).stack).toContain("console.unit.test.ts");
  });

  it("writes a warning, a note and plain text as JSON lines, formatted as console would", () => {
    console.warn(" ⚠ Invalid next.config option %s", "x");
    console.log("\u001b[32m✓\u001b[39m Running next.config.mjs took 52ms");
    console.info("ready");
    console.error("worker %d stopped", 2, { code: 1 });
    expect(lines).toEqual([
      expect.objectContaining({ level: "warn", msg: "Invalid next.config option x" }),
      expect.objectContaining({ level: "info", msg: "Running next.config.mjs took 52ms" }),
      expect.objectContaining({ level: "info", msg: "ready" }),
      expect.objectContaining({ level: "error", msg: "worker 2 stopped { code: 1 }" }),
    ]);
  });

  it("drops the line for an error the service logged already, once per error", () => {
    const logged = new Error("database away");
    markLogged(logged);
    markLogged(logged);
    console.error(" ⨯", logged);
    console.error(" ⨯", new Error("another"));
    expect(lines.map((l) => l.msg)).toEqual(["another"]);
  });

  it("with onRequestError first, as Next.js calls them, a failed page is one line in the log", async () => {
    process.env.NEXT_RUNTIME = "nodejs";
    try {
      const { onRequestError } = await import("@/instrumentation");
      const err = Object.assign(new Error("page failed"), { digest: "12345" });
      await onRequestError(err, { path: "/account?x=1", method: "GET" }, { routerKind: "App Router", routePath: "/account", routeType: "render" });
      console.error(" ⨯", err);
      expect(lines).toEqual([expect.objectContaining({ level: "error", msg: "request failed", route: "/account", digest: "12345" })]);
    } finally {
      delete process.env.NEXT_RUNTIME;
    }
  });
});
