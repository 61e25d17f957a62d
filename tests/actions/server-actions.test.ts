// The server actions' one contract (lib/actions/define-action.ts): a server action is a public POST whose
// arguments anyone can craft. Called with arguments of the wrong kind or number, or with text no request
// may carry, the real actions answer the form's refusal naming the field, and change nothing; called
// without their kind of credential (a flow's browser, the person's session, a dashboard session) they
// answer what that kind answers a stranger, and change nothing; from another site's origin they answer
// forbidden, and proxy.ts answers such a POST 403 before the framework (which would answer 500). Every
// export of a "use server" module is built by defineAction. Only the framework's request scope
// (next/headers, next/cache) is stood in for.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { actionMeta } from "@/lib/actions/define-action";
import { db } from "@/lib/platform/db";
import { env } from "@/lib/env";
import { ACTION_MESSAGES, checkArguments, formOf, text, textArg } from "@/lib/http/action-input";
import { CROSS_ORIGIN_ACTION_MESSAGE, crossOriginAction } from "@/lib/http/action-origin";
import { UNSAFE_TEXT_MESSAGE } from "@/lib/http/text-input";
import { createUser } from "@/lib/users/users";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { authorizeCall, authorizeParams, flowIdFrom, pkce, registerClient } from "../helpers/oauth";

const scope = vi.hoisted(() => ({ cookie: "", origin: null as string | null, host: "localhost:3000" }));

vi.mock("next/headers", () => ({
  headers: async () => new Headers({ cookie: scope.cookie, "x-forwarded-for": "127.0.0.1", host: scope.host, ...(scope.origin ? { origin: scope.origin } : {}) }),
  cookies: async () => {
    const values = new Map(
      scope.cookie
        .split(/;\s*/)
        .filter(Boolean)
        .map((c) => [c.slice(0, c.indexOf("=")), c.slice(c.indexOf("=") + 1)] as [string, string]),
    );
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

async function dashboardCookie(dashboardUserId: string): Promise<string> {
  const { dashboardSessionSecret, DASHBOARD_SESSION_COOKIE } = await import("@/lib/developer-auth/session");
  return `${DASHBOARD_SESSION_COOKIE}=${await encode({ token: { sub: dashboardUserId }, secret: dashboardSessionSecret(), salt: DASHBOARD_SESSION_COOKIE })}`;
}

async function signInToDashboard(dashboardUserId: string) {
  scope.cookie = await dashboardCookie(dashboardUserId);
}

/** The person's session cookie, as next-auth makes it (a cookie without a session version counts as version 0). */
async function personCookie(userId: string): Promise<string> {
  return `authjs.session-token=${await encode({ token: { sub: userId }, secret: env().AUTH_SECRET, salt: "authjs.session-token" })}`;
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

/** A live phone number no other test holds. */
const somePhone = () => `+1415557${String(randomBytes(2).readUInt16BE() % 10_000).padStart(4, "0")}`;

/** A server action's or page's redirect to `path` (next/navigation throws it). */
const redirectTo = (path: string) => ({ digest: expect.stringContaining(`;${path};`) });

const keyCount = async () => (await db()).apiKey.count({ where: { developerId: t.developer.id } });

/** Rows per table, every table: for "a refused call writes nothing". */
async function rowCounts(): Promise<Record<string, number>> {
  const client = (await (await import("@/lib/platform/db")).database()).sql;
  const tables = (
    await client.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
  ).map((r) => r.table_name);
  const rows = await client.query<{ t: string; n: number }>(tables.map((n) => `SELECT '${n}' AS t, count(*)::int AS n FROM "${n}"`).join(" UNION ALL "));
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.n)]));
}

/** Every "use server" module of the service (a file whose first statement is the directive). */
function serverModules(): string[] {
  const root = path.resolve(import.meta.dirname, "../..");
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && /^(?:\s*(?:\/\/[^\n]*\n|\/\*[\s\S]*?\*\/))*\s*["']use server["']/.test(readFileSync(full, "utf8")))
        found.push(path.relative(root, full));
    }
  };
  for (const dir of ["app", "components", "lib"]) walk(path.join(root, dir));
  return found.sort();
}

const MODULES = {
  flow: () => import("@/app/(hosted)/flow/[flowId]/actions"),
  account: () => import("@/app/(hosted)/account/actions"),
  dashboard: () => import("@/app/(site)/dashboard/actions"),
  gallery: () => import("@/app/(hosted)/dev/screens/actions"),
};

