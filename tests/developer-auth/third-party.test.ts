// Dashboard sign-in with Google and GitHub: the dashboard's own next-auth routes
// (/api/dashboard-auth) against a local oidc-provider speaking Google's side and a local server
// speaking GitHub's OAuth app protocol. A verified address signs in as that address's dashboard user
// (made on first sign-in); an address the provider does not vouch for signs nobody in.
import { NextRequest } from "next/server.js";
import { decode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { startGitHubServer } from "../helpers/github-server";
import { startGoogleProvider } from "../helpers/google-provider";

let google: Awaited<ReturnType<typeof startGoogleProvider>>;
let github: Awaited<ReturnType<typeof startGitHubServer>>;
const githubAccount = { login: "ada", publicEmail: null, emails: [{ email: "Ada@Example.com", primary: true, verified: true }] };

beforeAll(async () => {
  google = await startGoogleProvider({ redirectUri: "http://localhost:3000/api/dashboard-auth/callback/google", email: "Grace.Hopper@example.com", accountId: "google-grace" });
  github = await startGitHubServer(githubAccount);
  Object.assign(process.env, google.env, github.env);
  (await import("@/lib/env")).resetEnvForTests();
});
afterAll(async () => {
  await google.close();
  await github.close();
});

type Jar = Map<string, string>;

async function authCall(method: "GET" | "POST", url: string, jar: Jar, form?: Record<string, string>) {
  const { dashboardHandlers } = await import("@/lib/developer-auth/session");
  const req = new NextRequest(new URL(url, "http://localhost:3000"), {
    method,
    headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  const res = method === "GET" ? await dashboardHandlers.GET(req) : await dashboardHandlers.POST(req);
  for (const c of res.headers.getSetCookie()) {
    const [pair, ...attrs] = c.split(";");
    const [name, ...value] = pair!.split("=");
    if (attrs.some((a) => /max-age=0/i.test(a.trim())) || value.join("=") === "") jar.delete(name!.trim());
    else jar.set(name!.trim(), value.join("="));
  }
  return res;
}

async function signInWith(provider: "google" | "github", jar: Jar): Promise<URL> {
  const { csrfToken } = (await (await authCall("GET", "/api/dashboard-auth/csrf", jar)).json()) as { csrfToken: string };
  expect([...jar.keys()]).toContain("dashboard.csrf-token");
  const start = await authCall("POST", `/api/dashboard-auth/signin/${provider}`, jar, { csrfToken, callbackUrl: "/dashboard" });
  expect(start.status).toBe(302);
  const at = new URL(start.headers.get("location")!);
  expect(at.searchParams.get("code_challenge_method")).toBe("S256");
  const back = provider === "google" ? await google.consent(at) : await github.consent(at);
  expect(back.pathname).toBe(`/api/dashboard-auth/callback/${provider}`);
  const done = await authCall("GET", back.toString(), jar);
  expect(done.status).toBe(302);
  return new URL(done.headers.get("location")!, "http://localhost:3000");
}

async function sessionUser(jar: Jar): Promise<string | undefined> {
  const { dashboardSessionSecret, DASHBOARD_SESSION_COOKIE } = await import("@/lib/developer-auth/session");
  const token = jar.get(DASHBOARD_SESSION_COOKIE);
  if (!token) return undefined;
  return (await decode({ token, secret: dashboardSessionSecret(), salt: DASHBOARD_SESSION_COOKIE }))?.sub ?? undefined;
}

describe("dashboard sign-in with a provider", () => {
  it("offers the configured providers beside the e-mailed code", async () => {
    const providers = await (await authCall("GET", "/api/dashboard-auth/providers", new Map())).json();
    expect(Object.keys(providers).sort()).toEqual(["dashboard-code", "github", "google"]);
    expect(providers.google.callbackUrl).toBe("http://localhost:3000/api/dashboard-auth/callback/google");
  });

  it("Google: the verified address signs in as its dashboard user, made on first sign-in; no person's session is set", async () => {
    const jar: Jar = new Map();
    const landed = await signInWith("google", jar);
    expect(landed.pathname).toBe("/dashboard");
    const user = await (await db()).dashboardUser.findUnique({ where: { email: "grace.hopper@example.com" } });
    expect(user).not.toBeNull();
    expect(await sessionUser(jar)).toBe(user!.id);
    expect([...jar.keys()].filter((k) => k.startsWith("authjs."))).toEqual([]);
  });

  it("GitHub: the primary verified address signs in; an unverified one signs nobody in", async () => {
    const jar: Jar = new Map();
    expect((await signInWith("github", jar)).pathname).toBe("/dashboard");
    const ada = await (await db()).dashboardUser.findUniqueOrThrow({ where: { email: "ada@example.com" } });
    expect(await sessionUser(jar)).toBe(ada.id);

    githubAccount.emails = [{ email: "eve@example.com", primary: true, verified: false }];
    const other: Jar = new Map();
    const refused = await signInWith("github", other);
    expect(refused.pathname).toBe("/dashboard/sign-in");
    expect(refused.searchParams.get("error")).toBe("unverified");
    expect(await sessionUser(other)).toBeUndefined();
    expect(await (await db()).dashboardUser.count({ where: { email: "eve@example.com" } })).toBe(0);
  });
});
