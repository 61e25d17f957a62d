// The server actions' one contract (lib/http/server-action.ts): a server action is a public POST whose
// arguments anyone can craft. Called with arguments of the wrong kind or number, or with text no request
// may carry, the real actions answer their form's refusal naming the field, and change nothing; from
// another site's origin they answer forbidden, and proxy.ts answers such a POST 403 before the framework
// (which would answer 500). Only the framework's request scope (next/headers, next/cache) is stood in for.
import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { ACTION_MESSAGES, checkArguments, textArg, actionForm } from "@/lib/http/server-action";
import { CROSS_ORIGIN_ACTION_MESSAGE, crossOriginAction } from "@/lib/http/action-origin";
import { UNSAFE_TEXT_MESSAGE } from "@/lib/http/text-input";
import { createTenant, type Tenant } from "./helpers/fixtures";

const scope = vi.hoisted(() => ({ cookie: "", origin: null as string | null, host: "localhost:3000" }));

vi.mock("next/headers", () => ({
  headers: async () => new Headers({ cookie: scope.cookie, "x-forwarded-for": "127.0.0.1", host: scope.host, ...(scope.origin ? { origin: scope.origin } : {}) }),
  cookies: async () => {
    const values = new Map(scope.cookie.split(/;\s*/).filter(Boolean).map((c) => [c.slice(0, c.indexOf("=")), c.slice(c.indexOf("=") + 1)] as [string, string]));
    return { get: (name: string) => (values.has(name) ? { name, value: values.get(name)! } : undefined), set: () => undefined, delete: () => undefined };
  },
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

let t: Tenant;
let owner: { id: string };
beforeAll(async () => {
  t = await createTenant("actions-contract");
  const { dashboardUserFor } = await import("@/lib/developer-auth/codes");
  owner = await dashboardUserFor("owner-actions@example.com");
  await (await db()).developerMember.create({ data: { developerId: t.developer.id, dashboardUserId: owner.id, role: "owner" } });
});
afterEach(() => {
  scope.cookie = "";
  scope.origin = null;
});

async function signInToDashboard(dashboardUserId: string) {
  const { dashboardSessionSecret, DASHBOARD_SESSION_COOKIE } = await import("@/lib/developer-auth/session");
  const token = await encode({ token: { sub: dashboardUserId }, secret: dashboardSessionSecret(), salt: DASHBOARD_SESSION_COOKIE });
  scope.cookie = `${DASHBOARD_SESSION_COOKIE}=${token}`;
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

const keyCount = async () => (await db()).apiKey.count({ where: { developerId: t.developer.id } });

describe("the contract", () => {
  it("names the argument at fault: a form field by its name, another argument by its declared name", () => {
    const args = [textArg("flowId"), actionForm()] as const;
    expect(checkArguments(args, ["flw_1", form({ a: "b" })])).toMatchObject({ ok: true });
    expect(checkArguments(args, [42, form({})])).toMatchObject({ ok: false, problem: { code: "invalid_request", message: ACTION_MESSAGES.invalidArguments, fields: [{ field: "flowId" }] } });
    expect(checkArguments(args, ["flw_1", "not a form"])).toMatchObject({ ok: false, problem: { fields: [{ field: "form" }] } });
    expect(checkArguments(args, ["flw_1"])).toMatchObject({ ok: false, problem: { fields: [{ field: "form" }] } });
    expect(checkArguments(args, ["flw_1", form({ email: "a\u0000@example.com" })])).toEqual({
      ok: false,
      problem: { code: "invalid_request", message: ACTION_MESSAGES.invalidArguments, fields: [{ field: "email", message: UNSAFE_TEXT_MESSAGE }] },
    });
    expect(checkArguments(args, ["flw\ud800", form({})])).toMatchObject({ ok: false, problem: { fields: [{ field: "flowId", message: UNSAFE_TEXT_MESSAGE }] } });
    // What the framework adds after the declared arguments is not read, but is checked for unsafe text.
    expect(checkArguments(args, ["flw_1", form({}), "extra"])).toMatchObject({ ok: true });
  });
});

describe("malformed arguments get the form's refusal, not a server error", () => {
  it("the hosted flow's preview with no form: the form's state names it", async () => {
    const { previewAction } = await import("@/app/(hosted)/flow/[flowId]/actions");
    const call = previewAction as unknown as (...args: unknown[]) => Promise<unknown>;
    await expect(call("flw_x", null, "not a form")).resolves.toEqual({ field: "form", message: ACTION_MESSAGES.invalidArguments });
    await expect(call({ not: "an id" }, null, form({}))).resolves.toEqual({ field: "flowId", message: ACTION_MESSAGES.invalidArguments });
    await expect(call("flw_x", null, form({ provider: "chatgpt", text: "hi\u0000" }))).resolves.toEqual({ field: "text", message: ACTION_MESSAGES.invalidArguments });
  });

  it("the dashboard's create-key form, signed in: a malformed form or a NUL in a field is refused and creates no key", async () => {
    const { createKeyAction } = await import("@/app/(site)/dashboard/actions");
    const call = createKeyAction as unknown as (...args: unknown[]) => Promise<unknown>;
    await signInToDashboard(owner.id);
    const before = await keyCount();
    await expect(call(null, "developer=x")).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "form" });
    await expect(call(null)).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "form" });
    await expect(call(null, form({ developer: t.developer.id, kind: "secret", plane: "live", name: "a\u0000b" }))).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "name" });
    expect(await keyCount()).toBe(before);
    // The same form, well made, creates its key.
    const made = (await call(null, form({ developer: t.developer.id, kind: "secret", plane: "test", name: "fine" }))) as { secret?: { value: string } };
    expect(made.secret?.value).toMatch(/^sk_test_/);
  });

  it("the account page's actions that redirect: a malformed call does nothing and answers nothing", async () => {
    const actions = await import("@/app/(hosted)/account/actions");
    const call = (fn: unknown, ...args: unknown[]) => (fn as (...a: unknown[]) => Promise<unknown>)(...args);
    await expect(call(actions.disconnectAction, { app: "gmail" })).resolves.toBeUndefined();
    await expect(call(actions.removeMemoryAction, "mem_x", "not filters")).resolves.toBeUndefined();
    await expect(call(actions.deleteAccountAction, "confirm")).resolves.toBeUndefined();
  });
});