/** Every exported action, by family and name. */
async function everyAction(): Promise<Array<[label: string, action: (...args: unknown[]) => Promise<unknown>]>> {
  const all: Array<[string, (...args: unknown[]) => Promise<unknown>]> = [];
  for (const [family, load] of Object.entries(MODULES)) {
    for (const [name, action] of Object.entries(await load())) all.push([`${family} ${name}`, action as (...args: unknown[]) => Promise<unknown>]);
  }
  return all;
}

describe("the contract", () => {
  it("names the argument at fault: a form field by its name, another argument by its declared name", () => {
    const args = [textArg("flowId"), formOf({ email: text() })] as const;
    expect(checkArguments(args, ["flw_1", form({ email: "a@example.com" })])).toEqual({ ok: true, args: ["flw_1", { email: "a@example.com" }] });
    // A field the form leaves out is "", as an empty field.
    expect(checkArguments(args, ["flw_1", form({})])).toEqual({ ok: true, args: ["flw_1", { email: "" }] });
    expect(checkArguments(args, [42, form({})])).toMatchObject({
      ok: false,
      problem: { code: "invalid_request", message: ACTION_MESSAGES.invalidArguments, fields: [{ field: "flowId" }] },
    });
    expect(checkArguments(args, ["flw_1", "not a form"])).toMatchObject({ ok: false, problem: { fields: [{ field: "form" }] } });
    expect(checkArguments(args, ["flw_1"])).toMatchObject({ ok: false, problem: { fields: [{ field: "form" }] } });
    const withFile = new FormData();
    withFile.set("email", new File(["x"], "x.txt"));
    expect(checkArguments(args, ["flw_1", withFile])).toMatchObject({ ok: false, problem: { fields: [{ field: "email", message: "Expected text." }] } });
    expect(checkArguments(args, ["flw_1", form({ email: "a\u0000@example.com" })])).toEqual({
      ok: false,
      problem: { code: "invalid_request", message: ACTION_MESSAGES.invalidArguments, fields: [{ field: "email", message: UNSAFE_TEXT_MESSAGE }] },
    });
    expect(checkArguments(args, ["flw\ud800", form({})])).toMatchObject({ ok: false, problem: { fields: [{ field: "flowId", message: UNSAFE_TEXT_MESSAGE }] } });
    // What the framework adds after the declared arguments is not read, but is checked for unsafe text.
    expect(checkArguments(args, ["flw_1", form({}), "extra"])).toMatchObject({ ok: true });
  });

  it('holds every export of every "use server" module: each is built by defineAction, and no function declares the directive inline', async () => {
    const files = serverModules();
    expect(files).toEqual([
      "app/(hosted)/account/actions.ts",
      "app/(hosted)/account/passkeys/actions.ts",
      "app/(hosted)/dev/screens/actions.ts",
      "app/(hosted)/flow/[flowId]/actions.ts",
      "app/(site)/dashboard/account-actions.ts",
      "app/(site)/dashboard/settings-actions.ts",
      "app/(site)/dashboard/webhook-actions.ts",
    ]);
    for (const file of files) {
      for (const [name, value] of Object.entries((await import(/* @vite-ignore */ path.resolve(import.meta.dirname, "../..", file))) as Record<string, unknown>)) {
        expect(actionMeta(value), `${file}: ${name} is not built with defineAction`).not.toBeNull();
      }
    }
    const root = path.resolve(import.meta.dirname, "../..");
    const inline: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.tsx?$/.test(entry.name) && (readFileSync(full, "utf8").match(/^\s+["']use server["']/gm) ?? []).length) inline.push(path.relative(root, full));
      }
    };
    for (const dir of ["app", "components", "lib"]) walk(path.join(root, dir));
    expect(inline).toEqual([]);
  });
});

describe("malformed arguments get the form's refusal, not a server error", () => {
  it("the hosted flow's preview with no form: the form's state names it", async () => {
    const { previewAction } = await MODULES.flow();
    const call = previewAction as unknown as (...args: unknown[]) => Promise<unknown>;
    await expect(call("flw_x", null, "not a form")).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "form" });
    await expect(call({ not: "an id" }, null, form({}))).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "flowId" });
    await expect(call("flw_x", "not a state", form({}))).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "state" });
    await expect(call("flw_x", null, form({ provider: "chatgpt", text: "hi\u0000" }))).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "text" });
  });

  it("the dashboard's create-key form, signed in: a malformed form or a NUL in a field is refused and creates no key", async () => {
    const { createKeyAction } = await MODULES.dashboard();
    const call = createKeyAction as unknown as (...args: unknown[]) => Promise<unknown>;
    await signInToDashboard(owner.id);
    const before = await keyCount();
    await expect(call(null, "developer=x")).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "form" });
    await expect(call(null)).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "form" });
    await expect(call(null, form({ developer: t.developer.id, kind: "secret", plane: "live", name: "a\u0000b" }))).resolves.toEqual({
      error: ACTION_MESSAGES.invalidArguments,
      field: "name",
    });
    expect(await keyCount()).toBe(before);
    // The same form, well made, creates its key.
    const made = (await call(null, form({ developer: t.developer.id, kind: "secret", plane: "test", name: "fine" }))) as { secret?: { value: string } };
    expect(made.secret?.value).toMatch(/^sk_test_/);
  });

  it("the account page's actions that redirect: a malformed call does nothing and answers the refusal", async () => {
    const actions = await MODULES.account();
    const call = (fn: unknown, ...args: unknown[]) => (fn as (...a: unknown[]) => Promise<unknown>)(...args);
    await expect(call(actions.disconnectAction, { app: "gmail" })).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "app" });
    await expect(call(actions.removeMemoryAction, "mem_x", "not filters")).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "filters" });
    await expect(call(actions.deleteAccountAction, "confirm")).resolves.toEqual({ error: ACTION_MESSAGES.invalidArguments, field: "form" });
  });

  it("every action with arguments, given none or the wrong kind in each, answers the refusal naming one and writes nothing", async () => {
    await signInToDashboard(owner.id);
    const before = await rowCounts();
    let covered = 0;
    for (const [label, action] of await everyAction()) {
      const declared = actionMeta(action)!.arguments;
      // An action that declares no arguments takes no input: what follows is the framework's, unread.
      if (declared.length === 0) continue;
      for (const args of [[], declared.map(() => 42), declared.map(() => ({ not: "it" }))]) {
        const answer = (await action(...args)) as { error?: string; field?: string };
        expect(answer?.error, `${label}(${JSON.stringify(args)})`).toBe(ACTION_MESSAGES.invalidArguments);
        if (args.length) expect(answer.field, label).toBe(declared[0]);
        covered++;
      }
    }
    expect(await rowCounts()).toEqual(before);
    expect(covered).toBeGreaterThanOrEqual(3 * 50);
  });

  it("refuses a NUL or a lone surrogate in any argument (a bound id, a form field), answering without throwing and writing nothing", async () => {
    await signInToDashboard(owner.id);
    let covered = 0;
    for (const [label, action] of await everyAction()) {
      // A form cannot carry a lone surrogate (FormData keeps well-formed text only), so that one goes in a bound argument.
      for (const bad of ["a\u0000b", "a\ud800b"]) {
        const clean = form({ developer: t.developer.id, name: "fine" });
        const f = bad.includes("\u0000") ? form({ developer: t.developer.id, name: bad }) : clean;
        for (const args of [[bad, null, clean], ...(f === clean ? [] : [[f], [null, f]]), ["flw_x", bad, clean]]) {
          const before = await rowCounts();
          const answer = await action(...args);
          expect(JSON.stringify(answer), `${label}(${args.length} arguments)`).toContain(ACTION_MESSAGES.invalidArguments);
          expect(await rowCounts(), `${label}(${args.length} arguments) wrote`).toEqual(before);
          covered++;
        }
      }
    }
    expect(covered).toBeGreaterThanOrEqual(6 * 50);
  });
});

