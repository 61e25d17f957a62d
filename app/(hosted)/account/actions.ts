"use server";
// The account pages' forms: disconnect an app, remove a fact an app taught, edit, remove or forget a
// memory, revoke an agent, delete the account, sign out (here, or on every browser). Each acts for the
// signed-in person only (auth "person"): lib/account refuses an id that is not theirs. What they answer
// is the page again, with a notice in its address saying what happened.
import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "@/lib/actions/define-action";
import { revokeAgent, revokeAgentApp } from "@/lib/account/agents";
import { deleteAccount } from "@/lib/account/delete";
import { AccountError, type AccountErrorCode } from "@/lib/account/errors";
import { editMemory, forgetMemory, memoryFilterSchema, removeMemory } from "@/lib/account/memories";
import { restoreHidden } from "@/lib/account/suppressions";
import { signOut, signOutEverywhere } from "@/lib/person-auth/session";
import { disconnectApp } from "@/lib/connectors/connections";
import { removeAppFact } from "@/lib/connectors/memories/facts";
import { arg, text, textArg } from "@/lib/http/action-input";

/** Runs a change: `done` when it was made, `refused(code)` when lib/account refused it (not theirs, not valid); anything else is thrown on. */
async function outcomeOf<T>(act: () => Promise<unknown>, done: T, refused: (code: AccountErrorCode) => T): Promise<T> {
  try {
    await act();
    return done;
  } catch (err) {
    if (!(err instanceof AccountError)) throw err;
    return refused(err.code);
  }
}

export const disconnectAction = defineAction({
  auth: "person",
  bound: [textArg("app")],
  handler: async ({ userId, bound: [app] }) => {
    const done = await disconnectApp(userId, app);
    redirect(done ? `/account?disconnected=${encodeURIComponent(app)}` : "/account");
  },
});

export const removeAppFactAction = defineAction({
  auth: "person",
  bound: [textArg("memoryId")],
  handler: async ({ userId, bound: [memoryId] }) => {
    const done = await removeAppFact({ userId, memoryId });
    redirect(done ? "/account?removed=1" : "/account");
  },
});

/** Signing out needs no credential: it ends whatever session this browser holds. */
export const signOutAction = defineAction({
  auth: "none",
  handler: async () => {
    await signOut({ redirectTo: "/" });
  },
});

/** Ends every session of the signed-in person, on every browser, this one too. */
export const signOutEverywhereAction = defineAction({
  auth: "person",
  handler: async ({ userId }) => {
    await signOutEverywhere(userId);
    await signOut({ redirectTo: "/account" });
  },
});

/** The memory list's filters, as the page bound them: an object (its fields are read leniently by memoriesPath). */
const filtersArg = arg(
  "filters",
  z.unknown().refine((v) => v == null || (typeof v === "object" && !Array.isArray(v)), "Expected the list's filters."),
);

/** The memory list again, with the filters it was on (rebuilt from the parsed filters, never taken as a URL). */
function memoriesPath(filters: unknown, notice: Record<string, string>): string {
  const f = memoryFilterSchema.parse(filters ?? {});
  const q = new URLSearchParams({ ...(f.box ? { box: f.box } : {}), ...(f.source ? { source: f.source } : {}), ...(f.page > 1 ? { page: String(f.page) } : {}), ...notice });
  return `/account/memories?${q.toString()}`;
}

/** After a change to a memory: the list again, saying it was `done`, or the code lib/account refused it with. */
async function backToMemories(filters: unknown, done: string, act: () => Promise<unknown>): Promise<never> {
  redirect(memoriesPath(filters, await outcomeOf<Record<string, string>>(act, { done }, (code) => ({ error: code }))));
}

/** After a revocation: the account page's agents, saying what was done, or that it was refused. */
async function backToAgents(done: string, act: () => Promise<unknown>): Promise<never> {
  redirect(`/account?${await outcomeOf(act, done, () => "revoke_error=1")}#agents-title`);
}

export const editMemoryAction = defineAction({
  auth: "person",
  bound: [textArg("memoryId"), filtersArg],
  form: { text: text() },
  handler: async ({ userId, bound: [memoryId, filters], form }) => {
    await backToMemories(filters, "edited", () => editMemory({ userId, memoryId, text: form.text }));
  },
});

export const removeMemoryAction = defineAction({
  auth: "person",
  bound: [textArg("memoryId"), filtersArg],
  handler: async ({ userId, bound: [memoryId, filters] }) => {
    await backToMemories(filters, "removed", () => removeMemory({ userId, memoryId }));
  },
});

export const forgetMemoryAction = defineAction({
  auth: "person",
  bound: [textArg("memoryId"), filtersArg],
  handler: async ({ userId, bound: [memoryId, filters] }) => {
    await backToMemories(filters, "forgotten", () => forgetMemory({ userId, memoryId }));
  },
});

/** Undoes one suppression of the signed-in person's (what an agent, or they, hid): back to the memories page. */
export const restoreHiddenAction = defineAction({
  auth: "person",
  bound: [textArg("suppressionId"), filtersArg],
  handler: async ({ userId, bound: [suppressionId, filters] }) => {
    await backToMemories(filters, "restored", () => restoreHidden({ userId, suppressionId }));
  },
});

export const revokeAgentAction = defineAction({
  auth: "person",
  bound: [textArg("agentId")],
  handler: async ({ userId, bound: [agentId] }) => {
    await backToAgents("revoked=1", () => revokeAgent({ userId, agentId }));
  },
});

/** Takes one app back from one agent (its read grant and its actions there); the rest stays. */
export const revokeAgentAppAction = defineAction({
  auth: "person",
  bound: [textArg("agentId"), textArg("app")],
  handler: async ({ userId, bound: [agentId, app] }) => {
    await backToAgents(`app_revoked=${encodeURIComponent(app)}`, () => revokeAgentApp({ userId, agentId, app }));
  },
});

export const deleteAccountAction = defineAction({
  auth: "person",
  form: { confirmation: text() },
  handler: async ({ userId, form }) => {
    const deleted = await outcomeOf(
      () => deleteAccount({ userId, confirmation: form.confirmation }),
      true,
      () => false,
    );
    if (!deleted) redirect("/account/delete?error=confirmation");
    await signOut({ redirectTo: "/account/deleted" });
  },
});