describe("every server action", () => {
  const modules = {
    flow: () => import("@/app/(hosted)/flow/[flowId]/actions"),
    account: () => import("@/app/(hosted)/account/actions"),
    dashboard: () => import("@/app/(site)/dashboard/actions"),
  };

  /** Rows per table, every table: for "a refused call writes nothing". */
  async function rowCounts(): Promise<Record<string, number>> {
    const sql = (await import("@/lib/db")).database;
    const client = (await sql()).sql;
    const tables = (await client.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)).map((r) => r.table_name);
    const rows = await client.query<{ t: string; n: number }>(tables.map((n) => `SELECT '${n}' AS t, count(*)::int AS n FROM "${n}"`).join(" UNION ALL "));
    return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
  }

  it("refuses a NUL or a lone surrogate in any argument (a bound id, a form field), answering without throwing and writing nothing", async () => {
    await signInToDashboard(owner.id);
    let covered = 0;
    for (const [family, load] of Object.entries(modules)) {
      for (const [name, action] of Object.entries(await load())) {
        if (typeof action !== "function") continue;
        // A form cannot carry a lone surrogate (FormData keeps well-formed text only), so that one goes in a bound argument.
        for (const bad of ["a\u0000b", "a\ud800b"]) {
          const clean = form({ developer: t.developer.id, name: "fine" });
          const f = bad.includes("\u0000") ? form({ developer: t.developer.id, name: bad }) : clean;
          for (const args of [[bad, null, clean], ...(f === clean ? [] : [[f], [null, f]]), ["flw_x", bad, clean]]) {
            const before = await rowCounts();
            const answer = await (action as (...a: unknown[]) => Promise<unknown>)(...args);
            const label = `${family} ${name}(${args.length} arguments)`;
            if (answer !== undefined) expect(JSON.stringify(answer), label).toContain(ACTION_MESSAGES.invalidArguments);
            expect(await rowCounts(), `${label} wrote`).toEqual(before);
            covered++;
          }
        }
      }
    }
    expect(covered).toBeGreaterThanOrEqual(6 * 50);
  });
});

describe("another site's origin", () => {
  it("the action itself refuses it (forbidden), and creates nothing", async () => {
    const { createKeyAction } = await import("@/app/(site)/dashboard/actions");
    await signInToDashboard(owner.id);
    scope.origin = "https://evil.example";
    const before = await keyCount();
    await expect(createKeyAction(null, form({ developer: t.developer.id, kind: "secret", plane: "test", name: "csrf" }))).resolves.toEqual({ error: CROSS_ORIGIN_ACTION_MESSAGE, field: undefined });
    expect(await keyCount()).toBe(before);
  });

  it("proxy.ts answers a cross-origin action POST 403, and lets the same origin's through", async () => {
    const { proxy } = await import("@/proxy");
    const post = (headers: Record<string, string>) => proxy(new NextRequest("http://localhost:3000/dashboard/keys", { method: "POST", headers: { host: "localhost:3000", ...headers }, body: "[]" }));
    for (const headers of <Array<Record<string, string>>>[
      { "next-action": "7f00aa", origin: "https://evil.example", "content-type": "text/plain;charset=UTF-8" },
      { "next-action": "7f00aa", origin: "null" },
      { origin: "http://localhost:3001", "content-type": "multipart/form-data; boundary=x" },
    ]) {
      const res = post(headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(await res.text()).toBe(CROSS_ORIGIN_ACTION_MESSAGE);
    }
    expect(post({ "next-action": "7f00aa", origin: "http://localhost:3000" }).status).not.toBe(403);
    expect(post({ "next-action": "7f00aa" }).status).not.toBe(403);
    // Not an action: an OAuth token request from a browser app's origin is no business of this check.
    expect(crossOriginAction(new Request("http://localhost:3000/oauth/token", { method: "POST", headers: { origin: "https://app.example", "content-type": "application/x-www-form-urlencoded" }, body: "a=1" }))).toBeNull();
  });
});
