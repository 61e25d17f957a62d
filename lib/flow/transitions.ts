// Every write that moves a flow, each one conditional update that applies only from the state it was
// decided in: a step's change (applyStep), what was brought in (changeBroughtIn), saving and approving
// onto the receipt (saveAndApprove), Return to the app (returnToApp) and Cancel (declineFlow). What
// differs by way in is asked of the way in (lib/flow/ways-in/); nothing here names one.
import { now as clockNow } from "../platform/clock";
import { attachFlowConnections, recordMailboxAddress } from "../connectors/connections";
import { grantApps } from "../app-grants/grants";
import { queueAppMemoriesOf } from "../connectors/memories/queue";
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import { newId, PREFIX } from "../platform/ids";
import { factToMemory } from "../profile/facts";
import { writeMemories } from "../profile/memories";
import { importSource } from "../profile/sources";
import { approveAgent, clearUserAccessCache } from "../users/approvals";
import type { BroughtIn } from "./bring-in";
import { FlowError, StepAlreadyDone, StepError } from "./errors";
import type { Screen, WayInName } from "./screens";
import { screensOf, traitsOf } from "./sequence";
import { changeData, findFlow, isExpired, type FlowChange, type WayFlow } from "./store";
import { storedBroughtIn, type FlowReceipt } from "./stored";
import { wayOf, type FlowCore, type WayInRequests } from "./ways-in";

// ─── Guards ─────────────────────────────────────────────────────────────────────────────────────

/** The flow as read is open and on one of the step's screens (a StepAlreadyDone when it moved on). */
export function assertOpen(flow: Pick<FlowCore, "status" | "expiresAt" | "screen">, screens: Screen[]): void {
  if (flow.status !== "active") throw new FlowError("ended");
  if (isExpired(flow)) throw new FlowError("expired");
  if (!screens.includes(flow.screen)) throw new StepAlreadyDone();
}

/**
 * Before a step's side effect (a text message, an e-mail, using up a code): the flow as it is now is
 * still on the step's screen, so a second submission of the step sends nothing and only catches up.
 */
export async function stillOnScreen(flow: Pick<FlowCore, "id" | "screen">): Promise<void> {
  const now = await findFlow(flow.id);
  if (!now) throw new FlowError("ended");
  assertOpen(now, [flow.screen]);
}

// ─── A step ─────────────────────────────────────────────────────────────────────────────────────

/**
 * The one guarded transition every step makes: the change applies only while the flow is open and
 * still on the screen the step started from, in one conditional update (inside `tx` when given). Of
 * two submissions of one step (a double click, two tabs), the second changes nothing and is told the
 * step is done; a flow that ended or expired meanwhile says so.
 */
export async function applyStep<K extends WayInName>(flow: WayFlow<K>, change: FlowChange<WayInRequests[K]>, tx?: Prisma.TransactionClient): Promise<void> {
  const prisma = tx ?? (await db());
  const res = await prisma.flowSession.updateMany({ where: { id: flow.id, status: "active", screen: flow.screen, expiresAt: { gt: clockNow() } }, data: changeData(flow, change) });
  if (res.count === 1) return;
  const now = await prisma.flowSession.findUnique({ where: { id: flow.id }, select: { status: true, expiresAt: true } });
  if (!now || now.status !== "active") throw new FlowError("ended");
  if (isExpired(now)) throw new FlowError("expired");
  throw new StepAlreadyDone();
}

/**
 * What was brought in, changed from its current value rather than from the one this request read:
 * two tabs previewing two assistants each keep theirs. The write applies only to the value it was
 * computed from, and is computed again when another request changed it first.
 */
