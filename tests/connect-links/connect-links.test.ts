// POST /v1/profile/connect, GET <connect_url>/status, and the flows connect links open: every status,
// reuse until expires_at, the rate limit, the link's first screens (signed in or not), and a link
// approved when its flow finishes.
import { encode } from "next-auth/jwt";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GET as openLink } from "@/app/personal-mcp/connect/[linkId]/route";
import { GET as statusRoute } from "@/app/personal-mcp/connect/[linkId]/status/route";
import { POST as connectRoute } from "@/app/v1/profile/connect/route";
import { GET as profileRoute } from "@/app/v1/profile/route";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { CONNECT_LINK_TTL_SECONDS, CONNECT_MINTS_PER_MINUTE } from "@/lib/connect-links/links";
import { db } from "@/lib/platform/db";
import { env } from "@/lib/env";
import { findFlow } from "@/lib/flow/store";
import { allowCapability, continueFromImport, decidePreview, LINK_FOR_ANOTHER_ACCOUNT, previewImport, submitCode, submitPhone } from "@/lib/flow/steps";
import { revokeApproval } from "@/lib/users/approvals";
import { phoneDigest } from "@/lib/users/phone";
import { createUser, linkExternalId } from "@/lib/users/users";
import { createTenant, liveHeaders, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

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

  it("says permission_needed for a capability not granted, connect_app for an app not connected or not given to this agent, import_ready otherwise", async () => {
    expect((await mint({ capability: "gmail:send" })).body.status).toBe("permission_needed");
    expect((await mint({})).body.status).toBe("import_ready");
    const prisma = await db();
    await prisma.capabilityGrant.create({ data: { userId: t.users.live.id, agentId: t.agent.id, capability: "gmail:send" } });
    await prisma.appConnection.create({ data: { userId: t.users.live.id, app: "gmail", provider: "google", accountId: "g", accessTokenSealed: "v1.x.x.x" } });
    expect((await mint({ capability: "gmail:send" })).body.status).toBe("import_ready");
    // Connected, but never given to this agent: the link is the way to give it.
    expect((await mint({ app: "gmail" })).body.status).toBe("connect_app");
    await prisma.capabilityGrant.create({ data: { userId: t.users.live.id, agentId: t.agent.id, capability: "gmail:read" } });
    expect((await mint({ app: "gmail" })).body.status).toBe("import_ready");
  });

  it("drops required without error and refuses what it cannot use", async () => {
    expect((await mint({ required: ["gmail"], app: "notion" })).status).toBe(200);
    // Google Sheets is an app a link may name, though the import screen does not offer it.
    expect((await mint({ app: "sheets" })).body.status).toBe("connect_app");
    for (const body of [{ app: "dropbox" }, { capability: "send" }, { capability: "gmail:" }, { purpose: "x".repeat(281) }]) {
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
    // Valid until expires_at, also after approval: it opens again, and binds nothing anew.
    expect((await open(connect_url)).res.status).toBe(303);
    expect(await status(connect_url)).toEqual({ status: "approved" });
    expect((await mint({}, liveHeaders(t, { "x-user-id": "acct-77" }))).body.connect_url).not.toBe(connect_url);
  });

  it("grants a capability the signed-in person allows", async () => {
    const { connect_url } = (await mint({ capability: "gmail:send" })).body;
    const { flow } = await open(connect_url, await sessionCookie(t.users.live.id));
    await allowCapability(flow!);
    expect(await status(connect_url)).toEqual({ status: "approved" });
    expect((await mint({ capability: "gmail:send" })).body.status).toBe("import_ready");
  });
});

/** Brings a connect link's flow through import, phone and code as the owner of `phone`. */
async function finishWithCode(flowId: string, phone: string) {
  await previewImport((await findFlow(flowId))!, { provider: "chatgpt", text: "- I live in Porto" });
  await decidePreview((await findFlow(flowId))!, { provider: "chatgpt", keep: true });
  await continueFromImport((await findFlow(flowId))!);
  await submitPhone((await findFlow(flowId))!, { phone, ip: "10.8.0.2" });
  const code = (await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest(phone).phoneHash }, orderBy: { createdAt: "desc" } })).body.slice(0, 6);
  return submitCode((await findFlow(flowId))!, { code });
}

