// The specification's "First screen by way in" table, row by row, for every way in the service has,
// through the one function that decides the screen order — and through the flows the ways in create.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { POST as registerRoute } from "@/app/oauth/register/route";
import { encode } from "next-auth/jwt";
import { GET as signUp } from "@/app/(hosted)/sign-up/route";
import { GET as signInHost } from "@/app/(hosted)/sign-in/[agent]/route";
import * as messageLines from "@/app/v1/auth/sign-in/message-lines/route";
import * as messageUrl from "@/app/v1/auth/sign-in/message-url/route";
import { db } from "@/lib/platform/db";
import { GET as openLink } from "@/app/personal-mcp/connect/[linkId]/route";
import { POST as connectRoute } from "@/app/v1/profile/connect/route";
import { POST as partnerSessionRoute } from "@/app/v1/flows/sessions/route";
import { GET as openPartnerLink } from "@/app/(hosted)/partner/[sessionId]/route";
import { setPartnerPhoneFirst } from "@/lib/developers/developers";
import { resetEnvForTests } from "@/lib/env";
import { env } from "@/lib/env";
import { ASSISTANTS } from "@/lib/catalogue";
import { WAY_IN_NAMES, type Screen, type WayInName } from "@/lib/flow/screens";
import { firstScreen, screensOf, screenSequence, type WayInRequest } from "@/lib/flow/sequence";
import { findFlow } from "@/lib/flow/store";
import type { PartnerFlow } from "@/lib/partner-sessions/flows";
import { parseRequiredParam } from "@/lib/required/entries";
import { oneAppOf } from "@/lib/sign-in/link-connectors";
import { createTenant, liveHeaders } from "../helpers/fixtures";
import { call } from "../helpers/http";
import { authorizeCall, authorizeParams, flowIdFrom, pkce, registerClient } from "../helpers/oauth";

// Each way in's request with only what orders the screens set: for the order alone.
const AUTHORIZE = { redirect_uri: "http://localhost:4000/callback", state: null, nonce: null, scopes: ["openid"], code_challenge: "x".repeat(43) };
function plain(wayIn: "oidc" | "mcp_client" | "profile_signup"): WayInRequest<"oidc"> | WayInRequest<"mcp_client"> | WayInRequest<"profile_signup"> {
  if (wayIn === "profile_signup") return { wayIn, request: {} };
  return wayIn === "oidc" ? { wayIn, request: { ...AUTHORIZE, client_id: "oc_x" } } : { wayIn, request: AUTHORIZE };
}
function connectLink(ask: { app?: string; capability?: string; signedIn?: boolean }): WayInRequest<"connect"> {
  const request = {
    connect_link_id: "mcc_x",
    app: ask.app ?? null,
    capability: ask.capability ?? null,
    purpose: null,
    client_name: null,
    return_url: null,
    signed_in: !!ask.signedIn,
  };
  return { wayIn: "connect", request };
}
function signInLink(connectors: string[]): WayInRequest<"sign_in_link"> {
  return { wayIn: "sign_in_link", request: { return_to: null, state: null, display_name: null, connectors, reconnect: false, message: null } };
}
function partnerLink(flow: PartnerFlow, phoneFirst = false): WayInRequest<"partner"> {
  return { wayIn: "partner", request: { partner_session_id: "pfs_x", flow, sources: [...ASSISTANTS], phone_first: phoneFirst, binds_external_id: false } };
}