export async function changeBroughtIn(flow: Pick<FlowCore, "id" | "screen" | "broughtIn">, change: (current: BroughtIn[]) => BroughtIn[]): Promise<void> {
  const prisma = await db();
  let current = flow.broughtIn;
  for (let attempt = 0; attempt < 5; attempt++) {
    const next = storedBroughtIn.parse(change(current));
    const res = await prisma.flowSession.updateMany({
      where: { id: flow.id, status: "active", screen: flow.screen, expiresAt: { gt: clockNow() }, broughtIn: { equals: current as unknown as Prisma.InputJsonValue } },
      data: { broughtIn: next },
    });
    if (res.count === 1) return;
    const fresh = await findFlow(flow.id);
    if (!fresh) throw new FlowError("ended");
    assertOpen(fresh, [flow.screen]);
    current = fresh.broughtIn;
  }
  throw new StepError("form", "The page changed in another tab. Try again.");
}

// ─── Onto the receipt ───────────────────────────────────────────────────────────────────────────

/** The app a flow's own app screen asked for (a connect link's app, a sign-in link's one connector), when the account has it connected. */
async function askedAppConnected<K extends WayInName>(tx: Prisma.TransactionClient, flow: WayFlow<K>, userId: string): Promise<string[]> {
  const app = traitsOf(flow).app;
  if (!app || !screensOf(flow).includes("app")) return [];
  const row = await tx.appConnection.findFirst({ where: { userId, app, status: "active" }, select: { id: true } });
  return row ? [app] : [];
}

/** What was brought in and kept, saved to the account as imports, in the saving transaction: the receipt's counts and the imports made. */
async function saveBroughtIn(tx: Prisma.TransactionClient, flowId: string, userId: string): Promise<{ saved: FlowReceipt["saved"]; importIds: string[] }> {
  // As it stands now, under the flow's row lock: a preview another tab kept meanwhile is saved too.
  const row = await tx.flowSession.findUniqueOrThrow({ where: { id: flowId }, select: { broughtIn: true } });
  const saved: FlowReceipt["saved"] = [];
  const importIds: string[] = [];
  for (const item of storedBroughtIn.parse(row.broughtIn).filter((b) => b.confirmed && b.memories.length)) {
    const importId = newId(PREFIX.importJob);
    const source = importSource(item.provider);
    await tx.import.create({ data: { id: importId, userId, provider: item.provider, source } });
    const written = await writeMemories(
      tx,
      { userId, source, writtenBy: source, agentId: null, importId },
      item.memories.map((m) => ({
        ...factToMemory(m.text),
        saidAt: m.at ? new Date(m.at) : null,
        provenance: { via: item.via === "file" ? "import_file" : "import_paste", import_id: importId },
      })),
    );
    const created = written.filter((w) => w.created).length;
    if (created) {
      await tx.import.update({ where: { id: importId }, data: { memoryCount: created } });
      importIds.push(importId);
    } else await tx.import.delete({ where: { id: importId } });
    saved.push({ provider: item.provider, count: created });
  }
  return { saved, importIds };
}

/**
 * The person is known (userId): saves what was brought in to their account, joins the flow's
 * connections to it, approves the agent with the apps given it — there is no permissions screen — and
 * does the way in's own part, in one transaction; the flow moves to its receipt. `change` is what the
 * step that finishes it writes besides (a connect link's capability allowed).
 */
