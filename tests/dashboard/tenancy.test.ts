// Tenancy of the dashboard's server actions: each one, called by a signed-in member of account B (a
// real dashboard session cookie) with account A's ids, is refused and changes nothing of A. Only the
// framework's request scope (next/headers' cookies and headers, next/cache) is stood in for: the
// actions, the session and the checks are the real ones.
import { encode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/platform/db";
import { createTenant, type Tenant } from "../helpers/fixtures";

const jar = vi.hoisted(() => ({ cookie: "", set: [] as Array<{ name: string; value: string }> }));

vi.mock("next/headers", () => ({
  headers: async () => new Headers({ cookie: jar.cookie, "x-service-client-ip": "127.0.0.1" }),
  cookies: async () => {
    const values = new Map(
      jar.cookie
        .split(/;\s*/)
        .filter(Boolean)
        .map((c) => [c.slice(0, c.indexOf("=")), c.slice(c.indexOf("=") + 1)] as [string, string]),
    );
    return {
      get: (name: string) => (values.has(name) ? { name, value: values.get(name)! } : undefined),
      set: (name: string, value: string) => void jar.set.push({ name, value }),
      delete: () => undefined,
    };
  },
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

let a: Tenant;
let b: Tenant;
let ownerA: { id: string };
let ownerB: { id: string };
let agentKeyId: string;
let clientOfA: string;
let lineOfA: string;
let jobOfA: string;
let formerOfA: { id: string };
let endpointOfA: string;
let deliveryOfA: string;

async function signInAs(dashboardUserId: string) {
  const { dashboardSessionSecret, DASHBOARD_SESSION_COOKIE } = await import("@/lib/developer-auth/session");
  const token = await encode({ token: { sub: dashboardUserId }, secret: dashboardSessionSecret(), salt: DASHBOARD_SESSION_COOKIE });
  jar.cookie = `${DASHBOARD_SESSION_COOKIE}=${token}`;
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
}

/** Everything of account A an action could change, read whole. */
async function snapshotOfA() {
  const prisma = await db();
  const developerId = a.developer.id;
  return JSON.stringify(
    await Promise.all([
      prisma.developer.findUnique({ where: { id: developerId } }),
      prisma.apiKey.findMany({ where: { developerId }, orderBy: { id: "asc" }, select: { id: true, revokedAt: true, name: true } }),
      prisma.agent.findMany({ where: { developerId }, orderBy: { id: "asc" }, select: { id: true, displayName: true, logoUrl: true, brandColor: true, active: true } }),
      prisma.approvedOrigin.findMany({ where: { developerId }, orderBy: { origin: "asc" }, select: { origin: true } }),
      prisma.developerMember.findMany({ where: { developerId }, orderBy: { dashboardUserId: "asc" } }),
      prisma.developerInvite.findMany({ where: { developerId }, orderBy: { id: "asc" } }),
      prisma.returnDestination.findMany({ where: { developerId }, orderBy: { url: "asc" }, select: { url: true, plane: true } }),
      prisma.oAuthClient.findMany({ where: { developerId }, orderBy: { id: "asc" }, include: { redirectUris: { orderBy: { uri: "asc" }, select: { uri: true } } } }),
      prisma.messageLine.findMany({ where: { developerId }, orderBy: { id: "asc" }, select: { id: true, status: true, revokedAt: true } }),
      prisma.importJob.findMany({ where: { developerId }, orderBy: { id: "asc" }, select: { id: true, status: true, cancelRequestedAt: true, finishedAt: true } }),
      prisma.callbackSecret.findMany({ where: { developerId }, orderBy: { id: "asc" } }),
      prisma.webhookEndpoint.findMany({ where: { developerId }, orderBy: { id: "asc" } }),
      prisma.webhookDelivery.findMany({ where: { developerId }, orderBy: { id: "asc" } }),
    ]),
  );
}

beforeAll(async () => {
  a = await createTenant("account-a");
  b = await createTenant("account-b", "b-agent");
  const { dashboardUserFor } = await import("@/lib/developer-auth/codes");
  ownerA = await dashboardUserFor("owner-a@example.com");
  ownerB = await dashboardUserFor("owner-b@example.com");
  const prisma = await db();
  await prisma.developerMember.create({ data: { developerId: a.developer.id, dashboardUserId: ownerA.id, role: "owner" } });
  await prisma.developerMember.create({ data: { developerId: b.developer.id, dashboardUserId: ownerB.id, role: "owner" } });
  await prisma.approvedOrigin.create({ data: { developerId: a.developer.id, origin: "https://a.example.com" } });
  const { inviteMember } = await import("@/lib/developer-auth/invites");
  await inviteMember({ actorId: ownerA.id, developerId: a.developer.id, email: "invitee-a@example.com", role: "member" });
  const { createSsoClient } = await import("@/lib/dashboard/sso-clients");
  clientOfA = (await createSsoClient({ actorId: ownerA.id, developerId: a.developer.id, plane: "live", method: "none", redirectUri: "http://localhost:5000/cb" })).clientId;
  await prisma.returnDestination.create({ data: { developerId: a.developer.id, agentId: a.agent.id, plane: "live", url: "https://a.example.com/done" } });
  const { registerLine } = await import("@/lib/sign-in/message-lines");
  lineOfA = (await registerLine({ developerId: a.developer.id, agentId: a.agent.id, plane: "live", channel: "sms", phone: "+14155550123" })).line.id;
  const { newId, PREFIX } = await import("@/lib/platform/ids");
  jobOfA = (
    await prisma.importJob.create({
      data: {
        id: newId(PREFIX.importJob),
        developerId: a.developer.id,
        agentId: a.agent.id,
        plane: "live",
        mode: "backfill",
        idempotencyKey: "k1",
        bodyHash: "h",
        acceptedProfiles: 3,
        estimatedMessageCount: 3,
        estimatedInputChars: 30,
      },
    })
  ).id;
  agentKeyId = (await prisma.apiKey.findFirstOrThrow({ where: { developerId: a.developer.id, revokedAt: null, kind: "secret", plane: "live" } })).id;
  // Someone who left account A, leaving a key that still works, and A's callback secrets as they stand.
  formerOfA = await dashboardUserFor("former-a@example.com");
  const { issueApiKey } = await import("@/lib/api-keys/api-keys");
  await issueApiKey({ developerId: a.developer.id, kind: "secret", plane: "live", name: "former", createdBy: { via: "dashboard", dashboardUserId: formerOfA.id } });
  const { callbackSecretsOf } = await import("@/lib/dashboard/callback-secrets");
  await callbackSecretsOf(a.developer.id);
  // A's webhook endpoint, with one delivery in its log.
  const { createEndpoint } = await import("@/lib/webhooks/endpoints");
  const { sendTestEvent } = await import("@/lib/webhooks/deliveries");
  endpointOfA = (await createEndpoint({ developerId: a.developer.id, plane: "live", url: "https://a.example.com/hooks" })).endpoint.id;
  deliveryOfA = (await sendTestEvent({ developerId: a.developer.id, plane: "live" }, endpointOfA)).id;
});

afterAll(() => {
  jar.cookie = "";
});

describe("dashboard server actions across accounts", () => {
  it("refuse a member of account B every change to account A, changing nothing", async () => {
    const actions = await import("@/app/(site)/dashboard/actions");
    const prisma = await db();
    const invite = await prisma.developerInvite.findFirstOrThrow({ where: { developerId: a.developer.id } });
    const A = a.developer.id;
    const calls: Array<[string, (s: null, f: FormData) => Promise<unknown>, Record<string, string>]> = [
      ["createKeyAction", actions.createKeyAction, { developer: A, kind: "secret", plane: "live", name: "x" }],
      ["rotateKeyAction", actions.rotateKeyAction, { developer: A, key: agentKeyId }],
      ["revokeKeyAction", actions.revokeKeyAction, { developer: A, key: agentKeyId }],
      // Account B's own id with A's key: the key is not B's.
      ["rotateKeyAction (B's account, A's key)", actions.rotateKeyAction, { developer: b.developer.id, key: agentKeyId }],
      ["revokeKeyAction (B's account, A's key)", actions.revokeKeyAction, { developer: b.developer.id, key: agentKeyId }],
      ["revokeFormerMemberKeysAction", actions.revokeFormerMemberKeysAction, { developer: A, made_by: formerOfA.id }],
      ["revokeFormerMemberKeysAction (B's account, A's former member)", actions.revokeFormerMemberKeysAction, { developer: b.developer.id, made_by: formerOfA.id }],
      ["rotateCallbackSecretAction", actions.rotateCallbackSecretAction, { developer: A, plane: "live", overlap: "end" }],
      ["createAgentAction", actions.createAgentAction, { developer: A, handle: "intruder", display_name: "Intruder" }],
      ["updateAgentAction", actions.updateAgentAction, { developer: A, handle: a.agent.handle, display_name: "Hijacked", logo_url: "", brand_color: "#000000" }],
      ["addOriginAction", actions.addOriginAction, { developer: A, origin: "https://evil.example.com" }],
      ["removeOriginAction", actions.removeOriginAction, { developer: A, origin: "https://a.example.com" }],
      ["removeOriginAction (B's account, A's origin)", actions.removeOriginAction, { developer: b.developer.id, origin: "https://a.example.com" }],
      ["createSsoClientAction", actions.createSsoClientAction, { developer: A, plane: "live", method: "client_secret_post", redirect_uri: "http://localhost:6000/cb" }],
      ["addSsoCallbackAction", actions.addSsoCallbackAction, { developer: A, client: clientOfA, redirect_uri: "http://localhost:6000/cb" }],
      ["addSsoCallbackAction (B's account, A's client)", actions.addSsoCallbackAction, { developer: b.developer.id, client: clientOfA, redirect_uri: "http://localhost:6000/cb" }],
      ["removeSsoCallbackAction", actions.removeSsoCallbackAction, { developer: A, client: clientOfA, plane: "live", redirect_uri: "http://localhost:5000/cb" }],
      [
        "removeSsoCallbackAction (B's account, A's client)",
        actions.removeSsoCallbackAction,
        { developer: b.developer.id, client: clientOfA, plane: "live", redirect_uri: "http://localhost:5000/cb" },
      ],
      ["addDestinationAction", actions.addDestinationAction, { developer: A, handle: a.agent.handle, plane: "live", url: "https://evil.example.com/x" }],
      ["removeDestinationAction", actions.removeDestinationAction, { developer: A, handle: a.agent.handle, plane: "live", url: "https://a.example.com/done" }],
      ["revokeLineAction", actions.revokeLineAction, { developer: A, line: lineOfA }],
      ["revokeLineAction (B's account, A's line)", actions.revokeLineAction, { developer: b.developer.id, line: lineOfA }],
      ["partnerPhoneFirstAction", actions.partnerPhoneFirstAction, { developer: A, phone_first: "on" }],
      ["cancelImportJobAction", actions.cancelImportJobAction, { developer: A, job: jobOfA }],
      ["cancelImportJobAction (B's account, A's job)", actions.cancelImportJobAction, { developer: b.developer.id, job: jobOfA }],
      ["inviteAction", actions.inviteAction, { developer: A, email: "spy@example.com", role: "owner" }],
      ["changeRoleAction", actions.changeRoleAction, { developer: A, member: ownerA.id, role: "member" }],
      ["removeMemberAction", actions.removeMemberAction, { developer: A, member: ownerA.id }],
      ["withdrawInviteAction", actions.withdrawInviteAction, { developer: A, invite: invite.id }],
      ["withdrawInviteAction (B's account, A's invite)", actions.withdrawInviteAction, { developer: b.developer.id, invite: invite.id }],
      ["addWebhookEndpointAction", actions.addWebhookEndpointAction, { developer: A, plane: "live", url: "https://spy.example.com/h" }],
      ...(
        [
          ["toggleWebhookEndpointAction", actions.toggleWebhookEndpointAction, { enabled: "off" }],
          ["removeWebhookEndpointAction", actions.removeWebhookEndpointAction, {}],
          ["showWebhookSecretAction", actions.showWebhookSecretAction, {}],
          ["rotateWebhookSecretAction", actions.rotateWebhookSecretAction, { overlap: "end" }],
          ["sendWebhookTestAction", actions.sendWebhookTestAction, {}],
        ] as const
      ).flatMap(([name, action, extra]): Array<[string, (s: null, f: FormData) => Promise<unknown>, Record<string, string>]> => [
        [name, action, { developer: A, plane: "live", endpoint: endpointOfA, ...extra }],
        [`${name} (B's account, A's endpoint)`, action, { developer: b.developer.id, plane: "live", endpoint: endpointOfA, ...extra }],
      ]),
      ["resendWebhookDeliveryAction", actions.resendWebhookDeliveryAction, { developer: A, plane: "live", delivery: deliveryOfA }],
      ["resendWebhookDeliveryAction (B's account, A's delivery)", actions.resendWebhookDeliveryAction, { developer: b.developer.id, plane: "live", delivery: deliveryOfA }],
    ];
    const before = await snapshotOfA();
    await signInAs(ownerB.id);
    for (const [name, action, fields] of calls) {
      const state = (await action(null, form(fields))) as { error?: string; ok?: string; secret?: unknown } | null;
      expect(state?.error, name).toBeTruthy();
      expect(state?.ok, name).toBeUndefined();
      expect(state?.secret, name).toBeUndefined();
    }
    expect(await snapshotOfA()).toBe(before);
    // B's own account was not changed by A's ids either.
    expect(await prisma.apiKey.count({ where: { developerId: b.developer.id, name: "x" } })).toBe(0);
    expect(await prisma.agent.count({ where: { developerId: b.developer.id, handle: "intruder" } })).toBe(0);

    // Switching to A's account as B's member does not choose it.
    await expect(actions.switchAccountAction(form({ developer: A, back: "/dashboard/keys" }))).rejects.toMatchObject({ digest: expect.stringContaining("NEXT_REDIRECT") });
    expect(jar.set).toEqual([]);
    await expect(actions.switchAccountAction(form({ developer: b.developer.id, back: "/dashboard/keys" }))).rejects.toMatchObject({
      digest: expect.stringContaining("/dashboard/keys"),
    });
    expect(jar.set).toEqual([{ name: "dashboard.account", value: b.developer.id }]);
  });

  it("refuse everything without a dashboard session, and with the person's session cookie", async () => {
    const actions = await import("@/app/(site)/dashboard/actions");
    const { env } = await import("@/lib/env");
    const before = await snapshotOfA();
    const person = await encode({ token: { sub: ownerA.id }, secret: env().AUTH_SECRET, salt: "authjs.session-token" });
    for (const cookie of ["", `authjs.session-token=${person}`]) {
      jar.cookie = cookie;
      const state = await actions.createKeyAction(null, form({ developer: a.developer.id, kind: "secret", plane: "live", name: "x" }));
      expect(state).toEqual({ error: "Your session has ended. Sign in again.", field: undefined });
      const removed = await actions.removeOriginAction(null, form({ developer: a.developer.id, origin: "https://a.example.com" }));
      expect(removed?.error).toBe("Your session has ended. Sign in again.");
    }
    expect(await snapshotOfA()).toBe(before);
  });

  it("let account A's own owner act (the same calls succeed with the right session)", async () => {
    const actions = await import("@/app/(site)/dashboard/actions");
    await signInAs(ownerA.id);
    const created = await actions.createKeyAction(null, form({ developer: a.developer.id, kind: "secret", plane: "test", name: "mine" }));
    expect(created?.secret?.value).toMatch(/^sk_test_/);
    const origin = await actions.addOriginAction(null, form({ developer: a.developer.id, origin: "https://mine.example.com" }));
    expect(origin).toEqual({ ok: "https://mine.example.com approved." });
    expect(await actions.revokeLineAction(null, form({ developer: a.developer.id, line: lineOfA }))).toEqual({
      ok: "The line ending in 0123 is revoked. Its message links stopped working now.",
    });
    expect(await actions.revokeLineAction(null, form({ developer: a.developer.id, line: lineOfA }))).toEqual({ error: "Not found in this account.", field: undefined });
    expect(await actions.partnerPhoneFirstAction(null, form({ developer: a.developer.id, phone_first: "on" }))).toEqual({
      ok: "Linked-account sessions now ask for the phone number first.",
    });
    await expect((await db()).developer.findUniqueOrThrow({ where: { id: a.developer.id } })).resolves.toMatchObject({ partnerPhoneFirst: true });
    expect(await actions.partnerPhoneFirstAction(null, form({ developer: a.developer.id, phone_first: "maybe" }))).toEqual({
      error: "Check the form and try again.",
      field: undefined,
    });
    expect(await actions.cancelImportJobAction(null, form({ developer: a.developer.id, job: jobOfA }))).toEqual({ ok: `Job ${jobOfA} is cancelled.` });
    expect(await actions.cancelImportJobAction(null, form({ developer: a.developer.id, job: jobOfA }))).toEqual({ ok: `Job ${jobOfA} had already ended (cancelled).` });
    const { callbackSecretsOf } = await import("@/lib/dashboard/callback-secrets");
    const before = await callbackSecretsOf(a.developer.id);
    expect(await actions.rotateCallbackSecretAction(null, form({ developer: a.developer.id, plane: "test", overlap: "end" }))).toEqual({
      ok: "The test callback secret was rotated. The old one stopped signing now: callbacks carry a signature under the new one only.",
    });
    const after = await callbackSecretsOf(a.developer.id);
    expect(after.test.secret).not.toBe(before.test.secret);
    expect(after.test.previous).toBeNull();
    expect(after.live).toEqual(before.live);
    const kept = await actions.rotateCallbackSecretAction(null, form({ developer: a.developer.id, plane: "live", overlap: "keep" }));
    expect(kept?.ok).toMatch(
      /^The live callback secret was rotated\. Callbacks carry a signature under each secret until \d{4}-\d\d-\d\d \d\d:\d\d UTC, then under the new one only\.$/,
    );
    expect((await callbackSecretsOf(a.developer.id)).live.previous).not.toBeNull();
    for (const bad of [
      { plane: "both", overlap: "keep" },
      { plane: "live", overlap: "forever" },
    ]) {
      expect(await actions.rotateCallbackSecretAction(null, form({ developer: a.developer.id, ...bad }))).toEqual({ error: "Check the form and try again.", field: undefined });
    }

    // Webhooks: the owner adds, shows, rotates, tests, disables and removes; another plane's id is not found.
    const hook = { developer: a.developer.id, plane: "test" };
    const added = await actions.addWebhookEndpointAction(null, form({ ...hook, url: "http://localhost:4000/hook", "event:user.deleted": "on" }));
    expect(added).toMatchObject({ ok: "Endpoint added.", secret: { value: expect.stringMatching(/^whsec_/) } });
    const endpoint = await (await db()).webhookEndpoint.findFirstOrThrow({ where: { developerId: a.developer.id, plane: "test" } });
    expect(endpoint.events).toEqual(["user.deleted"]);
    const row = { ...hook, endpoint: endpoint.id };
    expect((await actions.showWebhookSecretAction(null, form(row)))?.secret?.value).toBe(added?.secret?.value);
    const rotated = await actions.rotateWebhookSecretAction(null, form({ ...row, overlap: "keep" }));
    expect(rotated?.secret?.value).not.toBe(added?.secret?.value);
    expect(await actions.sendWebhookTestAction(null, form(row))).toMatchObject({ ok: expect.stringMatching(/^Test event evt_\w+ queued/) });
    expect(await actions.toggleWebhookEndpointAction(null, form({ ...row, enabled: "off" }))).toEqual({
      ok: "http://localhost:4000/hook is disabled: it receives nothing until you enable it.",
    });
    expect(await actions.showWebhookSecretAction(null, form({ ...row, plane: "live" }))).toEqual({ error: "Not found in this account.", field: undefined });
    expect(await actions.addWebhookEndpointAction(null, form({ developer: a.developer.id, plane: "live", url: "http://localhost:4000/hook" }))).toMatchObject({ field: "url" });
    expect(await actions.removeWebhookEndpointAction(null, form(row))).toEqual({ ok: "Endpoint removed with its deliveries." });
    expect(await actions.resendWebhookDeliveryAction(null, form({ developer: a.developer.id, plane: "live", delivery: deliveryOfA }))).toMatchObject({
      ok: expect.stringMatching(/queued again/),
    });
  });
});
