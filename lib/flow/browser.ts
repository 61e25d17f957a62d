// A flow belongs to the browser that started it: a cookie, one per flow and scoped to the flow's path,
// holds a random value whose keyed hash the flow keeps. This module owns that cookie and the
// redirects that hand a new flow to its browser.
import { keyedHash, randomBase62, safeEqual } from "../platform/crypto";
import { db } from "../platform/db";
import { defineCookie, requestCookie, setCookieHeader, type CookieDefinition } from "../http/cookies";
import { noticePage } from "../http/html";
import { FLOW_RATE_LIMITED, type FlowError } from "./errors";
import { flowUrl } from "./urls";

/** The person has this long to finish the hosted flow; the cookie that ties it to the browser lives as long. */
export const FLOW_TTL_SECONDS = 15 * 60;
/** The cookie that ties a flow to its browser; one per flow, named with the flow's id. */
export const FLOW_COOKIE_PREFIX = "service_flow_";
const BROWSER_HASH_PURPOSE = "flow-browser";

/**
 * Whether a value from a URL can be a flow id (randomBase62(32), as flows are made): checked before
 * any lookup, so NUL, control characters or a huge value find no flow instead of a database error.
 */
export function isFlowId(value: string): boolean {
  return /^[A-Za-z0-9]{32}$/.test(value);
}

/** A new flow's id, and the value its browser's cookie holds with that value's keyed hash, which the flow keeps. */
export function newFlowIdentity(): { id: string; browserSecret: string; browserHash: string } {
  const id = randomBase62(32);
  const browserSecret = randomBase62(32);
  return { id, browserSecret, browserHash: keyedHash(BROWSER_HASH_PURPOSE, `${id}.${browserSecret}`) };
}

export function flowCookieName(flowId: string): string {
  return FLOW_COOKIE_PREFIX + flowId;
}

/** The cookie that ties a flow to its browser: scoped to the flow's path, its life long. */
export function flowCookie(flowId: string): CookieDefinition {
  return defineCookie({ name: flowCookieName(flowId), path: `/flow/${flowId}`, maxAge: FLOW_TTL_SECONDS });
}

/** The flow's browser cookie as a request carries it (route handlers read it from the request, so they run outside Next.js too). */
export function flowCookieFrom(req: Request, flowId: string): string | undefined {
  return requestCookie(req, flowCookie(flowId));
}

/** The Set-Cookie header that ties a new flow to the browser. */
export function flowCookieHeader(flow: { id: string; browserSecret: string }): string {
  return setCookieHeader(flowCookie(flow.id), flow.browserSecret);
}

/** The browser's way into a new flow: to its page, with the cookie that ties the flow to this browser. */
export function flowRedirect(flow: { id: string; browserSecret: string }): Response {
  return new Response(null, { status: 303, headers: { Location: flowUrl(flow.id), "Cache-Control": "no-store", "Set-Cookie": flowCookieHeader(flow) } });
}

/** The hosted notice for a browser over the flow-start limit (sign-up, the links that open flows). */
export function flowRateLimitedPage(err: FlowError): Response {
  const page = noticePage({ title: "Please wait a few minutes", text: FLOW_RATE_LIMITED, status: 429 });
  page.headers.set("Retry-After", String(err.retryAfter ?? 60));
  return page;
}

/** Whether the browser's cookie value is the one the flow was started with. */
export async function isFlowBrowser(flow: string | { id: string; browserHash: string }, cookieValue: string | undefined): Promise<boolean> {
  if (!cookieValue || (typeof flow === "string" && !isFlowId(flow))) return false;
  // A flow already read carries its hash; an id alone is looked up.
  const row = typeof flow === "string" ? await (await db()).flowSession.findUnique({ where: { id: flow }, select: { id: true, browserHash: true } }) : flow;
  return !!row && safeEqual(row.browserHash, keyedHash(BROWSER_HASH_PURPOSE, `${row.id}.${cookieValue}`));
}
