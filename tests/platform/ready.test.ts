// GET /api/ready: 200 while the database answers and no shutdown has begun; 503 unavailable while it
// does not; 503 shutting_down from the moment a shutdown begins (scripts/server.mjs calls beginShutdown
// on SIGTERM and SIGINT), so a load balancer sends the instance nothing new while it finishes what it has.
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/ready/route";
import { GET as health } from "@/app/api/health/route";
import { database } from "@/lib/platform/db";
import { makeDatabaseUnreachable } from "../helpers/env";
import { beginShutdown, shuttingDown } from "@/lib/platform/health";

describe("GET /api/ready", () => {
  beforeAll(async () => {
    await database();
  });

  it("answers 200 ready while the database answers", async () => {
    const res = await GET(new Request("http://localhost:3000/api/ready"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready", database: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 503 unavailable while the database is unreachable", async () => {
    const restore = await makeDatabaseUnreachable();
    try {
      const res = await GET(new Request("http://localhost:3000/api/ready"));
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable", database: "unavailable" });
    } finally {
      await restore();
      await database();
    }
  });

  it("answers 503 shutting_down once a shutdown has begun, while the process itself stays healthy", async () => {
    expect(shuttingDown()).toBe(false);
    beginShutdown();
    const res = await GET(new Request("http://localhost:3000/api/ready"));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "shutting_down", database: "ok" });
    expect((await health(new Request("http://localhost:3000/api/health"))).status).toBe(200);
  });
});
