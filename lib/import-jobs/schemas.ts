// The wire schemas of the bulk import routes, shared by the route files and the API reference.
import { z } from "zod";
import { IMPORT_MODES } from "./limits";

/**
 * Fields a bulk import body may not carry at any depth: where things are stored, who wrote them,
 * when, and memory ids are the service's to set, from the agent the key and X-Agent resolve to.
 */
const FORBIDDEN: ReadonlyArray<{ names: readonly string[]; reason: string }> = [
  {
    names: ["path", "file", "file_path", "filepath", "filename", "storage", "storage_path", "storagepath", "storage_location", "location_path", "bucket"],
    reason: "storage locations are chosen by the service",
  },
  { names: ["source", "sources"], reason: "the source is derived from the agent (X-Agent)" },
  { names: ["written_by", "writtenby", "writer", "writer_id", "writerid", "agent_id", "agentid"], reason: "written_by is derived from the agent (X-Agent)" },
  {
    names: [
      "timestamp",
      "timestamps",
      "created_at",
      "createdat",
      "updated_at",
      "updatedat",
      "said_at",
      "saidat",
      "learned_at",
      "learnedat",
      "sent_at",
      "sentat",
      "time",
      "date",
      "at",
    ],
    reason: "timestamps are set by the service",
  },
  { names: ["memory_id", "memoryid", "memory_ids", "memoryids", "mem_id", "memid"], reason: "memory ids are made by the service" },
];
const FORBIDDEN_BY_NAME: ReadonlyMap<string, string> = new Map(FORBIDDEN.flatMap((f) => f.names.map((n) => [n, f.reason] as const)));
const MEMORY_ID = /^mem_[A-Za-z0-9]{24}$/;

/** Every forbidden field in `value`, by its dotted path; memory ids are refused as values too. */
export function forbiddenFields(value: unknown, path: string[] = [], found: Array<{ field: string; message: string }> = []) {
  if (found.length >= 20) return found;
  if (Array.isArray(value)) value.forEach((v, i) => forbiddenFields(v, [...path, String(i)], found));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const reason = FORBIDDEN_BY_NAME.get(k.toLowerCase());
      if (reason) found.push({ field: [...path, k].join("."), message: `${k} is not accepted: ${reason}` });
      else if (typeof v === "string" && MEMORY_ID.test(v)) found.push({ field: [...path, k].join("."), message: `${k} is not accepted: memory ids are made by the service` });
      else forbiddenFields(v, [...path, k], found);
    }
  }
  return found;
}

const text = (max: number) => z.string().min(1).max(max);

const message = z.strictObject({
  role: z.enum(["user", "assistant", "system", "tool"]),
  /** Up to 20,000 characters (IMPORT_CAPS); a longer message refuses the job with 413. */
  content: z.string(),
});

const conversation = z.strictObject({
  /** The developer's own id for the conversation, unique within the user. */
  id: text(255),
  messages: z.array(message),
});

const importUser = z
  .strictObject({
    /** The developer's own id for the user (what X-User-Id carries later). */
    externalId: text(255),
    profile: z
      .strictObject({
        summary: z.string().max(20_000).optional(),
        preferences: z.array(text(1_000)).max(200).optional(),
      })
      .optional(),
    conversations: z.array(conversation).optional(),
  })
  .superRefine((u, ctx) => {
    const seen = new Set<string>();
    (u.conversations ?? []).forEach((c, i) => {
      if (seen.has(c.id)) ctx.addIssue({ code: "custom", path: ["conversations", i, "id"], message: `conversation id ${c.id} appears twice for this user` });
      seen.add(c.id);
    });
  });

/** POST /v1/import/profiles. */
export const importProfilesBody = z.preprocess(
  (value, ctx) => {
    for (const f of forbiddenFields(value)) ctx.addIssue({ code: "custom", path: f.field.split("."), message: f.message, input: value });
    return value;
  },
  z
    .strictObject({
      mode: z.enum(IMPORT_MODES).default("backfill"),
      /** Scoped to the developer account and the acting agent: the same key answers the same job. */
      idempotencyKey: text(255),
      users: z.array(importUser).min(1),
    })
    .superRefine((b, ctx) => {
      const seen = new Set<string>();
      b.users.forEach((u, i) => {
        if (seen.has(u.externalId)) ctx.addIssue({ code: "custom", path: ["users", i, "externalId"], message: `externalId ${u.externalId} appears twice in this job` });
        seen.add(u.externalId);
      });
    }),
);
export type ImportProfilesBody = z.output<typeof importProfilesBody>;
export type ImportUser = ImportProfilesBody["users"][number];

const jobStatus = z.enum(["queued", "running", "completed", "failed", "cancelled"]);

/** A job as every bulk import route answers it. */
export const importJobSchema = z.strictObject({
  id: z.string(),
  mode: z.enum(IMPORT_MODES),
  status: jobStatus,
  accepted_profiles: z.number().int(),
  estimated_message_count: z.number().int(),
  estimated_input_chars: z.number().int(),
  progress: z.strictObject({
    profiles_imported: z.number().int(),
    profiles_failed: z.number().int(),
    profiles_cancelled: z.number().int(),
    profiles_pending: z.number().int(),
    messages_processed: z.number().int(),
    memories_written: z.number().int(),
  }),
  /** One entry per user that could not be imported. */
  errors: z.array(z.strictObject({ external_id: z.string(), code: z.string(), message: z.string() })),
  cancel_requested: z.boolean(),
  error: z.string().nullable(),
  created_at: z.iso.datetime(),
  started_at: z.iso.datetime().nullable(),
  finished_at: z.iso.datetime().nullable(),
  livemode: z.boolean(),
});
