// The sweep deletes what has outlived its use and nothing that is still in use.
import { afterEach, describe, expect, it } from "vitest";
import { ACCESS_LOG_RETENTION_DAYS } from "@/lib/access-log/access-log";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { ACTION_KEY_TTL_HOURS } from "@/lib/connectors/tools/run";
import { db } from "@/lib/platform/db";
import { jobs, QUEUES } from "@/lib/platform/jobs";
import { startSweeper, SWEEP_CRON, sweepExpired } from "@/lib/maintenance/sweep";
import { REFRESH_TOKEN_IDLE_SECONDS } from "@/lib/oidc/tokens";
import { returnFromReceipt } from "../helpers/receipt";
import { openProfileSignup } from "@/lib/flow/ways-in/profile-signup";
import { issueSignInCode } from "@/lib/sign-in/codes";
import { createTenant } from "../helpers/fixtures";
import { authorizeCall, exchange, flowIdFrom, pkce, registerClient, signIn, tokenCall } from "../helpers/oauth";
import { call } from "../helpers/http";
import { POST as registerRoute } from "@/app/oauth/register/route";

afterEach(() => resetClockForTests());

describe("the sweep", () => {
  it("keeps live codes, tokens and flows; deletes them a day after they expire", async () => {
    const t = await createTenant();
    const { client_id } = await registerClient(t);
    const kept = await exchange(client_id, t.users.live.id);
    await signIn(client_id, t.users.live.id); // an unused code and its finished flow
    const prisma = await db();
    const counts = async () => ({
      codes: await prisma.oAuthCode.count(),
      access: await prisma.oAuthAccessToken.count(),
      refresh: await prisma.oAuthRefreshToken.count(),
      grants: await prisma.oAuthGrant.count(),
      flows: await prisma.flowSession.count(),
    });
    const before = await counts();
    expect(await sweepExpired()).toMatchObject({ oauth_codes: 0, oauth_access_tokens: 0, oauth_refresh_tokens: 0, flow_sessions: 0 });
    expect(await counts()).toEqual(before);

    // Two days on: codes, access tokens and flows have been expired for over a day; the chain lives.
    advanceClockForTests(2 * 24 * 3600 * 1000);
    const swept = await sweepExpired();
    expect(swept).toMatchObject({ oauth_codes: 2, oauth_access_tokens: 1, oauth_refresh_tokens: 0, flow_sessions: 2 });
    expect(await counts()).toEqual({ codes: 0, access: 0, refresh: 1, grants: 1, flows: 0 });
    const refreshed = await tokenCall({ grant_type: "refresh_token", refresh_token: kept.refresh_token, client_id });
    expect(refreshed.status).toBe(200);

    // 90 days without use: the chain's tokens go, then its grant.
    advanceClockForTests(REFRESH_TOKEN_IDLE_SECONDS * 1000 + 2 * 24 * 3600 * 1000);
    const later = await sweepExpired();
    expect(later.oauth_refresh_tokens).toBe(2);
    expect(later.oauth_grants_ended).toBe(1);
    expect(await counts()).toEqual({ codes: 0, access: 0, refresh: 0, grants: 0, flows: 0 });
  });

  it("deletes sign-in codes a day after they expire, and clears what dead flows left on connections", async () => {
    const t = await createTenant();
    const prisma = await db();
    const scope = { developerId: t.developer.id, agentId: t.agent.id, plane: "live" as const, userId: t.users.live.id };
    await issueSignInCode(scope);
    const flow = await openProfileSignup("10.77.0.1");
    const sealed = { provider: "google", accountId: "acct", accessTokenSealed: "x", status: "active" };
    // Connected by a signed-in person in a flow (marked with it), and connected in a flow by nobody yet.
    await prisma.appConnection.create({ data: { ...sealed, app: "calendar", userId: t.users.live.id, flowId: flow.id } });
    await prisma.appConnection.create({ data: { ...sealed, app: "drive", userId: null, flowId: flow.id } });
    const first = await sweepExpired();
    expect(first).toMatchObject({ sign_in_codes: 0, app_connections_flow_ended: 0, app_connections_abandoned: 0 });

    advanceClockForTests(2 * 24 * 3600 * 1000);
    const swept = await sweepExpired();
    expect(swept).toMatchObject({ sign_in_codes: 1, app_connections_flow_ended: 1, app_connections_abandoned: 1 });
    expect(await prisma.signInCode.count({ where: { agentId: t.agent.id } })).toBe(0);
    expect(await prisma.appConnection.findFirstOrThrow({ where: { userId: t.users.live.id, app: "calendar" } })).toMatchObject({ flowId: null });
    expect(await prisma.appConnection.count({ where: { flowId: flow.id } })).toBe(0);
  });

  it("deletes MCP clients nobody signed in through within a day, with their agents, and keeps used ones", async () => {
    const register = async () =>
      (await call(registerRoute, { body: { client_name: "Desk Assistant", redirect_uris: ["http://127.0.0.1:1/cb"], token_endpoint_auth_method: "none" } })).body
        .client_id as string;
    const unused = await register();
    const used = await register();
    const t = await createTenant();
    const person = t.users.live.id;
    const { verifier, challenge } = pkce();
    const authorize = await authorizeCall({
      response_type: "code",
      client_id: used,
      redirect_uri: "http://127.0.0.1:1/cb",
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    const { redirectTo } = await returnFromReceipt({ flowId: flowIdFrom(authorize), userId: person });
    const code = new URL(redirectTo).searchParams.get("code")!;
    expect((await tokenCall({ grant_type: "authorization_code", code, redirect_uri: "http://127.0.0.1:1/cb", client_id: used, code_verifier: verifier })).status).toBe(200);
    const prisma = await db();
    const agentOf = async (id: string) => (await prisma.oAuthClient.findUniqueOrThrow({ where: { id } })).agentId!;
    const [unusedAgent, usedAgent] = [await agentOf(unused), await agentOf(used)];

    expect(await sweepExpired()).toMatchObject({ mcp_clients_unused: 0, mcp_client_agents_orphaned: 0 });
    advanceClockForTests(2 * 24 * 3600 * 1000);
    expect(await sweepExpired()).toMatchObject({ mcp_clients_unused: 1, mcp_client_agents_orphaned: 1 });
    expect(await prisma.oAuthClient.findUnique({ where: { id: unused } })).toBeNull();
    expect(await prisma.agent.findUnique({ where: { id: unusedAgent } })).toBeNull();
    expect(await prisma.oAuthClient.findUnique({ where: { id: used } })).not.toBeNull();
    expect(await prisma.agent.findUnique({ where: { id: usedAgent } })).not.toBeNull();
  });

  it("deletes access log entries past their retention and action idempotency keys past their 24 hours", async () => {
    const t = await createTenant();
    const prisma = await db();
    const day = 24 * 3600 * 1000;
    const who = { userId: t.users.live.id, agentId: t.agent.id };
    const entry = (at: Date) => ({ ...who, agentName: "Assistant", plane: "live" as const, surface: "mcp", action: "service_profile_read", outcome: "ok", at });
    await prisma.accessLogEntry.createMany({ data: [entry(new Date(Date.now() - (ACCESS_LOG_RETENTION_DAYS - 1) * day)), entry(new Date())] });
    const action = (key: string, createdAt: Date) => ({ ...who, tool: "service_email_send", idempotencyKey: key, requestHash: "h", state: "done", createdAt });
    await prisma.connectorAction.createMany({ data: [action("key-older-one", new Date(Date.now() - (ACTION_KEY_TTL_HOURS - 1) * 3600_000)), action("key-newer-one", new Date())] });

    expect(await sweepExpired()).toMatchObject({ access_log: 0, connector_actions: 0 });
    advanceClockForTests(2 * 3600_000);
    expect(await sweepExpired()).toMatchObject({ access_log: 0, connector_actions: 1 });
    expect((await prisma.connectorAction.findMany({ where: who })).map((a) => a.idempotencyKey)).toEqual(["key-newer-one"]);
    advanceClockForTests(2 * day);
    expect(await sweepExpired()).toMatchObject({ access_log: 1, connector_actions: 1 });
    expect(await prisma.accessLogEntry.count({ where: who })).toBe(1);
    expect(await prisma.connectorAction.count({ where: who })).toBe(0);
  });

  it("is scheduled every 15 minutes when its worker starts", async () => {
    await startSweeper();
    const schedules = await (await jobs()).getSchedules();
    expect(schedules.map((s) => [s.name, s.cron])).toContainEqual([QUEUES.sweep, SWEEP_CRON]);
  });
});
