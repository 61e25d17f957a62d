// A bulk import folds a user's conversations in the order given, oldest first, and into what the agent
// wrote before: one memory per fact, the newest city, nothing the user said has ended.
import { beforeEach, describe, expect, it } from "vitest";
import { POST as submit } from "@/app/v1/import/profiles/route";
import { db } from "@/lib/platform/db";
import { runImportJob } from "@/lib/import-jobs/worker";
import { createTenant, type Tenant } from "../helpers/fixtures";
import { call } from "../helpers/http";

let t: Tenant;
beforeEach(async () => {
  t = await createTenant();
});

const headers = () => ({ "x-api-key": t.keys.sk, "x-agent": t.agent.handle });
const conversation = (id: string, ...said: string[]) => ({ id, messages: said.map((content) => ({ role: "user", content })) });
const job = (conversations: unknown[]) => ({
  mode: "backfill",
  idempotencyKey: `key-${Math.random()}`,
  users: [{ externalId: "ext-1", profile: {}, conversations }],
});

async function importConversations(conversations: unknown[]) {
  const res = await call(submit, { headers: headers(), body: job(conversations) });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await runImportJob(res.body.id);
}

async function texts(): Promise<string[]> {
  const prisma = await db();
  const link = await prisma.externalUserId.findFirstOrThrow({ where: { developerId: t.developer.id, externalId: "ext-1" } });
  return (await prisma.memory.findMany({ where: { userId: link.userId }, select: { text: true } })).map((m) => m.text).sort();
}

describe("bulk import over months of conversations", () => {
  it("keeps the latest of each fact across a new user's conversations", async () => {
    await importConversations([
      conversation("c1", "I live in Leeds and I'm vegan.", "I work as a nurse."),
      conversation("c2", "I love jazz."),
      conversation("c3", "I live in York now. I'm not vegan anymore.", "I work as a nurse at St Mary's hospital."),
    ]);
    expect(await texts()).toEqual(["Lives in York", "Likes jazz", "Works as a nurse at St Mary's hospital"].sort());
  });

  it("folds a later job into what the agent imported before for the same user", async () => {
    await importConversations([conversation("c1", "I live in Leeds.", "I love jazz.")]);
    await importConversations([conversation("c2", "I live in York now.", "I love jazz.")]);
    expect(await texts()).toEqual(["Lives in York", "Likes jazz"].sort());
  });
});