describe("binding a developer's user id", () => {
  it("needs phone and code in that browser: a signed-in session alone does not bind the id", async () => {
    const { connect_url } = (await mint({}, liveHeaders(t, { "x-user-id": "victim-42" }))).body;
    // Someone signed in (here: the tenant's own live user) opens the link: no one-click finish.
    const { flow } = await open(connect_url, await sessionCookie(t.users.live.id));
    expect(flow!.screen).toBe("import");
    expect(flow!.userId).toBeNull();
    expect(flow).toMatchObject({ wayIn: "connect", request: { signed_in: false, binds_external_id: true } });
    expect(await (await db()).externalUserId.findFirst({ where: { developerId: t.developer.id, externalId: "victim-42" } })).toBeNull();
    const { userId } = await finishWithCode(flow!.id, "+14155550142");
    expect(await (await db()).externalUserId.findFirstOrThrow({ where: { developerId: t.developer.id, externalId: "victim-42" } })).toMatchObject({ userId });
  });

  it("never re-binds an id: of two links minted for the same new id, the second finisher changes nothing", async () => {
    const first = (await mint({}, liveHeaders(t, { "x-user-id": "acct-race" }))).body.connect_url;
    const second = (await mint({ app: "notion" }, liveHeaders(t, { "x-user-id": "acct-race" }))).body.connect_url;
    const a = (await open(first)).flow!;
    const b = (await open(second)).flow!;
    const { userId: owner } = await finishWithCode(a.id, "+14155550143");
    // The second link's flow: its own screens, then phone and code of another person.
    const bFlow = (await findFlow(b.id))!;
    expect(bFlow.screen).toBe("app");
    await (await db()).flowSession.update({ where: { id: b.id }, data: { screen: "phone" } });
    await submitPhone((await findFlow(b.id))!, { phone: "+14155550144", ip: "10.8.0.3" });
    const code = (await (await db()).smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest("+14155550144").phoneHash }, orderBy: { createdAt: "desc" } })).body.slice(0, 6);
    const { userId: other } = await submitCode((await findFlow(b.id))!, { code });
    expect(other).not.toBe(owner);
    const bound = await (await db()).externalUserId.findMany({ where: { developerId: t.developer.id, externalId: "acct-race" } });
    expect(bound.map((r) => r.userId)).toEqual([owner]);
  });

  it("is finished only by the account it was minted for: another number is refused and changes nothing", async () => {
    const owner = await createUser({ plane: "live", phone: "+14155550145" });
    await linkExternalId({ developerId: t.developer.id, plane: "live", externalId: "acct-owner", userId: owner.id });
    const { connect_url } = (await mint({}, liveHeaders(t, { "x-user-id": "acct-owner" }))).body;
    const { flow } = await open(connect_url);
    expect(flow).toMatchObject({ wayIn: "connect", request: { for_user_id: owner.id, binds_external_id: false } });
    const prisma = await db();
    const stranger = "+14155550146";
    await expect(finishWithCode(flow!.id, stranger)).rejects.toThrow(LINK_FOR_ANOTHER_ACCOUNT);
    // Nothing changed: no account for the stranger's number, the link still pending and still the owner's.
    expect(await prisma.user.findFirst({ where: { phoneHash: phoneDigest(stranger).phoneHash } })).toBeNull();
    expect(await status(connect_url)).toEqual({ status: "pending" });
    expect(await prisma.connectLink.findUniqueOrThrow({ where: { id: linkId(connect_url) } })).toMatchObject({ userId: owner.id, status: "pending" });
    expect(await prisma.agentApproval.count({ where: { agentId: t.agent.id, user: { phoneHash: phoneDigest(stranger).phoneHash } } })).toBe(0);
    // The owner's own number, in the same flow, finishes it.
    await (await db()).flowSession.update({ where: { id: flow!.id }, data: { screen: "phone" } });
    await submitPhone((await findFlow(flow!.id))!, { phone: "+14155550145", ip: "10.8.0.4" });
    const code = (await prisma.smsOutbox.findFirstOrThrow({ where: { phoneHash: phoneDigest("+14155550145").phoneHash }, orderBy: { createdAt: "desc" } })).body.slice(0, 6);
    expect((await submitCode((await findFlow(flow!.id))!, { code })).userId).toBe(owner.id);
    expect(await status(connect_url)).toEqual({ status: "approved" });
  });

  it("keeps plane and developer: another developer's test-plane link never reaches this developer's test user", async () => {
    const other = await createTenant();
    const { connect_url } = (await mint({}, { "x-api-key": other.keys.skTest, "x-agent": other.agent.handle, "x-user-id": "their-id" })).body;
    // This developer's test user is signed in: the link of another developer does not sign them in.
    const { flow } = await open(connect_url, await sessionCookie(t.users.test.id));
    expect(flow!.userId).toBeNull();
    // A link naming no new id (the other developer's own linked test user) does not accept this session either.
    const named = (await mint({}, { "x-api-key": other.keys.skTest, "x-agent": other.agent.handle, "x-user-id": "user-test" })).body.connect_url;
    expect((await open(named, await sessionCookie(t.users.test.id))).flow!.userId).toBeNull();
    const { returnFromReceipt } = await import("../helpers/receipt");
    await expect(returnFromReceipt({ flowId: flow!.id, userId: t.users.test.id })).rejects.toMatchObject({ reason: "wrong_plane" });
  });
});

