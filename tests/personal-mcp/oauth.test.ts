// Signing a person in for an MCP client they installed: the endpoint's protected-resource metadata, the
// authorization-server metadata, dynamic registration (RFC 7591), Client ID Metadata Documents fetched
// boundedly, the resource indicator, loopback callbacks on any port, and the "mcp_client" flow.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as asMetadataRoute } from "@/app/.well-known/oauth-authorization-server/route";
import { GET as prmRoute } from "@/app/.well-known/oauth-protected-resource/personal-mcp/route";
import { POST as registerRoute } from "@/app/oauth/register/route";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { db } from "@/lib/platform/db";
import { env } from "@/lib/env";
import { returnFromReceipt } from "../helpers/receipt";
import { findFlow } from "@/lib/flow/store";
import { rewriteForHost } from "@/lib/http/hosts";
import { OAUTH_MESSAGES } from "@/lib/oidc/errors";
import { PERSONAL_MCP_DEVELOPER_ID } from "@/lib/developers/personal-mcp-account";
import { DOCUMENT_CLIENTS_RATE_LIMITED, DOCUMENT_UNREADABLE } from "@/lib/oidc/mcp-clients/documents";
import { DOCUMENT_MAX_AGE_SECONDS, DOCUMENT_MAX_BYTES, DOCUMENT_TIMEOUT_MS } from "@/lib/oidc/mcp-clients/limits";
import { captureLogsForTests } from "@/lib/platform/log";
import { personalChallenge, resourceMetadataUrl } from "@/lib/personal-mcp/metadata";
import { REGISTRATIONS_PER_IP_PER_HOUR } from "@/lib/oidc/mcp-clients/registration";
import { PROFILE_TOOL_SCOPES } from "@/lib/profile/scopes";
import { isApproved } from "@/lib/users/approvals";
import { createUser } from "@/lib/users/users";
import { agentBySignInName } from "@/lib/agents/agents";
import { freshRateLimits, outsideDevelopment } from "../helpers/env";
import { call } from "../helpers/http";
import { authorizeCall, basic, flowIdFrom, pkce, tokenCall } from "../helpers/oauth";

const LOOPBACK_CALLBACK = "http://127.0.0.1:33418/callback";
const WEB_CALLBACK = "https://assistant.example/oauth/callback";

function register(body: unknown, ip = "127.0.0.1") {
  return call(registerRoute, { body, headers: { "x-service-client-ip": ip } });
}

function mcpAuthorize(clientId: string, challenge: string, extra: Record<string, string | undefined> = {}, ip?: string) {
  return authorizeCall(
    {
      response_type: "code",
      client_id: clientId,
      redirect_uri: LOOPBACK_CALLBACK,
      code_challenge: challenge,
      code_challenge_method: "S256",
      scope: PROFILE_TOOL_SCOPES.join(" "),
      state: "s-1",
      resource: env().MCP_URL,
      ...extra,
    },
    ip ? { "x-service-client-ip": ip } : {},
  );
}

/** authorize → the person finishes the flow → code → tokens, for an MCP client. */
async function signInThrough(clientId: string, userId: string, opts: { redirectUri?: string; auth?: Record<string, string> } = {}) {
  const { verifier, challenge } = pkce();
  const redirectUri = opts.redirectUri ?? LOOPBACK_CALLBACK;
  const flowId = flowIdFrom(await mcpAuthorize(clientId, challenge, { redirect_uri: redirectUri }));
  const { redirectTo } = await returnFromReceipt({ flowId, userId });
  const code = new URL(redirectTo).searchParams.get("code")!;
  const res = await tokenCall(
    { grant_type: "authorization_code", code, redirect_uri: redirectUri, code_verifier: verifier, resource: env().MCP_URL, ...(opts.auth ? {} : { client_id: clientId }) },
    opts.auth ?? {},
  );
  return { res, flowId, redirectTo: new URL(redirectTo) };
}

beforeEach(() => resetClockForTests());

