// Reading a person's access log a page at a time, newest first. A page is named by a cursor: the
// entry it continues from (its time and id, so entries made in the same millisecond are neither
// skipped nor repeated), older ("before") or newer ("after"). A malformed cursor reads as none.
import { db } from "../platform/db";
import type { Prisma } from "../platform/db/generated/client";
import { ENTRY_INCLUDE, flushAccessLog, rowOf, type AccessLogRow } from "./access-log";

/** Entries on one page of the account page. */
export const ACCESS_LOG_PAGE_SIZE = 25;
const MAX_TAKE = 1000;

interface Cursor {
  at: Date;
  id: string;
}

const CURSOR = /^(\d{1,15})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** A cursor's text: the entry's time in milliseconds and its id. */
function cursorText(entry: { at: Date; id: string }): string {
  return `${entry.at.getTime()}_${entry.id}`;
}

/** The entry a cursor names, or null for anything that is not a cursor (a missing or hostile value). */
export function parseCursor(value: unknown): Cursor | null {
  if (typeof value !== "string") return null;
  const m = CURSOR.exec(value);
  if (!m) return null;
  const at = new Date(Number(m[1]));
  return Number.isNaN(at.getTime()) ? null : { at, id: m[2]! };
}

/** The person's entries strictly older (or newer) than the cursor's, in (at, id) order. */
function beyond(userId: string, cursor: Cursor, direction: "older" | "newer"): Prisma.AccessLogEntryWhereInput {
  const op = direction === "older" ? "lt" : "gt";
  return { userId, OR: [{ at: { [op]: cursor.at } }, { at: cursor.at, id: { [op]: cursor.id } }] };
}

/** Up to `take` of the person's entries older than the cursor's (all when none), newest first. */
async function olderThan(userId: string, cursor: Cursor | null, take: number) {
  const prisma = await db();
  return prisma.accessLogEntry.findMany({ where: cursor ? beyond(userId, cursor, "older") : { userId }, orderBy: [{ at: "desc" }, { id: "desc" }], take, include: ENTRY_INCLUDE });
}

/** Up to `take` of the person's entries just newer than the cursor's, newest first. */
async function newerThan(userId: string, cursor: Cursor, take: number) {
  const prisma = await db();
  const rows = await prisma.accessLogEntry.findMany({ where: beyond(userId, cursor, "newer"), orderBy: [{ at: "asc" }, { id: "asc" }], take, include: ENTRY_INCLUDE });
  return rows.reverse();
}

async function anyBeyond(userId: string, cursor: Cursor, direction: "older" | "newer"): Promise<boolean> {
  return (await (await db()).accessLogEntry.findFirst({ where: beyond(userId, cursor, direction), select: { id: true } })) !== null;
}

export interface AccessLogPage {
  entries: AccessLogRow[];
  /** The cursor of the next older page, when there are older entries. */
  older: string | null;
  /** The cursor of the next newer page, when there are newer entries (none on the newest page). */
  newer: string | null;
  /** Whether this is the newest page (asked for without a cursor, or a malformed one). */
  newest: boolean;
}

/**
 * One page of a person's entries, newest first: the newest ones, or those just older than `before`,
 * or just newer than `after` (`before` wins when both are given).
 */
export async function accessLogPage(userId: string, options: { before?: string | null; after?: string | null; take?: number } = {}): Promise<AccessLogPage> {
  await flushAccessLog();
  const take = Math.min(Math.max(1, Math.trunc(options.take ?? ACCESS_LOG_PAGE_SIZE)), MAX_TAKE);
  const before = parseCursor(options.before);
  const after = before ? null : parseCursor(options.after);
  // One more than a page is read in the direction of travel: it says whether another page follows.
  const rows = after ? await newerThan(userId, after, take + 1) : await olderThan(userId, before, take + 1);
  const more = rows.length > take;
  // Less than a page newer than `after`: that is the newest page, shown whole.
  if (after && !more) return accessLogPage(userId, { take });
  const page = after ? rows.slice(1) : rows.slice(0, take);
  const first = page[0];
  const last = page.at(-1);
  const older = last && (after ? await anyBeyond(userId, last, "older") : more) ? cursorText(last) : null;
  const newer = first && (after || (before && (await anyBeyond(userId, first, "newer")))) ? cursorText(first) : null;
  return { entries: page.map(rowOf), older, newer, newest: !before && !after };
}

/** Every entry of a person, newest first, in batches (an export reads them so, never all at once). */
export async function* accessLogBatches(userId: string, batch = 500): AsyncGenerator<AccessLogRow[]> {
  await flushAccessLog();
  let cursor: Cursor | null = null;
  for (;;) {
    const rows = await olderThan(userId, cursor, batch);
    if (rows.length) yield rows.map(rowOf);
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    cursor = { at: last.at, id: last.id };
  }
}
