// The wire schemas of the profile routes, shared by the route files and the API reference.
import { z } from "zod";
import { agentSchema } from "../agents/schemas";
import { APPS } from "../catalogue";
import { PREFIX } from "../platform/ids";
import { COMMIT_LIMITS } from "./commit";
import { FORGET_PREVIEW_LIMIT, FORGET_REASONS, FORGET_SCOPES } from "./forget";
import { IMPORT_TEXT_MAX_CHARS } from "./import-text";
import { MEMORY_KINDS } from "./facts";
import { PROFILE_SECTIONS, type PROFILE_READ_LIMITS, type ProfileSection } from "./read";
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from "./search";
import { isWritableBox } from "./sources";

/** The longest single fact remember takes (characters). */
export const REMEMBER_MAX_CHARS = 1_000;

const box = z.string().trim().toLowerCase().refine(isWritableBox, "use identity, work, relationships, preferences, plans, other or projects/<slug>");
const kind = z.enum(MEMORY_KINDS);
const memoryId = z.string().regex(/^mem_[A-Za-z0-9]{24}$/, "a mem_ id");

/** Whether a YYYY-MM-DD date exists (2024-02-31 does not; Date.parse would roll it into March). */
function realDay(v: string): boolean {
  const d = new Date(`${v.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v.slice(0, 10);
}

/** YYYY-MM-DD or an ISO 8601 time; a bare date as a lower bound starts that day and as an upper bound ends it (UTC). */
function dateBound(end: "start" | "end") {
  return (
    z
      .string()
      .trim()
      .refine((v) => /^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)) && realDay(v), "use YYYY-MM-DD or an ISO 8601 time")
      // A time without an offset is UTC, like every time the service prints.
      .transform((v) => (v.length === 10 ? new Date(`${v}T${end === "start" ? "00:00:00.000" : "23:59:59.999"}Z`) : new Date(/(?:Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`)))
  );
}

const booleanFlag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

/** The profile sections, for a list of them. */
export const profileSection = z.enum(PROFILE_SECTIONS as [ProfileSection, ...ProfileSection[]]);

export const profileQuery = z.object({
  /** A comma-separated list of sections; all of them without it. */
  sections: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean)
        : undefined,
    )
    .pipe(z.array(profileSection).optional()),
  box: z.string().trim().min(1).max(80).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const searchQuery = z.object({
  query: z.string().trim().max(500).optional(),
  source: z.string().trim().min(1).max(80).optional(),
  box: z.string().trim().min(1).max(80).optional(),
  from: dateBound("start").optional(),
  to: dateBound("end").optional(),
  limit: z.coerce.number().int().min(1).max(SEARCH_MAX_LIMIT).default(SEARCH_DEFAULT_LIMIT),
  detail: booleanFlag.default(false),
});

export const rememberBody = z.object({
  text: z.string().trim().min(1).max(REMEMBER_MAX_CHARS),
  box: box.optional(),
  kind: kind.optional(),
  reply_to: z.string().trim().min(1).max(200).optional(),
  resolves: memoryId.optional(),
});

export const importBody = z.object({
  text: z.string().trim().min(1).max(IMPORT_TEXT_MAX_CHARS),
  box: box.optional(),
  kind: kind.optional(),
});

const SELECTORS = ["id", "match", "import_id", "scope"] as const;

export const forgetBody = z
  .object({
    id: memoryId.optional(),
    match: z.string().trim().min(1).max(500).optional(),
    import_id: z
      .string()
      .regex(/^imp_[A-Za-z0-9]{24}$/, "an imp_ id")
      .optional(),
    scope: z.enum(FORGET_SCOPES).optional(),
    confirm: z.boolean().default(false),
    date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD")
      .refine(realDay, "not a date")
      .optional(),
    reason: z.enum(FORGET_REASONS).optional(),
  })
  .superRefine((b, ctx) => {
    const given = SELECTORS.filter((s) => b[s] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: "custom",
        path: given.length ? [given[1]!] : [],
        message: `send exactly one of ${SELECTORS.join(", ")} (got ${given.length ? given.join(", ") : "none"})`,
      });
    }
  });

