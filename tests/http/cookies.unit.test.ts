// Every cookie the service sets, as the browser receives it (lib/http/cookies.ts): names, paths,
// lifetimes and attributes, byte for byte — browser tests and the security review depend on them. The
// tests run on http (BASE_URL http://localhost:3000), where no cookie carries Secure.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { verifyFlowCookie } from "@/lib/person-auth/third-party";
import { attemptCookie, CONNECT_ATTEMPT_TTL_SECONDS } from "@/lib/connectors/connections";
import { dashboardAccountCookie } from "@/lib/dashboard/context";
import { dashboardCookies } from "@/lib/developer-auth/session";
import { forgetNumber, rememberedNumber, rememberNumber } from "@/lib/flow/phone-cookie";
import { flowCookie, flowCookieFrom, flowCookieHeader, FLOW_TTL_SECONDS } from "@/lib/flow/browser";
import { clearCookieHeader, cookieFromHeader, readCookie, setCookieHeader, writeCookie } from "@/lib/http/cookies";
import { passkeyDeviceCookie, passkeyDeviceOf } from "@/lib/passkeys/device";

const jar = vi.hoisted(() => ({ sent: "", calls: [] as unknown[][] }));

vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => {
      const value = jar.sent
        .split("; ")
        .find((c) => c.startsWith(`${name}=`))
        ?.slice(name.length + 1);
      return value === undefined ? undefined : { name, value };
    },
    set: (...args: unknown[]) => void jar.calls.push(["set", ...args]),
    delete: (...args: unknown[]) => void jar.calls.push(["delete", ...args]),
  }),
}));

beforeEach(() => {
  jar.sent = "";
  jar.calls = [];
});

const FLOW = "F".repeat(32);

describe("route handlers' Set-Cookie headers", () => {
  it("the flow's browser cookie: scoped to the flow's path, its life long", () => {
    expect(FLOW_TTL_SECONDS).toBe(900);
    expect(flowCookieHeader({ id: FLOW, browserSecret: "s3cr3t" })).toBe(`service_flow_${FLOW}=s3cr3t; Path=/flow/${FLOW}; Max-Age=900; HttpOnly; SameSite=Lax`);
    expect(flowCookieFrom(new Request("http://localhost:3000/", { headers: { cookie: `a=1; service_flow_${FLOW}=s3cr3t; b=2` } }), FLOW)).toBe("s3cr3t");
  });

  it("an app connection's attempt cookie, and its clearing at the callback", () => {
    const attempt = attemptCookie("some-state");
    expect(attempt.name).toMatch(/^service_connect_[A-Za-z0-9]{20}$/);
    expect(attempt.name).toBe(attemptCookie("some-state").name);
    expect(CONNECT_ATTEMPT_TTL_SECONDS).toBe(600);
    expect(setCookieHeader(attempt, "b")).toBe(`${attempt.name}=b; Path=/connect/callback; Max-Age=600; HttpOnly; SameSite=Lax`);
    expect(clearCookieHeader(attempt)).toBe(`${attempt.name}=; Path=/connect/callback; Max-Age=0; HttpOnly; SameSite=Lax`);
  });

  it("this browser's passkey note: site-wide, about 400 days, and only its two values count", () => {
    expect(setCookieHeader(passkeyDeviceCookie, "has")).toBe("service_passkey=has; Path=/; Max-Age=34560000; HttpOnly; SameSite=Lax");
    expect([passkeyDeviceOf("has"), passkeyDeviceOf("dismissed"), passkeyDeviceOf("admin"), passkeyDeviceOf(undefined)]).toEqual(["has", "dismissed", null, null]);
  });

  it("the third-party sign-in's hand-back cookie, cleared when the browser is back", () => {
    expect(clearCookieHeader(verifyFlowCookie)).toBe("service_verify_flow=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
  });

  it("one parser for a Cookie header: the first cookie of that exact name, trimmed", () => {
    expect(cookieFromHeader("ab=1; a=2; a=3", "a")).toBe("2");
    expect(cookieFromHeader(" a = x=y ", "a")).toBe("x=y");
    expect(cookieFromHeader("b=1", "a")).toBeUndefined();
    expect(cookieFromHeader(null, "a")).toBeUndefined();
  });
});

describe("pages' and server actions' cookies (next/headers)", () => {
  it("set with the same options as ever: the hand-back cookie, the chosen account, the number kept for a new code", async () => {
    await writeCookie(verifyFlowCookie, FLOW);
    await writeCookie(dashboardAccountCookie, "dev-1");
    await rememberNumber(FLOW, "+14155550100");
    await forgetNumber(FLOW);
    const base = { httpOnly: true, sameSite: "lax", secure: false };
    expect(jar.calls).toEqual([
      ["set", "service_verify_flow", FLOW, { ...base, path: "/", maxAge: 900 }],
      ["set", "dashboard.account", "dev-1", { ...base, path: "/", maxAge: 365 * 86_400 }],
      ["set", `service_flow_phone_${FLOW}`, expect.any(String), { ...base, path: `/flow/${FLOW}`, maxAge: 900 }],
      ["delete", { name: `service_flow_phone_${FLOW}`, path: `/flow/${FLOW}` }],
    ]);
    // The number is sealed, and read back only as the service sealed it.
    const sealed = jar.calls[2]![2] as string;
    expect(sealed).not.toContain("4155550100");
    jar.sent = `service_flow_phone_${FLOW}=${sealed}`;
    expect(await rememberedNumber(FLOW)).toBe("+14155550100");
    jar.sent = `service_flow_phone_${FLOW}=forged`;
    expect(await rememberedNumber(FLOW)).toBeNull();
    jar.sent = `service_flow_${FLOW}=s3cr3t`;
    expect(await readCookie(flowCookie(FLOW))).toBe("s3cr3t");
  });

  it("the dashboard's next-auth cookies: dashboard.*, HttpOnly, SameSite=Lax, path /", () => {
    const options = { httpOnly: true, sameSite: "lax", secure: false, path: "/" };
    expect(dashboardCookies()).toEqual({
      sessionToken: { name: "dashboard.session-token", options },
      callbackUrl: { name: "dashboard.callback-url", options },
      csrfToken: { name: "dashboard.csrf-token", options },
      pkceCodeVerifier: { name: "dashboard.pkce.code_verifier", options: { ...options, maxAge: 900 } },
      state: { name: "dashboard.state", options: { ...options, maxAge: 900 } },
      nonce: { name: "dashboard.nonce", options },
    });
  });
});
