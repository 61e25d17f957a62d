// One per-IP limit on starting hosted flows, whatever the way in: the service's own sign-up, opening
// a connect link, and /oauth/authorize. Over it: 429, a page saying so, and no flow written.
import { beforeAll, describe, expect, it } from "vitest";
import { GET as signUp } from "@/app/(hosted)/sign-up/route";
import { GET as openLink } from "@/app/personal-mcp/connect/[linkId]/route";
import { POST as connectRoute } from "@/app/v1/profile/connect/route";
import { db } from "@/lib/platform/db";
import { FLOW_RATE_LIMITED } from "@/lib/flow/errors";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { authorizeCall, authorizeParams, pkce, registerClient } from "../helpers/oauth";

const LIMIT = 3;
let t: Tenant;
beforeAll(async () => {
  Object.assign(process.env, { FLOWS_PER_IP_PER_HOUR: String(LIMIT) });
  (await import("@/lib/env")).resetEnvForTests();
  t = await createTenant();
});

const from = (ip: string) => ({ "x-service-client-ip": ip });

describe("starting hosted flows", () => {
  it("limits each IP address across every way in; another address is not affected", async () => {
    const prisma = await db();
    const client = (await registerClient(t)).client_id;
    const { connect_url } = (await call(connectRoute, { headers: liveHeaders(t), body: {} })).body;
    const linkId = connect_url.split("/").pop();
    const ip = "2001:db8:5:5::1";
    // One of each way in, from the same /64.
    expect((await signUp(new Request("http://localhost:3000/sign-up", { headers: from(ip) }))).status).toBe(303);
    expect((await openLink(new Request(connect_url, { headers: from("2001:db8:5:5::2") }), { params: Promise.resolve({ linkId }) })).status).toBe(303);
    expect((await authorizeCall(authorizeParams(client, pkce().challenge), from("2001:db8:5:5::3"))).status).toBe(303);
    const flows = await prisma.flowSession.count();

    const page = await signUp(new Request("http://localhost:3000/sign-up", { headers: from(ip) }));
    expect(page.status).toBe(429);
    expect(page.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await page.text()).toContain(FLOW_RATE_LIMITED);
    expect((await openLink(new Request(connect_url, { headers: from(ip) }), { params: Promise.resolve({ linkId }) })).status).toBe(429);
    const authorize = await authorizeCall(authorizeParams(client, pkce().challenge), { ...from(ip), accept: "text/html" });
    expect(authorize.status).toBe(429);
    expect(await prisma.flowSession.count()).toBe(flows);

    expect((await signUp(new Request("http://localhost:3000/sign-up", { headers: from("203.0.113.9") }))).status).toBe(303);
  });
});