describe("discovery", () => {
  it("publishes the endpoint's protected-resource metadata at the RFC 9728 address, naming the service as authorization server", async () => {
    const res = await call(prmRoute);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.body).toEqual({
      resource: env().MCP_URL,
      authorization_servers: [env().BASE_URL],
      scopes_supported: [...PROFILE_TOOL_SCOPES],
      bearer_methods_supported: ["header"],
      resource_name: expect.any(String),
    });
    const mcp = new URL(env().MCP_URL);
    expect(resourceMetadataUrl()).toBe(`${mcp.origin}/.well-known/oauth-protected-resource${mcp.pathname}`);
    expect(new URL(resourceMetadataUrl()).pathname).toBe(prmRoute.meta.path);
  });

  it("serves the metadata at the root of a separately hosted MCP_URL", () => {
    const addresses = { BASE_URL: "https://profile.example", MCP_URL: "https://mcp.example", SIGN_IN_URL: "https://profile.example/sign-in" };
    expect(rewriteForHost(new URL("https://mcp.example/.well-known/oauth-protected-resource"), addresses)).toBe(prmRoute.meta.path);
    const withPath = { ...addresses, MCP_URL: "https://mcp.example/profile" };
    expect(rewriteForHost(new URL("https://mcp.example/.well-known/oauth-protected-resource/profile"), withPath)).toBe(prmRoute.meta.path);
  });

  it("publishes authorization-server metadata with registration, metadata-document client ids, PKCE S256 and the profile scopes", async () => {
    const res = await call(asMetadataRoute);
    expect(res.status).toBe(200);
    expect(res.body.issuer).toBe(env().BASE_URL);
    expect(res.body.registration_endpoint).toBe(`${env().BASE_URL}/oauth/register`);
    expect(res.body.client_id_metadata_document_supported).toBe(true);
    expect(res.body.code_challenge_methods_supported).toEqual(["S256"]);
    expect(res.body.token_endpoint_auth_methods_supported).toContain("none");
    expect(res.body.scopes_supported).toEqual(expect.arrayContaining([...PROFILE_TOOL_SCOPES]));
  });

  it("builds the 401 challenge with resource_metadata and the scopes, quoting what it carries", () => {
    expect(personalChallenge()).toBe(`Bearer resource_metadata="${resourceMetadataUrl()}", scope="${PROFILE_TOOL_SCOPES.join(" ")}"`);
    expect(personalChallenge({ code: "invalid_token", description: 'a "quoted" \\ thing' })).toContain('error="invalid_token", error_description="a \\"quoted\\" \\\\ thing"');
  });
});

