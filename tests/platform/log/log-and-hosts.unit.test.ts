// Log redaction, and host-based routing of separately hosted public addresses.
import { describe, expect, it } from "vitest";
import { REDACT_PATHS, scrub } from "@/lib/platform/log";
import { rewriteForHost } from "@/lib/http/hosts";

describe("scrub", () => {
  it("redacts keys, tokens, JWTs and phone numbers from free text", () => {
    const line = scrub("key sk_test_abcDEF123 pk_live sk_Zz9 token mcp_at_q1w2 refresh mcp_rt_e3r4 secret ocs_x1 jwt eyJa.eyJb.sig phone +1 (415) 555-0100");
    for (const leaked of ["abcDEF123", "Zz9", "q1w2", "e3r4", "ocs_x1", "eyJa.eyJb.sig", "555-0100"]) expect(line).not.toContain(leaked);
    expect(line).toContain("sk_test_[redacted]");
    expect(line).toContain("[jwt]");
    expect(line).toContain("[phone]");
  });

  it("redacts credential headers and fields in structured logs", () => {
    expect(REDACT_PATHS).toEqual(expect.arrayContaining(['req.headers["x-api-key"]', "req.headers.authorization", "*.phone", "*.code", "*.token"]));
  });
});

describe("rewriteForHost", () => {
  const sameHost = { BASE_URL: "http://localhost:3000", MCP_URL: "http://localhost:3000/personal-mcp", SIGN_IN_URL: "http://localhost:3000/sign-in" };
  const split = { BASE_URL: "https://api.example.com", MCP_URL: "https://mcp.example.com", SIGN_IN_URL: "https://signin.example.com" };

  it("leaves path-based defaults alone", () => {
    expect(rewriteForHost(new URL("http://localhost:3000/sign-in/my-agent"), sameHost)).toBeNull();
    expect(rewriteForHost(new URL("http://localhost:3000/v1/profile"), sameHost)).toBeNull();
  });

  it("maps separate hosts onto their mounts", () => {
    expect(rewriteForHost(new URL("https://signin.example.com/my-agent"), split)).toBe("/sign-in/my-agent");
    expect(rewriteForHost(new URL("https://mcp.example.com/connect/mcc_abc"), split)).toBe("/personal-mcp/connect/mcc_abc");
    expect(rewriteForHost(new URL("https://mcp.example.com/"), split)).toBe("/personal-mcp");
    expect(rewriteForHost(new URL("https://api.example.com/v1/profile"), split)).toBeNull();
  });

  it("honours a path on a separate host", () => {
    const withPath = { ...split, SIGN_IN_URL: "https://id.example.com/in" };
    expect(rewriteForHost(new URL("https://id.example.com/in/agent-1"), withPath)).toBe("/sign-in/agent-1");
    expect(rewriteForHost(new URL("https://id.example.com/elsewhere"), withPath)).toBeNull();
  });
});