// [way in as the table names it, the way in, required (OIDC), the link's ask (connect) or query (sign-in link),
//  scope, "signed-in" or "text-back", first screen]
const TABLE: Array<[string, WayInName, string | undefined, string, Screen]> = [
  ["Connect link naming no app, person not signed in", "connect", "", "", "import"],
  ["Connect link naming no app, person signed in", "connect", "", "signed-in", "apps"],
  ["Connect link for one app, person not signed in", "connect", "app=gmail", "", "app"],
  ["Connect link for one app, person signed in", "connect", "app=notion", "signed-in", "app"],
  ["Connect link asking for a capability, person not signed in", "connect", "capability=gmail:send", "", "phone"],
  ["Connect link asking for a capability, person signed in", "connect", "capability=gmail:send", "signed-in", "capability"],
  ["OpenID Connect sign-in", "oidc", undefined, "openid", "import"],
  ["OpenID Connect sign-in, including the email scope", "oidc", undefined, "openid email profile", "import"],
  ["OpenID Connect request whose required entry is email", "oidc", "email", "openid email", "mailbox"],
  ["OpenID Connect request whose required entry is gmail|outlook", "oidc", "gmail|outlook", "openid", "mailbox"],
  ["OpenID Connect request whose required entry is gmail", "oidc", "gmail", "openid", "mailbox"],
  ["OpenID Connect request whose required entry is outlook", "oidc", "outlook", "openid", "mailbox"],
  ["OpenID Connect request with a mailbox entry and another entry", "oidc", "email,chatgpt", "openid", "mailbox"],
  ["OpenID Connect request whose entry mixes a mailbox and an assistant", "oidc", "gmail|chatgpt", "openid", "import"],
  ["OpenID Connect request requiring an assistant", "oidc", "chatgpt", "openid", "import"],
  ["OpenID Connect request whose only entry is a typo", "oidc", "gmial", "openid", "import"],
  ["The service's own profile sign-up", "profile_signup", undefined, "", "import"],
  ["MCP client connecting (dynamically registered)", "mcp_client", undefined, "registered", "import"],
  ["Personal MCP install login (client known by its metadata document)", "mcp_client", undefined, "document", "import"],
  ["Sign-in link from signInUrl", "sign_in_link", "", "", "import"],
  ["Text-back sign-in link with reason signin", "sign_in_link", "", "text-back", "import"],
  ["Sign-in link whose connectors names one app", "sign_in_link", "connectors=notion", "", "app"],
  ["Sign-in link for one app that is the mailbox the entry accepts (connectors gmail, required email)", "sign_in_link", "connectors=gmail&required=email", "", "app"],
  ["Sign-in link for one app with a mailbox it does not meet also required", "sign_in_link", "connectors=drive&required=email", "", "mailbox"],
  ["Sign-in link with two connectors", "sign_in_link", "connectors=gmail,notion", "", "import"],
  ["Sign-in link naming outlook (never a sign-in-link connector)", "sign_in_link", "connectors=outlook", "", "import"],
  ["Sign-in link whose connectors is only sheets (ignores required)", "sign_in_link", "connectors=sheets&required=email", "", "phone"],
  // Partner links: [.., "partner", the session's flow (or "" for none), the installation or developer setting, ..]
  ["Partner link with flow connect", "partner", "connect", "", "import"],
  ["Partner link with flow connect requiring a mailbox (keeps its import screen)", "partner", "connect", "required-mailbox", "import"],
  ["Partner link without flow, the installation has the connect flow", "partner", "", "", "import"],
  ["Partner link without flow, no connect flow here: the import-only flow", "partner", "", "no-connect-flow", "import"],
  ["Partner link with flow linked_account", "partner", "linked_account", "", "import"],
  ["Partner link with flow linked_account, the partner's phone-first order on", "partner", "linked_account", "phone-first", "phone"],
];

