// GET /api/health: liveness. 200 while the process serves requests, the database answering or not.
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/health/route";
import { makeDatabaseUnreachable } from "../helpers/env";

describe("GET /api/health", () => {
  it("answers 200 ok", async () => {
    const res = await GET(new Request("http://localhost:3000/api/health"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("still answers 200 while the database is unreachable: restarting the process would not bring it back", async () => {
    const restore = await makeDatabaseUnreachable();
    try {
      const res = await GET(new Request("http://localhost:3000/api/health"));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ok" });
    } finally {
      await restore();
    }
  });
});
