// "Sign out everywhere", for the person's session and the dashboard's: every session cookie made before
// it (this browser's and any other's, and one made before session versions existed) is refused by
// every read of the session — next-auth's own session route, the route handlers' read, server pages'
// and actions' — while a sign-in afterwards works and nobody else's sessions change. Sessions are made
// by signing in through next-auth's real routes; only the framework's request scope (next/headers'
// cookies and headers, next/cache) is stood in for, as in tests/dashboard/tenancy.test.ts.
import { NextRequest } from "next/server.js";
import { encode } from "next-auth/jwt";
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/platform/db";
import { env } from "@/lib/env";
import { createUser } from "@/lib/users/users";
import { createTenant, type Tenant } from "../helpers/fixtures";

const jar = vi.hoisted(() => ({ cookie: "" }));

vi.mock("next/headers", () => ({
  headers: async () => new Headers({ cookie: jar.cookie, "x-forwarded-for": "127.0.0.1" }),
  cookies: async () => {
    const values = new Map(
      jar.cookie
        .split(/;\s*/)
        .filter(Boolean)
        .map((c) => [c.slice(0, c.indexOf("=")), c.slice(c.indexOf("=") + 1)] as [string, string]),
    );
    return { get: (name: string) => (values.has(name) ? { name, value: values.get(name)! } : undefined), set: () => undefined, delete: () => undefined };
  },
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

type Handlers = { GET: (req: NextRequest) => Promise<Response>; POST: (req: NextRequest) => Promise<Response> };

/** Signs in through next-auth's own routes (CSRF token, then the provider's callback with a ticket); the session cookie it sets, as a Cookie header. */
async function signInThrough(handlers: Handlers, base: string, provider: string, ticket: string, sessionCookie: string): Promise<string> {
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(";")[0]!;
      cookies.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
  };
  const header = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await handlers.GET(new NextRequest(`http://localhost:3000${base}/csrf`));
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await handlers.POST(
    new NextRequest(`http://localhost:3000${base}/callback/${provider}`, {
      method: "POST",
      headers: { cookie: header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, ticket }).toString(),
    }),
  );
  keep(res);
  const value = cookies.get(sessionCookie);
  expect(value, "the sign-in set a session cookie").toBeTruthy();
  return `${sessionCookie}=${value}`;
}

/** A server action's or page's redirect (next/navigation throws it). */
const redirected = { digest: expect.stringMatching(/^NEXT_REDIRECT/) };

describe("the person's sessions", () => {
  const PERSON_COOKIE = "authjs.session-token";

  async function signIn(userId: string): Promise<string> {
    const { handlers, PHONE_CODE_PROVIDER, sessionTicket } = await import("@/lib/person-auth/session");
    return signInThrough(handlers, "/api/auth", PHONE_CODE_PROVIDER, sessionTicket(userId), PERSON_COOKIE);
  }

  /** Who each read of the session says is signed in with this cookie: next-auth's route, route handlers' read, pages' auth(). */
  async function readsOf(cookie: string): Promise<Array<string | null>> {
    const { auth, handlers, sessionUserFromRequest } = await import("@/lib/person-auth/session");
    const route = (await (await handlers.GET(new NextRequest("http://localhost:3000/api/auth/session", { headers: { cookie } }))).json()) as { user?: { id: string } } | null;
    const fromRequest = await sessionUserFromRequest(new Request("http://localhost:3000/account/export.json", { headers: { cookie } }));
    jar.cookie = cookie;
    const page = (await auth())?.user?.id ?? null;
    return [route?.user?.id ?? null, fromRequest, page];
  }

  it("refuses every session made before it, here and in other browsers, at every read; a new sign-in works", async () => {
    const person = await createUser({ plane: "live", phone: `+1415555${String(randomBytes(2).readUInt16BE() % 10_000).padStart(4, "0")}` });
    const other = await createUser({ plane: "live", phone: `+1415556${String(randomBytes(2).readUInt16BE() % 10_000).padStart(4, "0")}` });
    const here = await signIn(person.id);
    const elsewhere = await signIn(person.id);
    // A cookie made before sessions carried a version.
    const older = `${PERSON_COOKIE}=${await encode({ token: { sub: person.id }, secret: env().AUTH_SECRET, salt: PERSON_COOKIE })}`;
    const theirs = await signIn(other.id);
    for (const c of [here, elsewhere, older]) expect(await readsOf(c)).toEqual([person.id, person.id, person.id]);

    jar.cookie = here;
    const { signOutEverywhereAction } = await import("@/app/(hosted)/account/actions");
    await expect(signOutEverywhereAction()).rejects.toMatchObject(redirected);

    for (const c of [here, elsewhere, older]) expect(await readsOf(c)).toEqual([null, null, null]);
    // The session route also clears the refused cookie.
    const cleared = await (await import("@/lib/person-auth/session")).handlers.GET(new NextRequest("http://localhost:3000/api/auth/session", { headers: { cookie: elsewhere } }));
    expect(cleared.headers.getSetCookie().some((c) => c.startsWith(`${PERSON_COOKIE}=;`))).toBe(true);
    // The account page's actions act for nobody with the old cookie.
    jar.cookie = elsewhere;
    const { revokeAgentAction } = await import("@/app/(hosted)/account/actions");
    await expect(revokeAgentAction("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({ digest: expect.stringContaining("/account;") });

    expect(await readsOf(theirs)).toEqual([other.id, other.id, other.id]);
    const again = await signIn(person.id);
    expect(await readsOf(again)).toEqual([person.id, person.id, person.id]);
    expect((await (await db()).user.findUniqueOrThrow({ where: { id: person.id } })).sessionVersion).toBe(1);
  }, 120_000);

  it("refuses a session naming someone who is not there", async () => {
    const nobody = `${PERSON_COOKIE}=${await encode({ token: { sub: "00000000-0000-4000-8000-000000000000" }, secret: env().AUTH_SECRET, salt: PERSON_COOKIE })}`;
    expect(await readsOf(nobody)).toEqual([null, null, null]);
    const { signOutEverywhere } = await import("@/lib/person-auth/session");
    expect(await signOutEverywhere("00000000-0000-4000-8000-000000000000")).toBe(false);
    expect(await signOutEverywhere("not-a-uuid")).toBe(false);
  });
});

describe("the dashboard's sessions", () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await createTenant();
  });

  async function signIn(dashboardUserId: string): Promise<string> {
    const { dashboardHandlers, DASHBOARD_CODE_PROVIDER, DASHBOARD_SESSION_COOKIE, dashboardTicket } = await import("@/lib/developer-auth/session");
    return signInThrough(dashboardHandlers, "/api/dashboard-auth", DASHBOARD_CODE_PROVIDER, dashboardTicket(dashboardUserId), DASHBOARD_SESSION_COOKIE);
  }

  /** Who next-auth's session route and the pages' and actions' read say is signed in with this cookie. */
  async function readsOf(cookie: string): Promise<Array<string | null>> {
    const { currentDashboardUser, dashboardHandlers } = await import("@/lib/developer-auth/session");
    const route = (await (await dashboardHandlers.GET(new NextRequest("http://localhost:3000/api/dashboard-auth/session", { headers: { cookie } }))).json()) as {
      user?: { id: string };
    } | null;
    jar.cookie = cookie;
    return [route?.user?.id ?? null, (await currentDashboardUser())?.id ?? null];
  }

  it("refuses every dashboard session made before it, and its forms act for nobody; a new sign-in works", async () => {
    const { dashboardUserFor } = await import("@/lib/developer-auth/codes");
    const ada = await dashboardUserFor(`ada-${randomBytes(3).toString("hex")}@example.com`);
    const grace = await dashboardUserFor(`grace-${randomBytes(3).toString("hex")}@example.com`);
    const prisma = await db();
    await prisma.developerMember.createMany({ data: [ada, grace].map((u) => ({ developerId: t.developer.id, dashboardUserId: u.id, role: "owner" as const })) });
    const here = await signIn(ada.id);
    const elsewhere = await signIn(ada.id);
    const { DASHBOARD_SESSION_COOKIE, dashboardSessionSecret } = await import("@/lib/developer-auth/session");
    const older = `${DASHBOARD_SESSION_COOKIE}=${await encode({ token: { sub: ada.id }, secret: dashboardSessionSecret(), salt: DASHBOARD_SESSION_COOKIE })}`;
    const theirs = await signIn(grace.id);
    for (const c of [here, elsewhere, older]) expect(await readsOf(c)).toEqual([ada.id, ada.id]);

    jar.cookie = here;
    const actions = await import("@/app/(site)/dashboard/actions");
    await expect(actions.signOutEverywhereAction()).rejects.toMatchObject(redirected);

    for (const c of [here, elsewhere, older]) expect(await readsOf(c)).toEqual([null, null]);
    // A form posted with the old session is refused and changes nothing.
    jar.cookie = elsewhere;
    const keysBefore = await prisma.apiKey.count({ where: { developerId: t.developer.id } });
    const form = new FormData();
    for (const [k, v] of Object.entries({ developer: t.developer.id, kind: "secret", plane: "live", name: "after sign-out" })) form.set(k, v);
    expect(await actions.createKeyAction(null, form)).toEqual({ error: "Your session has ended. Sign in again.", field: undefined });
    expect(await prisma.apiKey.count({ where: { developerId: t.developer.id } })).toBe(keysBefore);

    expect(await readsOf(theirs)).toEqual([grace.id, grace.id]);
    const again = await signIn(ada.id);
    expect(await readsOf(again)).toEqual([ada.id, ada.id]);
    jar.cookie = again;
    expect((await actions.createKeyAction(null, form))?.ok).toBe("Key created.");
  }, 120_000);
});
