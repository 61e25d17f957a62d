// The wire schemas of the profile routes, shared by the route files and the API reference.
import { z } from "zod";
import { COMMIT_LIMITS } from "./commit";
import { FORGET_REASONS, FORGET_SCOPES } from "./forget";
import { IMPORT_TEXT_MAX_CHARS } from "./import-text";
import { MEMORY_KINDS } from "./facts";
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from "./search";
import { isWritableBox } from "./sources";

/** The longest single fact remember takes (characters). */
export const REMEMBER_MAX_CHARS = 1_000;

const box = z
  .string()
  .trim()
  .toLowerCase()
  .refine(isWritableBox, "use identity, work, relationships, preferences, plans, other or projects/<slug>");
const kind = z.enum(MEMORY_KINDS);
const memoryId = z.string().regex(/^mem_[A-Za-z0-9]{24}$/, "a mem_ id");

/** Whether a YYYY-MM-DD date exists (2024-02-31 does not; Date.parse would roll it into March). */
function realDay(v: string): boolean {
  const d = new Date(`${v.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v.slice(0, 10);
}

/** YYYY-MM-DD or an ISO 8601 time; a bare date as a lower bound starts that day and as an upper bound ends it (UTC). */
function dateBound(end: "start" | "end") {
  return z
    .string()
    .trim()
    .refine((v) => /^\d{4}-\d{2}-\d{2}(?:T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)) && realDay(v), "use YYYY-MM-DD or an ISO 8601 time")
    // A time without an offset is UTC, like every time the service prints.
    .transform((v) =>
      v.length === 10 ? new Date(`${v}T${end === "start" ? "00:00:00.000" : "23:59:59.999"}Z`) : new Date(/(?:Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`),
    );
}

const booleanFlag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

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
    import_id: z.string().regex(/^imp_[A-Za-z0-9]{24}$/, "an imp_ id").optional(),
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
  z.string().trim().min(1).max(COMMIT_LIMITS.memoryChars, `each memory holds at most ${COMMIT_LIMITS.memoryChars} characters`).transform((text) => ({ text })),
  z.object({
    text: z.string().trim().min(1).max(COMMIT_LIMITS.memoryChars, `each memory holds at most ${COMMIT_LIMITS.memoryChars} characters`),
    box: box.optional(),
    kind: kind.optional(),
  }),
]);

export const commitBody = z.object({
  messages: z.array(commitMessage).max(COMMIT_LIMITS.messages, `at most ${COMMIT_LIMITS.messages} messages per commit`).default([]),
  response: z.string().max(COMMIT_LIMITS.messageChars, `the response holds at most ${COMMIT_LIMITS.messageChars} characters`).optional(),
  memories: z.array(commitMemory).max(COMMIT_LIMITS.memories, `at most ${COMMIT_LIMITS.memories} memories per commit`).default([]),
  sync: z.boolean().default(false),
}).refine((b) => b.messages.length > 0 || b.memories.length > 0 || b.response !== undefined, {
  message: "send messages, a response or memories",
  path: ["messages"],
});
