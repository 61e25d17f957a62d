// A bulk import survives its worker being killed: `npm run worker` is killed (SIGKILL) in the middle of
// a job, another is started, and it takes the job over once the dead worker's lease runs out. At the
// end every user is imported once, the counts match exactly, and each user's memories are the same as
// an uninterrupted run of the same job writes. Runs on the test database (PostgreSQL), or on an embedded
// one in a directory of its own that the processes open one after the other.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const USERS = 400;
// Small chunks: many of them, so the kill lands with most of the job still to do.
const CHUNK = 5;
const CHUNK_LINE = /"msg":"import job chunk"/;

function childEnv(): NodeJS.ProcessEnv {
  const base = { ...process.env, IMPORT_JOB_LEASE_SECONDS: "2", IMPORT_JOB_CHUNK_USERS: String(CHUNK), LOG_LEVEL: "debug", LOG_SYNC: "true", JOBS_WORKER: "in-process" };
  // The embedded database is one process's at a time: the children share a directory instead of memory.
  if (!process.env.DATABASE_URL) return { ...base, DATA_DIR: mkdtempSync(path.join(tmpdir(), "import-crash-")) };
  return base;
}

function start(env: NodeJS.ProcessEnv, args: string[]): { child: ChildProcess; lines: string[]; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  let pending = "";
  child.stdout.on("data", (d: Buffer) => {
    pending += d.toString();
    const parts = pending.split("\n");
    pending = parts.pop()!;
    lines.push(...parts);
  });
  let err = "";
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      if (code && code !== 0) console.error(err);
      resolve(code);
    }),
  );
  return { child, lines, exited };
}

async function until(check: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function runOnce(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const run = start(env, args);
  expect(await run.exited).toBe(0);
  return run.lines.filter((l) => l.startsWith("{") && !l.includes('"level"')).at(-1) ?? "";
}

describe("npm run worker, killed in the middle of a job", () => {
  it("leaves a job another worker finishes with nothing written twice and nothing lost", { timeout: 300_000 }, async () => {
    const env = childEnv();
    const seeded = JSON.parse(await runOnce(env, ["tests/fixtures/import-jobs/child.ts", "seed", String(USERS)])) as { jobId: string };
    expect(seeded.jobId).toMatch(/^imp_/);

    const first = start(env, ["scripts/worker.ts"]);
    await until(() => first.lines.some((l) => CHUNK_LINE.test(l)), "a first chunk");
    first.child.kill("SIGKILL");
    await first.exited;
    const chunksBefore = first.lines.filter((l) => CHUNK_LINE.test(l)).length;
    expect(chunksBefore).toBeLessThan(USERS / CHUNK / 2);

    const second = start(env, ["scripts/worker.ts"]);
    await until(() => second.lines.some((l) => l.includes('"msg":"import job completed"')), "the job to complete");
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    // The second worker imported what the first had not: its chunks start where the first's committed ones end.
    const resumedFrom = Math.min(...second.lines.filter((l) => CHUNK_LINE.test(l)).map((l) => (JSON.parse(l) as { from: number }).from));
    expect(resumedFrom).toBeGreaterThanOrEqual(chunksBefore * CHUNK);
    expect(resumedFrom).toBeLessThan(USERS / 2);

    const report = JSON.parse(await runOnce(env, ["tests/fixtures/import-jobs/child.ts", "report", String(USERS)]));
    expect(report.job).toMatchObject({ status: "completed", imported: USERS, failed: 0, accepted: USERS });
    expect(report.job.messages).toBe(report.job.estimatedMessages);
    expect(report.users).toBe(USERS);
    expect(report.importRecords).toBe(USERS);
    expect(report.usersWithTwoImports).toBe(0);
    expect(report.memories).toBe(report.job.memories);
    expect(report.importRecordMemories).toBe(report.memories);
    expect(report.memories).toBe(report.referenceMemories);
    expect(report.sameAsUninterrupted).toBe(true);
  });
});
