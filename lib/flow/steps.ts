// The hosted flow's steps: what each screen's buttons do to the flow. Each step checks that the flow
// is still open and on the screen the step belongs to, then moves it on; the pages only render.
import { parsePhoneNumberWithError, type CountryCode } from "libphonenumber-js";
import { now as clockNow } from "../clock";
import { EmailCodeError, sendEmailCode, verifyEmailCode } from "../auth/email-codes";
import { CodeError, sendSignInCode, verifySignInCode } from "../auth/phone-codes";
import { accountEmailVerified } from "../auth/email-proof";
import { configuredThirdParty, isThirdPartyProvider } from "../auth/third-party";
import { DEVELOPMENT_PROVIDER } from "../connectors/types";
import { db } from "../db";
import type { Prisma } from "../db/generated/client";
import { newId, PREFIX } from "../ids";
import { factToMemory } from "../profile/facts";
import { writeMemories } from "../profile/memories";
import { importSource } from "../profile/sources";
import { approveAgent, clearUserAccessCache } from "../users/approvals";
import { attachFlowConnections, capabilityConsentNeeded, recordMailboxAddress } from "../connectors/connections";
import { queueAppMemoriesOf } from "../connectors/memories/queue";
import { grantApps } from "../connectors/grants";
import { isAssistant, MAILBOX_APPS } from "../catalogue";
import { isMailboxOnly, requiredMet } from "./required";
import { phoneDigest } from "../users/phone";
import { approveConnectLink } from "../connect-links/links";
import { completePartnerSession, partnerImportUser, PARTNER_REF_TAKEN } from "../partner-sessions/sessions";
import { BringInError, previewExport, previewPaste, type BroughtIn } from "./bring-in";
import { countPreview, withPreviewSlot } from "./preview-limits";
import { nextScreen, screenSequence, type Screen } from "./sequence";
import { dispatchCompletionCallback, recordCompletionCallback } from "../sign-in/completion-callback";
import { findFlow, FlowError, flowApp, isExpired, offeredAssistants, offersSignIn, sequenceOf, type FlowReceipt, type FlowSession } from "./sessions";
import { storedBroughtIn } from "./stored";
import { bindDocumentClient } from "../personal-mcp/documents";

/** A problem with what the person entered, shown next to the field it names. */
export class StepError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = "StepError";
  }
}

/** A step already taken (a double submission, another tab): the page only needs to catch up. */
export class StepAlreadyDone extends StepError {
  constructor() {
    super("form", "This step is already done. The page has been brought up to date.");
  }
}

/** What a step's form shows after a submission: a StepError's field and message, or null when all went well. */
export type FormState = { field: string; message: string } | null;

function assertOpen(flow: FlowSession, screens: Screen[]): void {
  if (flow.status !== "active") throw new FlowError("ended");
  if (isExpired(flow)) throw new FlowError("expired");
  if (!screens.includes(flow.screen)) throw new StepAlreadyDone();
}

/**
 * The one guarded transition every step makes: the change applies only while the flow is open and
 * still on the screen the step started from, in one conditional update (inside `tx` when given). Of
 * two submissions of one step (a double click, two tabs), the second changes nothing and is told the
 * step is done; a flow that ended or expired meanwhile says so.
 */
async function update(flow: FlowSession, data: Prisma.FlowSessionUpdateManyMutationInput, tx?: Prisma.TransactionClient): Promise<void> {
  const prisma = tx ?? (await db());
  const res = await prisma.flowSession.updateMany({ where: { id: flow.id, status: "active", screen: flow.screen, expiresAt: { gt: clockNow() } }, data });
  if (res.count === 1) return;
  const now = await prisma.flowSession.findUnique({ where: { id: flow.id }, select: { status: true, expiresAt: true } });
  if (!now || now.status !== "active") throw new FlowError("ended");
  if (now.expiresAt <= clockNow()) throw new FlowError("expired");
  throw new StepAlreadyDone();
}

/**
 * Before a step's side effect (a text message, an e-mail, using up a code): the flow as it is now is
 * still on the step's screen, so a second submission of the step sends nothing and only catches up.
 */
async function stillOnScreen(flow: FlowSession): Promise<void> {
  const now = await findFlow(flow.id);
  if (!now) throw new FlowError("ended");
  assertOpen(now, [flow.screen]);
}

