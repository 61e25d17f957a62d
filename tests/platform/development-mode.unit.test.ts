// Development surfaces exist only in development mode: outside it every /dev path answers 404 (proxy.ts,
// the /dev layout and each route handler), and the command a user runs refuses a development driver
// on PostgreSQL, naming the setting.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, describe, expect, it } from "vitest";
import { isDevelopmentPath, proxy } from "@/proxy";
import { setDevelopmentMode } from "../helpers/env";

const DEV_DIR = path.resolve("app/(hosted)/dev");
afterAll(() => setDevelopmentMode(true));

/** Every page and route handler under app/(hosted)/dev, with the URL path it serves. */
function devSurfaces(dir = DEV_DIR, prefix = "/dev"): Array<{ file: string; urlPath: string; kind: "page" | "route" }> {
  const found: Array<{ file: string; urlPath: string; kind: "page" | "route" }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...devSurfaces(full, `${prefix}/${entry.name}`));
    else if (entry.name === "page.tsx") found.push({ file: full, urlPath: prefix, kind: "page" });
    else if (entry.name === "route.ts") found.push({ file: full, urlPath: prefix, kind: "route" });
  }
  return found;
}

describe("development mode", () => {
  const surfaces = devSurfaces();

  it("knows every development surface", () => {
    expect(surfaces.map((s) => s.urlPath).sort()).toEqual([
      "/dev/connect",
      "/dev/connect/decide",
      "/dev/email-outbox",
      "/dev/outbox",
      "/dev/screens",
      "/dev/screens/[state]",
      "/dev/usage-chart",
    ]);
    expect(surfaces.every((s) => isDevelopmentPath(s.urlPath))).toBe(true);
    expect(isDevelopmentPath("/developers")).toBe(false);
  });

  it("answers 404 on every /dev path outside development mode, before any page runs", async () => {
    setDevelopmentMode(false);
    for (const { urlPath } of surfaces) {
      for (const method of ["GET", "POST"]) {
        const res = proxy(new NextRequest(`http://localhost:3000${urlPath}`, { method }));
        expect(res.status, `${method} ${urlPath}`).toBe(404);
      }
    }
    // Through a separately hosted sign-in address too, and with tricks in the path.
    expect(proxy(new NextRequest("http://localhost:3000/dev/outbox?x=1")).status).toBe(404);
    expect(proxy(new NextRequest("http://localhost:3000/dev")).status).toBe(404);
  });

  it("keeps the /dev layout and each route handler closed outside development mode, on their own", async () => {
    setDevelopmentMode(false);
    const layout = (await import("@/app/(hosted)/dev/layout")).default;
    expect(() => layout({ children: null })).toThrow(/NEXT_HTTP_ERROR_FALLBACK;404/);
    for (const { file, kind, urlPath } of surfaces.filter((s) => s.kind === "route")) {
      const mod = (await import(file)) as Record<string, (req: Request) => Promise<Response>>;
      for (const [method, handler] of Object.entries(mod)) {
        if (!/^(GET|POST|PUT|PATCH|DELETE)$/.test(method)) continue;
        const res = await handler(new Request(`http://localhost:3000${urlPath}`, { method, body: method === "GET" ? undefined : new URLSearchParams({ decision: "allow" }) }));
        expect(res.status, `${kind} ${method} ${urlPath}`).toBe(404);
      }
    }
  });

  it("lets /dev through in development mode", () => {
    setDevelopmentMode(true);
    const res = proxy(new NextRequest("http://localhost:3000/dev/outbox"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-middleware-next")).toBe("1");
  });

  it("npm start refuses to start on PostgreSQL with a development driver, naming the setting", () => {
    const secret = "s".repeat(32);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/root",
      NODE_ENV: "production",
      DATABASE_URL: "postgres://127.0.0.1:1/none",
      SERVICE_SECRET: secret,
      AUTH_SECRET: secret,
      LOG_LEVEL: "silent",
    };
    const res = spawnSync(process.execPath, ["scripts/start.mjs"], { env, encoding: "utf8", timeout: 60_000 });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("SMS_DRIVER=outbox (the default) keeps sign-in codes readable at /dev/outbox");
    expect(res.stderr).toContain("EMAIL_DRIVER=outbox (the default)");
    expect(res.stderr).toContain("SMS_COUNTRIES unset lets sign-in codes be texted to every country: set SMS_COUNTRIES");
    expect(res.stdout).not.toContain("Building the service");
  });
});
