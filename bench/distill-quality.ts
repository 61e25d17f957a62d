// Prints the built-in distiller's measured quality (dev, held-out, both, per kind) and its time per 20-message commit.
// Usage: npx tsx bench/distill-quality.ts [--misses dev|heldout|all] [--runs 3000]
import { performance } from "node:perf_hooks";
import { builtinDistiller, FACT_KINDS, type DistillMessage } from "@/lib/profile/distill";
import { scoreDistiller, type DistillCase, type Score, type SetScore } from "@/lib/profile/distill/score";
import { loadFixtures } from "../tests/fixtures/distill/load";
import { machine } from "./report";

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const row = (label: string, s: Score) =>
  `${label.padEnd(14)} ${pct(s.precision).padStart(7)} ${pct(s.recall).padStart(7)} ${pct(s.f1).padStart(7)}   ${String(s.matched).padStart(3)}/${String(s.extracted).padEnd(3)} extracted  ${String(s.matched).padStart(3)}/${s.expected} expected`;

function printMisses(result: SetScore) {
  for (const c of result.cases) {
    const matchedExtracted = new Set(c.pairs.map(([f]) => f));
    const matchedExpected = new Set(c.pairs.map(([, e]) => e));
    const wrong = c.extracted.filter((_, i) => !matchedExtracted.has(i));
    const missed = c.expected.filter((_, i) => !matchedExpected.has(i));
    if (!wrong.length && !missed.length) continue;
    console.log(`  ${c.id}`);
    for (const f of wrong) console.log(`    + extra   ${f.kind}: ${f.text}`);
    for (const e of missed) console.log(`    - missed  ${e.kind}: ${e.words.join(", ")}`);
  }
}

// 20-message conversations (the commit limit) cut from the fixtures' own messages, user and assistant.
function commitSizedConversations(cases: DistillCase[]): DistillMessage[][] {
  const all = cases.flatMap((c) => c.messages);
  const out: DistillMessage[][] = [];
  for (let start = 0; start < all.length; start += 20) {
    const chunk = all.slice(start, start + 20);
    while (chunk.length < 20) chunk.push(all[chunk.length % all.length]!);
    out.push(chunk);
  }
  return out;
}

// 20 user messages of `chars` characters each, cut from the fixtures' user messages (dense with facts).
function longConversation(cases: DistillCase[], chars: number): DistillMessage[] {
  const userText = cases.flatMap((c) => c.messages.filter((m) => m.role === "user").map((m) => m.content)).join(" ");
  return Array.from({ length: 20 }, (_, i) => {
    const start = (i * 997) % userText.length;
    const text = userText.slice(start) + " " + userText;
    return { role: "user" as const, content: text.repeat(Math.ceil(chars / text.length)).slice(0, chars) };
  });
}

async function timing(conversations: DistillMessage[][], runs: number) {
  for (let i = 0; i < 20; i++) await builtinDistiller.distill({ messages: conversations[i % conversations.length]! });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const messages = conversations[i % conversations.length]!;
    const start = performance.now();
    await builtinDistiller.distill({ messages });
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  const chars = conversations.reduce((n, c) => n + c.reduce((m, msg) => m + msg.content.length, 0), 0) / conversations.length;
  return { mean, p50: at(0.5), p95: at(0.95), max: times[times.length - 1]!, count: conversations.length, chars };
}

async function main() {
  const dev = loadFixtures("dev");
  const heldout = loadFixtures("heldout");
  const runs = Number(option("runs") ?? 3000);
  const results = {
    dev: await scoreDistiller({ distiller: builtinDistiller, cases: dev }),
    heldout: await scoreDistiller({ distiller: builtinDistiller, cases: heldout }),
    all: await scoreDistiller({ distiller: builtinDistiller, cases: [...dev, ...heldout] }),
  };
  console.log(`Distiller "${builtinDistiller.name}" · ${machine()}`);
  console.log(`Fixtures: ${dev.length} dev + ${heldout.length} held-out conversations\n`);
  console.log(`${"set".padEnd(14)} ${"prec".padStart(7)} ${"recall".padStart(7)} ${"F1".padStart(7)}`);
  console.log(row(`dev (${dev.length})`, results.dev.overall));
  console.log(row(`held-out (${heldout.length})`, results.heldout.overall));
  console.log(row(`all (${dev.length + heldout.length})`, results.all.overall));
  console.log(`\nPer kind, all conversations:`);
  for (const kind of FACT_KINDS) console.log(row(kind, results.all.byKind[kind]));
  const misses = option("misses");
  if (misses === "dev" || misses === "heldout" || misses === "all") {
    console.log(`\nMisses (${misses}):`);
    printMisses(results[misses]);
  }
  const both = [...dev, ...heldout];
  const longRuns = Math.max(50, Math.round(runs / 5));
  const ceilingRuns = Math.max(20, Math.round(runs / 30));
  const timings: [string, Awaited<ReturnType<typeof timing>>, number][] = [
    ["fixture conversations (user + assistant)", await timing(commitSizedConversations(both), runs), runs],
    ["20 user messages × 1,000 chars", await timing([longConversation(both, 1_000)], longRuns), longRuns],
    ["20 user messages × 16,000 chars (commit limit)", await timing([longConversation(both, 16_000)], ceilingRuns), ceilingRuns],
  ];
  console.log(`\nTime per 20-message conversation, ms`);
  console.log(
    `${"".padEnd(48)} ${"convs".padStart(5)} ${"chars".padStart(7)} ${"runs".padStart(5)} ${"mean".padStart(8)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"max".padStart(8)}`,
  );
  for (const [label, t, n] of timings) {
    const ms = (x: number) => x.toFixed(3).padStart(8);
    console.log(
      `${label.padEnd(48)} ${String(t.count).padStart(5)} ${String(Math.round(t.chars)).padStart(7)} ${String(n).padStart(5)} ${ms(t.mean)} ${ms(t.p50)} ${ms(t.p95)} ${ms(t.max)}`,
    );
  }
}

await main();