describe("first screen by way in", () => {
  it("covers every way in the service has", () => {
    expect(new Set(TABLE.map((r) => r[1]))).toEqual(new Set(WAY_IN_NAMES));
  });

  it.each(TABLE)("%s → %s", async (_name, wayIn, required, scope, first) => {
    if (wayIn === "connect") {
      const ask = Object.fromEntries(new URLSearchParams(required));
      expect(firstScreen({ ...connectLink({ ...ask, signedIn: scope === "signed-in" }), required: [] })).toBe(first);
      const t = await createTenant();
      const minted = await call(connectRoute, { headers: liveHeaders(t), body: ask });
      const url = minted.body.connect_url as string;
      const id = url.split("/").pop()!;
      const cookie =
        scope === "signed-in" ? `authjs.session-token=${await encode({ token: { sub: t.users.live.id }, secret: env().AUTH_SECRET, salt: "authjs.session-token" })}` : undefined;
      const res = await openLink(new Request(url, { headers: cookie ? { cookie } : {} }), { params: Promise.resolve({ linkId: id }) });
      const flow = (await findFlow(res.headers.get("location")!.split("/").pop()!))!;
      expect(flow.wayIn).toBe("connect");
      expect(flow.screen).toBe(first);
      return;
    }
    if (wayIn === "partner") {
      const t = await createTenant();
      if (scope === "phone-first") await setPartnerPhoneFirst({ developerId: t.developer.id, on: true });
      process.env.PARTNER_CONNECT_FLOW = scope === "no-connect-flow" ? "false" : "true";
      resetEnvForTests();
      const body = { partner_ref: "partner-person", ...(required ? { flow: required } : {}), ...(scope === "required-mailbox" ? { required: [["gmail", "outlook"]] } : {}) };
      const created = await call(partnerSessionRoute, { headers: { "x-api-key": t.keys.sk, "x-agent": t.agent.handle }, body });
      delete process.env.PARTNER_CONNECT_FLOW;
      resetEnvForTests();
      const url = created.body.url as string;
      const res = await openPartnerLink(new Request(url), { params: Promise.resolve({ sessionId: url.split("/").pop()! }) });
      const flow = (await findFlow(res.headers.get("location")!.split("/").pop()!))!;
      expect(flow.wayIn).toBe("partner");
      expect(flow.wayIn === "partner" && flow.request.flow).toBe(required || (scope === "no-connect-flow" ? "import" : "connect"));
      expect(flow.screen).toBe(first);
      expect(screensOf(flow)).toEqual(PARTNER_ORDERS[`${required}/${scope}`]);
      return;
    }
    if (wayIn === "sign_in_link") {
      const t = await createTenant();
      let url: URL;
      if (scope === "text-back") {
        const line = "+14155550177";
        const headers = { "x-api-key": t.keys.sk, "x-agent": t.agent.handle };
        expect((await call(messageLines.POST, { headers, body: { channel: "sms", phone: line } })).status).toBe(201);
        url = new URL((await call(messageUrl.POST, { headers, body: { reason: "signin", agentPhone: line } })).body.url as string);
      } else {
        const { signInName } = await (await db()).agent.findUniqueOrThrow({ where: { id: t.agent.id } });
        url = new URL(`http://localhost:3000/sign-in/${signInName}?${required}`);
      }
      const name = url.pathname.split("/")[2]!;
      const res = await signInHost(new Request(url), { params: Promise.resolve({ agent: name }) });
      const flow = (await findFlow(res.headers.get("location")!.split("/").pop()!))!;
      expect(flow.wayIn).toBe("sign_in_link");
      expect(flow.wayIn === "sign_in_link" && flow.request.message !== null).toBe(scope === "text-back");
      expect(flow.screen).toBe(first);
      return;
    }
    expect(firstScreen({ ...plain(wayIn), required: parseRequiredParam(required) })).toBe(first);
    // The flow the way in really creates starts there too.
    let flowId: string;
    if (wayIn === "oidc") {
      const t = await createTenant();
      const { client_id } = await registerClient(t);
      flowId = flowIdFrom(await authorizeCall(authorizeParams(client_id, pkce().challenge, { scope, required })));
    } else if (wayIn === "mcp_client") {
      flowId = flowIdFrom(await authorizeCall(await mcpAuthorizeParams(scope as "registered" | "document")));
    } else {
      const res = await signUp(new Request("http://localhost:3000/sign-up"));
      flowId = new URL(res.headers.get("location")!).pathname.split("/").pop()!;
      expect(res.headers.get("set-cookie")).toContain(`Path=/flow/${flowId}`);
    }
    const flow = (await findFlow(flowId))!;
    expect(flow.wayIn).toBe(wayIn);
    expect(flow.screen).toBe(first);
  });
});

/** A partner link's whole order, by [flow]/[setting] as the table gives them. */
const PARTNER_ORDERS: Record<string, Screen[]> = {
  "connect/": ["import", "phone", "code", "receipt"],
  "connect/required-mailbox": ["import", "phone", "code", "receipt"],
  "/": ["import", "phone", "code", "receipt"],
  "/no-connect-flow": ["import", "receipt"],
  "linked_account/": ["import", "phone", "code", "receipt"],
  "linked_account/phone-first": ["phone", "code", "import", "receipt"],
};

/** An authorize request of an MCP client a person installs: registered at /oauth/register, or known by a metadata document served here. */
async function mcpAuthorizeParams(how: "registered" | "document"): Promise<Record<string, string>> {
  const callback = "http://127.0.0.1:43111/callback";
  let clientId: string;
  if (how === "registered") {
    clientId = (await call(registerRoute, { body: { client_name: "Desk Assistant", redirect_uris: [callback], token_endpoint_auth_method: "none" } })).body.client_id;
  } else {
    const server = createServer((_req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ client_id: clientId, client_name: "Web Assistant", redirect_uris: [callback] })),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    clientId = `http://localhost:${(server.address() as AddressInfo).port}/client.json`;
    after.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  }
  return { response_type: "code", client_id: clientId, redirect_uri: callback, code_challenge: pkce().challenge, code_challenge_method: "S256", resource: env().MCP_URL };
}
const after: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of after) await close();
});

