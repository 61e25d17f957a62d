"use server";
// The dashboard's settings forms: API keys, completion-callback secrets, agents, approved origins, SSO
// clients, return destinations and message lines, import jobs. Every action acts for the signed-in
// dashboard user (auth "dashboard-member", never an id the form alone names) and passes the membership
// check in lib for the account the form names; a refusal comes back as the form's message. Sign-in,
// accounts and members: ./account-actions.ts; both through ./actions.ts.
import { defineAction } from "@/lib/actions/define-action";
import { createDashboardAgent, updateDashboardAgent } from "@/lib/dashboard/agents";
import { rotateDashboardCallbackSecret } from "@/lib/dashboard/callback-secrets";
import { createKey, revokeFormerMemberKeys, revokeKey, rotateKey } from "@/lib/dashboard/keys";
import { addDashboardOrigin, removeDashboardOrigin } from "@/lib/dashboard/origins";
import { cancelDashboardImportJob } from "@/lib/dashboard/imports";
import { addDashboardDestination, removeDashboardDestination, revokeDashboardLine, setDashboardPartnerPhoneFirst } from "@/lib/dashboard/sign-in-links";
import { addSsoCallback, createSsoClient, removeSsoCallback } from "@/lib/dashboard/sso-clients";
import { checkbox, text } from "@/lib/http/action-input";

/** A time as the dashboard states it: 2025-01-31 12:00 (UTC). */
const shownUtc = (at: Date) => at.toISOString().replace("T", " ").slice(0, 16);

// ── API keys ────────────────────────────────────────────────────────────────────────────────────
export const createKeyAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), kind: text(), plane: text(), name: text() },
  handler: async ({ actor, form }) => {
    const { key, record } = await createKey({ actorId: actor.id, developerId: form.developer, kind: form.kind, plane: form.plane, name: form.name });
    return { ok: "Key created.", secret: { label: `New ${record.plane} ${record.kind} key`, value: key } };
  },
});

export const rotateKeyAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), key: text() },
  handler: async ({ actor, form }) => {
    const { key, record, oldKeyStopsAt } = await rotateKey({ actorId: actor.id, developerId: form.developer, keyId: form.key });
    return {
      ok: "Key rotated.",
      secret: {
        label: `New ${record.plane} ${record.kind} key`,
        value: key,
        note: `The old key keeps working until ${shownUtc(oldKeyStopsAt)} UTC, then stops. The MCP sessions it minted have ended, and it mints no more: mint them with the new key.`,
      },
    };
  },
});

export const revokeKeyAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), key: text() },
  handler: async ({ actor, form }) => {
    await revokeKey({ actorId: actor.id, developerId: form.developer, keyId: form.key });
    return { ok: "Key revoked. It stopped working now." };
  },
});

export const revokeFormerMemberKeysAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), made_by: text() },
  handler: async ({ actor, form }) => {
    const { revoked, email } = await revokeFormerMemberKeys({ actorId: actor.id, developerId: form.developer, madeBy: form.made_by });
    return { ok: `${revoked === 1 ? "1 key" : `${revoked} keys`} made by ${email} revoked. ${revoked === 1 ? "It" : "They"} stopped working now.` };
  },
});

// ── Completion-callback secrets ─────────────────────────────────────────────────────────────────
export const rotateCallbackSecretAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), plane: text(), overlap: text() },
  handler: async ({ actor, form }) => {
    const { plane, previous } = await rotateDashboardCallbackSecret({ actorId: actor.id, developerId: form.developer, plane: form.plane, overlap: form.overlap });
    // The new secret is on the page (it can be read again, as over the API); the answer says what changed.
    return {
      ok: previous
        ? `The ${plane} callback secret was rotated. Callbacks carry a signature under each secret until ${shownUtc(previous.expiresAt)} UTC, then under the new one only.`
        : `The ${plane} callback secret was rotated. The old one stopped signing now: callbacks carry a signature under the new one only.`,
    };
  },
});

// ── Agents ──────────────────────────────────────────────────────────────────────────────────────
export const createAgentAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), handle: text(), display_name: text() },
  handler: async ({ actor, form }) => {
    const agent = await createDashboardAgent({ actorId: actor.id, developerId: form.developer, handle: form.handle.trim(), displayName: form.display_name });
    return { ok: `Agent ${agent.handle} created. Its sign-in link: ${agent.sign_in_url}` };
  },
});

