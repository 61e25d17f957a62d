// Load for the experiments: agents writing memories (POST /v1/profile/remember) through HAProxy, each
// with a text of its own, and what each answer was. Then what the database kept, against what was
// acknowledged: nothing acknowledged lost, nothing written twice, nothing failed left behind, and
// each log's rows for what succeeded.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";

export interface Writer {
  url: string;
  secretKey: string;
  agent: string;
  /** The person, as the service stores them (the memories' user_id). */
  userId: string;
  /** The developer's own id for the person (X-User-Id). */
  externalId: string;
}

export interface Outcome {
  text: string;
  /** The HTTP status, or 0 when no answer came (the connection failed or the request timed out). */
  status: number;
  ms: number;
  startedAt: number;
  endedAt: number;
  requestId: string | null;
  retryAfter: string | null;
  servedBy: string | null;
  memoryId: string | null;
  error: string | null;
}

export const TEXT_PREFIX = "Reliability check";

/** Writes from `concurrency` agents at once until `stop()` says so; every answer is kept. */
export async function writeLoad(w: Writer, phase: string, opts: { concurrency: number; stop: () => boolean }): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let seq = 0;
  const one = async () => {
    const text = `${TEXT_PREFIX} ${phase} ${seq++} ${randomUUID()}`;
    const startedAt = performance.now();
    try {
      const res = await fetch(`${w.url}/v1/profile/remember`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": w.secretKey, "x-agent": w.agent, "x-user-id": w.externalId },
        body: JSON.stringify({ text }),
        signal: AbortSignal.timeout(15_000),
      });
      const body = (await res.json().catch(() => null)) as { memory?: { id?: string } } | null;
      const endedAt = performance.now();
      outcomes.push({
        text,
        status: res.status,
        ms: endedAt - startedAt,
        startedAt,
        endedAt,
        requestId: res.headers.get("x-request-id"),
        retryAfter: res.headers.get("retry-after"),
        servedBy: res.headers.get("x-served-by"),
        memoryId: res.status === 201 ? (body?.memory?.id ?? null) : null,
        error: null,
      });
    } catch (err) {
      const endedAt = performance.now();
      outcomes.push({ text, status: 0, ms: endedAt - startedAt, startedAt, endedAt, requestId: null, retryAfter: null, servedBy: null, memoryId: null, error: String(err) });
    }
  };
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (!opts.stop()) {
        await one();
        // A client that got a 503 waits a moment, as Retry-After asks (shortened: the experiment is short).
        if (outcomes.at(-1)!.status === 503) await sleep(100);
      }
    }),
  );
  return outcomes;
}

/** Runs the load for `ms`, calling each event at its offset from the start; answers what came back. */
export async function underLoad(w: Writer, phase: string, ms: number, events: Array<[number, () => Promise<void> | void]>, concurrency = 6): Promise<Outcome[]> {
  const started = performance.now();
  let done = false;
  const load = writeLoad(w, phase, { concurrency, stop: () => done });
  for (const [at, run] of events.sort((a, b) => a[0] - b[0])) {
    const wait = at - (performance.now() - started);
    if (wait > 0) await sleep(wait);
    await run();
  }
  const left = ms - (performance.now() - started);
  if (left > 0) await sleep(left);
  done = true;
  return load;
}

export interface Kept {
  /** Memory ids by text, for the suite's writes. */
  byText: Map<string, string[]>;
  accessLogOk: number;
}

/** What the database holds of the suite's writes, and how many successful writes the access log shows. */
export async function kept(db: pg.Pool, userId: string): Promise<Kept> {
  const { rows } = await db.query<{ id: string; text: string }>("SELECT id, text FROM memories WHERE user_id = $1 AND text LIKE $2", [userId, `${TEXT_PREFIX}%`]);
  const byText = new Map<string, string[]>();
  for (const r of rows) byText.set(r.text, [...(byText.get(r.text) ?? []), r.id]);
  const access = await db.query<{ n: string }>("SELECT count(*) AS n FROM access_log WHERE user_id = $1 AND action = 'POST /v1/profile/remember' AND outcome = 'ok'", [userId]);
  return { byText, accessLogOk: Number(access.rows[0]!.n) };
}

/** The request ids of `ids` the request log holds. */
export async function inRequestLog(db: pg.Pool, ids: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>("SELECT id FROM request_log WHERE id = ANY($1)", [ids]);
  return new Set(rows.map((r) => r.id));
}

/** Polls until `check` holds or `timeoutMs` passes; answers its last value. */
export async function settle<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value) && Date.now() < deadline) {
    await sleep(250);
    value = await read();
  }
  return value;
}

/** A count of each status, for the report and the failure messages. */
export function statuses(outcomes: Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.status || `no answer (${o.error})`] = (counts[o.status || `no answer (${o.error})`] ?? 0) + 1;
  return counts;
}
