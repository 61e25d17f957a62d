// Bulk import throughput, end to end: POST /v1/import/profiles with 1,000 users to the built service
// (its in-process worker, the built-in distiller), then GET /v1/import/jobs/:id every 50 ms until the
// job has completed. Messages per second = the job's messages ÷ (completed − request sent). Prints the
// request's own time, the worker's time, the CPU shares of the server and PostgreSQL over the job, and
// the server's RSS as the job goes (at each tenth of its users): flat when memory does not grow with it.
// Usage: npx tsx bench/import.ts [--users 1000] [--conversations 5] [--messages 20] [--jobs 3] [--tier scale|pro|enterprise]
//    or: npm run bench -- --scenario import [the same options]
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { builtinDistiller } from "../lib/profile/distill/builtin";
import { importUsers } from "../tests/fixtures/import-jobs/users";
import { provisionSandbox } from "./load";
import { benchOptions } from "./options";
import { cpuSample, cpuShare, other, OTHER_WARNING, quietMachine } from "./proc";
import { machine } from "./report";
import { treeRssMiB } from "./rss";
import { cleanUpAll, createDatabase, startService } from "./server";
import { ms, table } from "./timed-runs";

const BUDGET_MESSAGES_PER_SECOND = 20_000;
const POLL_MS = 50;
const AFTER_MS = 5_000;

function options() {
  const { extra, ...opts } = benchOptions({ db: "postgres" }, { scenario: "import", users: "1000", conversations: "5", messages: "20", jobs: "3", tier: "scale" });
  if (extra.scenario !== "import") throw new Error(`bench/import.ts runs the import scenario only, not '${extra.scenario}'.`);
  const count = (name: "users" | "conversations" | "messages" | "jobs") => {
    const n = Number(extra[name]);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1, not '${extra[name]}'.`);
    return n;
  };
  if (!["pro", "scale", "enterprise"].includes(extra.tier)) throw new Error(`--tier must be pro, scale or enterprise, not '${extra.tier}'.`);
  return { ...opts, tier: extra.tier, users: count("users"), conversations: count("conversations"), messages: count("messages"), jobs: count("jobs") };
}

interface JobAnswer {
  id: string;
  status: string;
  estimated_message_count: number;
  estimated_input_chars: number;
  progress: { profiles_imported: number; profiles_failed: number; memories_written: number; messages_processed: number };
}

async function main() {
  const opts = options();
  const db = createDatabase(opts.db, opts.postgresUrl);
  const service = await startService({ root: opts.root, db });
  try {
    const sandbox = await provisionSandbox(service.baseUrl);
    // The sandbox's developer on --tier (scale: 1,000 users a job, 10,000 imported profiles).
    if (opts.db === "postgres") {
      const client = new pg.Client({ connectionString: opts.postgresUrl });
      await client.connect();
      const schema = new URL(db.env.DATABASE_URL!).searchParams.get("schema")!;
      await client.query(`UPDATE "${schema}".developers SET import_tier = $1`, [opts.tier]);
      await client.end();
    } else throw new Error("bench/import.ts sets the developer's tier in PostgreSQL: run it with --db postgres.");
    const headers = { "content-type": "application/json", "x-api-key": sandbox.secret_key, "x-agent": sandbox.agent.handle };

    console.log(`${machine()}\nbulk import: ${opts.jobs} job(s) of ${opts.users} users × ${opts.conversations} conversations × ${opts.messages} messages, ${opts.db}\n`);
    const rows: string[][] = [];
    let worst = Infinity;
    for (let j = 0; j < opts.jobs; j++) {
      const users = importUsers(opts.users, opts.conversations, opts.messages).map((u) => ({ ...u, externalId: `job${j}-${u.externalId}` }));
      const body = JSON.stringify({ mode: "backfill", idempotencyKey: `bench-${j}`, users });
      await quietMachine();
      const rss: number[] = [treeRssMiB(service.pid)];
      const cpuFrom = cpuSample(service.pid);
      const sent = performance.now();
      const res = await fetch(`${service.baseUrl}/v1/import/profiles`, { method: "POST", headers, body });
      const answered = performance.now();
      const job = (await res.json()) as JobAnswer;
      if (res.status !== 202) throw new Error(`POST /v1/import/profiles answered ${res.status}: ${JSON.stringify(job)}`);
      let state: JobAnswer = job;
      let nextTenth = 1;
      while (state.status !== "completed") {
        await sleep(POLL_MS);
        const got = await fetch(`${service.baseUrl}/v1/import/jobs/${job.id}`, { headers });
        state = (await got.json()) as JobAnswer;
        if (["failed", "cancelled"].includes(state.status)) throw new Error(`the job ended ${state.status}`);
        while (state.progress.profiles_imported >= (nextTenth * opts.users) / 10 && nextTenth <= 10) {
          rss.push(treeRssMiB(service.pid));
          nextTenth++;
        }
      }
      const done = performance.now();
      const cpu = cpuShare(cpuFrom, cpuSample(service.pid));
      await sleep(AFTER_MS);
      const rssAfter = treeRssMiB(service.pid);
      const seconds = (done - sent) / 1000;
      const rate = state.progress.messages_processed / seconds;
      worst = Math.min(worst, rate);
      if (state.progress.profiles_imported !== opts.users) throw new Error(`imported ${state.progress.profiles_imported} of ${opts.users}`);
      rows.push([
        String(j + 1),
        String(state.progress.messages_processed),
        (job.estimated_input_chars / 1e6).toFixed(1),
        String(state.progress.memories_written),
        ms(answered - sent),
        ms(done - answered),
        ms(done - sent),
        Math.round(rate).toLocaleString("en-US"),
        cpu.server.toFixed(0),
        cpu.postgres.toFixed(0),
        other(cpu).toFixed(0),
        `${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)}`,
        rss.map((r) => r.toFixed(0)).join(" "),
        rssAfter.toFixed(0),
      ]);
      if (other(cpu) > OTHER_WARNING) console.log(`note: job ${j + 1} shared the machine: ${other(cpu).toFixed(0)} % of a CPU went to other processes`);
    }
    console.log(
      table(
        [
          "job",
          "messages",
          "M chars",
          "memories",
          "POST ms",
          "worker ms",
          "total ms",
          "messages/s",
          "CPU % server",
          "postgres",
          "other",
          "RSS MiB",
          "RSS at start and each tenth of the users",
          `${AFTER_MS / 1000} s after`,
        ],
        rows,
      ),
    );
    // The distiller's share: the same messages distilled in this process, one conversation at a time.
    const sample = importUsers(opts.users, opts.conversations, opts.messages);
    const distilStart = performance.now();
    let messages = 0;
    for (const u of sample) for (const c of u.conversations) messages += (await builtinDistiller.distill({ messages: c.messages })).facts.length >= 0 ? c.messages.length : 0;
    const distilRate = messages / ((performance.now() - distilStart) / 1000);
    console.log(`\nthe built-in distiller alone, one thread of this process: ${Math.round(distilRate).toLocaleString("en-US")} messages/s`);
    console.log(
      `slowest job: ${Math.round(worst).toLocaleString("en-US")} messages/s end to end (budget ≥ ${BUDGET_MESSAGES_PER_SECOND.toLocaleString("en-US")}): ${worst >= BUDGET_MESSAGES_PER_SECOND ? "met" : "NOT met"}`,
    );
  } finally {
    await service.stop();
    await db.drop();
  }
}

process.once("SIGINT", () => void cleanUpAll().finally(() => process.exit(130)));
await main().catch(async (err) => {
  console.error(err);
  await cleanUpAll();
  process.exit(1);
});
