// GET /v1/profile/search: full-text search over the memories an agent can see, ranked by relevance
// (ts_rank), newest first among equals, with source, box and date filters.
import { database, db } from "../db";
import { MEMORY_SELECT, memoryView } from "./memories";
import { noteRead } from "./obligation";
import { parseBox, sourcesForFilter } from "./sources";

export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;

export interface SearchInput {
  userId: string;
  query?: string;
  source?: string;
  box?: string;
  /** Inclusive bounds on the memory's date: the original date of an import, else when it was learned. */
  from?: Date;
  to?: Date;
  limit: number;
  detail: boolean;
}

interface Row {
  id: string;
  score: number;
}

/** Memories matching the filters: by relevance when there is a query, else newest first. */
async function rank(input: SearchInput): Promise<Row[]> {
  const params: unknown[] = [input.userId];
  const where = ["m.user_id = $1", "m.suppressed_at IS NULL"];
  let score = "0::float4";
  const q = input.query?.trim();
  if (q) {
    // Any of the words may match (an agent's query is a question, not a conjunction); documents
    // matching more of them, more often, rank higher.
    params.push(q);
    where.push(`m.search_vector @@ q.tsq`);
    score = "ts_rank(m.search_vector, q.tsq)";
  }
  if (input.source) {
    params.push(sourcesForFilter(input.source));
    where.push(`m.source = ANY($${params.length}::text[])`);
  }
  if (input.box) {
    const box = parseBox(input.box);
    if (box.type === "source") {
      params.push(box.sources);
      where.push(`m.source = ANY($${params.length}::text[])`);
    } else {
      params.push(box.box);
      where.push(`m.box = $${params.length}`);
    }
  }
  if (input.from) {
    params.push(input.from);
    where.push(`COALESCE(m.said_at, m.learned_at) >= $${params.length}`);
  }
  if (input.to) {
    params.push(input.to);
    where.push(`COALESCE(m.said_at, m.learned_at) <= $${params.length}`);
  }
  params.push(input.limit);
  const from = q
    ? `memories m, (SELECT NULLIF(replace(plainto_tsquery('english', $2)::text, ' & ', ' | '), '')::tsquery AS tsq) q`
    : `memories m`;
  const sql = `SELECT m.id, ${score} AS score FROM ${from}
    WHERE ${where.join(" AND ")}
    ORDER BY score DESC, COALESCE(m.said_at, m.learned_at) DESC, m.id
    LIMIT $${params.length}`;
  return (await database()).sql.query<Row & Record<string, unknown>>(sql, params);
}

async function sourceCounts(userId: string): Promise<Record<string, number>> {
  const rows = await (await database()).sql.query<{ source: string; n: number }>(
    `SELECT source, count(*)::int AS n FROM memories WHERE user_id = $1 AND suppressed_at IS NULL GROUP BY source ORDER BY source`,
    [userId],
  );
  return Object.fromEntries(rows.map((r) => [r.source, r.n]));
}

function guidance(input: SearchInput, found: number): string {
  if (found) {
    return input.query
      ? "Ranked by relevance, newest first among equals. Use only what answers the user's request; cite a memory by id to forget it."
      : "Newest first. Send query to rank by relevance.";
  }
  if (input.source || input.box || input.from || input.to) return "Nothing matched these filters. Try without source, box or the date range.";
  return input.query ? "Nothing in the profile matches. Try other or fewer words, or read the profile's summary." : "This profile holds no memories yet.";
}

export async function searchProfile(input: SearchInput & { agentId: string }) {
  await noteRead({ userId: input.userId, agentId: input.agentId });
  const [ranked, counts] = await Promise.all([rank(input), sourceCounts(input.userId)]);
  const records = ranked.length
    ? await (await db()).memory.findMany({ where: { id: { in: ranked.map((r) => r.id) } }, select: MEMORY_SELECT })
    : [];
  const byId = new Map(records.map((m) => [m.id, m]));
  const results = ranked.flatMap((r) => {
    const m = byId.get(r.id);
    return m ? [{ ...memoryView(m, input.detail), score: Math.round(Number(r.score) * 1e4) / 1e4 }] : [];
  });
  return {
    results,
    visibleSources: Object.keys(counts),
    sourceCounts: counts,
    guidance: guidance(input, results.length),
  };
}
