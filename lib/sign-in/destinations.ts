// Return destinations of hosted sign-in (POST|GET|DELETE /v1/auth/sign-in/return-destinations): the web
// callbacks and native app links an agent's sign-in links may send a person back to, and the only
// addresses a completion callback is sent to. Per agent and key plane; stored without their fragment
// and compared exactly.
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import type { Plane } from "../platform/db/generated/enums";
import { ApiError } from "../http/errors";
import { registrableWebUrl } from "../http/outbound";

export const DESTINATION_MESSAGES = {
  invalid: "return_to must be an absolute https URL (http only for localhost) or a native app link (scheme://…), without credentials.",
  notRegistered: "This return destination is not registered for the agent: register it first with POST /v1/auth/sign-in/return-destinations.",
} as const;

/** The most destinations one agent keeps per plane. */
export const MAX_RETURN_DESTINATIONS = 50;
/** The longest destination accepted. */
export const MAX_DESTINATION_LENGTH = 2048;

/** Schemes that never name an app: a return destination of one of these would run in the page. */
const FORBIDDEN_SCHEMES: ReadonlySet<string> = new Set(["javascript:", "data:", "vbscript:", "file:", "blob:", "about:", "ftp:", "ws:", "wss:"]);

/** Whether the value holds whitespace or a control character (never part of a destination). */
function hasControlOrSpace(value: string): boolean {
  return [...value].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f || /\s/.test(c));
}

/**
 * The destination as stored and compared: the URL without its fragment, or null when it may not be one.
 * Web: https, or http on localhost only, with a host and no credentials. App link: a custom scheme
 * (com.example.app://callback, myapp:/done) with something after it.
 */
export function normalizeDestination(value: string): string | null {
  if (value.length > MAX_DESTINATION_LENGTH || hasControlOrSpace(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  url.hash = "";
  const protocol = url.protocol.toLowerCase();
  if (protocol === "https:" || protocol === "http:") return registrableWebUrl(url);
  if (FORBIDDEN_SCHEMES.has(protocol)) return null;
  // A native app link: its own scheme (RFC 8252 private-use schemes look like reverse domain names).
  if (!/^[a-z][a-z0-9+.-]*:$/.test(protocol)) return null;
  const rest = value.split("#")[0]!.slice(protocol.length);
  return rest.replace(/^\/+/, "").length ? value.split("#")[0]! : null;
}

type Scope = { developerId: string; agentId: string; plane: Plane };

/** The refusal of one destination too many for an agent and plane. */
export const TOO_MANY_DESTINATIONS = `An agent keeps at most ${MAX_RETURN_DESTINATIONS} return destinations per plane: remove one first.`;

/**
 * The whole registration rule (the API's and the dashboard's): the destination's form
 * (invalid_destination), at most MAX_RETURN_DESTINATIONS per agent and plane (invalid_request), and
 * one already registered answered again (created: false).
 */
export async function addReturnDestination(input: Scope & { url: string }): Promise<{ url: string; created: boolean }> {
  const url = normalizeDestination(input.url);
  if (!url) throw new ApiError("invalid_destination", DESTINATION_MESSAGES.invalid, { field: "return_to" });
  const scope = scopeOf(input);
  const known = await (await db()).returnDestination.findUnique({ where: { agentId_plane_url: { agentId: input.agentId, plane: input.plane, url } }, select: { id: true } });
  if (known) return { url, created: false };
  if ((await countReturnDestinations(scope)) >= MAX_RETURN_DESTINATIONS) throw new ApiError("invalid_request", TOO_MANY_DESTINATIONS);
  return (await registerReturnDestination({ ...scope, url }))!;
}

/** Registers a destination; registering one again changes nothing. Answers the stored form. */
export async function registerReturnDestination(input: Scope & { url: string }): Promise<{ url: string; created: boolean } | null> {
  const url = normalizeDestination(input.url);
  if (!url) return null;
  const prisma = await db();
  const key = { agentId_plane_url: { agentId: input.agentId, plane: input.plane, url } };
  const existing = await prisma.returnDestination.findUnique({ where: key, select: { id: true } });
  if (existing) return { url, created: false };
  // Two registrations at once: one inserts, the other finds it.
  const created = await prisma.returnDestination.createMany({ data: [{ developerId: input.developerId, agentId: input.agentId, plane: input.plane, url }], skipDuplicates: true });
  return { url, created: created.count === 1 };
}

export async function countReturnDestinations(scope: Scope): Promise<number> {
  return (await db()).returnDestination.count({ where: scope });
}

export async function listReturnDestinations(scope: Scope) {
  return (await db()).returnDestination.findMany({ where: scope, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { url: true, createdAt: true } });
}

/** Removes a destination; whether there was one. */
export async function removeReturnDestination(input: Scope & { url: string }): Promise<boolean> {
  const url = normalizeDestination(input.url);
  if (!url) return false;
  return (await (await db()).returnDestination.deleteMany({ where: { ...scopeOf(input), url } })).count > 0;
}

function scopeOf(s: Scope): Scope {
  return { developerId: s.developerId, agentId: s.agentId, plane: s.plane };
}

/**
 * Whether the agent, in this plane, may send a person (or a completion callback) to `url`: it must be a
 * registered destination, compared exactly once its fragment is stripped. Inside `tx` when given (the
 * embedded database serves one connection: a query beside an open transaction would wait for it).
 */
export async function isRegisteredReturnDestination(input: { agentId: string; plane: Plane; url: string }, tx?: Prisma.TransactionClient): Promise<boolean> {
  const url = normalizeDestination(input.url);
  if (!url) return false;
  return !!(await (tx ?? (await db())).returnDestination.findUnique({ where: { agentId_plane_url: { agentId: input.agentId, plane: input.plane, url } }, select: { id: true } }));
}
