// GET /v1/profile/search: full-text search over the memories an agent can see, ranked by relevance
// (ts_rank), newest first among equals, with source, box and date filters.
import { database } from "../db";
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
  const from = q
    ? `memories m, (SELECT NULLIF(replace(plainto_tsquery('english', $2)::text, ' & ', ' | '), '')::tsquery AS tsq) q`
    : `memories m`;
  // The memories themselves come back with their rank: one round trip.
  const sql = `SELECT m.id, m.user_id, m.source, m.agent_id, m.written_by, m.box, m.kind, m.text, m.key, m.import_id,
           m.provenance, m.learned_at, m.said_at, ${score} AS score FROM ${from}
    WHERE ${where.join(" AND ")}
    ORDER BY score DESC, COALESCE(m.said_at, m.learned_at) DESC, m.id
    LIMIT $${params.length}`;
  return (await database()).sql.query<Row>(sql, params);
}

async function sourceCounts(userId: string): Promise<Record<string, number>> {
  const rows = await (await database()).sql.query<{ source: string; n: number }>(
    `SELECT m.source, count(*)::int AS n FROM memories m WHERE ${VISIBLE_MEMORY_SQL} GROUP BY m.source ORDER BY m.source`,
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
