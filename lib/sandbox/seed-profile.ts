// The synthetic sandbox user's seeded profile: memories imported from ChatGPT and a few written by
// the sandbox agent, composed like any other profile. Provision writes it; reset restores it.
import { sealConnectionToken } from "../connectors/connections";
import { grantApps } from "../app-grants/grants";
import { GOOGLE_APP_SCOPES } from "../connectors/google";
import { DEVELOPMENT_PROVIDER, SANDBOX_MAILBOX_ACCOUNT_ID } from "../connectors/types";
import { randomBase62 } from "../platform/crypto";
import { newId, PREFIX } from "../platform/ids";
import { factToMemory } from "../profile/facts";
import { writeMemories, type Tx } from "../profile/memories";
import { agentSource, importSource } from "../profile/sources";

/** What the user once told ChatGPT, with the dates ChatGPT recorded. */
export const SANDBOX_IMPORTED_MEMORIES: readonly { text: string; said: string }[] = [
  { text: "My name is Sam", said: "2024-01-14" },
  { text: "I live in Lisbon", said: "2024-02-03" },
  { text: "I work as a product designer at a travel startup", said: "2024-02-03" },
  { text: "I have a dog named Miso", said: "2024-03-22" },
  { text: "I'm vegetarian", said: "2024-04-09" },
  { text: "I love trail running", said: "2024-05-18" },
  { text: "I prefer metric units", said: "2024-06-01" },
  { text: "I can't stand cilantro", said: "2024-07-12" },
  { text: "I'm learning Japanese", said: "2024-09-30" },
];

/** What the sandbox agent has remembered in earlier conversations. */
export const SANDBOX_AGENT_MEMORIES: readonly { text: string; box?: string; kind?: string }[] = [
  { text: "I prefer window seats on flights" },
  { text: "I'm planning to visit Kyoto in April" },
  { text: "Usually books trips two months ahead", box: "preferences", kind: "preference" },
];

export async function seedSandboxProfile(tx: Tx, input: { userId: string; agent: { id: string; handle: string } }): Promise<void> {
  const importId = newId(PREFIX.importJob);
  const imported = SANDBOX_IMPORTED_MEMORIES.map((m) => ({
    ...factToMemory(m.text),
    saidAt: new Date(`${m.said}T12:00:00.000Z`),
    provenance: { via: "import_file", import_id: importId },
  }));
  await tx.import.create({
    data: { id: importId, userId: input.userId, provider: "chatgpt", source: importSource("chatgpt"), memoryCount: imported.length },
  });
  await writeMemories(tx, { userId: input.userId, source: importSource("chatgpt"), writtenBy: importSource("chatgpt"), agentId: null, importId }, imported);
  const source = agentSource(input.agent.handle);
  await writeMemories(
    tx,
    { userId: input.userId, source, writtenBy: source, agentId: input.agent.id },
    SANDBOX_AGENT_MEMORIES.map((m) => ({ ...factToMemory(m.text, { box: m.box, kind: m.kind }), provenance: { via: "remember" } })),
  );
}

/**
 * The synthetic user's connected Gmail, against the development provider (no Google account behind
 * it), given to the sandbox agent as if connected in its flow: POST /v1/sandbox/simulate
 * gmail_token_expired makes it fail as a revoked grant until reset.
 */
export async function seedSandboxConnections(tx: Tx, input: { userId: string; email: string; agentId: string }): Promise<void> {
  await tx.appConnection.create({
    data: {
      userId: input.userId,
      app: "gmail",
      provider: DEVELOPMENT_PROVIDER,
      accountId: SANDBOX_MAILBOX_ACCOUNT_ID,
      accountEmail: input.email,
      scopes: [GOOGLE_APP_SCOPES.gmail],
      accessTokenSealed: sealConnectionToken(`dev_${randomBase62(32)}`),
      // A fixed time, so reset restores the profile exactly.
      createdAt: new Date("2024-10-01T12:00:00.000Z"),
    },
  });
  await grantApps(tx, { userId: input.userId, agentId: input.agentId, apps: ["gmail"] });
}

/** Removes everything the user's profile holds, before seeding it again. */
export async function clearProfile(tx: Tx, userId: string): Promise<void> {
  await tx.appConnection.deleteMany({ where: { userId } });
  await tx.memory.deleteMany({ where: { userId } });
  await tx.import.deleteMany({ where: { userId } });
  await tx.userProfile.deleteMany({ where: { userId } });
}