export const updateAgentAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), handle: text(), display_name: text(), logo_url: text(), brand_color: text(), active: checkbox() },
  handler: async ({ actor, form }) => {
    const input = { developerId: form.developer, handle: form.handle, displayName: form.display_name, logoUrl: form.logo_url, brandColor: form.brand_color, active: form.active };
    const agent = await updateDashboardAgent({ actorId: actor.id, ...input });
    return { ok: `Agent ${agent.handle} saved.` };
  },
});

// ── Approved origins ────────────────────────────────────────────────────────────────────────────
export const addOriginAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), origin: text() },
  handler: async ({ actor, form }) => ({ ok: `${await addDashboardOrigin({ actorId: actor.id, developerId: form.developer, origin: form.origin })} approved.` }),
});

export const removeOriginAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), origin: text() },
  handler: async ({ actor, form }) => {
    await removeDashboardOrigin({ actorId: actor.id, developerId: form.developer, origin: form.origin });
    return { ok: "Origin removed." };
  },
});

// ── SSO clients ─────────────────────────────────────────────────────────────────────────────────
export const createSsoClientAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), plane: text(), method: text(), redirect_uri: text() },
  handler: async ({ actor, form }) => {
    const { clientId, clientSecret } = await createSsoClient({
      actorId: actor.id,
      developerId: form.developer,
      plane: form.plane,
      method: form.method,
      redirectUri: form.redirect_uri.trim(),
    });
    return clientSecret
      ? { ok: `Client ${clientId} created.`, secret: { label: `Client secret of ${clientId}`, value: clientSecret } }
      : { ok: `Public client ${clientId} created.` };
  },
});

export const addSsoCallbackAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), client: text(), redirect_uri: text() },
  handler: async ({ actor, form }) => {
    await addSsoCallback({ actorId: actor.id, developerId: form.developer, clientId: form.client, redirectUri: form.redirect_uri.trim() });
    return { ok: "Callback added." };
  },
});

export const removeSsoCallbackAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), client: text(), plane: text(), redirect_uri: text() },
  handler: async ({ actor, form }) => {
    await removeSsoCallback({ actorId: actor.id, developerId: form.developer, clientId: form.client, plane: form.plane, redirectUri: form.redirect_uri });
    return { ok: "Callback removed." };
  },
});

// ── Return destinations and message lines ───────────────────────────────────────────────────────
export const addDestinationAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), handle: text(), plane: text(), url: text() },
  handler: async ({ actor, form }) => {
    const { url, created } = await addDashboardDestination({ actorId: actor.id, developerId: form.developer, handle: form.handle, plane: form.plane, url: form.url });
    return { ok: created ? `${url} added.` : `${url} was already registered.` };
  },
});

export const removeDestinationAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), handle: text(), plane: text(), url: text() },
  handler: async ({ actor, form }) => {
    await removeDashboardDestination({ actorId: actor.id, developerId: form.developer, handle: form.handle, plane: form.plane, url: form.url });
    return { ok: "Return destination removed." };
  },
});

export const revokeLineAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), line: text() },
  handler: async ({ actor, form }) => {
    const { last4 } = await revokeDashboardLine({ actorId: actor.id, developerId: form.developer, lineId: form.line });
    return { ok: `The line ending in ${last4} is revoked. Its message links stopped working now.` };
  },
});

export const partnerPhoneFirstAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), phone_first: text() },
  handler: async ({ actor, form }) => {
    const on = await setDashboardPartnerPhoneFirst({ actorId: actor.id, developerId: form.developer, on: form.phone_first });
    return { ok: on ? "Linked-account sessions now ask for the phone number first." : "Linked-account sessions now start with the import screen." };
  },
});

// ── Import jobs ─────────────────────────────────────────────────────────────────────────────────
export const cancelImportJobAction = defineAction({
  auth: "dashboard-member",
  state: true,
  form: { developer: text(), job: text() },
  handler: async ({ actor, form }) => {
    const { job, wasOpen } = await cancelDashboardImportJob({ actorId: actor.id, developerId: form.developer, jobId: form.job });
    if (!wasOpen) return { ok: `Job ${job.id} had already ended (${job.status}).` };
    return { ok: job.status === "running" ? `Job ${job.id} stops after the users it is importing now; what it imported stays.` : `Job ${job.id} is cancelled.` };
  },
});
