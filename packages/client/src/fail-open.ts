// Fail open: a failed read, commit or tool call costs the turn its personalisation, not its answer.
import type { ProfileClient } from "./client.js";
import { ServiceError } from "./errors.js";
import type { CommitInput, CommitResult, Profile, ReadQuery, TurnRef, UserRef } from "./types.js";

/** Where warnings go (default: console). */
export interface WarnLogger {
  /** Receives a sentence and the error's code, type, request id and message. */
  warn: (message: string, details: Record<string, unknown>) => void;
}

/** The time budget and logger of a fail-open call. */
export interface FailOpenOptions {
  /** The most time the call may take before the turn goes on without it, in milliseconds. */
  budgetMs?: number;
  /** Where the warning goes when the call fails (default: console). */
  logger?: WarnLogger;
}

/** The profile a turn gets when the read failed: nothing personal, and `unavailable: true`. */
export interface EmptyProfile {
  /** No person is known for this turn. */
  linked: false;
  /** The read failed (unlike a person who simply has no profile yet). */
  unavailable: true;
  /** No preferences. */
  preferences: [];
  /** No summary. */
  summary: "";
  /** Why the read failed. */
  error: ServiceError;
}

/** The outcome of a fail-open call: its value, or the fallback and the error. */
export type FailOpenResult<T, F> = { ok: true; value: T; error?: undefined } | { ok: false; value: F; error: ServiceError };

const consoleLogger: WarnLogger = { warn: (message, details) => console.warn(message, details) };

function asServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err;
  return new ServiceError({ code: "SERVER_ERROR", type: "client", message: err instanceof Error ? err.message : String(err), cause: err });
}

/**
 * Runs `task` within `budgetMs` (default 2,000). It never throws: a failure or a time-out is logged
 * as a warning and answered with `fallback`. The task receives a signal that aborts when the budget
 * runs out.
 */
export async function failOpen<T, F>(
  label: string,
  task: (options: { timeoutMs: number; signal: AbortSignal }) => Promise<T>,
  fallback: F,
  options: FailOpenOptions = {},
): Promise<FailOpenResult<T, F>> {
  const budgetMs = options.budgetMs ?? 2_000;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overBudget = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ServiceError({ code: "TIMEOUT", type: "timeout", message: `${label} took longer than its ${budgetMs} ms budget.` }));
    }, budgetMs);
  });
  try {
    const value = await Promise.race([task({ timeoutMs: budgetMs, signal: controller.signal }), overBudget]);
    return { ok: true, value };
  } catch (err) {
    const error = asServiceError(err);
    (options.logger ?? consoleLogger).warn(`${label} failed; the turn goes on without it`, {
      code: error.code,
      type: error.type,
      requestId: error.requestId,
      message: error.message,
    });
    return { ok: false, value: fallback, error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The profile for a turn, or an {@link EmptyProfile} when the read fails or runs past its budget. With
 * `turn`, the read is recorded as part of that conversation and turn (send the same `turn` to
 * {@link commitForTurn}).
 */
export async function readForTurn(client: ProfileClient, input: { user: UserRef; turn?: TurnRef } & ReadQuery & FailOpenOptions): Promise<Profile | EmptyProfile> {
  const { budgetMs, logger, user, ...query } = input;
  const sections = query.sections ?? (query.box ? undefined : "identity,preferences,summary");
  const result = await failOpen("profile read", (o) => client.read({ user, ...query, sections, ...o }), null, { budgetMs, logger });
  if (result.ok) return result.value;
  return { linked: false, unavailable: true, preferences: [], summary: "", error: result.error };
}

/** Commits the turn (recorded with `turn`, as the turn's reads were); null (and a warning) when the commit fails or runs past its budget. */
export async function commitForTurn(client: ProfileClient, input: { user: UserRef; turn?: TurnRef } & CommitInput & FailOpenOptions): Promise<CommitResult | null> {
  const { budgetMs, logger, ...body } = input;
  return (await failOpen("profile commit", (o) => client.commit({ ...body, ...o }), null, { budgetMs, logger })).value;
}

/** Calls a tool; null (and a warning) when the call fails or runs past its budget. */
export async function callToolForTurn(client: ProfileClient, input: { name: string; arguments?: Record<string, unknown>; user: UserRef } & FailOpenOptions): Promise<unknown> {
  const { budgetMs, logger, ...call } = input;
  return (await failOpen(`tool ${call.name}`, (o) => client.callTool({ ...call, ...o }), null, { budgetMs, logger })).value;
}