describe("POST /oauth/register", () => {
  it("registers a public client: mcpc_ id, its metadata echoed, an agent of its own on the personal account", async () => {
    const res = await register({
      client_name: "Desk Assistant",
      redirect_uris: [LOOPBACK_CALLBACK],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    });
    expect(res.status).toBe(201);
    expect(res.body.client_id).toMatch(/^mcpc_[A-Za-z0-9]{24}$/);
    expect(res.body.client_secret).toBeUndefined();
    expect(res.body).toMatchObject({
      redirect_uris: [LOOPBACK_CALLBACK],
      token_endpoint_auth_method: "none",
      response_types: ["code"],
      client_name: "Desk Assistant",
      scope: PROFILE_TOOL_SCOPES.join(" "),
    });
    const row = await (await db()).oAuthClient.findUniqueOrThrow({ where: { id: res.body.client_id } });
    expect(row).toMatchObject({ developerId: PERSONAL_MCP_DEVELOPER_ID, plane: "live", kind: "mcp_registered", secretHash: null });
    const agent = await (await db()).agent.findUniqueOrThrow({ where: { id: row.agentId! } });
    expect(agent.developerId).toBe(PERSONAL_MCP_DEVELOPER_ID);
    // Only a local callback: shown as a program on the person's device, never as the bare name it chose.
    expect(agent.displayName).toBe("Desk Assistant (app on this device)");
    // No sign-in host page for it.
    expect(await agentBySignInName(agent.signInName)).toBeNull();
  });

  it("defaults to client_secret_basic (RFC 7591 § 2): an ocs_ secret shown once, stored hashed", async () => {
    const res = await register({ client_name: "Server Assistant", redirect_uris: [WEB_CALLBACK] });
    expect(res.status).toBe(201);
    expect(res.body.token_endpoint_auth_method).toBe("client_secret_basic");
    expect(res.body.client_secret).toMatch(/^ocs_/);
    expect(res.body.client_secret_expires_at).toBe(0);
    const row = await (await db()).oAuthClient.findUniqueOrThrow({ where: { id: res.body.client_id } });
    expect(row.secretHash).not.toContain(res.body.client_secret);
    // The name shown carries the host that vouches for it.
    expect((await (await db()).agent.findUniqueOrThrow({ where: { id: row.agentId! } })).displayName).toBe("Server Assistant (assistant.example)");
  });

  const refused: Array<[string, unknown, string]> = [
    ["no redirect_uris", { client_name: "x" }, "invalid_redirect_uri"],
    ["empty redirect_uris", { redirect_uris: [] }, "invalid_redirect_uri"],
    ["http on a public host", { redirect_uris: ["http://assistant.example/cb"] }, "invalid_redirect_uri"],
    ["a fragment", { redirect_uris: ["https://assistant.example/cb#x"] }, "invalid_redirect_uri"],
    ["javascript:", { redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
    ["data:", { redirect_uris: ["data:text/html,hi"] }, "invalid_redirect_uri"],
    ["credentials", { redirect_uris: ["https://u:p@assistant.example/cb"] }, "invalid_redirect_uri"],
    ["a wildcard", { redirect_uris: ["https://*.assistant.example/cb"] }, "invalid_redirect_uri"],
    ["eleven callbacks", { redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }, "invalid_redirect_uri"],
    ["an implicit grant", { redirect_uris: [WEB_CALLBACK], grant_types: ["implicit"] }, "invalid_client_metadata"],
    ["only refresh_token", { redirect_uris: [WEB_CALLBACK], grant_types: ["refresh_token"] }, "invalid_client_metadata"],
    ["response_type token", { redirect_uris: [WEB_CALLBACK], response_types: ["token"] }, "invalid_client_metadata"],
    ["an unknown auth method", { redirect_uris: [WEB_CALLBACK], token_endpoint_auth_method: "private_key_jwt" }, "invalid_client_metadata"],
    ["an http logo", { redirect_uris: [WEB_CALLBACK], logo_uri: "http://assistant.example/logo.png" }, "invalid_client_metadata"],
    ["a name of 101 characters", { redirect_uris: [WEB_CALLBACK], client_name: "n".repeat(101) }, "invalid_client_metadata"],
  ];
  it.each(refused)("refuses %s with the RFC 7591 error and makes nothing", async (_name, body, error) => {
    const before = await (await db()).oAuthClient.count();
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
    expect(res.body.error_description).toEqual(expect.any(String));
    expect(await (await db()).oAuthClient.count()).toBe(before);
  });

  it("takes private-use schemes (RFC 8252 § 7.1) and ignores unknown metadata", async () => {
    const res = await register({
      redirect_uris: ["com.example.assistant:/oauth", "cursor://example/cb"],
      token_endpoint_auth_method: "none",
      software_statement: "ignored",
      contacts: ["a@b.c"],
    });
    expect(res.status).toBe(201);
    expect(res.body.redirect_uris).toEqual(["com.example.assistant:/oauth", "cursor://example/cb"]);
  });

  it(`limits registrations to ${REGISTRATIONS_PER_IP_PER_HOUR} per IP per hour`, async () => {
    const ip = "203.0.113.77";
    for (let i = 0; i < REGISTRATIONS_PER_IP_PER_HOUR; i++)
      expect((await register({ redirect_uris: [LOOPBACK_CALLBACK], token_endpoint_auth_method: "none" }, ip)).status).toBe(201);
    const over = await register({ redirect_uris: [LOOPBACK_CALLBACK], token_endpoint_auth_method: "none" }, ip);
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await register({ redirect_uris: [LOOPBACK_CALLBACK], token_endpoint_auth_method: "none" }, "203.0.113.78")).status).toBe(201);
  });
});

