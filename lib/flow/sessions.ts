// Flow sessions: one person's way through the hosted flow, created by a way in (an OpenID Connect
// authorize request, …). A flow lives 15 minutes, belongs to the browser that started it (a cookie
// holds a random value whose keyed hash the flow keeps), and ends once: completed — the person is
// known, the agent approved, and for OpenID Connect a code issued — or declined.
import { keyedHash, randomBase62, safeEqual } from "../crypto";
import { db } from "../db";
import type { Prisma } from "../db/generated/client";
import { isRegisteredDestination } from "../developers/destinations";
import { env } from "../env";
import { noticePage } from "../http/html";
import { ipLimitKey } from "../http/request";
import { lazyLimiter } from "../ratelimit";
import type { Plane } from "../db/generated/enums";
import { now as clockNow } from "../clock";
import { issueCode } from "../oidc/tokens";
import type { RequiredEntry } from "./required";
import { bindDocumentClient } from "../personal-mcp/documents";
import type { StoredClientDocument } from "../personal-mcp/pending";
import { approveAgent, clearUserAccessCache } from "../users/approvals";
import type { BroughtIn } from "./bring-in";
import { issueSignInCode } from "../sign-in/codes";
import { isRegisteredReturnDestination } from "../sign-in/destinations";
import { ASSISTANTS, type Assistant } from "../catalogue";
import { firstScreen, oneAppOf, type PartnerFlow, type Screen, type SequenceInput, type WayIn } from "./sequence";
import { storedBroughtIn, storedConnectRequest, storedOidcRequest, storedPartnerRequest, storedReceipt, storedRequired, storedSignInLinkRequest } from "./stored";

export type { WayIn };

/** The person has this long to finish the hosted flow. */
export const FLOW_TTL_SECONDS = 15 * 60;
/** The cookie that ties a flow to its browser; one per flow, named with the flow's id. */
export const FLOW_COOKIE_PREFIX = "service_flow_";
const BROWSER_HASH_PURPOSE = "flow-browser";


/** What an OpenID Connect authorize request carries into its flow. */
export interface OidcFlowRequest {
  redirect_uri: string;
  state: string | null;
  nonce: string | null;
  scopes: string[];
  code_challenge: string;
  /** An MCP client's metadata document not stored yet: its client and agent are made when the flow completes. */
  client_document?: StoredClientDocument;
}

export interface FlowSession {
  id: string;
  wayIn: WayIn;
  /** The developer and agent the flow is for; null for the service's own sign-up. */
  developerId: string | null;
  agentId: string | null;
  plane: Plane;
  clientId: string | null;
  /** The authorize request, for an "oidc" or "mcp_client" way in; null otherwise. */
  request: OidcFlowRequest | null;
  /** The connect link's request, for a "connect" way in; null otherwise. */
  connect: ConnectFlowRequest | null;
  /** The sign-in link's request, for a "sign_in_link" way in; null otherwise. */
  signInLink: SignInLinkRequest | null;
  /** The partner link's request, for a "partner" way in; null otherwise. */
  partner: PartnerFlowRequest | null;
  connectLinkId: string | null;
  partnerSessionId: string | null;
  required: RequiredEntry[];
  status: "active" | "completed" | "declined";
  screen: Screen;
  signInFirst: boolean;
  broughtIn: BroughtIn[];
  /** The number the code was sent to: its keyed hash and last four digits. */
  phoneHash: string | null;
  phoneLast4: string | null;
  /** The address an e-mailed code went to, on the mailbox page after the code. */
  pendingEmail: string | null;
  userId: string | null;
  receipt: FlowReceipt | null;
  expiresAt: Date;
  /** Keyed hash of the browser's flow cookie (isFlowBrowser). */
  browserHash: string;
}

/** What a connect link carries into its flow. */
export interface ConnectFlowRequest {
  app: string | null;
  capability: string | null;
  purpose: string | null;
  client_name: string | null;
  return_url: string | null;
  /** The person had a session when the link opened. */
  signed_in: boolean;
  /**
   * The link binds the developer's own id for a person to the account that finishes it: only after a
   * code in this flow (a session is not consent), and never an id already bound.
   */
  binds_external_id?: boolean;
  /** The account the link was minted for, when the developer named one: no other account may finish it. */
  for_user_id?: string | null;
  /** Set once the person allowed the capability. */
  capability_allowed?: boolean;
}

