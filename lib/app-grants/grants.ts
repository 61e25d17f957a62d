// Per-agent app grants: a person's app connection is theirs, but each agent reads only the apps the
// person gave it. A grant is a capability_grants row: `<app>:read` to read the app (what connecting
// the app in that agent's flow, or allowing it on a permission link, records), `<app>:<action>` for
// an action (gmail:send). Only the person's own finished flow for that agent writes one (and the
// sandbox seeds its synthetic user's development Gmail for the sandbox agent): approving an agent,
// linking a developer's id for a person and bulk imports never do.
import { APP_NAMES, APPS, isApp, type App } from "../catalogue";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import { emitAgentEvent } from "../webhooks/emit";

/** The capability that lets an agent read an app for a person. */
export function readCapability(app: string): string {
  return `${app}:read`;
}

/** The app a capability is on (gmail for gmail:send). */
export function capabilityApp(capability: string): string {
  return capability.split(":")[0] ?? "";
}

/** Whether the person granted the agent reading the app. */
export async function readsApp(input: { userId: string; agentId: string; app: string }, tx?: Prisma.TransactionClient): Promise<boolean> {
  const prisma = tx ?? (await db());
  const row = await prisma.capabilityGrant.findUnique({
    where: { userId_agentId_capability: { userId: input.userId, agentId: input.agentId, capability: readCapability(input.app) } },
    select: { agentId: true },
  });
  return !!row;
}

/**
 * Records that the person gave the agent these apps (inside the transaction that finishes their flow);
 * an app the agent did not hold yet emits app.connected to its developer in the same transaction.
 */
export async function grantApps(tx: Prisma.TransactionClient, input: { userId: string; agentId: string; apps: readonly string[] }): Promise<void> {
  for (const app of new Set(input.apps.filter(isApp))) {
    const created = await tx.capabilityGrant.createMany({
      data: [{ userId: input.userId, agentId: input.agentId, capability: readCapability(app) }],
      skipDuplicates: true,
    });
    if (created.count) await emitAgentEvent(tx, { type: "app.connected", app }, { userId: input.userId, agentId: input.agentId });
  }
}

export interface AgentAppGrant {
  app: App;
  /** The capabilities granted on this app (gmail:read, gmail:send), sorted. */
  capabilities: string[];
}

/** Per agent, the apps the person gave it (an app with any capability granted), in catalogue order. */
export async function appGrantsByAgent(userId: string): Promise<Map<string, AgentAppGrant[]>> {
  const rows = await (await db()).capabilityGrant.findMany({ where: { userId }, select: { agentId: true, capability: true } });
  const byAgent = new Map<string, AgentAppGrant[]>();
  for (const agentId of new Set(rows.map((r) => r.agentId))) {
    const mine = rows.filter((r) => r.agentId === agentId);
    byAgent.set(
      agentId,
      APPS.filter((app) => mine.some((r) => capabilityApp(r.capability) === app)).map((app) => ({
        app,
        capabilities: mine
          .filter((r) => capabilityApp(r.capability) === app)
          .map((r) => r.capability)
          .sort(),
      })),
    );
  }
  return byAgent;
}

const READ_PHRASES: Readonly<Record<App, string>> = {
  gmail: "search your Gmail",
  outlook: "search your Outlook mail",
  calendar: "see your Google Calendar events",
  drive: "search your Google Drive",
  notion: "search your Notion",
  sheets: "read your Google Sheets",
};

const ACTION_PHRASES: Readonly<Record<string, string>> = {
  "gmail:send": "send e-mail from your Gmail",
  "outlook:send": "send e-mail from your Outlook mail",
  "calendar:create_event": "add events to your Google Calendar",
};

/** What a capability lets an agent do, as a permission page says it after "wants to" ("search your Gmail"). */
export function capabilityPhrase(capability: string): string {
  const app = capabilityApp(capability);
  if (isApp(app) && capability === readCapability(app)) return READ_PHRASES[app];
  if (Object.hasOwn(ACTION_PHRASES, capability)) return ACTION_PHRASES[capability]!;
  const permission = capability.slice(app.length + 1).replace(/_/g, " ");
  return `${permission} with ${isApp(app) ? APP_NAMES[app] : app}`;
}

/** The apps' names, as a sentence lists them ("Gmail, Notion and Google Drive"). */
export function appList(apps: readonly string[]): string {
  const names = apps.map((a) => (isApp(a) ? APP_NAMES[a] : a));
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