const commitMessage = z.object({
  role: z.enum(["user", "assistant", "system", "tool"]),
  content: z.string().max(COMMIT_LIMITS.messageChars, `each message holds at most ${COMMIT_LIMITS.messageChars} characters`),
  at: z.iso.datetime({ offset: true }).optional(),
});

const commitMemory = z.union([
  z
    .string()
    .trim()
    .min(1)
    .max(COMMIT_LIMITS.memoryChars, `each memory holds at most ${COMMIT_LIMITS.memoryChars} characters`)
    .transform((text) => ({ text })),
  z.object({
    text: z.string().trim().min(1).max(COMMIT_LIMITS.memoryChars, `each memory holds at most ${COMMIT_LIMITS.memoryChars} characters`),
    box: box.optional(),
    kind: kind.optional(),
  }),
]);

export const commitBody = z
  .object({
    messages: z.array(commitMessage).max(COMMIT_LIMITS.messages, `at most ${COMMIT_LIMITS.messages} messages per commit`).default([]),
    response: z.string().max(COMMIT_LIMITS.messageChars, `the response holds at most ${COMMIT_LIMITS.messageChars} characters`).optional(),
    memories: z.array(commitMemory).max(COMMIT_LIMITS.memories, `at most ${COMMIT_LIMITS.memories} memories per commit`).default([]),
    sync: z.boolean().default(false),
  })
  .refine((b) => b.messages.length > 0 || b.memories.length > 0 || b.response !== undefined, {
    message: "send messages, a response or memories",
    path: ["messages"],
  });

// ─── Answers ────────────────────────────────────────────────────────────────────────────────────

/** How many of something: memories, facts, a page number. */
const count = z.number().int().nonnegative();

/** Every profile answer carries livemode (the route contract adds it from the key's plane). */
const livemode = { livemode: z.boolean() };

/** How a memory was written (memories.provenance); a memory written without one holds {}. */
const provenance = z.strictObject({
  via: z.enum(["remember", "import", "import_file", "import_paste", "commit"]).optional(),
  import_id: z.string().optional(),
  commit_id: z.string().optional(),
  message_index: count.optional(),
  reply_to: z.string().optional(),
  resolves: z.string().optional(),
});

/** A memory as memoryView shows it without detail. */
const memoryFields = {
  id: z.string().startsWith(PREFIX.memory),
  text: z.string(),
  box: z.string(),
  kind: z.enum(MEMORY_KINDS),
  source: z.string(),
  written_by: z.string(),
  learned_at: z.iso.datetime(),
  said_at: z.iso.datetime().nullable(),
};
/** What memoryView's detail adds. */
const detailFields = { import_id: z.string().startsWith(PREFIX.importJob).nullable(), provenance };

export const memorySchema = z.strictObject({ ...memoryFields, ...detailFields });

/** POST /v1/profile/remember: 201 when saved, 200 with the memory already held. */
export const rememberResponse = z.strictObject({ saved: z.boolean(), memory: memorySchema, source: z.string(), ...livemode });

/** POST /v1/profile/import: 201 when at least one memory was written, else 200. */
export const importResponse = z.strictObject({
  saved: z.boolean(),
  box: z.string().nullable(),
  distilled: z.array(memorySchema.extend({ saved: z.boolean() })),
  memory: memorySchema.nullable(),
  source: z.string(),
  import_id: z.string().startsWith(PREFIX.importJob).nullable(),
  ...livemode,
});

/** POST /v1/profile/forget: a preview (no confirm), or what was deleted and suppressed. */
export const forgetResponse = z.union([
  z.strictObject({
    deleted: z.literal(false),
    deleted_count: z.literal(0),
    matched: count,
    confirm_required: z.literal(true),
    deletable_count: count,
    suppressible_count: count.optional(),
    preview: z.array(z.strictObject({ ...memoryFields, own: z.boolean() })).max(FORGET_PREVIEW_LIMIT),
    ...livemode,
  }),
  z.strictObject({
    deleted: z.boolean(),
    deleted_count: count,
    matched: count,
    suppressed_count: count.optional(),
    ...livemode,
  }),
]);

