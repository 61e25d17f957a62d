// POST /v1/profile/commit: a conversation turn distilled into the user's profile. Runs inline when
// asked to (sync) or when small; otherwise queued on pg-boss and run by a worker. Each commit's
// transition processing → completed happens once, in the transaction that writes its memories.
import { now as clockNow } from "../platform/clock";
import type { Prisma } from "../platform/db/generated/client";
import { db } from "../platform/db";
import { ApiError } from "../http/errors";
import { enqueue, QUEUES, work } from "../platform/jobs";
import { logger } from "../platform/log";
import { distillerFromConfig, type DistillMessage } from "./distill";
import { factToMemory, fromDistilled } from "./facts";
import { inTransaction, writeMemories, type MemoryInput } from "./memories";
import { mergeWithOwn } from "./merge-own";
import { clearObligation } from "./obligation";
import { deleteOwnMemories } from "./recompose";
import { agentSource, visibleMemories } from "./sources";

/** The spec's bounds on one commit. */
export const COMMIT_LIMITS = { messages: 20, messageChars: 16_000, memories: 20, memoryChars: 1_000 } as const;
/** A commit with sync false runs inline up to this many characters in all; larger ones are queued. */
export const COMMIT_INLINE_MAX_CHARS = 4_000;

export interface CommitMemory {
  text: string;
  box?: string;
  kind?: string;
}

export interface CommitRequest {
  userId: string;
  agent: { id: string; handle: string };
  messages: DistillMessage[];
  response?: string;
  memories: CommitMemory[];
  sync: boolean;
}

export interface CommitResult {
  facts_written: number;
  memories_written: number;
  rejected_memories: { text: string; reason: "already_known" | "duplicate" }[];
  user_summary: string;
}

interface StoredInput {
  messages: { role: DistillMessage["role"]; content: string; at: string | null }[];
  memories: CommitMemory[];
  agent: { id: string; handle: string };
}

export async function submitCommit(req: CommitRequest) {
  const messages = req.response ? [...req.messages, { role: "assistant" as const, content: req.response }] : req.messages;
  const input: StoredInput = {
    messages: messages.map((m) => ({ role: m.role, content: m.content, at: m.at ? new Date(m.at).toISOString() : null })),
    memories: req.memories,
    agent: req.agent,
  };
  const size = messages.reduce((n, m) => n + m.content.length, 0) + req.memories.reduce((n, m) => n + m.text.length, 0);
  const commit = await inTransaction(async (tx) => {
    const row = await tx.commit.create({
      data: { userId: req.userId, agentId: req.agent.id, input: input as unknown as Prisma.InputJsonValue },
      select: { id: true },
    });
    // The commit of the turn clears the read obligation, whether it runs now or later.
    await clearObligation(tx, { userId: req.userId, agentId: req.agent.id });
    return row;
  });
  try {
    if (req.sync || size <= COMMIT_INLINE_MAX_CHARS) {
      return { status: "completed" as const, commit_id: commit.id, ...(await runCommit(commit.id)) };
    }
    await enqueue(QUEUES.commit, { commitId: commit.id });
  } catch (err) {
    // Nothing will run it now: say so, rather than leave it processing for ever.
    await markFailed(commit.id, err);
    throw err;
  }
  return { status: "processing" as const, commit_id: commit.id };
}

/**
 * Runs a commit once: distils its messages, writes the facts and explicit memories, and marks it
 * completed in the same transaction. Running it again (a retried job, a second worker) returns the
 * stored result and writes nothing; a failed commit is not run (null).
 */
