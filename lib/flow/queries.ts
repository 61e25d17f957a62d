// What the flow's screens read besides the flow itself, shared by the views that show it and the steps
// that enforce it: the apps connected, the names the person has met, and whether Continue is on.
import { db } from "../platform/db";
import type { FlowCore } from "./ways-in/types";

type FlowAsRead = Pick<FlowCore, "id" | "userId" | "broughtIn" | "required">;

/** Apps connected in this flow, or (signed in) on the account, and working. */
export interface ConnectedApp {
  app: string;
  provider: string;
  accountEmail: string | null;
  status: string;
  /** Set while the connection was made in this flow and the flow has not finished (on an account already when the person was signed in). */
  flowId: string | null;
}

export async function connectedApps(flow: Pick<FlowCore, "id" | "userId">): Promise<ConnectedApp[]> {
  const where = flow.userId ? { OR: [{ flowId: flow.id }, { userId: flow.userId }] } : { flowId: flow.id };
  return (await db()).appConnection.findMany({ where, select: { app: true, provider: true, accountEmail: true, status: true, flowId: true }, orderBy: { createdAt: "asc" } });
}

/**
 * Names the person has met: assistants imported here, apps connected, and (signed in) what the
 * account already holds. `connections` is connectedApps(flow) when the caller has it already.
 */
export async function metNames(flow: FlowAsRead, connections?: ConnectedApp[]): Promise<Set<string>> {
  const met = new Set(flow.broughtIn.filter((b) => b.confirmed && b.memories.length).map((b) => b.provider as string));
  for (const c of connections ?? (await connectedApps(flow))) if (c.status === "active") met.add(c.app);
  if (flow.userId) {
    const held = await (await db()).memory.groupBy({ by: ["source"], where: { userId: flow.userId, suppressedAt: null } });
    for (const { source } of held) if (source.startsWith("imports/")) met.add(source.slice("imports/".length));
  }
  return met;
}

/** Whether the account behind a signed-in flow already holds anything. */
async function accountHoldsSomething(userId: string | null): Promise<boolean> {
  if (!userId) return false;
  return (await (await db()).memory.count({ where: { userId, suppressedAt: null }, take: 1 })) > 0;
}

export interface ContinueState {
  enabled: boolean;
  /** Each required entry and whether it is met. */
  required: Array<{ names: string[]; met: boolean }>;
}

/**
 * Continue turns on once a new person has imported or connected one thing — at once for an
 * account that already holds something — and, either way, once every required entry is met.
 */
export async function continueState(flow: FlowAsRead, connections?: ConnectedApp[]): Promise<ContinueState> {
  const apps = connections ?? (await connectedApps(flow));
  const met = await metNames(flow, apps);
  const required = flow.required.map((names) => ({ names, met: names.some((n) => met.has(n)) }));
  const broughtSomething = flow.broughtIn.some((b) => b.confirmed && b.memories.length) || apps.some((c) => c.flowId === flow.id && c.status === "active");
  const enabled = required.every((r) => r.met) && (broughtSomething || (await accountHoldsSomething(flow.userId)));
  return { enabled, required };
}
