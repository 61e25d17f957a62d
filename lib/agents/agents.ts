// Agents: the X-Agent handles of a developer's apps, with their sign-in URL.
import { z } from "zod";
import { TtlCache } from "../cache";
import { db } from "../db";
import type { Agent } from "../db/generated/client";
import { env } from "../env";
import { ApiError } from "../http/errors";

export const agentHandleSchema = z
  .string()
  .min(2)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/, "use lowercase letters, digits and inner hyphens");

/** The public shape of an agent in every create, update and list response. */
export function agentView(agent: Pick<Agent, "handle" | "displayName" | "active" | "createdAt">) {
  return {
    handle: agent.handle,
    display_name: agent.displayName,
    active: agent.active,
    created_at: agent.createdAt.toISOString(),
    sign_in_url: signInUrl(agent.handle),
  };
}

export function signInUrl(handle: string): string {
  return `${env().SIGN_IN_URL}/${encodeURIComponent(handle)}`;
}

/** Creates an agent; a handle the developer already uses is a 409 agent_exists. */
export async function createAgent(input: { developerId: string; handle: string; displayName?: string }) {
  const handle = agentHandleSchema.parse(input.handle);
  try {
    const agent = await (await db()).agent.create({
      data: { developerId: input.developerId, handle, displayName: input.displayName ?? handle },
    });
    // A lookup of this handle just before may have cached "no such agent".
    agentCache.clear();
    return agent;
  } catch (err) {
    if ((err as { code?: string }).code === "P2002") {
      throw new ApiError("agent_exists", `This developer account already has an agent '${handle}'.`, { agent: handle });
    }
    throw err;
  }
}

export async function listAgents(developerId: string) {
  return (await db()).agent.findMany({ where: { developerId }, orderBy: { createdAt: "asc" } });
}

export async function setAgentActive(input: { developerId: string; handle: string; active: boolean }) {
  const res = await (await db()).agent.updateMany({
    where: { developerId: input.developerId, handle: input.handle },
    data: { active: input.active },
  });
  agentCache.clear();
  return res.count;
}

/** The developer's oldest active agent: the one an SSO client acts for. */
export async function oldestActiveAgent(developerId: string) {
  return (await db()).agent.findFirst({ where: { developerId, active: true }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** The name an agent shows people (the hosted pages' header), or null for an unknown id. */
export async function agentDisplayName(agentId: string): Promise<string | null> {
  return (await (await db()).agent.findUnique({ where: { id: agentId }, select: { displayName: true } }))?.displayName ?? null;
}

const agentCache = new TtlCache<Pick<Agent, "id" | "handle" | "displayName" | "active"> | null>("agents");

/** An agent by handle within one developer account; cached as briefly as API keys. */
export async function findAgent(developerId: string, handle: string) {
  return agentCache.through(`${developerId}\u0000${handle}`, async () =>
    (await db()).agent.findUnique({
      where: { developerId_handle: { developerId, handle } },
      select: { id: true, handle: true, displayName: true, active: true },
    }),
  );
}
