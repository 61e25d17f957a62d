// The batched writer under the access log and the request log (lib/platform/log/batched-writer.ts): a full
// queue drops the newest rows and counts them, a failing write is tried again until it is written or
// its tries run out, and shutdown writes what every writer holds before the database closes.
import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { recordAccess } from "@/lib/access-log/access-log";
import { database } from "@/lib/platform/db";
import { captureLogsForTests } from "@/lib/platform/log";
import { batchedWriter, flushWriters, type BatchedWriterOptions } from "@/lib/platform/log/batched-writer";
import { recordRequest } from "@/lib/request-log/record";
import { settleService } from "@/lib/startup";
import { createTenant, type Tenant } from "../../helpers/fixtures";
import { requestLogRow } from "../../helpers/request-log";

const logLines: Array<Record<string, unknown>> = [];
let t: Tenant;

beforeAll(async () => {
  captureLogsForTests(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    }),
  );
  t = await createTenant();
});

/** A writer of its own (a fresh name), its batches kept in `batches`; its first `failures` writes throw. */
function testWriter(options: { failures?: number } & Partial<BatchedWriterOptions<number>> = {}) {
  const batches: number[][] = [];
  const tries = { count: 0 };
  const { failures = 0, ...rest } = options;
  const writer = batchedWriter<number>({
    name: `test writer ${randomUUID()}`,
    batchSize: 10,
    flushAfterMs: 50,
    maxPending: 100,
    retryAfterMs: 5,
    write: async (batch) => {
      tries.count++;
      if (tries.count <= failures) throw new Error("the database is away");
      batches.push([...batch]);
    },
    ...rest,
  });
  return { writer, batches, tries };
}

describe("a full queue", () => {
  it("holds at most maxPending rows, waiting or being written: beyond, the newest are dropped, counted and reported", async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const batches: number[][] = [];
    const { writer } = testWriter({
      write: async (batch) => {
        await gate; // the database is slow: the first batch stays under way
        batches.push([...batch]);
      },
    });
    for (let i = 0; i < 105; i++) writer.add(i);
    expect(writer.stats()).toEqual({ written: 0, dropped: 5, lost: 0, pending: 100 });
    open();
    await writer.flush();
    expect(batches.flat()).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(writer.stats()).toEqual({ written: 100, dropped: 5, lost: 0, pending: 0 });
    expect(logLines.filter((l) => typeof l.msg === "string" && l.msg.endsWith("rows dropped: too many waiting to be written"))).toEqual([
      expect.objectContaining({ level: "warn", count: 5 }),
    ]);
    // Room again: rows are accepted as before.
    writer.add(100);
    await writer.flush();
    expect(writer.stats()).toMatchObject({ written: 101, dropped: 5, pending: 0 });
  });
});

describe("a failing write", () => {
  it("is tried again, with growing waits, until it is written", async () => {
    const { writer, batches, tries } = testWriter({ failures: 2 });
    for (const n of [1, 2, 3]) writer.add(n);
    await writer.flush();
    expect(tries.count).toBe(3);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(writer.stats()).toEqual({ written: 3, dropped: 0, lost: 0, pending: 0 });
  });

  it("is tried again for as long as the database stays away, past the four tries that once gave up", async () => {
    // Writes fail for about a second and a half (a PostgreSQL restart): the rows wait, then are written.
    const failingUntil = performance.now() + 1_500;
    const batches: number[][] = [];
    const { writer, tries } = testWriter({
      retryAfterMs: 20,
      write: async (batch) => {
        tries.count++;
        if (performance.now() < failingUntil) throw new Error("the database is away");
        batches.push([...batch]);
      },
    });
    for (const n of [1, 2, 3]) writer.add(n);
    await writer.flush();
    expect(tries.count).toBeGreaterThan(4);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(writer.stats()).toEqual({ written: 3, dropped: 0, lost: 0, pending: 0 });
  });

  it("is given up once giveUpAfterMs has passed and counted lost; the rows after it are written", async () => {
    const { writer, batches, tries } = testWriter({ failures: 1_000, giveUpAfterMs: 100, retryAfterMs: 10 });
    for (const n of [1, 2]) writer.add(n);
    const started = performance.now();
    await writer.flush();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(tries.count).toBeGreaterThan(1);
    expect(writer.stats()).toEqual({ written: 0, dropped: 0, lost: 2, pending: 0 });
    expect(logLines).toContainEqual(expect.objectContaining({ level: "warn", count: 2, attempts: tries.count }));
    tries.count = 10_000; // the database is back
    writer.add(3);
    await writer.flush();
    expect(batches).toEqual([[3]]);
    expect(writer.stats()).toMatchObject({ written: 1, lost: 2 });
  });

  it("keeps the order: a batch waiting for its next try holds back the batches after it", async () => {
    const { writer, batches } = testWriter({ failures: 1, batchSize: 2 });
    for (const n of [1, 2, 3, 4, 5]) writer.add(n);
    await writer.flush();
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });
});

describe("without a flush", () => {
  it("writes a full batch at once and a lone row within flushAfterMs", async () => {
    const { writer, batches } = testWriter({ batchSize: 3, flushAfterMs: 20 });
    for (const n of [1, 2, 3, 4]) writer.add(n);
    await expect.poll(() => batches, { timeout: 3000, interval: 10 }).toEqual([[1, 2, 3], [4]]);
  });
});

describe("shutdown", () => {
  it("writes what every writer holds: the access log's, the request log's and any other", async () => {
    const { sql } = await database();
    const other = testWriter();
    const request = requestLogRow(t);
    const action = `GET /v1/shutdown-${randomUUID()}`;
    recordAccess({ userId: t.users.live.id, agentId: t.agent.id, agentName: "Assistant", plane: "live", surface: "rest", action, outcome: "ok" });
    recordRequest(request);
    other.writer.add(7);
    await settleService();
    expect(await sql.query(`SELECT 1 FROM access_log WHERE action = $1`, [action])).toHaveLength(1);
    expect(await sql.query(`SELECT 1 FROM request_log WHERE id = $1`, [request.id])).toHaveLength(1);
    expect(other.batches).toEqual([[7]]);
  });
});

describe("shutdown with the database away", () => {
  it("tries until the flush's deadline, then gives the rows up, counted and logged, and returns", async () => {
    const { writer, tries } = testWriter({ failures: 1_000_000, retryAfterMs: 10 });
    for (const n of [1, 2, 3]) writer.add(n);
    const started = performance.now();
    await flushWriters(300);
    const took = performance.now() - started;
    // It stops trying once the next wait would pass the deadline: the waits double, so by then it has
    // tried for about a third of it at least ((300 - 10) / 3 ms).
    expect(took).toBeGreaterThanOrEqual(90);
    expect(took).toBeLessThan(1_500);
    expect(tries.count).toBeGreaterThan(1);
    expect(writer.stats()).toMatchObject({ written: 0, lost: 3, pending: 0 });
    expect(logLines).toContainEqual(expect.objectContaining({ level: "warn", count: 3 }));
  });
});
