// Turn correlation: which profile reads and writes belong to one conversation, and to one turn of it.
// On the developer MCP server the session's sid is the conversation (kept when a session is
// continued); on the REST profile routes the developer names it with X-Service-Conversation-Id and,
// optionally, the turn with X-Service-Turn-Id. Either way the access log records an opaque value keyed
// by the service's secret and scoped to the developer account, plane and agent: one developer's ids
// never meet another's, and the raw ids a developer chose are never stored nor shown to the person.
import { z } from "zod";
import { keyedHash } from "../platform/crypto";
import type { Plane } from "../platform/db/generated/enums";
import { ApiError } from "./errors";

/** The headers, as the documentation and error answers spell them. */
export const TURN_HEADERS = { conversation: "X-Service-Conversation-Id", turn: "X-Service-Turn-Id" } as const;
/** The longest id either header takes. */
export const TURN_ID_MAX_CHARS = 128;
/** The characters an id may hold: what a UUID, a ULID or a prefixed id (conv_…, thread:…) is made of. */
export const TURN_ID_PATTERN = /^[A-Za-z0-9._:-]+$/;

export const TURN_HEADER_MESSAGES = {
  empty: "is empty",
  tooLong: `is longer than ${TURN_ID_MAX_CHARS} characters`,
  alphabet: "may hold only letters, digits and . _ : -",
  turnWithoutConversation: `needs ${TURN_HEADERS.conversation}: a turn belongs to a conversation`,
} as const;

const id = z.string().min(1, TURN_HEADER_MESSAGES.empty).max(TURN_ID_MAX_CHARS, TURN_HEADER_MESSAGES.tooLong).regex(TURN_ID_PATTERN, TURN_HEADER_MESSAGES.alphabet);

const turnHeaders = z
  .object({ conversation: id.optional(), turn: id.optional() })
  .refine((h) => h.turn === undefined || h.conversation !== undefined, { path: ["turn"], message: TURN_HEADER_MESSAGES.turnWithoutConversation });

/** The ids a request named: the conversation, and the turn within it when given. */
export interface TurnHeaders {
  conversation: string;
  turn?: string;
}

/**
 * The turn-correlation headers of a request: null when it sends neither; a 400 invalid_request naming
 * the header otherwise (empty, too long, outside the alphabet, or a turn without its conversation).
 */
export function readTurnHeaders(req: { readonly headers: Pick<Headers, "get"> }): TurnHeaders | null {
  const raw = { conversation: req.headers.get(TURN_HEADERS.conversation) ?? undefined, turn: req.headers.get(TURN_HEADERS.turn) ?? undefined };
  if (raw.conversation === undefined && raw.turn === undefined) return null;
  const parsed = turnHeaders.safeParse(raw);
  if (!parsed.success) {
    // One problem per header: the first, so an empty value is "empty" and not also "outside the alphabet".
    const fields: { field: string; message: string }[] = [];
    for (const issue of parsed.error.issues) {
      const header = TURN_HEADERS[issue.path[0] as keyof typeof TURN_HEADERS];
      if (!fields.some((f) => f.field === header)) fields.push({ field: header, message: `${header} ${issue.message}` });
    }
    throw new ApiError("invalid_request", `Invalid headers: ${fields.map((f) => f.field).join(", ")}.`, { fields });
  }
  return { conversation: parsed.data.conversation!, ...(parsed.data.turn !== undefined ? { turn: parsed.data.turn } : {}) };
}

/** Whose ids they are: one developer account's agent in one plane. */
export interface TurnScope {
  developerId: string;
  plane: Plane;
  agentId: string;
}

/** What the access log records of a call's conversation and turn (null: none named). */
export interface Correlation {
  conversation: string | null;
  turn: string | null;
}

export const NO_CORRELATION: Correlation = { conversation: null, turn: null };

const PURPOSE = "turn-correlation";

function ref(prefix: string, parts: readonly string[]): string {
  return `${prefix}_${keyedHash(PURPOSE, JSON.stringify(parts)).slice(0, 24)}`;
}

/** The recorded value of a REST request's headers. */
export function restCorrelation(scope: TurnScope, headers: TurnHeaders | null): Correlation {
  if (!headers) return NO_CORRELATION;
  const base = [scope.developerId, scope.plane, scope.agentId, "rest", headers.conversation];
  return { conversation: ref("cv", base), turn: headers.turn !== undefined ? ref("tn", [...base, headers.turn]) : null };
}

/**
 * The recorded value of an MCP session's sid: the conversation, the same for every call made with the
 * session and with the sessions continued from it. An MCP call carries no turn id: a commit ends a turn.
 */
export function mcpCorrelation(scope: TurnScope, sessionId: string | undefined): Correlation {
  if (!sessionId) return NO_CORRELATION;
  return { conversation: ref("cv", [scope.developerId, scope.plane, scope.agentId, "mcp", sessionId]), turn: null };
}
