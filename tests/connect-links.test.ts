// POST /v1/profile/connect, GET <connect_url>/status, and the flows connect links open: every status,
// reuse until expires_at, the rate limit, the link's first screens (signed in or not), and a link
// approved when its flow finishes.
import { encode } from "next-auth/jwt";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as openLink } from "@/app/personal-mcp/connect/[linkId]/route";
import { GET as statusRoute } from "@/app/personal-mcp/connect/[linkId]/status/route";
import { POST as connectRoute } from "@/app/v1/profile/connect/route";
import { GET as profileRoute } from "@/app/v1/profile/route";
import { advanceClockForTests, resetClockForTests } from "@/lib/clock";
import { CONNECT_LINK_TTL_SECONDS, CONNECT_MINTS_PER_MINUTE } from "@/lib/connect/links";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { findFlow } from "@/lib/flow/sessions";
import { allowCapability, continueFromImport, decidePreview, previewImport, submitCode, submitPhone } from "@/lib/flow/steps";
import { revokeApproval } from "@/lib/users/approvals";
import { phoneDigest } from "@/lib/users/phone";
import { createTenant, liveHeaders, type Tenant } from "./helpers/fixtures";
import { call } from "./helpers/http";

let t: Tenant;
beforeEach(async () => {
  resetClockForTests();
  t = await createTenant();
});
afterEach(() => resetClockForTests());

const mint = (body: Record<string, unknown>, headers: Record<string, string | undefined> = liveHeaders(t)) => call(connectRoute, { headers, body });
const linkId = (url: string) => url.split("/").pop()!;
const status = async (url: string) => (await call(statusRoute, { params: { linkId: linkId(url) } })).body;

async function open(url: string, cookie?: string) {
  const res = await openLink(new Request(url, { headers: cookie ? { cookie } : {} }), { params: Promise.resolve({ linkId: linkId(url) }) });
  if (res.status !== 303) return { res, flow: null };
  return { res, flow: (await findFlow(res.headers.get("location")!.split("/").pop()!))! };
}

async function sessionCookie(userId: string) {
  return `authjs.session-token=${await encode({ token: { sub: userId }, secret: env().AUTH_SECRET, salt: "authjs.session-token" })}`;
}

describe("POST /v1/profile/connect", () => {
  it("answers status, connect_url, expires_at and instructions; the same link again until it expires", async () => {
    const res = await mint({ app: "gmail", purpose: "To find your flight confirmations." });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["connect_url", "expires_at", "instructions", "status"]);
    expect(res.body.status).toBe("connect_app");
    expect(res.body.connect_url).toMatch(/^http:\/\/localhost:3000\/personal-mcp\/connect\/mcc_[A-Za-z0-9]{24}$/);
    expect(new Date(res.body.expires_at).getTime() - Date.now()).toBeGreaterThan((CONNECT_LINK_TTL_SECONDS - 10) * 1000);
    expect(res.body.instructions).toContain(res.body.connect_url);
    expect((await mint({ app: "gmail" })).body.connect_url).toBe(res.body.connect_url);
    expect((await mint({ app: "calendar" })).body.connect_url).not.toBe(res.body.connect_url);
    advanceClockForTests(CONNECT_LINK_TTL_SECONDS * 1000 + 1);
    expect(await status(res.body.connect_url)).toEqual({ status: "expired" });
    expect((await mint({ app: "gmail" })).body.connect_url).not.toBe(res.body.connect_url);
  });

  it("says authorization_required for a person who is unknown or has not approved the agent", async () => {
    expect((await mint({}, liveHeaders(t, { "x-user-id": "someone-new" }))).body.status).toBe("authorization_required");
    expect((await mint({ user_id: "someone-else" }, { "x-api-key": t.keys.sk, "x-agent": t.agent.handle })).body.status).toBe("authorization_required");
    expect((await mint({}, liveHeaders(t, { "x-user-id": "user-unapproved" }))).body.status).toBe("authorization_required");
    await revokeApproval({ userId: t.users.live.id, agentId: t.agent.id });
    expect((await mint({ app: "gmail" })).body.status).toBe("authorization_required");
  });

  it("says permission_needed for a capability not granted, connect_app for an app not connected, import_ready otherwise", async () => {
    expect((await mint({ capability: "gmail:send" })).body.status).toBe("permission_needed");
    expect((await mint({})).body.status).toBe("import_ready");
    const prisma = await db();
    await prisma.capabilityGrant.create({ data: { userId: t.users.live.id, agentId: t.agent.id, capability: "gmail:send" } });
    await prisma.appConnection.create({ data: { userId: t.users.live.id, app: "gmail", provider: "google", accountId: "g", accessTokenSealed: "v1.x.x.x" } });
    expect((await mint({ capability: "gmail:send" })).body.status).toBe("import_ready");
    expect((await mint({ app: "gmail" })).body.status).toBe("import_ready");
  });

  it("drops required without error and refuses what it cannot use", async () => {
    expect((await mint({ required: ["gmail"], app: "notion" })).status).toBe(200);
    for (const body of [{ app: "sheets" }, { capability: "send" }, { capability: "gmail:" }, { return_url: "ftp://x" }, { return_url: "https://app.example/#frag" }, { purpose: "x".repeat(281) }]) {
      const res = await mint(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("invalid_request");
    }
    const noUser = await mint({}, { "x-api-key": t.keys.sk, "x-agent": t.agent.handle });
    expect(noUser.status).toBe(400);
    expect(noUser.body.error.code).toBe("user_required");
  });

  it(`limits an account to ${CONNECT_MINTS_PER_MINUTE} links a minute: 429 rate_limited with retry_after`, async () => {
    for (let i = 0; i < CONNECT_MINTS_PER_MINUTE; i++) expect((await mint({})).status).toBe(200);
    const limited = await mint({});
    expect(limited.status).toBe(429);
    expect(limited.body.error).toMatchObject({ code: "rate_limited", retry_after: expect.any(Number) });
    expect(limited.headers.get("retry-after")).toBe(String(limited.body.error.retry_after));
  });
});

