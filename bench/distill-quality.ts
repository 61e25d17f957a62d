// Prints the built-in distiller's measured quality (each set side by side, overall and per kind) and its time per 20-message commit.
// Usage: npx tsx bench/distill-quality.ts [--sets dev,heldout,chat-dev,chat-dev2,chat-dev3,chat-dev4,chat-heldout] [--misses <set>] [--runs 3000]
import { performance } from "node:perf_hooks";
import { builtinDistiller, FACT_KINDS, type DistillMessage } from "@/lib/profile/distill";
import { distillSync } from "@/lib/profile/distill/builtin";
import { scoreDistiller, type DistillCase, type Score, type SetScore } from "@/lib/profile/distill/score";
import { FIXTURE_SETS, loadFixtures, type FixtureCase, type FixtureSet } from "../tests/fixtures/distill/load";
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

// User messages per second on one thread: every user message of the given cases, distilled in commits of 20, for about a second.
function throughput(cases: DistillCase[]): { messages: number; perSecond: number } {
  const users = cases.flatMap((c) => c.messages.filter((m) => m.role === "user"));
  const commits: DistillMessage[][] = [];
  for (let i = 0; i < users.length; i += 20) commits.push(users.slice(i, i + 20));
  for (const messages of commits) distillSync({ messages });
  let done = 0;
  const start = performance.now();
  while (performance.now() - start < 1000) {
    for (const messages of commits) {
      distillSync({ messages });
      done += messages.length;
    }
  }
  return { messages: users.length, perSecond: (done / (performance.now() - start)) * 1000 };
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
  const users = conversations.reduce((n, c) => n + c.filter((m) => m.role === "user").length, 0) / conversations.length;
  return { perSecond: (users / mean) * 1000, mean, p50: at(0.5), p95: at(0.95), max: times[times.length - 1]!, count: conversations.length, chars };
}

const SET_LABEL: Record<FixtureSet, string> = {
  dev: "dev",
  heldout: "held-out",
  "chat-dev": "chat-dev",
  "chat-dev2": "chat-dev2",
  "chat-dev3": "chat-dev3",
  "chat-dev4": "chat-dev4",
  "chat-heldout": "chat-held",
};
const cell = (s: Score) => `${pct(s.precision).padStart(6)} ${pct(s.recall).padStart(6)} ${pct(s.f1).padStart(6)}`;

async function main() {
  const sets = (option("sets") ?? FIXTURE_SETS.join(",")).split(",").map((s) => s.trim()) as FixtureSet[];
  for (const set of sets) if (!FIXTURE_SETS.includes(set)) throw new Error(`unknown set ${set}; sets: ${FIXTURE_SETS.join(", ")}`);
  const misses = option("misses") as FixtureSet | undefined;
  if (misses && !sets.includes(misses)) throw new Error(`--misses ${misses} needs it in --sets`);
  const runs = Number(option("runs") ?? 3000);
  const cases = Object.fromEntries(sets.map((set) => [set, loadFixtures(set)])) as Record<FixtureSet, FixtureCase[]>;
  const results = {} as Record<FixtureSet, SetScore>;
  for (const set of sets) results[set] = await scoreDistiller({ distiller: builtinDistiller, cases: cases[set] });
  console.log(`Distiller "${builtinDistiller.name}" · ${machine()}`);
  console.log(`Sets: ${sets.map((s) => `${s} (${cases[s].length})`).join(", ")}; a case with sessions is scored session by session\n`);
  console.log(`${"".padEnd(13)} ${sets.map((s) => `${SET_LABEL[s]} P / R / F1`.padStart(20)).join("   ")}`);
  console.log(`${"overall".padEnd(13)} ${sets.map((s) => cell(results[s].overall)).join("   ")}`);
  for (const kind of FACT_KINDS) console.log(`${kind.padEnd(13)} ${sets.map((s) => cell(results[s].byKind[kind])).join("   ")}`);
  console.log(`\nCounts (matched / extracted / expected):`);
  for (const set of sets) console.log(row(`${SET_LABEL[set]} (${cases[set].length})`, results[set].overall));
  if (misses) {
    console.log(`\nMisses (${misses}):`);
    printMisses(results[misses]);
  }
  const dev = cases.dev ?? loadFixtures("dev");
  const heldout = cases.heldout ?? loadFixtures("heldout");
  const both = [...dev, ...heldout];
  const longRuns = Math.max(50, Math.round(runs / 5));
  const ceilingRuns = Math.max(20, Math.round(runs / 30));
  const timings: [string, Awaited<ReturnType<typeof timing>>, number][] = [
    ["fixture conversations (user + assistant)", await timing(commitSizedConversations(both), runs), runs],
    ...(cases["chat-dev"]
      ? [
          ["chat-dev conversations (user + friend/assistant)", await timing(commitSizedConversations(cases["chat-dev"]), runs), runs] as [
            string,
            Awaited<ReturnType<typeof timing>>,
            number,
          ],
        ]
      : []),
    ["20 user messages × 1,000 chars", await timing([longConversation(both, 1_000)], longRuns), longRuns],
    ["20 user messages × 16,000 chars (commit limit)", await timing([longConversation(both, 16_000)], ceilingRuns), ceilingRuns],
  ];
  console.log(`\nTime per 20-message conversation, ms`);
  console.log(
    `${"".padEnd(48)} ${"convs".padStart(5)} ${"chars".padStart(7)} ${"runs".padStart(5)} ${"mean".padStart(8)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"max".padStart(8)} ${"user msg/s".padStart(11)}`,
  );
  for (const [label, t, n] of timings) {
    const ms = (x: number) => x.toFixed(3).padStart(8);
    console.log(
      `${label.padEnd(48)} ${String(t.count).padStart(5)} ${String(Math.round(t.chars)).padStart(7)} ${String(n).padStart(5)} ${ms(t.mean)} ${ms(t.p50)} ${ms(t.p95)} ${ms(t.max)} ${String(Math.round(t.perSecond)).padStart(11)}`,
    );
  }
  console.log(`\nThroughput, one thread (distillSync, commits of 20 user messages):`);
  for (const set of sets) {
    const t = throughput(cases[set]);
    console.log(`${SET_LABEL[set].padEnd(10)} ${String(t.messages).padStart(5)} user messages  ${String(Math.round(t.perSecond)).padStart(8)} user messages/s`);
  }
}

await main();
