// Prints what each labelled distillation set holds: conversations, sessions, user messages and gold facts per kind.
// Usage: npx tsx bench/distill-sets.ts <dev|heldout|chat-dev|chat-dev2|chat-heldout>
import { loadFixtures, type FixtureSet } from "../tests/fixtures/distill/load";
const set = process.argv[2] as FixtureSet;
const cases = loadFixtures(set);
const ids = new Set<string>();
const kinds: Record<string, number> = {};
let facts = 0,
  users = 0,
  sessions = 0;
for (const c of cases) {
  if (ids.has(c.id)) throw new Error(`duplicate id ${c.id}`);
  ids.add(c.id);
  sessions += c.sessions?.length ?? 1;
  users += c.messages.filter((m) => m.role === "user").length;
  for (const e of c.expected) {
    kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
    facts++;
  }
}
console.log(JSON.stringify({ set, conversations: cases.length, sessions, userMessages: users, facts, kinds }));