describe("signing in through a registered client", () => {
  let clientId: string;
  let userId: string;
  beforeEach(async () => {
    clientId = (await register({ client_name: "Desk Assistant", redirect_uris: [LOOPBACK_CALLBACK], token_endpoint_auth_method: "none" })).body.client_id;
    userId = (await createUser({ plane: "live" })).id;
  });

  it("opens the hosted flow as the mcp_client way in, on the import screen, for the client's own agent", async () => {
    const { challenge } = pkce();
    const flowId = flowIdFrom(await mcpAuthorize(clientId, challenge));
    const flow = (await findFlow(flowId))!;
    expect(flow).toMatchObject({ wayIn: "mcp_client", screen: "import", developerId: PERSONAL_MCP_DEVELOPER_ID, plane: "live", request: { client_id: clientId } });
    const client = await (await db()).oAuthClient.findUniqueOrThrow({ where: { id: clientId } });
    expect(flow.agentId).toBe(client.agentId);
  });

  it("ends with a code for the callback, tokens for the personal endpoint, and the client approved", async () => {
    const { res, redirectTo } = await signInThrough(clientId, userId);
    expect(redirectTo.searchParams.get("state")).toBe("s-1");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, resource: env().MCP_URL });
    expect(res.body.access_token).toMatch(/^mcp_at_/);
    expect(res.body.refresh_token).toMatch(/^mcp_rt_/);
    expect(res.body.scope.split(" ")).toEqual([...PROFILE_TOOL_SCOPES]);
    const client = await (await db()).oAuthClient.findUniqueOrThrow({ where: { id: clientId } });
    expect(await isApproved({ userId, agentId: client.agentId! })).toBe(true);
  });

  it("takes a loopback callback on another port (RFC 8252 § 7.3), but not another path or host", async () => {
    const { res } = await signInThrough(clientId, userId, { redirectUri: "http://127.0.0.1:51234/callback" });
    expect(res.status).toBe(200);
    const { challenge } = pkce();
    for (const other of ["http://127.0.0.1:51234/other", "http://localhost:33418/callback", "http://127.0.0.1:33418/callback?x=1"]) {
      const page = await mcpAuthorize(clientId, challenge, { redirect_uri: other });
      expect(page.status).toBe(400);
      expect(page.body).toEqual({ error: "invalid_request", error_description: OAUTH_MESSAGES.redirectUriMismatch });
    }
  });

  it("takes resource naming the endpoint (with or without a trailing slash, or left out) and refuses any other", async () => {
    const { challenge } = pkce();
    expect((await mcpAuthorize(clientId, challenge, { resource: `${env().MCP_URL}/` })).status).toBe(303);
    expect((await mcpAuthorize(clientId, challenge, { resource: undefined })).status).toBe(303);
    const other = await mcpAuthorize(clientId, challenge, { resource: `${env().BASE_URL}/mcp` });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ error: "invalid_target", error_description: `resource must be the personal MCP endpoint, ${env().MCP_URL}.` });
  });

  it("refuses another resource at the token endpoint too, and the code stays unused", async () => {
    const { verifier, challenge } = pkce();
    const flowId = flowIdFrom(await mcpAuthorize(clientId, challenge));
    const code = new URL((await returnFromReceipt({ flowId, userId })).redirectTo).searchParams.get("code")!;
    const params = { grant_type: "authorization_code", code, redirect_uri: LOOPBACK_CALLBACK, code_verifier: verifier, client_id: clientId };
    const wrong = await tokenCall({ ...params, resource: "https://elsewhere.example/mcp" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe("invalid_target");
    expect((await tokenCall({ ...params, resource: env().MCP_URL })).status).toBe(200);
  });

  it("authenticates a confidential registered client with its secret", async () => {
    const reg = await register({ client_name: "Server Assistant", redirect_uris: [WEB_CALLBACK] });
    const { res } = await signInThrough(reg.body.client_id, userId, { redirectUri: WEB_CALLBACK, auth: basic(reg.body.client_id, reg.body.client_secret) });
    expect(res.status).toBe(200);
    const wrong = await signInThrough(reg.body.client_id, userId, { redirectUri: WEB_CALLBACK, auth: basic(reg.body.client_id, "ocs_wrong") });
    expect(wrong.res.status).toBe(401);
  });
});