/**
 * What was brought in, changed from its current value rather than from the one this request read:
 * two tabs previewing two assistants each keep theirs. The write applies only to the value it was
 * computed from, and is computed again when another request changed it first.
 */
async function updateBroughtIn(flow: FlowSession, change: (current: BroughtIn[]) => BroughtIn[]): Promise<void> {
  const prisma = await db();
  let current = flow.broughtIn;
  for (let attempt = 0; attempt < 5; attempt++) {
    const res = await prisma.flowSession.updateMany({
      where: { id: flow.id, status: "active", screen: flow.screen, expiresAt: { gt: clockNow() }, broughtIn: { equals: current as unknown as Prisma.InputJsonValue } },
      data: { broughtIn: change(current) as unknown as Prisma.InputJsonValue },
    });
    if (res.count === 1) return;
    const fresh = await findFlow(flow.id);
    if (!fresh) throw new FlowError("ended");
    assertOpen(fresh, [flow.screen]);
    current = fresh.broughtIn;
  }
  throw new StepError("form", "The page changed in another tab. Try again.");
}

// ─── Import ─────────────────────────────────────────────────────────────────────────────────────

/**
 * A pasted answer or an uploaded export becomes this assistant's preview (replacing an earlier one).
 * Each counts against the flow's and (given `ip`, the browser's address) the network's preview
 * budgets; a large file is read only while the process has a slot for it (lib/flow/preview-limits.ts).
 */
export async function previewImport(flow: FlowSession, input: { provider: string; text?: string; file?: Uint8Array | Blob; ip?: string }): Promise<BroughtIn> {
  assertOpen(flow, ["import"]);
  if (!isAssistant(input.provider) || !offeredAssistants(flow).includes(input.provider)) throw new StepError("provider", "Choose an assistant.");
  const provider = input.provider;
  const file = input.file;
  const size = file ? (file instanceof Uint8Array ? file.byteLength : file.size) : 0;
  let memories;
  try {
    await countPreview({ flowId: flow.id, ip: input.ip });
    memories = file && size
      ? await withPreviewSlot(size, async () =>
          previewExport(provider, file instanceof Uint8Array ? file : new Uint8Array(await file.arrayBuffer()), { signedIn: !!flow.userId }),
        )
      : previewPaste(input.text ?? "");
  } catch (err) {
    if (err instanceof BringInError) throw new StepError(size ? "file" : "text", err.message);
    throw err;
  }
  const item: BroughtIn = { provider: input.provider, via: size ? "file" : "paste", memories, confirmed: false };
  await updateBroughtIn(flow, (current) => [...current.filter((b) => b.provider !== input.provider), item]);
  return item;
}

/** Keeps (or drops) an assistant's preview. */
export async function decidePreview(flow: FlowSession, input: { provider: string; keep: boolean }): Promise<void> {
  assertOpen(flow, ["import"]);
  await updateBroughtIn(flow, (current) => {
    const rest = current.filter((b) => b.provider !== input.provider);
    const item = current.find((b) => b.provider === input.provider);
    return input.keep && item ? [...rest, { ...item, confirmed: true }] : rest;
  });
}

/** Apps connected in this flow, or (signed in) on the account, and working. */
export interface ConnectedApp {
  app: string;
  provider: string;
  accountEmail: string | null;
  status: string;
  /** Set while the connection was made in this flow and the flow has not finished (on an account already when the person was signed in). */
  flowId: string | null;
}

export async function connectedApps(flow: FlowSession): Promise<ConnectedApp[]> {
  const where = flow.userId ? { OR: [{ flowId: flow.id }, { userId: flow.userId }] } : { flowId: flow.id };
  return (await db()).appConnection.findMany({ where, select: { app: true, provider: true, accountEmail: true, status: true, flowId: true }, orderBy: { createdAt: "asc" } });
}

/**
 * Names the person has met: assistants imported here, apps connected, and (signed in) what the
 * account already holds. `connections` is connectedApps(flow) when the caller has it already.
 */
