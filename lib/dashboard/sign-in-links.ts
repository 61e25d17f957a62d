// The hosted sign-in settings of the account's agents on the dashboard: return destinations (added and
// removed with the API's rule, lib/sign-in/destinations.ts) and message lines, shown by their last four
// digits only (registered over the API, which takes the number; revoked here by the line's id); the
// account's completion-callback secrets (lib/dashboard/callback-secrets.ts); and the account's
// partner-session setting (phone number first).
import { z } from "zod";
import { findAgent, listAgents } from "../agents/agents";
import { now as clockNow } from "../platform/clock";
import { db } from "../platform/db";
import { requireMember } from "../developer-auth/accounts";
import { DashboardError } from "../developer-auth/errors";
import { setPartnerPhoneFirst } from "../developers/developers";
import { addReturnDestination, removeReturnDestination } from "../sign-in/destinations";
import { callbackSecretsOf, type CallbackSecretsView } from "./callback-secrets";

const planeSchema = z.enum(["live", "test"]);

/** Per agent: its return destinations and active message lines, both planes. */
export async function signInLinksOf(developerId: string) {
  const prisma = await db();
  const [agents, destinations, lines] = await Promise.all([
    listAgents(developerId),
    prisma.returnDestination.findMany({ where: { developerId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { agentId: true, plane: true, url: true } }),
    prisma.messageLine.findMany({
      where: { developerId, status: "active" },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, agentId: true, plane: true, channel: true, phoneLast4: true, label: true },
    }),
  ]);
  return agents.map((a) => ({
    handle: a.handle,
    displayName: a.displayName,
    destinations: destinations.filter((d) => d.agentId === a.id).map((d) => ({ plane: d.plane, url: d.url })),
    lines: lines.filter((l) => l.agentId === a.id).map((l) => ({ id: l.id, plane: l.plane, channel: l.channel, last4: l.phoneLast4, label: l.label })),
  }));
}

export interface SignInLinksView {
  agents: Awaited<ReturnType<typeof signInLinksOf>>;
  partnerPhoneFirst: boolean;
  callbackSecrets: CallbackSecretsView;
}

/** What the sign-in links page shows. */
export async function signInLinksPageOf(developerId: string): Promise<SignInLinksView> {
  const [agents, partnerPhoneFirst, callbackSecrets] = await Promise.all([signInLinksOf(developerId), partnerPhoneFirstOf(developerId), callbackSecretsOf(developerId)]);
  return { agents, partnerPhoneFirst, callbackSecrets };
}

async function agentOf(developerId: string, handle: unknown) {
  const agent = typeof handle === "string" && handle.length <= 64 ? await findAgent(developerId, handle) : null;
  if (!agent) throw new DashboardError("not_found");
  return agent;
}

export async function addDashboardDestination(input: { actorId: string; developerId: unknown; handle: unknown; plane: unknown; url: unknown }) {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const agent = await agentOf(developerId, input.handle);
  const plane = planeSchema.safeParse(input.plane);
  if (!plane.success || typeof input.url !== "string") throw new DashboardError("invalid_input");
  return addReturnDestination({ developerId, agentId: agent.id, plane: plane.data, url: input.url.trim() });
}

export async function removeDashboardDestination(input: { actorId: string; developerId: unknown; handle: unknown; plane: unknown; url: unknown }): Promise<void> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const agent = await agentOf(developerId, input.handle);
  const plane = planeSchema.safeParse(input.plane);
  if (!plane.success || typeof input.url !== "string" || !(await removeReturnDestination({ developerId, agentId: agent.id, plane: plane.data, url: input.url }))) {
    throw new DashboardError("not_found");
  }
}

/**
 * Revokes one of the account's active message lines, named by its id: the dashboard never sees the
 * number, so it cannot name a line the way the API does. A revoked line serves no message URL until
 * registered again over the API.
 */
export async function revokeDashboardLine(input: { actorId: string; developerId: unknown; lineId: unknown }): Promise<{ last4: string }> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  const lineId = z.uuid().safeParse(input.lineId);
  if (!lineId.success) throw new DashboardError("not_found");
  const [line] = await (
    await db()
  ).messageLine.updateManyAndReturn({
    where: { id: lineId.data, developerId, status: "active" },
    data: { status: "revoked", revokedAt: clockNow() },
    select: { phoneLast4: true },
  });
  if (!line) throw new DashboardError("not_found");
  return { last4: line.phoneLast4 };
}

/** The account's partner-session setting: `linked_account` flows ask for the phone number first. */
export async function partnerPhoneFirstOf(developerId: string): Promise<boolean> {
  const dev = await (await db()).developer.findUnique({ where: { id: developerId }, select: { partnerPhoneFirst: true } });
  return dev?.partnerPhoneFirst ?? false;
}

/** Turns the phone-first order on or off, as `npm run service -- set-partner-phone-first` does. */
export async function setDashboardPartnerPhoneFirst(input: { actorId: string; developerId: unknown; on: unknown }): Promise<boolean> {
  const { developerId } = await requireMember({ dashboardUserId: input.actorId, developerId: input.developerId });
  if (input.on !== "on" && input.on !== "off") throw new DashboardError("invalid_input");
  return (await setPartnerPhoneFirst({ developerId, on: input.on === "on" })).partnerPhoneFirst ?? false;
}
