// Each /v1 request is logged as one JSON line with its id, method, route, status and latency, and
// nothing secret.
import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as profile } from "@/app/v1/profile/route";
import { POST as provision } from "@/app/v1/sandbox/provision/route";
import { captureLogsForTests } from "@/lib/platform/log";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

const lines: Record<string, unknown>[] = [];
let t: Tenant;

beforeAll(async () => {
  captureLogsForTests(
    new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  t = await createTenant();
});

describe("request logs", () => {
  it("records request id, method, route, status and latency", async () => {
    const res = await call(profile, { headers: liveHeaders(t) });
    const line = lines.find((l) => l.request_id === res.headers.get("x-request-id"));
    expect(line).toMatchObject({ level: "info", method: "GET", route: "/v1/profile", status: 200, developer_id: t.developer.id });
    expect(typeof line!.latency_ms).toBe("number");
  });

  it("never writes keys, tokens, codes or phone numbers", async () => {
    const sandbox = await call(provision, { headers: { "x-service-client-ip": "10.1.2.3" } });
    await call(profile, { headers: liveHeaders(t, { authorization: `Bearer ${sandbox.body.user.agent_token}` }) });
    await call(profile, { headers: { ...liveHeaders(t), "x-api-key": t.keys.revoked } });
    const all = JSON.stringify(lines);
    for (const secret of [t.keys.sk, t.keys.revoked, sandbox.body.secret_key, sandbox.body.publishable_key, sandbox.body.user.agent_token, sandbox.body.user.phone]) {
      expect(all).not.toContain(secret);
    }
    expect(lines.length).toBeGreaterThanOrEqual(3);
  });
});
