// Agents: the X-Agent handles of a developer's apps, with their sign-in URL.
import { z } from "zod";
import { isPersonalMcpAccount } from "../developers/personal-mcp-account";
import { TtlCache } from "../platform/cache";
import { db } from "../platform/db";
import type { Agent, Prisma } from "../platform/db/generated/client";
import { randomBase62 } from "../platform/crypto";
import { env } from "../env";
import { ApiError } from "../http/errors";

export const agentHandleSchema = z
  .string()
  .min(2)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/, "use lowercase letters, digits and inner hyphens");

/** The public shape of an agent in every create, update and list response. */
export function agentView(agent: Pick<Agent, "handle" | "displayName" | "active" | "createdAt" | "signInName" | "logoUrl" | "brandColor">) {
  return {
    handle: agent.handle,
    display_name: agent.displayName,
    active: agent.active,
    created_at: agent.createdAt.toISOString(),
    logo_url: agent.logoUrl,
    brand_color: agent.brandColor,
    sign_in_url: signInUrl(agent.signInName),
  };
}

/** The agent's sign-in link: {SIGN_IN_URL}/<sign-in name>. */
export function signInUrl(signInName: string): string {
  return `${env().SIGN_IN_URL}/${encodeURIComponent(signInName)}`;
}

/** Up to two letters for an agent without a logo: the first of its first two words. */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/[\s_-]+/)
    .filter(Boolean);
  return (words.length > 1 ? `${words[0]![0]}${words[1]![0]}` : (words[0] ?? "?").slice(0, 2)).toUpperCase();
}

/** A sign-in name nobody has yet: the handle's own, or (taken by another developer's agent) with a random tail. */
export function signInNameFor(handle: string, attempt: number): string {
  return attempt === 0 ? handle : `${handle}-${randomBase62(6).toLowerCase()}`;
}

/** Whether a unique-constraint failure (P2002) is on the named column. */
function violates(err: unknown, column: string): boolean {
  const e = err as { code?: string; meta?: { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[] } } } } };
  if (e.code !== "P2002") return false;
  const fields = e.meta?.driverAdapterError?.cause?.constraint?.fields ?? (Array.isArray(e.meta?.target) ? (e.meta.target as string[]) : []);
  return fields.some((f) => f.replace(/"/g, "") === column) || JSON.stringify(e.meta ?? {}).includes(column);
}

/**
 * Creates an agent (inside `tx` when given); a handle the developer already uses is a 409
 * agent_exists. Its sign-in name is the handle when no other agent has it.
 */
export async function createAgent(input: { developerId: string; handle: string; displayName?: string }, tx?: Prisma.TransactionClient) {
  const handle = agentHandleSchema.parse(input.handle);
  const client = tx ?? (await db());
  for (let attempt = 0; ; attempt++) {
    // Inside a transaction a failed insert aborts it: there, take a name that is free now (the random tail).
    const signInName = tx && attempt === 0 && (await client.agent.count({ where: { signInName: handle } })) > 0 ? signInNameFor(handle, 1) : signInNameFor(handle, attempt);
    try {
      const agent = await client.agent.create({
        data: { developerId: input.developerId, handle, signInName, displayName: input.displayName ?? handle },
      });
      // A lookup of this handle just before may have cached "no such agent".
      agentCache.clear();
      return agent;
    } catch (err) {
      if (!tx && attempt < 5 && violates(err, "sign_in_name")) continue;
      if ((err as { code?: string }).code === "P2002") {
        throw new ApiError("agent_exists", `This developer account already has an agent '${handle}'.`, { agent: handle });
      }
      throw err;
    }
  }
}

/** What a developer may change about an agent. */
export interface AgentUpdate {
  displayName?: string;
  logoUrl?: string | null;
  brandColor?: string | null;
  active?: boolean;
}

/** Updates one of the developer's agents; null when the developer has no agent with that handle. */
export async function updateAgent(input: { developerId: string; handle: string } & AgentUpdate) {
  const prisma = await db();
  const res = await prisma.agent.updateMany({
    where: { developerId: input.developerId, handle: input.handle },
    data: { displayName: input.displayName, logoUrl: input.logoUrl, brandColor: input.brandColor, active: input.active },
  });
  agentCache.clear();
  if (res.count === 0) return null;
  return prisma.agent.findUniqueOrThrow({ where: { developerId_handle: { developerId: input.developerId, handle: input.handle } } });
}

/** An active agent by its sign-in name (the sign-in host's path), with its developer; null when unknown or inactive. */
export async function agentBySignInName(signInName: string) {
  // Checked before any lookup: a value from a URL that cannot be a sign-in name finds no agent.
  if (!/^[a-z0-9][a-z0-9-]{0,79}$/.test(signInName)) return null;
  const agent = await (await db()).agent.findUnique({ where: { signInName }, include: { developer: { select: { id: true, sandbox: true } } } });
  // The agents personal MCP clients act as have no sign-in host page.
  return agent?.active && !isPersonalMcpAccount(agent.developerId) ? agent : null;
}

export async function listAgents(developerId: string) {
  return (await db()).agent.findMany({ where: { developerId }, orderBy: { createdAt: "asc" } });
}

export async function setAgentActive(input: { developerId: string; handle: string; active: boolean }) {
  const res = await (
    await db()
  ).agent.updateMany({
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

/** The developer account's name, as the hosted pages show it beside the agent's ("Beta Bot by Acme"). */
export async function developerDisplayName(developerId: string): Promise<string | null> {
  return (await (await db()).developer.findUnique({ where: { id: developerId }, select: { name: true } }))?.name ?? null;
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
