// The hosted sign-in settings of the account's agents on the dashboard: return destinations (added and
// removed with the API's rule, lib/sign-in/destinations.ts) and message lines, shown by their last four
// digits only (they are registered over the API, which takes the number).
import { z } from "zod";
import { findAgent, listAgents } from "../agents/agents";
import { db } from "../db";
import { requireMember } from "../developer-auth/accounts";
import { DashboardError } from "../developer-auth/errors";
import { addReturnDestination, removeReturnDestination } from "../sign-in/destinations";

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
