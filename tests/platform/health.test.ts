// GET /api/health: 200 while the database answers, 503 when it does not.
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { closeDatabase, database } from "@/lib/platform/db";
import { resetEnvForTests } from "@/lib/platform/env";

describe("GET /api/health", () => {
  // The server opens (and migrates) its database before it listens; so does this test.
  beforeAll(async () => {
    await database();
  });

  it("answers 200 when the database answers", async () => {
    const res = await GET(new Request("http://localhost:3000/api/health"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("answers 503 when the database is unreachable", async () => {
    const saved = { ...process.env };
    await closeDatabase();
    // Port 9 (discard) on loopback: nothing listens, so connections are refused at once.
    process.env.DATABASE_URL = "postgres://nobody@127.0.0.1:9/none";
    resetEnvForTests();
    try {
      const res = await GET(new Request("http://localhost:3000/api/health"));
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable", database: "unavailable" });
    } finally {
      process.env = saved;
      resetEnvForTests();
      await closeDatabase();
    }
  });
});
