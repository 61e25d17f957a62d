// While the database is away, a person's browser gets the "we'll be right back" page (503, Retry-After)
// from the hosted routes it opens, and the load balancer's own answers (deploy/) say what the
// instances would: the same page, the same /v1, OAuth and JSON-RPC bodies.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as signInLink } from "@/app/(hosted)/sign-in/[agent]/route";
import { GET as authorize } from "@/app/oauth/authorize/route";
import { errorBody, MESSAGES, serviceUnavailable } from "@/lib/http/errors";
import { unavailableHtml } from "@/lib/http/html";
import { mcpServiceUnavailable } from "@/lib/mcp/json-rpc";
import { OAUTH_MESSAGES } from "@/lib/oidc/errors";
import { makeDatabaseUnreachable } from "../helpers/env";

const deployed = (name: string) => readFileSync(`deploy/${name}`, "utf8");

describe("the load balancer's answers (deploy/) are the instances' own", () => {
  it("the page", () => {
    expect(deployed("unavailable.html")).toBe(unavailableHtml());
  });

  it("the /v1, OAuth and JSON-RPC bodies", async () => {
    const { request_id: _, ...v1 } = errorBody(serviceUnavailable(), "req_x");
    expect(JSON.parse(deployed("unavailable.json"))).toEqual(v1);
    expect(JSON.parse(deployed("unavailable-oauth.json"))).toEqual({ error: "temporarily_unavailable", error_description: OAUTH_MESSAGES.temporarilyUnavailable });
    expect(JSON.parse(deployed("unavailable-mcp.json"))).toEqual(await mcpServiceUnavailable(new Error("test")).json());
    expect(MESSAGES.serviceUnavailable).toBe(OAUTH_MESSAGES.temporarilyUnavailable);
  });

  it("deploy/haproxy.cfg sends each surface its own", () => {
    const cfg = deployed("haproxy.cfg");
    expect(cfg).toContain("file unavailable-oauth.json if none_ready oauth");
    expect(cfg).toContain("file unavailable-mcp.json if none_ready mcp");
    expect(cfg).toContain("file unavailable.html if none_ready page");
    expect(cfg).toMatch(/file unavailable\.json if none_ready\n/);
    expect(cfg).toContain("option httpchk GET /api/ready");
  });
});

describe("while the database is away", () => {
  let restore: () => Promise<void>;
  beforeAll(async () => {
    restore = await makeDatabaseUnreachable();
  });
  afterAll(() => restore());

  const expectPage = async (res: Response) => {
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe(unavailableHtml());
  };

  it("an agent's sign-in link answers the page", async () => {
    await expectPage(await signInLink(new Request("http://localhost:3000/sign-in/trailhead"), { params: Promise.resolve({ agent: "trailhead" }) }));
  });

  it("/oauth/authorize answers a browser the page, and any other caller RFC 6749's 503", async () => {
    const url =
      "http://localhost:3000/oauth/authorize?client_id=oc_abcdefghijklmnop&response_type=code&redirect_uri=http%3A%2F%2Flocalhost%3A4999%2Fcb&scope=openid&code_challenge=" +
      "x".repeat(43) +
      "&code_challenge_method=S256&state=s";
    await expectPage(await authorize(new Request(url, { headers: { accept: "text/html,application/xhtml+xml" } })));
    const api = await authorize(new Request(url));
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBe("5");
    expect(await api.json()).toEqual({ error: "temporarily_unavailable", error_description: OAUTH_MESSAGES.temporarilyUnavailable });
  });
});
