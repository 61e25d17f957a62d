// With DISTILLER=llm, an export uploaded by someone not signed in yet is distilled by the built-in
// rules: the language model (paid per character) is reached only for people who proved their number.
// The model is a local server speaking the OpenAI chat-completions wire format.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { startFlow } from "@/lib/flow/start";
import { findFlow } from "@/lib/flow/store";
import { profileSignup } from "@/lib/flow/ways-in/profile-signup";
import { previewImport } from "@/lib/flow/steps";
import { createUser } from "@/lib/users/users";

let requests = 0;
let server: Server;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests++;
      const content = JSON.stringify({ facts: [{ text: "Lives in Porto", kind: "identity" }] });
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(
          JSON.stringify({ id: "c1", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] }),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  Object.assign(process.env, { DISTILLER: "llm", LLM_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, LLM_MODEL: "local-model" });
  (await import("@/lib/env")).resetEnvForTests();
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const file = new Uint8Array(readFileSync("tests/fixtures/exports/chatgpt-conversations.json"));

async function importScreenFlow(userId?: string) {
  const { id } = await startFlow(profileSignup, { plane: "live", required: [], request: {}, ip: "10.6.0.1", userId });
  await (await db()).flowSession.update({ where: { id }, data: { screen: "import" } });
  return (await findFlow(id))!;
}

describe("uploads on the import screen with DISTILLER=llm", () => {
  it("never reach the model for someone not signed in, and still give a preview", async () => {
    const item = await previewImport(await importScreenFlow(), { provider: "chatgpt", file });
    expect(item.memories.length).toBeGreaterThan(0);
    expect(requests).toBe(0);
  });

  it("reach the model for a signed-in person", async () => {
    const user = await createUser({ plane: "live" });
    await previewImport(await importScreenFlow(user.id), { provider: "chatgpt", file });
    expect(requests).toBeGreaterThan(0);
  });
});
