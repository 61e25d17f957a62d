// The personal MCP endpoint at {MCP_URL}, driven by the official MCP SDK client and its OAuth client:
// before sign-in only service_connect is listed and calling it answers 401 with WWW-Authenticate; the
// SDK then discovers the metadata, registers (dynamically, or by a metadata document), sends the person
// to the hosted flow (finished here as the flow's completion), exchanges the code, and lists exactly
// the six profile tools. Tokens of other clients, revoked tokens and revoked approvals are refused.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeEach, describe, expect, it } from "vitest";
import { GET as asMetadataRoute } from "@/app/.well-known/oauth-authorization-server/route";
import { GET as prmRoute } from "@/app/.well-known/oauth-protected-resource/personal-mcp/route";
import { GET as oidcDiscoveryRoute } from "@/app/.well-known/openid-configuration/route";
import { GET as authorizeRoute } from "@/app/oauth/authorize/route";
import { POST as registerRoute } from "@/app/oauth/register/route";
import { POST as revokeRoute } from "@/app/oauth/revoke/route";
import { POST as tokenRoute } from "@/app/oauth/token/route";
import * as personal from "@/app/personal-mcp/route";
import { resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { env } from "@/lib/env";
import { returnFromReceipt } from "../helpers/receipt";
import { MCP_COMMIT_REQUIRED_CODE } from "@/lib/mcp/server";
import { PERSONAL_APPROVAL_REVOKED, PERSONAL_TOKEN_REFUSED } from "@/lib/personal-mcp/endpoint";
import { personalChallenge } from "@/lib/personal-mcp/metadata";
import { revokeApproval } from "@/lib/users/approvals";
import { createUser } from "@/lib/users/users";
import { createTenant } from "../helpers/fixtures";
import { exchange, registerClient } from "../helpers/oauth";

const PROFILE_TOOLS = ["service_profile_read", "service_profile_search", "service_profile_remember", "service_profile_forget", "service_profile_commit", "service_profile_import"];
const CALLBACK = "http://127.0.0.1:43210/callback";

/** The service's routes as the client's fetch: no server runs. Every answer is kept. */
function serviceFetch(answers: Array<{ url: string; status: number; headers: Headers }>) {
  const routes: Record<string, Record<string, (req: Request) => Promise<Response>>> = {
    [new URL(env().MCP_URL).pathname]: { POST: personal.POST, GET: () => personal.GET(), DELETE: () => personal.DELETE(), OPTIONS: () => personal.OPTIONS() },
    [prmRoute.meta.path]: { GET: prmRoute },
    [asMetadataRoute.meta.path]: { GET: asMetadataRoute },
    [oidcDiscoveryRoute.meta.path]: { GET: oidcDiscoveryRoute },
    [registerRoute.meta.path]: { POST: registerRoute },
    [tokenRoute.meta.path]: { POST: tokenRoute },
    [revokeRoute.meta.path]: { POST: revokeRoute },
  };
  return async (url: string | URL, init?: RequestInit) => {
    const req = new Request(url, init);
    const handler = routes[new URL(req.url).pathname]?.[req.method];
    const res = handler ? await handler(req) : new Response("not found", { status: 404 });
    answers.push({ url: req.url, status: res.status, headers: res.headers });
    return res;
  };
}

/** An MCP client's OAuth state, kept in memory; the authorization URL it would open is captured. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  constructor(private readonly preRegistered?: OAuthClientInformationMixed) {
    this.info = preRegistered;
  }
  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Desk Assistant",
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** What the person does in the browser, here: the authorize request opens a flow, which they finish. */
async function personSignsIn(authorizationUrl: URL, userId: string): Promise<string> {
  const res = await authorizeRoute(new Request(authorizationUrl));
  expect(res.status).toBe(303);
  const flowId = new URL(res.headers.get("location")!).pathname.split("/").pop()!;
  const { redirectTo } = await returnFromReceipt({ flowId, userId });
  const back = new URL(redirectTo);
  expect(back.origin + back.pathname).toBe(CALLBACK);
  return back.searchParams.get("code")!;
}

function newTransport(provider: MemoryProvider, answers: Array<{ url: string; status: number; headers: Headers }> = []) {
  return new StreamableHTTPClientTransport(new URL(env().MCP_URL), { authProvider: provider, fetch: serviceFetch(answers) });
}

/** The whole dance: connect anonymously, list, call service_connect (401 → OAuth), sign in, reconnect. */
async function installAndSignIn(provider: MemoryProvider, userId: string) {
  const answers: Array<{ url: string; status: number; headers: Headers }> = [];
  const before = new Client({ name: "desk-assistant", version: "1.0.0" });
  await before.connect(newTransport(provider, answers));
  const listedBefore = (await before.listTools()).tools.map((t) => t.name);
  await expect(before.callTool({ name: "service_connect", arguments: {} })).rejects.toThrow(/Unauthorized/i);
  expect(provider.authorizationUrl).toBeDefined();
  const code = await personSignsIn(provider.authorizationUrl!, userId);
  const finishing = newTransport(provider, answers);
  await finishing.finishAuth(code);
  await before.close();
  const after = new Client({ name: "desk-assistant", version: "1.0.0" });
  await after.connect(newTransport(provider, answers));
  return { before: listedBefore, after, answers };
}

function structured(result: Awaited<ReturnType<Client["callTool"]>>) {
  const r = result as CallToolResult;
  expect(r.isError ?? false, JSON.stringify(r.content)).toBe(false);
  return r.structuredContent as any;
}

let userId: string;
beforeEach(async () => {
  resetClockForTests();
  userId = (await createUser({ plane: "live" })).id;
});

describe("the personal MCP endpoint, with the SDK's OAuth client", () => {
  it("lists only service_connect before sign-in, and exactly the six profile tools after (dynamic registration)", async () => {
    const provider = new MemoryProvider();
    const { before, after, answers } = await installAndSignIn(provider, userId);
    expect(before).toEqual(["service_connect"]);
    expect((await after.listTools()).tools.map((t) => t.name)).toEqual(PROFILE_TOOLS);
    // Discovery began at the 401 and its WWW-Authenticate.
    const challenge = answers.find((a) => a.status === 401)!;
    expect(challenge.headers.get("www-authenticate")).toBe(personalChallenge());
    expect(answers.map((a) => new URL(a.url).pathname)).toEqual(
      expect.arrayContaining([prmRoute.meta.path, asMetadataRoute.meta.path, registerRoute.meta.path, tokenRoute.meta.path]),
    );
    expect(provider.info!.client_id).toMatch(/^mcpc_/);
    expect(provider.authorizationUrl!.searchParams.get("resource")).toBe(env().MCP_URL);
    expect(provider.authorizationUrl!.searchParams.get("code_challenge_method")).toBe("S256");
    expect(provider.saved!.access_token).toMatch(/^mcp_at_/);
    await after.close();
  });

  it("runs every profile tool for the person who signed in, as the client's own agent", async () => {
    const { after } = await installAndSignIn(new MemoryProvider(), userId);
    expect(structured(await after.callTool({ name: "service_profile_remember", arguments: { text: "I live in Leeds", box: "identity" } }))).toMatchObject({ saved: true });
    expect(structured(await after.callTool({ name: "service_profile_read", arguments: {} }))).toMatchObject({ linked: true });
    expect(structured(await after.callTool({ name: "service_profile_search", arguments: { query: "Leeds" } })).results.length).toBeGreaterThan(0);
    expect(structured(await after.callTool({ name: "service_profile_import", arguments: { text: "I work as a nurse in Leeds." } }))).toBeDefined();
    expect(structured(await after.callTool({ name: "service_profile_forget", arguments: { match: "nurse" } }))).toBeDefined();
    expect(structured(await after.callTool({ name: "service_profile_commit", arguments: { messages: [{ role: "user", content: "thanks" }], sync: true } }))).toMatchObject({
      status: "completed",
    });
    // service_connect is not listed after sign-in, and is not callable either.
    const connect = (await after.callTool({ name: "service_connect", arguments: {} }).catch((e: Error) => e)) as Error;
    expect(connect.message).toMatch(/not found/);
    const memories = await (await db()).memory.findMany({ where: { userId }, select: { agentId: true } });
    const client = await (await db()).oAuthClient.findFirstOrThrow({ where: { agentId: { in: memories.map((m) => m.agentId!) } } });
    expect(client.kind).toBe("mcp_registered");
    await after.close();
  });

  it("applies the commit gate: -32009 after 30 minutes of reads without a commit, cleared by service_profile_commit", async () => {
    const provider = new MemoryProvider();
    const { after } = await installAndSignIn(provider, userId);
    structured(await after.callTool({ name: "service_profile_read", arguments: {} }));
    await (await db()).readObligation.updateMany({ where: { userId }, data: { openedAt: new Date(Date.now() - 31 * 60_000) } });
    const refused = await after.callTool({ name: "service_profile_search", arguments: { query: "x" } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(MCP_COMMIT_REQUIRED_CODE);
    structured(await after.callTool({ name: "service_profile_commit", arguments: { messages: [{ role: "user", content: "thanks" }] } }));
    structured(await after.callTool({ name: "service_profile_read", arguments: {} }));
    await after.close();
  });

  it("signs in a client known by its metadata document", async () => {
    const server: Server = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ client_id: documentUrl, client_name: "Web Assistant", redirect_uris: [CALLBACK] })),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const documentUrl = `http://localhost:${(server.address() as AddressInfo).port}/client.json`;
    try {
      const provider = new MemoryProvider({ client_id: documentUrl });
      const { before, after, answers } = await installAndSignIn(provider, userId);
      expect(before).toEqual(["service_connect"]);
      expect((await after.listTools()).tools.map((t) => t.name)).toEqual(PROFILE_TOOLS);
      expect(answers.some((a) => new URL(a.url).pathname === registerRoute.meta.path)).toBe(false);
      expect((await (await db()).oAuthClient.findUniqueOrThrow({ where: { id: documentUrl } })).kind).toBe("mcp_document");
      await after.close();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("answers an unknown, revoked or another client's token with 401 invalid_token and the challenge", async () => {
    const post = (token: string) =>
      personal.POST(
        new Request(env().MCP_URL, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
        }),
      );
    const unknown = await post("mcp_at_unknown");
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("www-authenticate")).toBe(personalChallenge({ code: "invalid_token", description: PERSONAL_TOKEN_REFUSED }));

    // A developer's OpenID Connect access token is for the developer's own server, not this endpoint.
    const t = await createTenant();
    const { client_id } = await registerClient(t);
    const developerToken = (await exchange(client_id, t.users.live.id)).access_token;
    expect((await post(developerToken)).status).toBe(401);

    // A revoked approval: the next call is refused, and says why.
    const provider = new MemoryProvider();
    const { after } = await installAndSignIn(provider, userId);
    await after.close();
    const token = provider.saved!.access_token;
    expect((await post(token)).status).toBe(200);
    const client = await (await db()).oAuthClient.findUniqueOrThrow({ where: { id: provider.info!.client_id } });
    await revokeApproval({ userId, agentId: client.agentId! });
    const revoked = await post(token);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get("www-authenticate")).toContain(PERSONAL_APPROVAL_REVOKED);

    // A revoked token (POST /oauth/revoke).
    const again = new MemoryProvider();
    const second = await installAndSignIn(again, userId);
    await second.after.close();
    const res = await revokeRoute(
      new Request(`${env().BASE_URL}/oauth/revoke`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: again.saved!.access_token, client_id: again.info!.client_id }),
      }),
    );
    expect(res.status).toBe(200);
    expect((await post(again.saved!.access_token)).status).toBe(401);
  });

  it("answers GET and DELETE with 405, and a preflight from any origin", async () => {
    const get = await personal.GET();
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(get.headers.get("x-request-id")).toBe(((await get.json()) as { request_id: string }).request_id);
    expect((await personal.DELETE()).status).toBe(405);
    const pre = await personal.OPTIONS();
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")).toContain("Authorization");
  });
});

