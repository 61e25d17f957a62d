// Agent tokens: HS256 JWTs the service verifies itself. Only its own, unexpired, for its issuer and
// audience, signed with HS256 under its key; anything else is no token, without an exception.
import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { AGENT_TOKEN_TTL_SECONDS, issueAgentToken, verifyAgentToken } from "@/lib/bearer-tokens/agent-token";
import { advanceClockForTests, resetClockForTests } from "@/lib/platform/clock";
import { deriveKey } from "@/lib/platform/crypto";
import { env } from "@/lib/env";

afterEach(() => resetClockForTests());

const claims = { userId: "0b7f6a4e-8a3c-4f55-9b1e-2f3c4d5e6f70", developerId: "dev-1", agentId: "agent-1", agent: "assistant", plane: "live" as const };
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");

/** A token signed with the service's own key, whatever its header and payload say. */
function forge(header: Record<string, unknown>, payload: Record<string, unknown>, key: Buffer = deriveKey("agent-token")): string {
  const signed = `${b64(header)}.${b64(payload)}`;
  return `${signed}.${createHmac("sha256", key).update(signed).digest("base64url")}`;
}

function payload(over: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    token_use: "agent",
    dev: "dev-1",
    aid: "agent-1",
    agent: "assistant",
    pln: "live",
    iss: env().BASE_URL,
    aud: "agent",
    sub: claims.userId,
    iat: now,
    exp: now + 60,
    ...over,
  };
}

describe("agent tokens", () => {
  it("verify what the service issued, for 24 hours", async () => {
    const { token } = await issueAgentToken(claims);
    expect(await verifyAgentToken(token)).toEqual(claims);
    expect(await verifyAgentToken(forge({ alg: "HS256", typ: "JWT" }, payload()))).toEqual(claims);
    advanceClockForTests(AGENT_TOKEN_TTL_SECONDS * 1000);
    expect(await verifyAgentToken(token)).toBeNull();
  });

  it("are nothing when forged, altered or not the service's", async () => {
    const { token } = await issueAgentToken(claims);
    const [h, p, s] = token.split(".") as [string, string, string];
    const cases = [
      forge({ alg: "none" }, payload()),
      forge({ alg: "HS512", typ: "JWT" }, payload()),
      forge({ alg: "HS256", crit: ["x"] }, payload()),
      forge({ alg: "HS256" }, payload(), Buffer.alloc(32, 7)),
      forge({ alg: "HS256" }, payload({ iss: "https://elsewhere.example" })),
      forge({ alg: "HS256" }, payload({ aud: "profile" })),
      forge({ alg: "HS256" }, payload({ exp: Math.floor(Date.now() / 1000) - 1 })),
      forge({ alg: "HS256" }, payload({ exp: "never" })),
      forge({ alg: "HS256" }, payload({ nbf: Math.floor(Date.now() / 1000) + 600 })),
      forge({ alg: "HS256" }, payload({ token_use: "access" })),
      forge({ alg: "HS256" }, payload({ pln: "staging" })),
      forge({ alg: "HS256" }, payload({ sub: 7 })),
      `${h}.${b64({ ...JSON.parse(Buffer.from(p, "base64url").toString()), sub: "someone-else" })}.${s}`,
      `${h}.${p}.${s.slice(0, -2)}`,
      `${h}.${p}`,
      `${h}.${p}.${s}.x`,
      `${h}.!!.${s}`,
      "",
      "x".repeat(5_000),
    ];
    for (const bad of cases) expect(await verifyAgentToken(bad), bad.slice(0, 60)).toBeNull();
  });
});
