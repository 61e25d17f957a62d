import { distillSync } from "@/lib/profile/distill/builtin";
const lines = process.argv.slice(2);
for (const l of lines) {
  const r = distillSync({ messages: [{ role: "user", content: l }] } as never);
  console.log(JSON.stringify(l), "=>", r.facts.map((f: { kind: string; text: string }) => `${f.kind}: ${f.text}`).join(" | ") || "(none)");
}