describe("an older MCP client (SDK 1.11, protocol 2025-03-26)", () => {
  it("signs in by its era's discovery (authorization-server metadata at the endpoint's origin) and uses the profile tools", async () => {
    const { Client: LegacyClient } = await import("mcp-sdk-legacy/client/index.js");
    const { StreamableHTTPClientTransport: LegacyTransport } = await import("mcp-sdk-legacy/client/streamableHttp.js");
    const provider = new MemoryProvider();
    const answers: Array<{ url: string; status: number; headers: Headers }> = [];
    const transport = () => new LegacyTransport(new URL(env().MCP_URL), { authProvider: provider, requestInit: {} });
    // SDK 1.11 has no fetch option: its requests go through the global fetch, routed to the service here.
    const realFetch = globalThis.fetch;
    globalThis.fetch = serviceFetch(answers) as typeof fetch;
    try {
      const before = new LegacyClient({ name: "old-desk-assistant", version: "0.1.0" });
      await before.connect(transport());
      expect(before.getServerVersion()?.name).toBe("profile-service");
      expect((await before.listTools()).tools.map((t: { name: string }) => t.name)).toEqual(["service_connect"]);
      await expect(before.callTool({ name: "service_connect", arguments: {} })).rejects.toThrow(/Unauthorized/i);
      const code = await personSignsIn(provider.authorizationUrl!, userId);
      await transport().finishAuth(code);
      const after = new LegacyClient({ name: "old-desk-assistant", version: "0.1.0" });
      await after.connect(transport());
      expect((await after.listTools()).tools.map((t: { name: string }) => t.name)).toEqual(PROFILE_TOOLS);
      const read = (await after.callTool({ name: "service_profile_read", arguments: {} })) as CallToolResult;
      expect(read.isError ?? false).toBe(false);
      expect(answers.some((a) => new URL(a.url).pathname === asMetadataRoute.meta.path)).toBe(true);
      await after.close();
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});