/** What a hosted sign-in link ({sign_in_url}/<agent>) carries into its flow. */
export interface SignInLinkRequest {
  /** The registered return destination the code goes back to; null when the link names none. */
  return_to: string | null;
  state: string | null;
  /** The name the hosted pages show for the app, when the link gives one. */
  display_name: string | null;
  /** The connectors the link names (valid ones, as given). */
  connectors: string[];
  /** The link's /reconnect form: the connectors named need connecting again. */
  reconnect: boolean;
  /** A text-back link (delivery=message): the message line it came from and what the completion callback carries. */
  message: {
    line_id: string;
    channel: string;
    complete_url: string | null;
    journey: string | null;
    body: string | null;
    /** The signed link's hash: its completion callback goes out for the first flow to finish it only. */
    link_hash: string;
  } | null;
}

/** What a partner flow session's link carries into its flow (lib/partner-sessions). */
export interface PartnerFlowRequest {
  flow: PartnerFlow;
  /** The assistants the import screen offers. */
  sources: Assistant[];
  /** linked_account with the developer's phone-first order: phone and code before the import screen. */
  phone_first: boolean;
  /**
   * The partner's id for the person is bound to the account that finishes: only after a code in this
   * flow, and only while no account holds it (no account held it when the link opened).
   */
  binds_external_id: boolean;
}

/** What the receipt shows: the memories saved per assistant, and the app approved. */
export interface FlowReceipt {
  saved: Array<{ provider: string; count: number }>;
  /** Apps connected during the flow. */
  connected?: string[];
  approvedAgentId: string | null;
}

export class FlowError extends Error {
  constructor(
    readonly reason: "not_found" | "expired" | "ended" | "wrong_plane" | "rate_limited",
    readonly retryAfter?: number,
  ) {
    super(reason === "rate_limited" ? FLOW_RATE_LIMITED : `Flow ${reason.replace("_", " ")}.`);
    this.name = "FlowError";
  }
}

export const FLOW_RATE_LIMITED = "Too many sign-ins were started from this network. Try again in a few minutes.";

const flowStarts = lazyLimiter(() => ({ name: "flow-start", points: env().FLOWS_PER_IP_PER_HOUR, durationSeconds: 3600 }));

/** The hosted notice for a browser over the flow-start limit (sign-up, connect links). */
export function flowRateLimitedPage(err: FlowError): Response {
  const page = noticePage({ title: "Please wait a few minutes", text: FLOW_RATE_LIMITED, status: 429 });
  page.headers.set("Retry-After", String(err.retryAfter ?? 60));
  return page;
}

export function flowCookieName(flowId: string): string {
  return FLOW_COOKIE_PREFIX + flowId;
}

