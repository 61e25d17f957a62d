// GET /api/health: liveness. 200 while the process serves requests, the database answering or not.
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { closeDatabase } from "@/lib/platform/db";
import { resetEnvForTests } from "@/lib/platform/env";

describe("GET /api/health", () => {
  it("answers 200 ok", async () => {
    const res = await GET(new Request("http://localhost:3000/api/health"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("still answers 200 while the database is unreachable: restarting the process would not bring it back", async () => {
    const saved = { ...process.env };
    await closeDatabase();
    // Port 9 (discard) on loopback: nothing listens, so connections are refused at once.
    process.env.DATABASE_URL = "postgres://nobody@127.0.0.1:9/none";
    resetEnvForTests();
    try {
      const res = await GET(new Request("http://localhost:3000/api/health"));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok" });
    } finally {
      process.env = saved;
      resetEnvForTests();
      await closeDatabase();
    }
  });
});
