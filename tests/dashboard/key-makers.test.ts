// Who made each API key: the dashboard user (through the dashboard's forms), the command-line tool or a
// sandbox's provisioning. When a member is removed, the keys they made keep working until revoked, and
// the dashboard offers to revoke them together: only a former member's, only in the account they left.
// The dashboard's real server actions with a real session cookie; only the framework's request scope
// (next/headers, next/cache) is stood in for, as in tests/dashboard/tenancy.test.ts.
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as agentsRoute from "@/app/v1/agents/route";
import { issueApiKey } from "@/lib/api-keys/api-keys";
import { db } from "@/lib/platform/db";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

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

async function signInAs(dashboardUserId: string) {
  const { dashboardSessionSecret, DASHBOARD_SESSION_COOKIE } = await import("@/lib/developer-auth/session");
  jar.cookie = `${DASHBOARD_SESSION_COOKIE}=${await encode({ token: { sub: dashboardUserId }, secret: dashboardSessionSecret(), salt: DASHBOARD_SESSION_COOKIE })}`;
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

const works = async (key: string) => (await call(agentsRoute.GET, { headers: { "x-api-key": key } })).status === 200;

let a: Tenant;
let b: Tenant;
let ada: { id: string; email: string };
let grace: { id: string; email: string };

beforeAll(async () => {
  a = await createTenant("makers-a");
  b = await createTenant("makers-b", "b-agent");
  const { dashboardUserFor } = await import("@/lib/developer-auth/codes");
  ada = await dashboardUserFor("ada-makers@example.com");
  grace = await dashboardUserFor("grace-makers@example.com");
  const prisma = await db();
  await prisma.developerMember.createMany({
    data: [
      { developerId: a.developer.id, dashboardUserId: ada.id, role: "owner" },
      { developerId: a.developer.id, dashboardUserId: grace.id, role: "member" },
      // Grace is a member of B too, and stays one.
      { developerId: b.developer.id, dashboardUserId: grace.id, role: "owner" },
    ],
  });
});

describe("who made a key", () => {
  it("records the dashboard user who created or rotated it, the command-line tool, or a sandbox", async () => {
    const actions = await import("@/app/(site)/dashboard/actions");
    const { keysOf } = await import("@/lib/dashboard/keys");
    await signInAs(grace.id);
    const made = await actions.createKeyAction(null, form({ developer: a.developer.id, kind: "secret", plane: "live", name: "grace's" }));
    const graceKey = made!.secret!.value;
    const graceId = (await keysOf(a.developer.id)).find((k) => k.name === "grace's")!.id;
    await signInAs(ada.id);
    const rotated = await actions.rotateKeyAction(null, form({ developer: a.developer.id, key: graceId }));
    const cli = await issueApiKey({ developerId: a.developer.id, kind: "secret", plane: "test", name: "cli", createdBy: { via: "command_line" } });

    const keys = await keysOf(a.developer.id);
    const named = (prefix: string) => keys.find((k) => prefix.startsWith(k.prefix))!.madeBy;
    expect(named(graceKey)).toEqual({ via: "dashboard", dashboardUserId: grace.id, email: grace.email, member: true });
    expect(named(rotated!.secret!.value)).toEqual({ via: "dashboard", dashboardUserId: ada.id, email: ada.email, member: true });
    expect(named(cli.key)).toEqual({ via: "command_line" });
    // Keys made before makers were recorded (the fixtures name nobody) say so.
    expect(named(a.keys.sk)).toEqual({ via: "unrecorded" });

    const { provisionSandbox } = await import("@/lib/sandbox/sandbox");
    const { hashApiKey } = await import("@/lib/api-keys/api-keys");
    const sandbox = await provisionSandbox();
    const sandboxKeys = await (
      await db()
    ).apiKey.findMany({
      where: { hash: { in: [hashApiKey(sandbox.secret_key), hashApiKey(sandbox.publishable_key)] } },
      select: { createdVia: true, createdByDashboardUserId: true },
    });
    expect(sandboxKeys).toEqual([
      { createdVia: "sandbox", createdByDashboardUserId: null },
      { createdVia: "sandbox", createdByDashboardUserId: null },
    ]);
  });

  it("offers, when a member is removed, to revoke the keys they made; revoking ends those at once and nothing else", async () => {
    const actions = await import("@/app/(site)/dashboard/actions");
    const { formerMembersKeys, keysOf } = await import("@/lib/dashboard/keys");
    await signInAs(grace.id);
    const live = (await actions.createKeyAction(null, form({ developer: a.developer.id, kind: "secret", plane: "live", name: "grace live" })))!.secret!.value;
    const test = (await actions.createKeyAction(null, form({ developer: a.developer.id, kind: "publishable", plane: "test", name: "grace test" })))!.secret!.value;
    const inB = (await actions.createKeyAction(null, form({ developer: b.developer.id, kind: "secret", plane: "live", name: "grace in b" })))!.secret!.value;
    await signInAs(ada.id);
    const adas = (await actions.createKeyAction(null, form({ developer: a.developer.id, kind: "secret", plane: "live", name: "ada's" })))!.secret!.value;

    // While Grace is a member, her keys are not offered, and cannot be revoked together.
    expect(formerMembersKeys(await keysOf(a.developer.id))).toEqual([]);
    expect(await actions.revokeFormerMemberKeysAction(null, form({ developer: a.developer.id, made_by: grace.id }))).toEqual({
      error: "Not found in this account.",
      field: undefined,
    });

    const removed = await actions.removeMemberAction(null, form({ developer: a.developer.id, member: grace.id }));
    // The first test's key made by Grace (rotated by Ada, still in its overlap) works too: 3 of hers in A.
    expect(removed).toEqual({ ok: "Member removed. 3 keys they made still work: revoke them under “Keys made by former members”." });
    const offered = formerMembersKeys(await keysOf(a.developer.id));
    expect(offered).toHaveLength(1);
    expect(offered[0]).toMatchObject({ dashboardUserId: grace.id, email: grace.email });
    expect(offered[0]!.prefixes).toHaveLength(3);
    expect(
      (await keysOf(a.developer.id))
        .filter((k) => k.madeBy.via === "dashboard" && k.madeBy.dashboardUserId === grace.id)
        .every((k) => k.madeBy.via === "dashboard" && !k.madeBy.member),
    ).toBe(true);
    for (const k of [live, inB, adas]) expect(await works(k)).toBe(true);
    expect((await keysOf(a.developer.id)).find((k) => test.startsWith(k.prefix))!.state).toBe("active");

    // Account B (where Grace is still an owner) cannot revoke her keys of A, nor its own member's.
    await signInAs(grace.id);
    expect((await actions.revokeFormerMemberKeysAction(null, form({ developer: a.developer.id, made_by: grace.id })))?.error).toBe("Not found in this account.");
    expect((await actions.revokeFormerMemberKeysAction(null, form({ developer: b.developer.id, made_by: grace.id })))?.error).toBe("Not found in this account.");
    await signInAs(ada.id);
    for (const bad of ["", "not-a-uuid", ada.id, "00000000-0000-4000-8000-000000000000"]) {
      expect((await actions.revokeFormerMemberKeysAction(null, form({ developer: a.developer.id, made_by: bad })))?.error, bad).toBe("Not found in this account.");
    }
    expect(await works(live)).toBe(true);

    expect(await actions.revokeFormerMemberKeysAction(null, form({ developer: a.developer.id, made_by: grace.id }))).toEqual({
      ok: `3 keys made by ${grace.email} revoked. They stopped working now.`,
    });
    expect(await works(live)).toBe(false);
    expect((await keysOf(a.developer.id)).find((k) => test.startsWith(k.prefix))!.state).toBe("revoked");
    expect(formerMembersKeys(await keysOf(a.developer.id))).toEqual([]);
    const graceKeysOfA = await (await db()).apiKey.findMany({ where: { developerId: a.developer.id, createdByDashboardUserId: grace.id }, select: { revokedAt: true } });
    expect(graceKeysOfA.every((k) => k.revokedAt !== null && k.revokedAt.getTime() <= Date.now())).toBe(true);
    // Ada's key, the command line's and Grace's key in B still work.
    expect(await works(adas)).toBe(true);
    expect(await works(inB)).toBe(true);
    expect(await works(a.keys.sk)).toBe(true);
    // Nothing left to revoke: asked again, it is refused.
    expect((await actions.revokeFormerMemberKeysAction(null, form({ developer: a.developer.id, made_by: grace.id })))?.error).toBe("Not found in this account.");
  });
});