describe("return_url", () => {
  it("is accepted only on an origin approved for the developer: 400 invalid_return_url otherwise, and no link is written", async () => {
    const { DESTINATION_MESSAGES } = await import("@/lib/developers/destinations");
    const prisma = await db();
    for (const url of ["https://evil.example/phish", "javascript:alert(1)", "data:text/html,hi", "//evil.example/x", "https://user:pw@app.example/x"]) {
      const before = await prisma.connectLink.count();
      const res = await mint({ return_url: url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe("invalid_return_url");
      expect([DESTINATION_MESSAGES.returnUrlInvalid, DESTINATION_MESSAGES.returnUrlNotRegistered]).toContain(res.body.error.message);
      expect(await prisma.connectLink.count()).toBe(before);
    }
    expect((await mint({ return_url: "https://app.example/done" })).body.error.message).toBe(DESTINATION_MESSAGES.returnUrlNotRegistered);
    // Another developer's approved origin does not count.
    const other = await createTenant();
    const { addOrigin } = await import("@/lib/developers/developers");
    await addOrigin({ developerId: other.developer.id, origin: "https://app.example" });
    expect((await mint({ return_url: "https://app.example/done" })).status).toBe(400);
    await addOrigin({ developerId: t.developer.id, origin: "https://app.example" });
    expect((await mint({ return_url: "https://app.example/done" })).status).toBe(200);
  });

  it("sends the browser there after finishing or cancelling, and not once the origin is no longer approved", async () => {
    const { addOrigin } = await import("@/lib/developers/developers");
    const { returnFromReceipt } = await import("../helpers/receipt");
    const { declineFlow } = await import("@/lib/flow/transitions");
    await addOrigin({ developerId: t.developer.id, origin: "https://app.example" });
    const a = (await open((await mint({ return_url: "https://app.example/done" })).body.connect_url, await sessionCookie(t.users.live.id))).flow!;
    expect((await returnFromReceipt({ flowId: a.id, userId: t.users.live.id })).redirectTo).toBe("https://app.example/done");
    const b = (await open((await mint({ app: "notion", return_url: "https://app.example/back" })).body.connect_url)).flow!;
    expect((await declineFlow({ flowId: b.id })).redirectTo).toBe("https://app.example/back?error=access_denied");
    const c = (await open((await mint({ app: "drive", return_url: "https://app.example/later" })).body.connect_url)).flow!;
    await (await db()).approvedOrigin.deleteMany({ where: { developerId: t.developer.id } });
    expect((await declineFlow({ flowId: c.id })).redirectTo).not.toContain("app.example");
  });
});

describe("hostile ids and keys", () => {
  it("answers 404 for link ids holding NUL, control characters or too many characters, never a database error", async () => {
    for (const id of ["mcc_%00", "mcc_abc%00def", `mcc_${"a".repeat(23)}%0A`, `mcc_${"a".repeat(500)}`, "%00"]) {
      const url = `http://localhost:3000/personal-mcp/connect/${id}`;
      const raw = decodeURIComponent(id);
      const res = await openLink(new Request(url), { params: Promise.resolve({ linkId: raw }) });
      expect(res.status, id).toBe(404);
      expect((await call(statusRoute, { params: { linkId: raw } })).status, id).toBe(404);
    }
  });

  it("looks messages up by their own keys only: ?connect_error=constructor shows the general message", async () => {
    const { ConnectErrorBanner } = await import("@/components/flow/marks");
    const { ownEntry } = await import("@/lib/platform/own");
    for (const key of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const banner = ConnectErrorBanner({ code: key }) as unknown as { props: { children: unknown } };
      expect(banner.props.children, key).toBe("The app could not be connected. Try again.");
      expect(ownEntry({ a: "x" }, key)).toBeUndefined();
    }
    expect(ownEntry({ a: "x" }, "a")).toBe("x");
  });
});

describe("a separately hosted MCP_URL", () => {
  it("sends the browser on to the service's own address before a flow starts, so its cookie and the session belong there", async () => {
    const { serviceAddressFor } = await import("@/lib/http/hosts");
    const split = { BASE_URL: "https://api.example.com", MCP_URL: "https://mcp.example.com", SIGN_IN_URL: "https://api.example.com/sign-in" };
    expect(serviceAddressFor("mcp.example.com", "/personal-mcp/connect/mcc_x", split)).toBe("https://api.example.com/personal-mcp/connect/mcc_x");
    expect(serviceAddressFor("api.example.com", "/personal-mcp/connect/mcc_x", split)).toBeNull();
    // Through the route: a request that came to the MCP host starts no flow there.
    const { connect_url } = (await mint({})).body;
    const id = linkId(connect_url);
    const prisma = await db();
    const before = await prisma.flowSession.count();
    process.env.MCP_URL = "http://mcp.localtest:3000";
    (await import("@/lib/env")).resetEnvForTests();
    try {
      const res = await openLink(new Request(`http://mcp.localtest:3000/connect/${id}`, { headers: { host: "mcp.localtest:3000" } }), { params: Promise.resolve({ linkId: id }) });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe(`http://localhost:3000/personal-mcp/connect/${id}`);
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(await prisma.flowSession.count()).toBe(before);
      // On the service's own host the link opens as usual.
      expect((await open(`http://localhost:3000/personal-mcp/connect/${id}`)).res.status).toBe(303);
    } finally {
      delete process.env.MCP_URL;
      (await import("@/lib/env")).resetEnvForTests();
    }
  });
});