/** The flow's browser cookie as a request carries it (route handlers read it from the request, so they run outside Next.js too). */
export function flowCookieFrom(req: Request, flowId: string): string | undefined {
  const name = flowCookieName(flowId);
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie header that ties a new flow to the browser: HttpOnly, scoped to the flow's path, its life long. */
export function flowCookieHeader(flow: { id: string; browserSecret: string }): string {
  const secure = env().BASE_URL.startsWith("https:") ? "; Secure" : "";
  return `${flowCookieName(flow.id)}=${flow.browserSecret}; Path=/flow/${flow.id}; Max-Age=${FLOW_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}

/** Where the hosted flow for a flow id lives. */
export function flowUrl(flowId: string): string {
  return `${env().BASE_URL}/flow/${flowId}`;
}

/** The browser's way into a new flow: to its page, with the cookie that ties the flow to this browser. */
export function flowRedirect(flow: { id: string; browserSecret: string }): Response {
  return new Response(null, { status: 303, headers: { Location: flowUrl(flow.id), "Cache-Control": "no-store", "Set-Cookie": flowCookieHeader(flow) } });
}

/** Starts a flow; returns its id and the value the browser's flow cookie must hold. */
export async function createFlow(input: {
  wayIn: WayIn;
  developerId?: string;
  agentId?: string;
  plane: Plane;
  clientId?: string;
  request?: OidcFlowRequest;
  connect?: ConnectFlowRequest;
  signInLink?: SignInLinkRequest;
  partner?: PartnerFlowRequest;
  connectLinkId?: string;
  partnerSessionId?: string;
  userId?: string;
  required: RequiredEntry[];
  /** The client's address: every way in counts against one per-IP limit (FLOWS_PER_IP_PER_HOUR). */
  ip: string;
}): Promise<{ id: string; browserSecret: string; expiresAt: Date }> {
  const limited = await flowStarts.consume(`ip:${ipLimitKey(input.ip)}`);
  if (!limited.allowed) throw new FlowError("rate_limited", limited.retryAfter);
  const id = randomBase62(32);
  const browserSecret = randomBase62(32);
  const createdAt = clockNow();
  const expiresAt = new Date(createdAt.getTime() + FLOW_TTL_SECONDS * 1000);
  await (await db()).flowSession.create({
    data: {
      id,
      wayIn: input.wayIn,
      developerId: input.developerId,
      agentId: input.agentId,
      plane: input.plane,
      clientId: input.clientId,
      request: (input.request ?? input.connect ?? input.signInLink ?? input.partner ?? {}) as Prisma.InputJsonValue,
      connectLinkId: input.connectLinkId,
      partnerSessionId: input.partnerSessionId,
      userId: input.userId,
      required: input.required,
      screen: firstScreen({ wayIn: input.wayIn, required: input.required, connect: connectInput(input.connect), signInLink: input.signInLink, partner: partnerInput(input.partner) }),
      browserHash: keyedHash(BROWSER_HASH_PURPOSE, `${id}.${browserSecret}`),
      createdAt,
      expiresAt,
    },
  });
  return { id, browserSecret, expiresAt };
}

/**
 * Whether a value from a URL can be a flow id (randomBase62(32), as createFlow makes them): checked
 * before any lookup, so NUL, control characters or a huge value find no flow instead of a database error.
 */
export function isFlowId(value: string): boolean {
  return /^[A-Za-z0-9]{32}$/.test(value);
}

/** A flow by id, as stored (expired or ended ones included); null when unknown. */
export async function findFlow(id: string): Promise<FlowSession | null> {
  if (!isFlowId(id)) return null;
  const row = await (await db()).flowSession.findUnique({ where: { id } });
  if (!row) return null;
  return {
    id: row.id,
    wayIn: row.wayIn,
    developerId: row.developerId,
    agentId: row.agentId,
    plane: row.plane,
    clientId: row.clientId,
    request: issuesCode(row.wayIn) ? storedOidcRequest.parse(row.request) : null,
    connect: row.wayIn === "connect" ? storedConnectRequest.parse(row.request) : null,
    signInLink: row.wayIn === "sign_in_link" ? storedSignInLinkRequest.parse(row.request) : null,
    partner: row.wayIn === "partner" ? storedPartnerRequest.parse(row.request) : null,
    connectLinkId: row.connectLinkId,
    partnerSessionId: row.partnerSessionId,
    required: storedRequired.parse(row.required),
    status: row.status,
    screen: row.screen,
    signInFirst: row.signInFirst,
    broughtIn: storedBroughtIn.parse(row.broughtIn),
    phoneHash: row.phoneHash,
    phoneLast4: row.phoneLast4,
    pendingEmail: row.pendingEmail,
    userId: row.userId,
    receipt: storedReceipt.parse(row.receipt),
    expiresAt: row.expiresAt,
    browserHash: row.browserHash,
  };
}

/** The sequence's view of a connect request. */
export function connectInput(c: ConnectFlowRequest | null | undefined) {
  return c ? { app: c.app, capability: c.capability, signedIn: c.signed_in } : undefined;
}

/** The sequence's view of a partner link's request. */
export function partnerInput(p: PartnerFlowRequest | null | undefined) {
  return p ? { flow: p.flow, phoneFirst: p.phone_first } : undefined;
}

/** What decides a flow's screen order. */
export function sequenceOf(flow: FlowSession): SequenceInput {
  return {
    wayIn: flow.wayIn,
    required: flow.required,
    signInFirst: flow.signInFirst,
    mailboxAfterCode: flow.screen === "mailbox" && !!flow.userId,
    connect: connectInput(flow.connect),
    signInLink: flow.signInLink ?? undefined,
    partner: partnerInput(flow.partner),
  };
}

/** The assistants a flow's import screen offers (and imports from): a partner link's sources, otherwise all four. */
export function offeredAssistants(flow: Pick<FlowSession, "partner">): readonly Assistant[] {
  return flow.partner ? ASSISTANTS.filter((a) => flow.partner!.sources.includes(a)) : ASSISTANTS;
}

/** Whether the import screen offers "Sign in" (phone and code first): every flow that asks for a number. */
export function offersSignIn(flow: Pick<FlowSession, "partner">): boolean {
  return flow.partner?.flow !== "import";
}

/** Whether apps can be connected in the flow: not in a partner link's import-only flow, which brings in assistants only. */
export function connectsApps(flow: Pick<FlowSession, "partner">): boolean {
  return flow.partner?.flow !== "import";
}

/** The one app a flow's app screen is for: a connect link's app, or a sign-in link's one connector. */
export function flowApp(flow: Pick<FlowSession, "connect" | "signInLink">): string | null {
  return flow.connect?.app ?? (flow.signInLink ? oneAppOf(flow.signInLink.connectors) : null);
}

/** Whether the browser's cookie value is the one the flow was started with. */
export async function isFlowBrowser(flow: string | Pick<FlowSession, "id" | "browserHash">, cookieValue: string | undefined): Promise<boolean> {
  if (!cookieValue || (typeof flow === "string" && !isFlowId(flow))) return false;
  // A flow already read carries its hash; an id alone is looked up.
  const row = typeof flow === "string" ? await (await db()).flowSession.findUnique({ where: { id: flow }, select: { id: true, browserHash: true } }) : flow;
  return !!row && safeEqual(row.browserHash, keyedHash(BROWSER_HASH_PURPOSE, `${row.id}.${cookieValue}`));
}

export function isExpired(flow: Pick<FlowSession, "expiresAt">, at = clockNow()): boolean {
  return flow.expiresAt <= at;
}

/** What a browser finds at a flow's address. */
export type OpenedFlow =
  | { state: "open"; flow: FlowSession }
  /** Started in another browser (no cookie, or another one). */
  | { state: "foreign"; flow: FlowSession }
  /** Finished or declined. */
  | { state: "ended"; flow: FlowSession }
  /** Its 15 minutes are up. */
  | { state: "expired"; flow: FlowSession }
  | { state: "unknown"; flow: null };

/**
 * The one check every flow page, action and route handler makes: whether this browser (its flow
 * cookie's value) may open the flow, and whether the flow is still open.
 */
export async function openFlowFor(flowId: string, cookieValue: string | undefined): Promise<OpenedFlow> {
  const flow = await findFlow(flowId);
  if (!flow) return { state: "unknown", flow: null };
  if (!(await isFlowBrowser(flow, cookieValue))) return { state: "foreign", flow };
  if (flow.status !== "active") return { state: "ended", flow };
  if (isExpired(flow)) return { state: "expired", flow };
  return { state: "open", flow };
}

/**
 * The ways in that began with an authorize request and end with an authorization code sent to the
 * client's callback: a relying party's OpenID Connect sign-in, and an MCP client a person installed.
 */
export function issuesCode(wayIn: WayIn): boolean {
  return wayIn === "oidc" || wayIn === "mcp_client";
}

/** The callback URL with the given parameters added to whatever query it already has. */
function callback(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return url.toString();
}

/** Where the person goes when a flow of the service's own (profile sign-up) ends. */
export function profileHome(): string {
  return `${env().BASE_URL}/`;
}

/**
 * The end of a flow: the person (userId) is known. Approves the agent for them and, for OpenID
 * Connect, issues the code — in one transaction, once. Returns where to send the browser.
 */
export async function completeFlow(input: { flowId: string; userId: string }): Promise<{ redirectTo: string }> {
  const at = clockNow();
  const result = await (await db()).$transaction(async (tx) => {
    const found = await tx.flowSession.findUnique({ where: { id: input.flowId } });
    if (!found) throw new FlowError("not_found");
    let flow = found;
    const user = await tx.user.findUnique({ where: { id: input.userId }, select: { plane: true, developerId: true } });
    if (!user) throw new FlowError("not_found");
    // A test user belongs to one developer: another developer's flow never reaches it.
    const otherDeveloper = user.plane === "test" && user.developerId !== flow.developerId;
    if (user.plane !== flow.plane || otherDeveloper || (flow.userId && flow.userId !== input.userId)) throw new FlowError("wrong_plane");
    // Ends the flow only if it is still active and unexpired: of two completions, one wins.
    const ended = await tx.flowSession.updateMany({
      where: { id: flow.id, status: "active", expiresAt: { gt: at } },
      data: { status: "completed", userId: input.userId, endedAt: at },
    });
    if (ended.count === 0) throw new FlowError(flow.status !== "active" ? "ended" : "expired");
    // An MCP client first read from its metadata document for this flow is stored now, and the flow bound to it.
    const bound = await bindDocumentClient(tx, flow);
    if (bound) flow = { ...flow, ...bound };
    if (flow.agentId) await approveAgent({ userId: input.userId, agentId: flow.agentId }, tx);
    if (flow.wayIn === "connect") return { redirectTo: (await connectReturn(flow, tx)) ?? profileHome() };
    if (flow.wayIn === "sign_in_link") return { redirectTo: await signInLinkReturn(flow, input.userId, tx) };
    if (!issuesCode(flow.wayIn)) return { redirectTo: profileHome() };
    const request = storedOidcRequest.parse(flow.request);
    const code = await issueCode(
      {
        clientId: flow.clientId!,
        userId: input.userId,
        agentId: flow.agentId!,
        developerId: flow.developerId!,
        plane: flow.plane,
        redirectUri: request.redirect_uri,
        codeChallenge: request.code_challenge,
        nonce: request.nonce,
        scopes: request.scopes,
      },
      tx,
    );
    return { redirectTo: callback(request.redirect_uri, { code, state: request.state }) };
  });
  // Cached lookups made while the transaction was open may have seen no approval.
  clearUserAccessCache();
  return result;
}

/**
 * A connect link's return_url while it is still a destination the developer registered (checked again
 * now: an origin removed since stops receiving people); null otherwise.
 */
async function connectReturn(flow: { developerId: string | null; request: unknown }, tx?: Prisma.TransactionClient): Promise<string | null> {
  const back = storedConnectRequest.parse(flow.request).return_url;
  if (!back || !flow.developerId) return null;
  return (await isRegisteredDestination({ developerId: flow.developerId, url: back }, tx)) ? back : null;
}

/**
 * Where a finished sign-in link sends the browser: its return destination (registered still, checked
 * again now) with a new sign-in code and the state; the service's home when it has none (text-back links).
 */
async function signInLinkReturn(flow: { developerId: string | null; agentId: string | null; plane: Plane; request: unknown }, userId: string, tx: Prisma.TransactionClient): Promise<string> {
  const link = storedSignInLinkRequest.parse(flow.request);
  const back = await signInLinkDestination(flow, link, tx);
  if (!back) return profileHome();
  const { code } = await issueSignInCode({ developerId: flow.developerId!, agentId: flow.agentId!, plane: flow.plane, userId }, tx);
  return callback(back, { code, state: link.state });
}

async function signInLinkDestination(flow: { agentId: string | null; plane: Plane }, link: SignInLinkRequest, tx?: Prisma.TransactionClient): Promise<string | null> {
  if (!link.return_to || !flow.agentId) return null;
  return (await isRegisteredReturnDestination({ agentId: flow.agentId, plane: flow.plane, url: link.return_to }, tx)) ? link.return_to : null;
}

/** The person declined (Cancel): the callback gets error=access_denied and the state, no code. */
export async function declineFlow(input: { flowId: string }): Promise<{ redirectTo: string }> {
  const at = clockNow();
  const prisma = await db();
  const flow = await prisma.flowSession.findUnique({ where: { id: input.flowId } });
  if (!flow) throw new FlowError("not_found");
  // A flow on its receipt is finished (the app is approved): only Return ends it.
  const ended = await prisma.flowSession.updateMany({ where: { id: flow.id, status: "active", screen: { not: "receipt" } }, data: { status: "declined", endedAt: at } });
  if (ended.count === 0) throw new FlowError("ended");
  if (flow.wayIn === "connect") {
    const back = await connectReturn(flow);
    return { redirectTo: back ? callback(back, { error: "access_denied" }) : profileHome() };
  }
  if (flow.wayIn === "sign_in_link") {
    const link = storedSignInLinkRequest.parse(flow.request);
    const back = await signInLinkDestination(flow, link);
    return { redirectTo: back ? callback(back, { error: "access_denied", state: link.state }) : profileHome() };
  }
  if (!issuesCode(flow.wayIn)) return { redirectTo: profileHome() };
  const request = storedOidcRequest.parse(flow.request);
  return { redirectTo: callback(request.redirect_uri, { error: "access_denied", state: request.state }) };
}