describe("Client ID Metadata Documents", () => {
  let server: Server;
  let base: string;
  let documents: Record<string, { status?: number; body: string }>;
  let fetches = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      fetches++;
      const doc = documents[req.url ?? ""];
      if (!doc) return res.writeHead(404).end();
      res.writeHead(doc.status ?? 200, { "content-type": "application/json" }).end(doc.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  // Every first read of a document counts against its address's registration limit: each test starts afresh.
  beforeEach(async () => {
    documents = {};
    fetches = 0;
    await freshRateLimits();
  });

  function publish(path: string, doc: object | string, status?: number) {
    documents[path] = { body: typeof doc === "string" ? doc : JSON.stringify(doc), status };
    return `${base}${path}`;
  }

  it("reads the document when the client first signs someone in, and again only once it is stale", async () => {
    const id = publish("/client.json", {});
    documents["/client.json"] = { body: JSON.stringify({ client_id: id, client_name: "Web Assistant", redirect_uris: [LOOPBACK_CALLBACK], token_endpoint_auth_method: "none" }) };
    const user = await createUser({ plane: "live" });
    const { flowId } = await signInThrough(id, user.id);
    expect((await findFlow(flowId))!.wayIn).toBe("mcp_client");
    const row = await (await db()).oAuthClient.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ kind: "mcp_document", developerId: PERSONAL_MCP_DEVELOPER_ID, tokenEndpointAuthMethod: "none" });
    expect((await (await db()).agent.findUniqueOrThrow({ where: { id: row.agentId! } })).displayName).toBe(`Web Assistant (${new URL(base).host})`);
    expect(fetches).toBe(1);
    const { challenge } = pkce();
    await mcpAuthorize(id, challenge);
    expect(fetches).toBe(1);
    // Stale: read again, and a renamed client is shown by its new name.
    documents["/client.json"] = { body: JSON.stringify({ client_id: id, client_name: "Web Assistant 2", redirect_uris: [LOOPBACK_CALLBACK] }) };
    advanceClockForTests((DOCUMENT_MAX_AGE_SECONDS + 1) * 1000);
    await mcpAuthorize(id, challenge);
    expect(fetches).toBe(2);
    expect((await (await db()).agent.findUniqueOrThrow({ where: { id: row.agentId! } })).displayName).toBe(`Web Assistant 2 (${new URL(base).host})`);
  });

  it("stores no client and no agent for a new document until a flow from it completes, and one of each however many flows complete", async () => {
    const prisma = await db();
    const agents = () => prisma.agent.count({ where: { developerId: PERSONAL_MCP_DEVELOPER_ID } });
    const id = publish("/new-client.json", {});
    documents["/new-client.json"] = { body: JSON.stringify({ client_id: id, client_name: "New Assistant", redirect_uris: [LOOPBACK_CALLBACK] }) };
    const before = await agents();
    // A callback the document does not list: refused, and nothing stored.
    const wrong = await mcpAuthorize(id, pkce().challenge, { redirect_uri: "https://elsewhere.example/cb" });
    expect(wrong.body).toEqual({ error: "invalid_request", error_description: OAUTH_MESSAGES.redirectUriMismatch });
    // Valid requests open flows that show the document's name, and still store nothing.
    const flows = [];
    for (let i = 0; i < 3; i++) {
      const { verifier, challenge } = pkce();
      flows.push({ verifier, flowId: flowIdFrom(await mcpAuthorize(id, challenge)) });
    }
    expect(fetches).toBe(4);
    expect(await prisma.oAuthClient.findUnique({ where: { id } })).toBeNull();
    expect(await agents()).toBe(before);
    expect(await findFlow(flows[0]!.flowId)).toMatchObject({ request: { client_document: { display_name: `New Assistant (${new URL(base).host})` } } });
    // Two flows complete: one client, one agent, both people approve it, both codes exchange.
    const people = [await createUser({ plane: "live" }), await createUser({ plane: "live" })];
    for (const [i, person] of people.entries()) {
      const { redirectTo } = await returnFromReceipt({ flowId: flows[i]!.flowId, userId: person.id });
      const code = new URL(redirectTo).searchParams.get("code")!;
      const res = await tokenCall({ grant_type: "authorization_code", code, redirect_uri: LOOPBACK_CALLBACK, code_verifier: flows[i]!.verifier, client_id: id });
      expect(res.status).toBe(200);
    }
    const row = await prisma.oAuthClient.findUniqueOrThrow({ where: { id }, include: { redirectUris: true } });
    expect(row.redirectUris.map((r) => r.uri)).toEqual([LOOPBACK_CALLBACK]);
    expect(await agents()).toBe(before + 1);
    for (const person of people) expect(await isApproved({ userId: person.id, agentId: row.agentId! })).toBe(true);
    expect(await findFlow(flows[0]!.flowId)).toMatchObject({ request: { client_id: id } });
  });

  it("counts each first read of a document against the registration limit of the address", async () => {
    const ip = "203.0.113.77";
    const paths = Array.from({ length: REGISTRATIONS_PER_IP_PER_HOUR + 1 }, (_, i) => `/limited-${i}.json`);
    for (const path of paths) publish(path, { client_id: `${base}${path}`, redirect_uris: [LOOPBACK_CALLBACK] });
    // Refused requests count too: the read is what is limited.
    for (const path of paths.slice(0, REGISTRATIONS_PER_IP_PER_HOUR)) {
      const res = await mcpAuthorize(`${base}${path}`, pkce().challenge, { redirect_uri: "https://elsewhere.example/cb" }, ip);
      expect(res.body.error_description).toBe(OAUTH_MESSAGES.redirectUriMismatch);
    }
    const over = await mcpAuthorize(`${base}${paths.at(-1)}`, pkce().challenge, {}, ip);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: "temporarily_unavailable", error_description: DOCUMENT_CLIENTS_RATE_LIMITED });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(fetches).toBe(REGISTRATIONS_PER_IP_PER_HOUR);
    // One limit: dynamic registration from the same address is over it as well.
    expect((await register({ redirect_uris: [LOOPBACK_CALLBACK], token_endpoint_auth_method: "none" }, ip)).status).toBe(429);
    // Another address is not.
    expect((await mcpAuthorize(`${base}${paths.at(-1)}`, pkce().challenge, {}, "203.0.113.78")).status).toBe(303);
  });

  it("signs a person in with it and issues tokens at the token endpoint without a secret", async () => {
    const id = publish("/full.json", {});
    documents["/full.json"] = { body: JSON.stringify({ client_id: id, client_name: "Web Assistant", redirect_uris: [LOOPBACK_CALLBACK] }) };
    const user = await createUser({ plane: "live" });
    const { res } = await signInThrough(id, user.id);
    expect(res.status).toBe(200);
    expect(res.body.resource).toBe(env().MCP_URL);
  });

  // What the network said (or did not) is one sentence; what is wrong with a document naming itself is told.
  const bad: Array<[string, (url: string) => { doc: object | string; status?: number }, RegExp | string]> = [
    ["a client_id other than its address", () => ({ doc: { client_id: "https://other.example/c.json", redirect_uris: [LOOPBACK_CALLBACK] } }), DOCUMENT_UNREADABLE],
    ["a client secret", (url) => ({ doc: { client_id: url, redirect_uris: [LOOPBACK_CALLBACK], client_secret: "s" } }), /client secret/],
    [
      "client_secret_basic",
      (url) => ({ doc: { client_id: url, redirect_uris: [LOOPBACK_CALLBACK], token_endpoint_auth_method: "client_secret_basic" } }),
      /authenticates with none/,
    ],
    ["no redirect_uris", (url) => ({ doc: { client_id: url } }), /redirect_uris/],
    ["a javascript: callback", (url) => ({ doc: { client_id: url, redirect_uris: ["javascript:alert(1)"] } }), /redirect_uris/],
    ["not JSON", () => ({ doc: "<html>" }), DOCUMENT_UNREADABLE],
    ["a JSON array", () => ({ doc: "[]" }), DOCUMENT_UNREADABLE],
    ["HTTP 302", () => ({ doc: "{}", status: 302 }), DOCUMENT_UNREADABLE],
    ["HTTP 404", () => ({ doc: "{}", status: 404 }), DOCUMENT_UNREADABLE],
    ["more than the size cap", (url) => ({ doc: { client_id: url, redirect_uris: [LOOPBACK_CALLBACK], padding: "x".repeat(DOCUMENT_MAX_BYTES) } }), DOCUMENT_UNREADABLE],
  ];
  it.each(bad)("refuses a document with %s, shown to the person, and makes no client", async (_name, make, message) => {
    const path = `/bad-${Math.random().toString(36).slice(2)}.json`;
    const url = `${base}${path}`;
    const { doc, status } = make(url);
    publish(path, doc, status);
    const res = await mcpAuthorize(url, pkce().challenge);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_client");
    if (typeof message === "string") expect(res.body.error_description).toBe(message);
    else expect(res.body.error_description).toMatch(message);
    expect(await (await db()).oAuthClient.findUnique({ where: { id: url } })).toBeNull();
  });

  it("outside development mode: https only, and never a private address", async () => {
    const id = publish("/private.json", {});
    documents["/private.json"] = { body: JSON.stringify({ client_id: id, redirect_uris: [LOOPBACK_CALLBACK] }) };
    await outsideDevelopment(async () => {
      // http is not a metadata document id at all: an unknown client.
      const http = await mcpAuthorize(id, pkce().challenge);
      expect(http.body).toEqual({ error: "invalid_client", error_description: OAUTH_MESSAGES.unknownClient });
      // https to a loopback address: refused before any request is made.
      const loopback = await mcpAuthorize("https://127.0.0.1:1/client.json", pkce().challenge);
      expect(loopback.body).toEqual({ error: "invalid_client", error_description: DOCUMENT_UNREADABLE });
      const localhost = await mcpAuthorize("https://localhost:1/client.json", pkce().challenge);
      expect(localhost.body).toEqual({ error: "invalid_client", error_description: DOCUMENT_UNREADABLE });
    });
    expect(fetches).toBe(0);
  });

  it(
    "tells a host that does not resolve, a private address, a closed port and a slow answer apart only in the log",
    async () => {
      const lines: Array<Record<string, unknown>> = [];
      captureLogsForTests(
        new Writable({
          write(chunk, _enc, done) {
            for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
            done();
          },
        }),
      );
      const slow = createServer(() => {});
      await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const closedPort = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      try {
        const answers: Record<string, unknown> = {};
        await outsideDevelopment(async () => {
          answers.unresolved = (await mcpAuthorize("https://no-such-host.invalid/client.json", pkce().challenge)).body;
          answers.private = (await mcpAuthorize("https://10.0.0.1/client.json", pkce().challenge)).body;
        });
        answers.closed = (await mcpAuthorize(`http://localhost:${closedPort}/client.json`, pkce().challenge)).body;
        answers.slow = (await mcpAuthorize(`http://localhost:${(slow.address() as AddressInfo).port}/client.json`, pkce().challenge)).body;
        for (const answer of Object.values(answers)) expect(answer).toEqual({ error: "invalid_client", error_description: DOCUMENT_UNREADABLE });
        const reasons = lines.filter((l) => l.msg === "client metadata document unreadable").map((l) => String(l.reason));
        expect(reasons).toEqual(["does not resolve", "private address", "request failed", `timeout (${DOCUMENT_TIMEOUT_MS} ms)`]);
      } finally {
        captureLogsForTests(new Writable({ write: (_c, _e, done) => done() }), "fatal");
        await new Promise<void>((resolve) => slow.close(() => resolve()));
      }
    },
    DOCUMENT_TIMEOUT_MS + 10_000,
  );
});
