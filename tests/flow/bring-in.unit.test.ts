// An export file on the hosted import screen: its conversations read oldest first, each folded into
// what the earlier ones taught, so the preview holds the latest of each fact once.
import { describe, expect, it } from "vitest";
import { previewExport } from "@/lib/flow/bring-in";

/** A ChatGPT conversations.json entry: the user's messages in one branch, at `created` (Unix seconds). */
function conversation(id: string, created: number, said: string[]) {
  const ids = said.map((_, i) => `${id}-${i}`);
  const mapping: Record<string, unknown> = { [`${id}-root`]: { message: null, parent: null, children: ids.slice(0, 1) } };
  said.forEach((content, i) => {
    mapping[ids[i]!] = {
      message: { author: { role: "user" }, content: { content_type: "text", parts: [content] }, create_time: created + i },
      parent: i ? ids[i - 1] : `${id}-root`,
      children: ids.slice(i + 1, i + 2),
    };
  });
  return { id, title: id, create_time: created, current_node: ids.at(-1), mapping };
}

const file = (conversations: unknown[]) => new TextEncoder().encode(JSON.stringify(conversations));

describe("previewExport", () => {
  it("keeps the latest of each fact across conversations, whatever order the export lists them in", async () => {
    const older = conversation("older", 1_700_000_000, ["I live in Leeds and I'm vegan.", "I work as a nurse."]);
    const newer = conversation("newer", 1_710_000_000, ["I live in York now. I'm not vegan anymore.", "I work as a nurse at St Mary's hospital."]);
    for (const order of [
      [newer, older],
      [older, newer],
    ]) {
      const preview = await previewExport("chatgpt", file(order), { signedIn: false });
      expect(preview.map((m) => m.text).sort()).toEqual(["Lives in York", "Works as a nurse at St Mary's hospital"]);
      // Each dated by the conversation that said it.
      expect(preview.find((m) => m.text === "Lives in York")!.at).toBe(new Date(1_710_000_000_000).toISOString());
    }
  });
});