/** GET /v1/profile/search: each result a memory (with detail when asked) and its score. */
export const searchResponse = z.strictObject({
  results: z.array(z.union([z.strictObject({ ...memoryFields, score: z.number() }), z.strictObject({ ...memoryFields, ...detailFields, score: z.number() })])),
  visibleSources: z.array(z.string()),
  sourceCounts: z.record(z.string(), count),
  guidance: z.string(),
  ...livemode,
});

/** The composed profile: with `sections`, only those sections and linked; the lists only without. */
const composedProfile = z.strictObject({
  linked: z.literal(true),
  identity: z
    .strictObject({
      // The account's claims (lib/profile/claims.ts), each only when the profile holds it.
      name: z.string().optional(),
      given_name: z.string().optional(),
      family_name: z.string().optional(),
      picture: z.string().optional(),
      birthdate: z.string().optional(),
      location: z.string().optional(),
      email: z.string().optional(),
      email_verified: z.boolean().optional(),
      facts: z.array(z.string()),
    })
    .optional(),
  preferences: z.array(z.string()).optional(),
  summary: z.string().optional(),
  connections: z
    .array(
      z.strictObject({
        app: z.enum(APPS),
        provider: z.string(),
        account_email: z.string().nullable(),
        // app_connections.status: active, or needs_reconnect once the provider refused the grant.
        status: z.enum(["active", "needs_reconnect"]),
        connected_at: z.iso.datetime(),
      }),
    )
    .optional(),
  integrations: z.array(z.enum(APPS)).optional(),
  imports: z
    .array(z.strictObject({ id: z.string().startsWith(PREFIX.importJob), provider: z.string(), source: z.string(), memory_count: count, created_at: z.iso.datetime() }))
    .optional(),
  agents: z.array(agentSchema.extend({ approved_at: z.iso.datetime() })).optional(),
  truncated: z.literal(true).optional(),
  truncated_boxes: z.array(z.enum(["identity", "preferences", "imports"] as const satisfies readonly (keyof typeof PROFILE_READ_LIMITS)[])).optional(),
  ...livemode,
});

/** One box of memories, a page at a time. */
const boxPage = z.strictObject({
  linked: z.literal(true),
  box: z.string(),
  page: count,
  page_size: count,
  has_more: z.boolean(),
  memories: z.array(memorySchema),
  ...livemode,
});

/** GET /v1/profile: the composed profile, or one box with `box`. */
export const profileResponse = z.union([composedProfile, boxPage]);

const commitResult = {
  facts_written: count,
  memories_written: count,
  rejected_memories: z.array(z.strictObject({ text: z.string(), reason: z.enum(["already_known", "duplicate"]) })),
  user_summary: z.string(),
};

/** POST /v1/profile/commit, 200: run inline, with its result. */
export const commitCompletedResponse = z.strictObject({ status: z.literal("completed"), commit_id: z.uuid(), ...commitResult, ...livemode });

/** POST /v1/profile/commit, 202: queued for a worker. */
export const commitQueuedResponse = z.strictObject({ status: z.literal("processing"), commit_id: z.uuid(), ...livemode });

/** GET /v1/profile/commit/:commitId: the commit's state, with its result once completed. */
export const commitStatusResponse = z.union([
  z.strictObject({ status: z.literal("processing"), commit_id: z.uuid(), created_at: z.iso.datetime(), completed_at: z.null(), ...livemode }),
  z.strictObject({ status: z.literal("completed"), commit_id: z.uuid(), created_at: z.iso.datetime(), completed_at: z.iso.datetime(), ...commitResult, ...livemode }),
  z.strictObject({ status: z.literal("failed"), commit_id: z.uuid(), created_at: z.iso.datetime(), completed_at: z.iso.datetime(), error: z.string(), ...livemode }),
]);
