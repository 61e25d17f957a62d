// Google and GitHub sign-in as the third proof of an address: next-auth's providers against a local
// oidc-provider speaking Google's side and a local server speaking GitHub's OAuth app protocol. The
// address the provider vouches for becomes verified, asserted through real ID tokens; an address a
// provider does not vouch for, or a sign-in with nobody signed in, changes nothing.
import { decodeJwt } from "jose";
import { NextRequest } from "next/server.js";
import { decode, encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { env } from "@/lib/env";
import { startGitHubServer } from "../helpers/github-server";
import { startGoogleProvider } from "../helpers/google-provider";
import { atMailboxPage } from "../helpers/flows";
import { CALLBACK, tokenCall } from "../helpers/oauth";

const SESSION_COOKIE = "authjs.session-token";
let google: Awaited<ReturnType<typeof startGoogleProvider>>;
let github: Awaited<ReturnType<typeof startGitHubServer>>;

beforeAll(async () => {
  google = await startGoogleProvider({ redirectUri: "http://localhost:3000/api/auth/callback/google", email: "Grace.Hopper@example.com", accountId: "google-grace" });
  github = await startGitHubServer({
    login: "linus",
    publicEmail: null,
    emails: [
      { email: "old@example.com", primary: false, verified: true },
      { email: "linus@example.com", primary: true, verified: true },
    ],
  });
  Object.assign(process.env, google.env, github.env);
  (await import("@/lib/env")).resetEnvForTests();
});
afterAll(async () => {
  await google.close();
  await github.close();
});

type Jar = Map<string, string>;

/** One request to next-auth's routes, as the browser would send it, keeping the cookies it sets. */
async function authCall(method: "GET" | "POST", url: string, jar: Jar, form?: Record<string, string>) {
  const { handlers } = await import("@/lib/person-auth/session");
  const req = new NextRequest(new URL(url, "http://localhost:3000"), {
    method,
    headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  const res = method === "GET" ? await handlers.GET(req) : await handlers.POST(req);
  for (const c of res.headers.getSetCookie()) {
    const [pair, ...attrs] = c.split(";");
    const [name, ...value] = pair!.split("=");
    if (attrs.some((a) => /max-age=0/i.test(a.trim())) || value.join("=") === "") jar.delete(name!.trim());
    else jar.set(name!.trim(), value.join("="));
  }
  return res;
}

async function sessionJar(userId: string): Promise<Jar> {
  return new Map([[SESSION_COOKIE, await encode({ token: { sub: userId }, secret: env().AUTH_SECRET, salt: SESSION_COOKIE })]]);
}

/** Signs in at the provider from the mailbox page of `flowId`; answers where the browser ends up. */
async function signInAt(
  provider: "google" | "github",
  jar: Jar,
  flowId: string,
  consent = (url: URL) => (provider === "google" ? google.consent(url) : github.consent(url)),
): Promise<URL> {
  jar.set("service_verify_flow", flowId);
  const { csrfToken } = (await (await authCall("GET", "/api/auth/csrf", jar)).json()) as { csrfToken: string };
  const start = await authCall("POST", `/api/auth/signin/${provider}`, jar, { csrfToken, callbackUrl: `/flow/${flowId}/verified` });
  expect(start.status).toBe(302);
  const at = new URL(start.headers.get("location")!);
  expect(at.searchParams.get("code_challenge_method")).toBe("S256");
  const back = await consent(at);
  expect(back.pathname).toBe(`/api/auth/callback/${provider}`);
  const done = await authCall("GET", back.toString(), jar);
  expect(done.status).toBe(302);
  return new URL(done.headers.get("location")!, "http://localhost:3000");
}

async function idTokenAfter(flowId: string, userId: string, client_id: string, verifier: string) {
  const { returnFromReceipt } = await import("../helpers/receipt");
  const url = new URL((await returnFromReceipt({ flowId, userId })).redirectTo);
  const tokens = await tokenCall({ grant_type: "authorization_code", code: url.searchParams.get("code")!, redirect_uri: CALLBACK, client_id, code_verifier: verifier });
  return decodeJwt(tokens.body.id_token);
}

describe("Google sign-in", () => {
  it("proves the address Google verified; the session stays the phone number's account; the flow ends", async () => {
    const { flowId, userId, client_id, verifier, reload, steps } = await atMailboxPage("+14155550181");
    // An address typed earlier has no proof; the provider's replaces it.
    await (await db()).user.update({ where: { id: userId }, data: { email: "typed@example.com", emailProof: "none" } });
    const jar = await sessionJar(userId);
    const landed = await signInAt("google", jar, flowId);
    expect(landed.pathname).toBe(`/flow/${flowId}/verified`);
    const session = await decode({ token: jar.get(SESSION_COOKIE)!, secret: env().AUTH_SECRET, salt: SESSION_COOKIE });
    expect(session?.sub).toBe(userId);
    expect(await (await db()).user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({ email: "grace.hopper@example.com", emailProof: "third_party" });

    // /flow/<id>/verified: only the flow's own account finishes it.
    expect(await steps.finishThirdPartyProof(await reload(), "someone-else")).toBe(false);
    expect(await steps.finishThirdPartyProof(await reload(), userId)).toBe(true);
    expect((await reload()).screen).toBe("receipt");
    expect(await idTokenAfter(flowId, userId, client_id, verifier)).toMatchObject({ sub: userId, email: "grace.hopper@example.com", email_verified: true });
  });

  it("changes nothing when Google has not verified the address", async () => {
    const unverified = await startGoogleProvider({ redirectUri: "http://localhost:3000/api/auth/callback/google", email: "maybe@example.com", emailVerified: false });
    try {
      Object.assign(process.env, unverified.env);
      (await import("@/lib/env")).resetEnvForTests();
      const { flowId, userId, client_id, verifier, reload, steps } = await atMailboxPage("+14155550182");
      const landed = await signInAt("google", await sessionJar(userId), flowId, unverified.consent);
      expect(landed.pathname).toBe(`/flow/${flowId}`);
      expect(landed.searchParams.get("verify_error")).toBe("unverified");
      expect(await (await db()).user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({ email: null, emailProof: "none" });
      expect(await steps.finishThirdPartyProof(await reload(), userId)).toBe(false);
      expect((await reload()).screen).toBe("mailbox");
      expect(await idTokenAfter(flowId, userId, client_id, verifier)).not.toHaveProperty("email");
    } finally {
      Object.assign(process.env, google.env);
      (await import("@/lib/env")).resetEnvForTests();
      await unverified.close();
    }
  });

  it("does not sign anybody in: with no session it is refused and no account changes", async () => {
    const before = await (await db()).user.count({ where: { email: "grace.hopper@example.com" } });
    const jar: Jar = new Map();
    const landed = await signInAt("google", jar, "A".repeat(32));
    expect(landed.pathname + landed.search).toBe("/verify/error?error=SignedOut");
    expect(jar.has(SESSION_COOKIE)).toBe(false);
    expect(await (await db()).user.count({ where: { email: "grace.hopper@example.com" } })).toBe(before);
  });
});

describe("GitHub sign-in", () => {
  it("proves the primary address when GitHub has verified it", async () => {
    const { flowId, userId, client_id, verifier, reload, steps } = await atMailboxPage("+14155550183");
    const jar = await sessionJar(userId);
    expect((await signInAt("github", jar, flowId)).pathname).toBe(`/flow/${flowId}/verified`);
    expect(await (await db()).user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({ email: "linus@example.com", emailProof: "third_party" });
    expect(await steps.finishThirdPartyProof(await reload(), userId)).toBe(true);
    expect(await idTokenAfter(flowId, userId, client_id, verifier)).toMatchObject({ email: "linus@example.com", email_verified: true });
  });

  it("changes nothing when the primary address is unverified, even with a public address on the profile", async () => {
    github.account.publicEmail = "public@example.com";
    github.account.emails = [
      { email: "verified-other@example.com", primary: false, verified: true },
      { email: "unconfirmed@example.com", primary: true, verified: false },
    ];
    const { flowId, userId } = await atMailboxPage("+14155550184");
    const jar = await sessionJar(userId);
    const landed = await signInAt("github", jar, flowId);
    expect(landed.pathname).toBe(`/flow/${flowId}`);
    expect(landed.searchParams.get("with")).toBe("github");
    expect(await (await db()).user.findUniqueOrThrow({ where: { id: userId } })).toMatchObject({ email: null, emailProof: "none" });
  });
});

describe("providers offered", () => {
  it("lists Google and GitHub beside the phone code when they have credentials", async () => {
    const res = await authCall("GET", "/api/auth/providers", new Map());
    expect(Object.keys(await res.json())).toEqual(["phone-code", "google", "github"]);
    const { configuredThirdParty } = await import("@/lib/person-auth/third-party");
    expect(configuredThirdParty()).toEqual(["google", "github"]);
  });
});
