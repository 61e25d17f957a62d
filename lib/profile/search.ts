// GET /v1/profile/search: full-text search over the memories an agent can see, ranked by relevance
// (ts_rank), newest first among equals, with source, box and date filters.
import { database } from "../platform/db";
import { memoryView } from "./memories";
import { noteRead } from "./obligation";
import { parseBox, sourcesForFilter, VISIBLE_MEMORY_SQL } from "./sources";

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

interface Row extends Record<string, unknown> {
  id: string;
  user_id: string;
  source: string;
  agent_id: string | null;
  written_by: string;
  box: string;
  kind: string;
  text: string;
  key: string;
  import_id: string | null;
  provenance: unknown;
  learned_at: Date | string;
  said_at: Date | string | null;
  score: number;
}

/** Memories matching the filters: by relevance when there is a query, else newest first. */
async function rank(input: SearchInput): Promise<Row[]> {
  const params: unknown[] = [input.userId];
  const where = [VISIBLE_MEMORY_SQL];
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
  const from = q ? `memories m, (SELECT NULLIF(replace(plainto_tsquery('english', $2)::text, ' & ', ' | '), '')::tsquery AS tsq) q` : `memories m`;
  // The memories themselves come back with their rank: one round trip.
  const sql = `SELECT m.id, m.user_id, m.source, m.agent_id, m.written_by, m.box, m.kind, m.text, m.key, m.import_id,
           m.provenance, m.learned_at, m.said_at, ${score} AS score FROM ${from}
    WHERE ${where.join(" AND ")}
    ORDER BY score DESC, COALESCE(m.said_at, m.learned_at) DESC, m.id
    LIMIT $${params.length}`;
  return (await database()).sql.query<Row>(sql, params);
}

/** The agent's read obligation and the profile's per-source counts (kept with every write), in one statement. */
async function searchContext(userId: string, agentId: string) {
  const [row] = await (
    await database()
  ).sql.query<{ opened_at: Date | string | null; source_counts: Record<string, number> | null }>(
    `SELECT (SELECT opened_at FROM read_obligations WHERE user_id = $1 AND agent_id = $2) AS opened_at,
            (SELECT source_counts FROM user_profiles WHERE user_id = $1) AS source_counts`,
    [userId, agentId],
    { name: "search_context" },
  );
  const counts = Object.entries(row?.source_counts ?? {})
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return { openedAt: row?.opened_at ?? null, counts: Object.fromEntries(counts) as Record<string, number> };
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
  const context = await searchContext(input.userId, input.agentId);
  await noteRead({ userId: input.userId, agentId: input.agentId }, { openedAt: context.openedAt });
  const ranked = await rank(input);
  const counts = context.counts;
  const results = ranked.map((r) => ({
    ...memoryView(
      {
        id: r.id,
        userId: r.user_id,
        source: r.source,
        agentId: r.agent_id,
        writtenBy: r.written_by,
        box: r.box,
        kind: r.kind,
        text: r.text,
        key: r.key,
        importId: r.import_id,
        provenance: r.provenance,
        learnedAt: new Date(r.learned_at),
        saidAt: r.said_at === null ? null : new Date(r.said_at),
      },
      input.detail,
    ),
    score: Math.round(Number(r.score) * 1e4) / 1e4,
  }));
  return {
    results,
    visibleSources: Object.keys(counts),
    sourceCounts: counts,
    guidance: guidance(input, results.length),
  };
}