describe("opening a connect link", () => {
  it("opens on the import screen (not signed in) or the list of apps (signed in) when it names no app", async () => {
    const { connect_url } = (await mint({})).body;
    expect((await open(connect_url)).flow!.screen).toBe("import");
    expect((await open(connect_url, await sessionCookie(t.users.live.id))).flow!.screen).toBe("apps");
  });

  it("opens on the app for a one-app link, and keeps a capability's own page (phone first when not signed in)", async () => {
    expect((await open((await mint({ app: "gmail" })).body.connect_url)).flow!.screen).toBe("app");
    const cap = (await mint({ capability: "gmail:send" })).body.connect_url;
    expect((await open(cap)).flow!.screen).toBe("phone");
    expect((await open(cap, await sessionCookie(t.users.live.id))).flow!.screen).toBe("capability");
    // Another person's session does not sign this link's person in.
    const { createUser } = await import("@/lib/users/users");
    const stranger = await createUser({ plane: "live" });
    expect((await open(cap, await sessionCookie(stranger.id))).flow!.screen).toBe("phone");
  });

  it("shows a clear page for an unknown or expired link", async () => {
    const { connect_url } = (await mint({})).body;
    advanceClockForTests(CONNECT_LINK_TTL_SECONDS * 1000 + 1);
    const expired = await open(connect_url);
    expect(expired.res.status).toBe(410);
    expect(await expired.res.text()).toContain("This link has expired");
    expect((await open("http://localhost:3000/personal-mcp/connect/mcc_unknown")).res.status).toBe(404);
    expect((await call(statusRoute, { params: { linkId: "mcc_unknown" } })).status).toBe(404);
  });
});

describe("a connect link's flow", () => {
  it("signs in a person the developer named, approves the agent, links their id, and the link reads approved", async () => {
    const { connect_url, status: asked } = (await mint({}, liveHeaders(t, { "x-user-id": "acct-77" }))).body;
    expect(asked).toBe("authorization_required");
    expect(await status(connect_url)).toEqual({ status: "pending" });
    let flow = (await open(connect_url)).flow!;
    await previewImport(flow, { provider: "chatgpt", text: "- I live in Porto" });
    await decidePreview((await findFlow(flow.id))!, { provider: "chatgpt", keep: true });
    await continueFromImport((await findFlow(flow.id))!);
    const phone = "+14155550177";
    await submitPhone((await findFlow(flow.id))!, { phone, ip: "10.8.0.1" });
    const code = (await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } })).body.slice(0, 6);
    await submitCode((await findFlow(flow.id))!, { code });
    flow = (await findFlow(flow.id))!;
    expect(flow.screen).toBe("receipt");
    expect(await status(connect_url)).toEqual({ status: "approved" });
    const profile = await call(profileRoute, { headers: liveHeaders(t, { "x-user-id": "acct-77" }) });
    expect(profile.status).toBe(200);
    expect((await open(connect_url)).res.status).toBe(410);
  });

  it("grants a capability the signed-in person allows", async () => {
    const { connect_url } = (await mint({ capability: "gmail:send" })).body;
    const { flow } = await open(connect_url, await sessionCookie(t.users.live.id));
    await allowCapability(flow!);
    expect(await status(connect_url)).toEqual({ status: "approved" });
    expect((await mint({ capability: "gmail:send" })).body.status).toBe("import_ready");
  });
});