export async function metNames(flow: FlowSession, connections?: ConnectedApp[]): Promise<Set<string>> {
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
export async function continueState(flow: FlowSession, connections?: ConnectedApp[]): Promise<ContinueState> {
  const apps = connections ?? (await connectedApps(flow));
  const met = await metNames(flow, apps);
  const required = flow.required.map((names) => ({ names, met: names.some((n) => met.has(n)) }));
  const broughtSomething = flow.broughtIn.some((b) => b.confirmed && b.memories.length) || apps.some((c) => c.flowId === flow.id && c.status === "active");
  const enabled = required.every((r) => r.met) && (broughtSomething || (await accountHoldsSomething(flow.userId)));
  return { enabled, required };
}

/** Continue on the import screen: to the phone number, or (signed in) straight to the receipt. */
export async function continueFromImport(flow: FlowSession): Promise<void> {
  assertOpen(flow, ["import"]);
  if (!(await continueState(flow)).enabled) throw new StepError("form", "Import from an assistant or connect an app first.");
  if (flow.userId) return finish(flow, flow.userId);
  const next = nextScreen(sequenceOf(flow), "import");
  // A partner link's import-only flow: no phone or code; what was brought in goes to partner_ref's account.
  if (next === "receipt" && flow.partnerSessionId) {
    const userId = await partnerImportUser(flow);
    if (!userId) throw new StepError("form", PARTNER_REF_TAKEN);
    return finish(flow, userId);
  }
  await update(flow, { screen: next });
}

/**
 * After the code, the mailbox page: for an OpenID Connect client that asked for the email scope when
 * the account has no verified address (and no mailbox that vouches for one was connected in this
 * flow), and for the service's own sign-up when no mailbox is connected (in the account or this flow).
 */
async function wantsMailboxAfterCode(flow: FlowSession, userId: string): Promise<boolean> {
  if (flow.wayIn === "oidc") return !!flow.request?.scopes.includes("email") && !(await verifiedOnceFinished(flow, userId));
  if (flow.wayIn !== "profile_signup") return false;
  const mailboxes = await (await db()).appConnection.count({
    // A development connection (/dev/connect) is no mailbox of the person's: the page is still offered.
    where: { OR: [{ userId }, { flowId: flow.id }], status: "active", app: { in: [...MAILBOX_APPS] }, provider: { not: DEVELOPMENT_PROVIDER } },
  });
  return mailboxes === 0;
}

class DryRun extends Error {}

/**
 * Whether the account's address will be proven once the flow finishes and its connections join the
 * account: finish's own steps, run in a transaction that is rolled back, then the one decision
 * (lib/auth/email-proof.ts) on what they left.
 */
export async function verifiedOnceFinished(flow: FlowSession, userId: string): Promise<boolean> {
  let verified = false;
  try {
    await (await db()).$transaction(async (tx) => {
      await attachFlowConnections(tx, { flowId: flow.id, userId });
      await recordMailboxAddress(tx, userId);
      verified = await accountEmailVerified(userId, tx);
      throw new DryRun();
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
  return verified;
}

/**
 * The mailbox page's Continue. First in the flow: once a mailbox the entry accepts is connected, on
 * to the import screen. After the code: the mailbox is offered, not required — Continue ends the flow.
 */
export async function continueFromMailbox(flow: FlowSession): Promise<void> {
  assertOpen(flow, ["mailbox"]);
  if (flow.userId) return finish(flow, flow.userId);
  const met = await metNames(flow);
  if (!requiredMet(flow.required.filter(isMailboxOnly), met)) throw new StepError("form", "Connect the mailbox first.");
  await update(flow, { screen: nextScreen(sequenceOf(flow), "mailbox") });
}

/** The mailbox page after the code, the other proof: a code e-mailed to an address the person gives. */
export async function sendFlowEmailCode(flow: FlowSession, input: { email: string; ip: string }): Promise<void> {
  assertOpen(flow, ["mailbox"]);
  if (!flow.userId) throw new StepError("email", "Sign in first.");
  try {
    await stillOnScreen(flow);
    const { email } = await sendEmailCode({ userId: flow.userId, email: input.email, ip: input.ip });
    await update(flow, { pendingEmail: email });
  } catch (err) {
    if (err instanceof EmailCodeError) throw new StepError("email", err.message);
    throw err;
  }
}

/** The e-mailed code: the address is proven, and the flow ends. */
export async function verifyFlowEmailCode(flow: FlowSession, input: { code: string }): Promise<void> {
  assertOpen(flow, ["mailbox"]);
  if (!flow.userId) throw new StepError("email_code", "Sign in first.");
  try {
    await stillOnScreen(flow);
    await verifyEmailCode({ userId: flow.userId, code: input.code });
  } catch (err) {
    if (err instanceof EmailCodeError) throw new StepError("email_code", err.message);
    throw err;
  }
  await finish(flow, flow.userId);
}

/** Whether the mailbox page after the code may send the person to `provider` to prove their address. */
export function thirdPartyProofReady(flow: FlowSession, provider: string): boolean {
  try {
    assertOpen(flow, ["mailbox"]);
  } catch (err) {
    if (err instanceof StepError || err instanceof FlowError) return false;
    throw err;
  }
  return !!flow.userId && isThirdPartyProvider(provider) && configuredThirdParty().includes(provider);
}

/**
 * Back from a Google or GitHub sign-in started on the mailbox page (lib/auth/third-party.ts): when it
 * proved an address for this flow's account, the flow ends as it does after an e-mailed code.
 * Answers whether it did.
 */
export async function finishThirdPartyProof(flow: FlowSession, sessionUserId: string | null): Promise<boolean> {
  assertOpen(flow, ["mailbox"]);
  if (!flow.userId || flow.userId !== sessionUserId) return false;
  if (!(await accountEmailVerified(flow.userId))) return false;
  await finish(flow, flow.userId);
  return true;
}

/** Back to entering another address. */
export async function changeFlowEmail(flow: FlowSession): Promise<void> {
  assertOpen(flow, ["mailbox"]);
  await update(flow, { pendingEmail: null });
}

/** A connect link's app screen: once that app is connected, on (phone and code, or the end). */
export async function continueFromApp(flow: FlowSession): Promise<void> {
  assertOpen(flow, ["app"]);
  const app = flowApp(flow);
  if (!app || !(await metNames(flow)).has(app)) throw new StepError("form", "Connect the app first.");
  const next = nextScreen(sequenceOf(flow), "app");
  if (next === "receipt" && flow.userId) return finish(flow, flow.userId);
  await update(flow, { screen: next });
}

/** The list of apps a signed-in person opened from a connect link: Continue ends it. */
export async function continueFromApps(flow: FlowSession): Promise<void> {
  assertOpen(flow, ["apps"]);
  if (!flow.userId) throw new StepError("form", "Sign in first.");
  await finish(flow, flow.userId);
}

/**
 * A capability's own page: the person allows it (refusing is Cancel). When the app's provider grants
 * the capability's scope separately and the connection lacks it, the flow stays here, marked allowed,
 * and answers the app whose consent the person goes through first (finishCapabilityConsent ends it).
 */
export async function allowCapability(flow: FlowSession): Promise<{ consent: string } | null> {
  assertOpen(flow, ["capability"]);
  if (!flow.userId || !flow.connect?.capability) throw new StepError("form", "Sign in first.");
  const connect = { ...flow.connect, capability_allowed: true };
  const consent = await capabilityConsentNeeded({ userId: flow.userId, capability: flow.connect.capability });
  if (consent) {
    await update(flow, { request: connect });
    return { consent };
  }
  await finish({ ...flow, connect }, flow.userId, { request: connect });
  return null;
}

/**
 * Back from the provider's consent a capability needed (allowCapability): the capability is granted
 * once the connection carries its scope. "missing" when the person left the scope unticked; "none"
 * when the flow was not waiting for it.
 */
export async function finishCapabilityConsent(flowId: string): Promise<"granted" | "missing" | "none"> {
  const flow = await findFlow(flowId);
  if (!flow || flow.status !== "active" || isExpired(flow) || flow.screen !== "capability") return "none";
  if (!flow.userId || !flow.connect?.capability || !flow.connect.capability_allowed) return "none";
  if (await capabilityConsentNeeded({ userId: flow.userId, capability: flow.connect.capability })) return "missing";
  await finish(flow, flow.userId, { request: { ...flow.connect } });
  return "granted";
}

/** "Sign in" under Continue: phone and code first, then the import screen. */
export async function chooseSignIn(flow: FlowSession): Promise<void> {
  assertOpen(flow, ["import"]);
  if (flow.userId || !offersSignIn(flow)) return;
  await update(flow, { signInFirst: true, screen: "phone" });
}

// ─── Phone and code ─────────────────────────────────────────────────────────────────────────────

/**
 * The number in E.164, from what the person typed (international, or national with a country).
 * Live numbers must be valid; sandbox numbers (fictitious ones like 555-0100) need only be possible.
 */
export function normalisePhone(raw: string, country?: string, plane: "live" | "test" = "live"): string {
  const text = raw.trim();
  if (!text) throw new StepError("phone", "Enter your mobile number.");
  try {
    const parsed = parsePhoneNumberWithError(text, country ? (country.toUpperCase() as CountryCode) : undefined);
    if (!(plane === "test" ? parsed.isPossible() : parsed.isValid())) throw new Error("invalid");
    return parsed.number;
  } catch {
    throw new StepError("phone", text.startsWith("+") || country ? "That is not a valid mobile number." : "Enter your number with its country code, starting with +.");
  }
}

function phoneScope(flow: FlowSession): string {
  return flow.plane === "test" ? (flow.developerId ?? "") : "";
}

/** Sends the code to the number and moves to the code screen. Known and unknown numbers alike. */
export async function submitPhone(flow: FlowSession, input: { phone: string; country?: string; ip: string }): Promise<{ e164: string }> {
  assertOpen(flow, ["phone", "code"]);
  const e164 = normalisePhone(input.phone, input.country, flow.plane);
  try {
    await stillOnScreen(flow);
    await sendSignInCode({ phone: e164, plane: flow.plane, phoneScope: phoneScope(flow), ip: input.ip, flowId: flow.id });
  } catch (err) {
    if (err instanceof CodeError) throw new StepError("phone", err.message);
    throw err;
  }
  const { phoneHash, phoneLast4 } = phoneDigest(e164);
  await update(flow, { phoneHash, phoneLast4, screen: "code" });
  return { e164 };
}

/** Back from the code screen to change the number. */
export async function changeNumber(flow: FlowSession): Promise<void> {
  assertOpen(flow, ["code"]);
  await update(flow, { screen: "phone" });
}

/** A connect link minted for one account, finished with another account's number. */
export const LINK_FOR_ANOTHER_ACCOUNT = "This link was made for another account. Enter the number of the account it is for, or ask the app for a new link.";

/**
 * The code: signs the person in to the account behind the number (created for a new number). A
 * person who chose Sign in goes on to the import screen; everyone else is finished.
 */
export async function submitCode(flow: FlowSession, input: { code: string }): Promise<{ userId: string }> {
  assertOpen(flow, ["code"]);
  const prisma = await db();
  const { phoneHash, phoneLast4 } = flow;
  if (!phoneHash || !phoneLast4) throw new StepError("code", "Enter your number first.");
  if (!/^\s*\d{6}\s*$/.test(input.code)) throw new StepError("code", "Enter the six digits from the text message.");
  try {
    await stillOnScreen(flow);
    await verifySignInCode({ phoneHash, plane: flow.plane, phoneScope: phoneScope(flow), code: input.code, flowId: flow.id });
  } catch (err) {
    if (err instanceof CodeError) throw new StepError("code", err.message);
    throw err;
  }
  const scope = phoneScope(flow);
  // A link minted for one account is finished by that account only: anyone else who holds it changes nothing.
  const forUserId = flow.connect?.for_user_id;
  if (forUserId) {
    const owner = await prisma.user.findUnique({ where: { plane_phoneScope_phoneHash: { plane: flow.plane, phoneScope: scope, phoneHash } }, select: { id: true } });
    if (owner?.id !== forUserId) throw new StepError("code", LINK_FOR_ANOTHER_ACCOUNT);
  }
  const user = await prisma.user.upsert({
    where: { plane_phoneScope_phoneHash: { plane: flow.plane, phoneScope: scope, phoneHash } },
    create: { plane: flow.plane, phoneScope: scope, phoneHash, phoneLast4, developerId: flow.plane === "test" ? flow.developerId : null },
    update: {},
    select: { id: true },
  });
  // On to the screen after the code (signed in), the mailbox page when the way in asks for one, or the end.
  const next = nextScreen(sequenceOf(flow), "code");
  if (next === "receipt" && (await wantsMailboxAfterCode(flow, user.id))) await update(flow, { userId: user.id, screen: "mailbox" });
  else if (next === "receipt") await finish(flow, user.id);
  else await update(flow, { userId: user.id, screen: next });
  return { userId: user.id };
}

// ─── Finish ─────────────────────────────────────────────────────────────────────────────────────

/** The app a flow's own app screen asked for (a connect link's app, a sign-in link's one connector), when the account has it connected. */
async function askedAppConnected(tx: Prisma.TransactionClient, flow: FlowSession, userId: string): Promise<string[]> {
  const app = flowApp(flow);
  if (!app || !screenSequence(sequenceOf(flow)).includes("app")) return [];
  const row = await tx.appConnection.findFirst({ where: { userId, app, status: "active" }, select: { id: true } });
  return row ? [app] : [];
}

/**
 * Saves what was brought in to the person's account and approves the app — there is no
 * permissions screen — in one transaction; the flow moves to the receipt.
 */
export async function finish(flow: FlowSession, userId: string, also: Prisma.FlowSessionUpdateManyMutationInput = {}): Promise<void> {
  const joined = await (await db()).$transaction(async (tx) => {
    // First the flow's own transition (which locks its row): a second finish of the same flow waits
    // for this one, then finds the flow no longer on its screen and changes nothing.
    await update(flow, { ...also, userId, screen: "receipt" }, tx);
    // An MCP client first read from its metadata document for this flow is stored now, and the flow bound to it.
    const bound = await bindDocumentClient(tx, flow);
    if (bound) flow = { ...flow, ...bound };
    // What was brought in as it stands now, under the lock: a preview another tab kept meanwhile is saved too.
    const row = await tx.flowSession.findUniqueOrThrow({ where: { id: flow.id }, select: { broughtIn: true } });
    const saved: FlowReceipt["saved"] = [];
    const importIds: string[] = [];
    for (const item of storedBroughtIn.parse(row.broughtIn).filter((b) => b.confirmed && b.memories.length)) {
      const importId = newId(PREFIX.importJob);
      const source = importSource(item.provider);
      await tx.import.create({ data: { id: importId, userId, provider: item.provider, source } });
      const written = await writeMemories(
        tx,
        { userId, source, writtenBy: source, agentId: null, importId },
        item.memories.map((m) => ({ ...factToMemory(m.text), saidAt: m.at ? new Date(m.at) : null, provenance: { via: item.via === "file" ? "import_file" : "import_paste", import_id: importId } })),
      );
      const created = written.filter((w) => w.created).length;
      if (created) {
        await tx.import.update({ where: { id: importId }, data: { memoryCount: created } });
        importIds.push(importId);
      } else await tx.import.delete({ where: { id: importId } });
      saved.push({ provider: item.provider, count: created });
    }
    const connected = await attachFlowConnections(tx, { flowId: flow.id, userId });
    await recordMailboxAddress(tx, userId);
    if (flow.agentId) {
      await approveAgent({ userId, agentId: flow.agentId }, tx);
      // The apps the person gave this agent: those connected in its flow, and the one app its screen
      // asked for when the account already had it (Continue under "Connect Gmail" is that consent).
      await grantApps(tx, { userId, agentId: flow.agentId, apps: [...connected, ...(await askedAppConnected(tx, flow, userId))] });
    }
    if (flow.connectLinkId) await approveConnectLink(tx, { linkId: flow.connectLinkId, userId, flow });
    if (flow.partnerSessionId) await completePartnerSession(tx, { flow, userId, importIds, connected });
    const receipt: FlowReceipt = { saved, connected, approvedAgentId: flow.agentId };
    await tx.flowSession.update({ where: { id: flow.id }, data: { receipt: receipt as unknown as Prisma.InputJsonValue } });
    const message = flow.signInLink?.message;
    if (message?.complete_url && flow.agentId && flow.developerId) {
      const agent = await tx.agent.findUniqueOrThrow({ where: { id: flow.agentId }, select: { handle: true } });
      await recordCompletionCallback(tx, {
        flowId: flow.id,
        linkHash: message.link_hash,
        developerId: flow.developerId,
        agentId: flow.agentId,
        agent: agent.handle,
        plane: flow.plane,
        userId,
        url: message.complete_url,
        journey: message.journey,
        messageBody: message.body,
        channel: message.channel,
      });
    }
    return connected;
  });
  clearUserAccessCache();
  // The apps now on the account are read for memories in the background (committed above).
  await queueAppMemoriesOf(userId, joined);
  // A text-back link's developer hears of it once the flow is finished (committed above).
  if (flow.signInLink?.message?.complete_url) await dispatchCompletionCallback(flow.id);
}