describe("each kind of caller", () => {
  it("flow: only the browser that started the flow acts on it; another browser is sent to the flow page and changes nothing", async () => {
    const { findFlow } = await import("@/lib/flow/store");
    const { previewAction, continueAction, thirdPartyAction } = await MODULES.flow();
    const { client_id } = await registerClient(t);
    const started = await authorizeCall(authorizeParams(client_id, pkce().challenge));
    const flowId = flowIdFrom(started);
    const own = started.headers.get("set-cookie")!.split(";")[0]!;
    const other = flowIdFrom(await authorizeCall(authorizeParams(client_id, pkce().challenge)));
    const paste = form({ provider: "chatgpt", text: "- I live in Lyon" });
    const untouched = JSON.stringify(await findFlow(flowId));

    for (const cookie of ["", `${own.slice(0, own.indexOf("="))}=${"A".repeat(32)}`, own.replace(flowId, other)]) {
      scope.cookie = cookie;
      await expect(previewAction(flowId, null, paste), cookie || "no cookie").rejects.toMatchObject(redirectTo(`/flow/${flowId}`));
      await expect(continueAction(flowId, null)).rejects.toMatchObject(redirectTo(`/flow/${flowId}`));
      await expect(thirdPartyAction(flowId, "google")).rejects.toMatchObject(redirectTo(`/flow/${flowId}`));
    }
    expect(JSON.stringify(await findFlow(flowId))).toBe(untouched);

    scope.cookie = own;
    await expect(previewAction(flowId, null, paste)).rejects.toMatchObject(redirectTo(`/flow/${flowId}?card=chatgpt#panel`));
    expect(JSON.stringify(await findFlow(flowId))).not.toBe(untouched);
    // A problem with what was entered is the form's state, beside its field.
    await expect(previewAction(flowId, null, form({ provider: "nobody", text: "x" }))).resolves.toEqual({ error: "Choose an assistant.", field: "provider" });
  });

  it("person: only the signed-in person acts on their account; a stranger, or a dashboard session, is sent to the account page", async () => {
    const { deleteAccountAction, removeMemoryAction, signOutEverywhereAction } = await MODULES.account();
    const person = await createUser({ plane: "live", phone: somePhone() });
    const confirm = form({ confirmation: "delete" });
    for (const cookie of ["", await dashboardCookie(owner.id), `authjs.session-token=not-a-session`]) {
      scope.cookie = cookie;
      await expect(deleteAccountAction(confirm)).rejects.toMatchObject(redirectTo("/account"));
      await expect(signOutEverywhereAction()).rejects.toMatchObject(redirectTo("/account"));
    }
    const row = await (await db()).user.findUniqueOrThrow({ where: { id: person.id } });
    expect(row.sessionVersion).toBe(0);

    scope.cookie = await personCookie(person.id);
    await expect(removeMemoryAction("mem_none", null)).rejects.toMatchObject({ digest: expect.stringContaining(";/account/memories?error=") });
  });

  it("dashboard-member: a form without a dashboard session (none, or the person's) answers that the session ended and changes nothing", async () => {
    const { createKeyAction, switchAccountAction } = await MODULES.dashboard();
    const person = await createUser({ plane: "live", phone: somePhone() });
    const before = await keyCount();
    for (const cookie of ["", await personCookie(person.id)]) {
      scope.cookie = cookie;
      await expect(createKeyAction(null, form({ developer: t.developer.id, kind: "secret", plane: "live", name: "x" }))).resolves.toEqual({
        error: "Your session has ended. Sign in again.",
      });
      // A form that keeps no state is sent to the sign-in page instead.
      await expect(switchAccountAction(form({ developer: t.developer.id, back: "/dashboard/keys" }))).rejects.toMatchObject(redirectTo("/dashboard/sign-in"));
    }
    expect(await keyCount()).toBe(before);
  });
});

describe("another site's origin", () => {
  it("the action itself refuses it (forbidden), and creates nothing", async () => {
    const { createKeyAction } = await MODULES.dashboard();
    await signInToDashboard(owner.id);
    scope.origin = "https://evil.example";
    const before = await keyCount();
    await expect(createKeyAction(null, form({ developer: t.developer.id, kind: "secret", plane: "test", name: "csrf" }))).resolves.toEqual({
      error: CROSS_ORIGIN_ACTION_MESSAGE,
      field: "form",
    });
    expect(await keyCount()).toBe(before);
  });

  it("proxy.ts answers a cross-origin action POST 403, and lets the same origin's through", async () => {
    const { proxy } = await import("@/proxy");
    const post = (headers: Record<string, string>) =>
      proxy(new NextRequest("http://localhost:3000/dashboard/keys", { method: "POST", headers: { host: "localhost:3000", ...headers }, body: "[]" }));
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
    expect(
      crossOriginAction(
        new Request("http://localhost:3000/oauth/token", {
          method: "POST",
          headers: { origin: "https://app.example", "content-type": "application/x-www-form-urlencoded" },
          body: "a=1",
        }),
      ),
    ).toBeNull();
  });
});