// Sign-in links order their screens through the same function. [row, connectors, required, first screen, whole order]
const SIGN_IN_LINKS: Array<[string, string[], string | undefined, Screen[]]> = [
  ["Sign-in link from signInUrl", [], undefined, ["import", "phone", "code", "receipt"]],
  ["Sign-in link whose connectors names one app", ["notion"], undefined, ["app", "phone", "code", "receipt"]],
  ["Sign-in link for one app that is the mailbox the entry accepts (gmail, required email)", ["gmail"], "email", ["app", "phone", "code", "receipt"]],
  ["Sign-in link for one app with a mailbox the app does not meet also required", ["drive"], "email", ["mailbox", "app", "phone", "code", "receipt"]],
  ["Sign-in link for Calendar requiring gmail", ["calendar"], "gmail", ["mailbox", "app", "phone", "code", "receipt"]],
  ["Sign-in link for one app, another entry required (applies on the app's screen)", ["gmail"], "chatgpt", ["app", "phone", "code", "receipt"]],
  ["Sign-in link with two connectors: not a one-app link", ["gmail", "drive"], undefined, ["import", "phone", "code", "receipt"]],
  ["Sign-in link naming outlook: not a connector", ["outlook"], "email", ["import", "phone", "code", "receipt"]],
  ["Sign-in link whose connectors is only sheets (ignores required)", ["sheets"], "email", ["phone", "code", "app", "receipt"]],
];

describe("sign-in links", () => {
  it.each(SIGN_IN_LINKS)("%s", (_name, connectors, required, order) => {
    const input = { ...signInLink(connectors), required: parseRequiredParam(required) };
    expect(screenSequence(input)).toEqual(order);
    expect(firstScreen(input)).toBe(order[0]);
  });

  it("take exactly one valid connector as a one-app link", () => {
    expect(oneAppOf(["Gmail"])).toBe("gmail");
    expect(oneAppOf(["gmail", "gmail"])).toBe("gmail");
    expect(oneAppOf(["gmail", "outlook"])).toBe("gmail");
    expect(oneAppOf(["gmail", "notion"])).toBeNull();
    expect(oneAppOf([])).toBeNull();
  });
});

describe("the screen order", () => {
  it("goes import, phone, code, receipt; mailbox first when the way in says so", () => {
    expect(screenSequence({ ...plain("oidc"), required: [] })).toEqual(["import", "phone", "code", "receipt"]);
    expect(screenSequence({ ...plain("oidc"), required: [["gmail", "outlook"]] })).toEqual(["mailbox", "import", "phone", "code", "receipt"]);
    expect(screenSequence({ ...plain("profile_signup"), required: [["gmail"]] })).toEqual(["import", "phone", "code", "receipt"]);
  });

  it("for connect links: the app, then phone and code; the capability after them; the end when signed in", () => {
    expect(screenSequence({ ...connectLink({ app: "gmail" }), required: [] })).toEqual(["app", "phone", "code", "receipt"]);
    expect(screenSequence({ ...connectLink({ app: "gmail", signedIn: true }), required: [] })).toEqual(["app", "receipt"]);
    expect(screenSequence({ ...connectLink({ capability: "gmail:send" }), required: [] })).toEqual(["phone", "code", "capability", "receipt"]);
  });

  it("puts phone and code before the import screen for a person who chose Sign in", () => {
    expect(screenSequence({ ...plain("oidc"), required: [], signInFirst: true })).toEqual(["phone", "code", "import", "receipt"]);
    expect(screenSequence({ ...partnerLink("connect"), required: [], signInFirst: true })).toEqual(["phone", "code", "import", "receipt"]);
  });

  it("for partner links: phone-first applies to linked_account only; the import-only flow has no phone or code", () => {
    expect(screenSequence({ ...partnerLink("connect", true), required: [] })).toEqual(["import", "phone", "code", "receipt"]);
    expect(screenSequence({ ...partnerLink("import", true), required: [] })).toEqual(["import", "receipt"]);
    expect(screenSequence({ ...partnerLink("linked_account"), required: [["gmail", "outlook"]] })).toEqual(["import", "phone", "code", "receipt"]);
  });
});