export async function runCommit(commitId: string): Promise<CommitResult | null> {
  const prisma = await db();
  const commit = await prisma.commit.findUnique({ where: { id: commitId } });
  if (!commit) throw new Error(`Commit ${commitId} does not exist.`);
  if (commit.status === "completed") return commit.result as unknown as CommitResult;
  // Given up on: its turn is answered as failed, and running it now would contradict that.
  if (commit.status === "failed") return null;
  const input = commit.input as unknown as StoredInput;
  const source = agentSource(input.agent.handle);

  const { facts, retractions = [] } = await distillerFromConfig().distill({
    messages: input.messages.map((m) => ({ role: m.role, content: m.content, at: m.at ? new Date(m.at) : null })),
  });
  const factInputs: MemoryInput[] = facts.map((f) => ({
    ...fromDistilled(f),
    saidAt: f.at,
    provenance: { via: "commit", commit_id: commitId, message_index: f.messageIndex },
  }));
  const explicit = input.memories.map((m) => ({
    text: m.text,
    memory: { ...factToMemory(m.text, { box: m.box, kind: m.kind }), provenance: { via: "commit", commit_id: commitId } },
  }));

  return inTransaction(async (tx) => {
    // Facts the profile already holds, from any source, are not written again.
    const keys = [...factInputs, ...explicit.map((e) => e.memory)].map((m) => m.key);
    const held = new Set((await tx.memory.findMany({ where: { ...visibleMemories(commit.userId), key: { in: keys } }, select: { key: true } })).map((m) => m.key));
    const rejected: CommitResult["rejected_memories"] = [];
    const seen = new Set<string>();
    const explicitToWrite = explicit.flatMap((e) => {
      if (held.has(e.memory.key)) return (void rejected.push({ text: e.text, reason: "already_known" }), []);
      if (seen.has(e.memory.key)) return (void rejected.push({ text: e.text, reason: "duplicate" }), []);
      seen.add(e.memory.key);
      return [e.memory];
    });
    // What the person asked to forget (forget with reason user_request, the account page) is hidden,
    // and not learned again from a conversation.
    const hidden = new Set(
      (await tx.memory.findMany({ where: { userId: commit.userId, key: { in: factInputs.map((f) => f.key) }, suppressedAt: { not: null } }, select: { key: true } })).map(
        (m) => m.key,
      ),
    );
    // What is left folds into the agent's own memories: replacing the older fact in a slot, a restatement,
    // or what the user said has ended (merge-own.ts).
    const merge = await mergeWithOwn(
      tx,
      { userId: commit.userId, agentId: commit.agentId },
      factInputs.filter((f) => !held.has(f.key) && !seen.has(f.key) && !hidden.has(f.key)),
      retractions,
    );
    const factsToWrite = merge.write;
    await deleteOwnMemories(tx, { userId: commit.userId, ids: merge.remove });
    const writer = { userId: commit.userId, source, writtenBy: source, agentId: commit.agentId };
    const written = await writeMemories(tx, writer, [...explicitToWrite, ...factsToWrite]);
    const createdKeys = new Set(written.filter((w) => w.created).map((w) => w.memory.key));
    const profile = await tx.userProfile.findUnique({ where: { userId: commit.userId }, select: { summary: true } });
    const result: CommitResult = {
      facts_written: factsToWrite.filter((f) => createdKeys.has(f.key)).length,
      memories_written: explicitToWrite.filter((m) => createdKeys.has(m.key)).length,
      rejected_memories: rejected,
      user_summary: profile?.summary ?? "",
    };
    const done = await tx.commit.updateMany({
      where: { id: commitId, status: "processing" },
      data: { status: "completed", result: result as unknown as Prisma.InputJsonValue, completedAt: clockNow(), input: { messages: [], memories: [], agent: input.agent } },
    });
    // Another run finished first: undo this one's writes and answer with that run's result.
    if (done.count === 0) throw new AlreadyCompleted();
    return result;
  }).catch(async (err) => {
    if (!(err instanceof AlreadyCompleted)) throw err;
    return (await prisma.commit.findUniqueOrThrow({ where: { id: commitId } })).result as unknown as CommitResult;
  });
}

class AlreadyCompleted extends Error {}

/** processing → failed, once; the error is kept for the status route. */
export async function markFailed(commitId: string, err: unknown): Promise<void> {
  await (
    await db()
  ).commit
    .updateMany({
      where: { id: commitId, status: "processing" },
      data: { status: "failed", error: (err as Error)?.message?.slice(0, 500) ?? "failed", completedAt: clockNow() },
    })
    .catch((e: Error) => logger().error({ commit_id: commitId, err: e.message }, "could not mark the commit failed"));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** GET /v1/profile/commit/:id — a commit of this agent for this user. */
export async function commitStatus(input: { commitId: string; userId: string; agentId: string }) {
  if (!UUID.test(input.commitId)) throw new ApiError("not_found", "No such commit for this agent and user.");
  const commit = await (
    await db()
  ).commit.findFirst({
    where: { id: input.commitId, userId: input.userId, agentId: input.agentId },
    select: { id: true, status: true, result: true, createdAt: true, completedAt: true },
  });
  if (!commit) throw new ApiError("not_found", "No such commit for this agent and user.");
  return {
    status: commit.status,
    commit_id: commit.id,
    created_at: commit.createdAt.toISOString(),
    completed_at: commit.completedAt?.toISOString() ?? null,
    ...((commit.result as object | null) ?? {}),
    ...(commit.status === "failed" ? { error: "The commit could not be processed. Send the turn again." } : {}),
  };
}

/** Starts this process's commit worker. */
export async function startCommitWorker(): Promise<void> {
  await work(QUEUES.commit, async (data, attempt) => {
    const commitId = String(data.commitId);
    try {
      await runCommit(commitId);
    } catch (err) {
      logger().error({ commit_id: commitId, err: (err as Error).message, retry: attempt.retryCount }, "commit failed");
      if (attempt.final) await markFailed(commitId, err);
      throw err; // pg-boss retries it until the last attempt
    }
  });
}