export async function saveAndApprove<K extends WayInName>(flow: WayFlow<K>, userId: string, change: FlowChange<WayInRequests[K]> = {}): Promise<void> {
  const way = wayOf(flow);
  let bound = flow;
  const joined = await (
    await db()
  ).$transaction(async (tx) => {
    // First the flow's own transition (which locks its row): a second saving of the same flow waits
    // for this one, then finds the flow no longer on its screen and changes nothing.
    await applyStep(flow, { ...change, userId, screen: "receipt" }, tx);
    // The flow as that step left it: a passkey's sign-in brings the account's number digest with it
    // (a code's was stored at the phone step), and the way in's finishing reads it.
    const stepped = { ...flow, phoneHash: change.phoneHash ?? flow.phoneHash, phoneLast4: change.phoneLast4 ?? flow.phoneLast4 };
    bound = (await way.bindAgent?.(tx, stepped)) ?? stepped;
    const { saved, importIds } = await saveBroughtIn(tx, flow.id, userId);
    const connected = await attachFlowConnections(tx, { flowId: flow.id, userId });
    await recordMailboxAddress(tx, userId);
    if (bound.agentId) {
      await approveAgent({ userId, agentId: bound.agentId }, tx);
      // The apps the person gave this agent: those connected in its flow, and the one app its screen
      // asked for when the account already had it (Continue under "Connect Gmail" is that consent).
      await grantApps(tx, { userId, agentId: bound.agentId, apps: [...connected, ...(await askedAppConnected(tx, bound, userId))] });
    }
    await way.finishing?.(tx, { flow: bound, userId, importIds, connected });
    const receipt: FlowReceipt = { saved, connected, approvedAgentId: bound.agentId };
    await tx.flowSession.update({ where: { id: flow.id }, data: { receipt: receipt as unknown as Prisma.InputJsonValue } });
    return connected;
  });
  clearUserAccessCache();
  // The apps now on the account are read for memories in the background (committed above).
  await queueAppMemoriesOf(userId, joined);
  await way.finished?.(bound);
}

// ─── The end ────────────────────────────────────────────────────────────────────────────────────

/**
 * Return on the receipt: the flow ends, completed — once, only from its receipt and for the person who
 * finished it, in one conditional update — the agent's approval is confirmed and, in the same
 * transaction, the way in says where the browser goes (for OpenID Connect, with a new code).
 */
export async function returnToApp(input: { flowId: string; userId: string }): Promise<{ redirectTo: string }> {
  const at = clockNow();
  const result = await (
    await db()
  ).$transaction(async (tx) => {
    const found = await findFlow(input.flowId, tx);
    if (!found) throw new FlowError("not_found");
    return endCompleted(tx, found, input.userId, at);
  });
  // Cached lookups made while the transaction was open may have seen no approval.
  clearUserAccessCache();
  return { redirectTo: result };
}

async function endCompleted<K extends WayInName>(tx: Prisma.TransactionClient, flow: WayFlow<K>, userId: string, at: Date): Promise<string> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { plane: true, developerId: true } });
  if (!user) throw new FlowError("not_found");
  // A test user belongs to one developer: another developer's flow never reaches it.
  const otherDeveloper = user.plane === "test" && user.developerId !== flow.developerId;
  if (user.plane !== flow.plane || otherDeveloper || (flow.userId && flow.userId !== userId)) throw new FlowError("wrong_plane");
  // Of two completions, one wins; a flow not yet on its receipt is not completed at all.
  const ended = await tx.flowSession.updateMany({
    where: { id: flow.id, status: "active", screen: "receipt", userId, expiresAt: { gt: at } },
    data: { status: "completed", endedAt: at },
  });
  if (ended.count === 0) {
    const now = await tx.flowSession.findUnique({ where: { id: flow.id }, select: { status: true, expiresAt: true } });
    if (!now || now.status !== "active") throw new FlowError("ended");
    throw new FlowError(isExpired(now, at) ? "expired" : "not_finished");
  }
  const way = wayOf(flow);
  // An agent made only now (an MCP client's metadata document) is bound before anything names it.
  const bound = (await way.bindAgent?.(tx, flow)) ?? flow;
  if (bound.agentId) await approveAgent({ userId, agentId: bound.agentId }, tx);
  return way.returnTo(tx, bound, userId);
}

/** The person declined (Cancel): the flow ends declined, and its way in says where the browser goes and what the app hears. */
export async function declineFlow(input: { flowId: string }): Promise<{ redirectTo: string }> {
  const flow = await findFlow(input.flowId);
  if (!flow) throw new FlowError("not_found");
  // A flow on its receipt is finished (the app is approved): only Return ends it.
  const ended = await (
    await db()
  ).flowSession.updateMany({ where: { id: flow.id, status: "active", screen: { not: "receipt" } }, data: { status: "declined", endedAt: clockNow() } });
  if (ended.count === 0) throw new FlowError("ended");
  return { redirectTo: await wayOf(flow).declineTo(flow) };
}
