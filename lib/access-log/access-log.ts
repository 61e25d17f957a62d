// The access log: every call an agent makes on a person's behalf (a profile route, a profile tool,
// a connector tool), with the agent, the route or tool, the time and the outcome, never the content.
// Entries are written after the answer, in small batches, so a call does not wait on them; the
// person reads them on their account page and downloads them.
import { randomUUID } from "node:crypto";
import { now as clockNow } from "../platform/clock";
import { database, db } from "../platform/db";
import { copyElse } from "../platform/db/copy";
import type { Plane } from "../platform/db/generated/enums";
import { batchedWriter } from "../platform/log/batched-writer";

/** How long entries are kept. */
export const ACCESS_LOG_RETENTION_DAYS = 365;
/** Entries written together at most. */
const BATCH = 200;
/** How long an entry may wait for others before the batch is written. */
const FLUSH_AFTER_MS = 200;
/** Entries held at most while the database is slow or away (lib/platform/log/batched-writer.ts: newer ones are dropped). */
export const ACCESS_LOG_MAX_PENDING = 20_000;

/** Where it happened: the API, MCP, or (restoring what an agent hid) the person's account page. */
export type AccessSurface = "rest" | "mcp" | "account";

export interface AccessEntry {
  userId: string;
  agentId: string;
  /** The agent's display name now: the entry keeps it if the agent is later deleted. */
  agentName: string;
  plane: Plane;
  surface: AccessSurface;
  /** The tool's name, or "<METHOD> <path>" of the route. */
  action: string;
  /** "ok", or the error code the call ended with. */
  outcome: string;
  /** The conversation and turn the call was part of, as lib/http/turns.ts records them; absent: none. */
  conversation?: string | null;
  turn?: string | null;
}

/** An entry with its id, drawn once: a batch tried again after a lost answer writes each entry once. */
export type StampedEntry = AccessEntry & { id: string; at: Date };

/**
 * The fallback for a batch COPY refused: one statement, its columns as arrays (the ORM's createMany
 * spends milliseconds of the event loop on a batch; this, a fraction of one). Entries of a person
 * deleted meanwhile are left out (their log went with them); an agent deleted meanwhile leaves its
 * entry with the name only; an entry already written (a batch tried again after a lost answer) is
 * written once.
 */
const INSERT = `INSERT INTO access_log (id, user_id, agent_id, agent_name, plane, surface, action, outcome, at, conversation, turn)
  SELECT u.id, u.user_id, (SELECT a.id FROM agents a WHERE a.id = u.agent_id), u.agent_name, u.plane::"Plane", u.surface, u.action, u.outcome, u.at, u.conversation, u.turn
  FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::text[], $11::text[])
    AS u(id, user_id, agent_id, agent_name, plane, surface, action, outcome, at, conversation, turn)
  WHERE EXISTS (SELECT 1 FROM users p WHERE p.id = u.user_id)
  ON CONFLICT (id) DO NOTHING`;

const COLUMNS = ["id", "user_id", "agent_id", "agent_name", "plane", "surface", "action", "outcome", "at", "conversation", "turn"] as const;

async function insert(entries: StampedEntry[]): Promise<void> {
  const { sql } = await database();
  await sql.query(INSERT, [
    entries.map((e) => e.id),
    entries.map((e) => e.userId),
    entries.map((e) => e.agentId),
    entries.map((e) => e.agentName),
    entries.map((e) => e.plane),
    entries.map((e) => e.surface),
    entries.map((e) => e.action),
    entries.map((e) => e.outcome),
    entries.map((e) => e.at),
    entries.map((e) => e.conversation ?? null),
    entries.map((e) => e.turn ?? null),
  ]);
}

/** A batch as COPY loads it: the table, its columns, and each entry's values in their order. */
export function accessLogCopy(entries: StampedEntry[]) {
  const rows = entries.map((e) => [e.id, e.userId, e.agentId, e.agentName, e.plane, e.surface, e.action, e.outcome, e.at, e.conversation ?? null, e.turn ?? null]);
  return { table: "access_log", columns: COLUMNS, rows };
}

/** A batch in one COPY (every read adds an entry; COPY takes a fraction of the INSERT's CPU), else the INSERT. */
async function write(entries: StampedEntry[]): Promise<void> {
  const { sql } = await database();
  await copyElse(sql, accessLogCopy(entries), () => insert(entries));
}

const writer = batchedWriter<StampedEntry>({ name: "access log", write, batchSize: BATCH, flushAfterMs: FLUSH_AFTER_MS, maxPending: ACCESS_LOG_MAX_PENDING });

/** Writes what is waiting now; resolves when it is written (reads, tests; shutdown writes every log). */
export function flushAccessLog(): Promise<void> {
  return writer.flush();
}

/** Records one call (at the service's clock now); written within FLUSH_AFTER_MS. */
export function recordAccess(entry: AccessEntry): void {
  writer.add({ ...entry, id: randomUUID(), at: clockNow() });
}

export interface AccessLogRow {
  at: string;
  agent: string;
  developer: string;
  action: string;
  surface: AccessSurface;
  outcome: string;
  livemode: boolean;
  /** Which calls were one conversation, and one turn of it: opaque values, null when the call named none. */
  conversation?: string | null;
  turn?: string | null;
}

/** What an entry is read with: its agent's name and the agent's developer's. */
export const ENTRY_INCLUDE = { agent: { select: { displayName: true, developer: { select: { name: true } } } } } as const;

/** An entry as read with ENTRY_INCLUDE. */
export interface StoredEntry {
  plane: Plane;
  surface: string;
  action: string;
  outcome: string;
  at: Date;
  conversation?: string | null;
  turn?: string | null;
  agentName: string;
  agent: { displayName: string; developer: { name: string } } | null;
}

export function rowOf(r: StoredEntry): AccessLogRow {
  return {
    at: r.at.toISOString(),
    agent: r.agent?.displayName ?? r.agentName,
    developer: r.agent?.developer.name ?? "(removed)",
    action: r.action,
    surface: r.surface as AccessSurface,
    outcome: r.outcome,
    livemode: r.plane === "live",
    conversation: r.conversation ?? null,
    turn: r.turn ?? null,
  };
}

/** A person's entries, newest first (up to `take`, before `before` when given), with each agent's name and its developer's. */
export async function accessLogOf(userId: string, options: { take?: number; before?: Date } = {}): Promise<AccessLogRow[]> {
  await flushAccessLog();
  const rows = await (
    await db()
  ).accessLogEntry.findMany({
    where: { userId, ...(options.before ? { at: { lt: options.before } } : {}) },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    take: options.take ?? 100,
    include: ENTRY_INCLUDE,
  });
  return rows.map(rowOf);
}

/** Deletes entries past their retention at `at`; answers how many. */
export async function sweepAccessLog(at: Date = clockNow()): Promise<number> {
  const cutoff = new Date(at.getTime() - ACCESS_LOG_RETENTION_DAYS * 86_400_000);
  return (await (await db()).accessLogEntry.deleteMany({ where: { at: { lt: cutoff } } })).count;
}
