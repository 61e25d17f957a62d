// Memory sources (imports/<provider>, agents/<handle>, apps/<app>), the search source filter, and
// who may see and delete which memories: the one place visibility is decided.
import { ApiError } from "../http/errors";

/** Bare source names, ambiguous on purpose: each matches the agent of that name and the import from it. */
export const BARE_SOURCES = ["claude", "gemini", "grok", "chatgpt", "other"] as const;

export const agentSource = (handle: string) => `agents/${handle}`;
export const importSource = (provider: string) => `imports/${provider}`;
export const appSource = (app: string) => `apps/${app}`;

const EXACT_SOURCE = /^(agents|imports|apps)\/[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * The sources a search's `source` filter stands for. A bare name (claude, gemini, grok, chatgpt,
 * other) matches both agents/<name> and imports/<name>; agents/<name>, imports/<provider> and
 * apps/<app> match exactly. Anything else is a 400.
 */
export function sourcesForFilter(filter: string): string[] {
  const value = filter.trim().toLowerCase();
  if ((BARE_SOURCES as readonly string[]).includes(value)) return [agentSource(value), importSource(value)];
  if (EXACT_SOURCE.test(value)) return [value];
  throw new ApiError("invalid_request", `Unknown source '${filter}': use ${BARE_SOURCES.join(", ")}, agents/<name>, imports/<provider> or apps/<app>.`, {
    fields: [{ field: "source", message: "unknown source" }],
  });
}

/**
 * Visibility. The profile belongs to the user, and the user approved the agent to read it: an
 * approved agent sees every memory of the user's (its own writes, other agents' writes, imports and
 * connected apps) except those suppressed by a user's request to forget. The key plane needs no
 * check here: a test-plane key only ever resolves test-plane users (lib/credentials/credentials.ts).
 * Writes and deletions are narrower: an agent deletes only what it wrote itself.
 */
export function visibleMemories(userId: string) {
  return { userId, suppressedAt: null } as const;
}

/** The same rule in SQL, for a query with the user's id as $1 and memories aliased `m`. */
export const VISIBLE_MEMORY_SQL = `m.user_id = $1 AND m.suppressed_at IS NULL`;

/** Whether the acting agent may delete the memory (it wrote it). */
export function ownsMemory(memory: { agentId: string | null }, agentId: string): boolean {
  return memory.agentId === agentId;
}

/** The same rule as a query: the user's visible memories the agent wrote, which it may replace or delete. */
export function ownMemories(userId: string, agentId: string) {
  return { ...visibleMemories(userId), agentId } as const;
}

/** Category boxes; projects/<slug> boxes hold one project each. */
export const CATEGORY_BOXES = ["identity", "work", "relationships", "preferences", "plans", "other"] as const;
const PROJECT_BOX = /^projects\/[a-z0-9][a-z0-9-]{0,63}$/;

export type BoxKind = { type: "category"; box: string } | { type: "project"; box: string } | { type: "source"; sources: string[] };

/** What a `box` parameter opens: a category, a projects/<slug> box, or a source. */
export function parseBox(raw: string): BoxKind {
  const value = raw.trim().toLowerCase();
  if ((CATEGORY_BOXES as readonly string[]).includes(value)) return { type: "category", box: value };
  if (PROJECT_BOX.test(value)) return { type: "project", box: value };
  try {
    return { type: "source", sources: sourcesForFilter(value) };
  } catch {
    throw new ApiError("invalid_request", `Unknown box '${raw}': use ${CATEGORY_BOXES.join(", ")}, projects/<slug>, or a source.`, {
      fields: [{ field: "box", message: "unknown box" }],
    });
  }
}

/** A box a write may name: a category or projects/<slug>. */
export function isWritableBox(value: string): boolean {
  return (CATEGORY_BOXES as readonly string[]).includes(value) || PROJECT_BOX.test(value);
}
