"use server";
// The account pages' forms: disconnect an app, remove a fact an app taught, edit, remove or forget a
// memory, revoke an agent, delete the account, sign out (here, or on every browser). Each reads the
// session again and acts for the signed-in person only: lib/account refuses an id that is not theirs.
import { redirect } from "next/navigation";
import { z } from "zod";
import { revokeAgent, revokeAgentApp } from "@/lib/account/agents";
import { deleteAccount } from "@/lib/account/delete";
import { AccountError } from "@/lib/account/errors";
import { editMemory, forgetMemory, memoryFilterSchema, removeMemory } from "@/lib/account/memories";
import { restoreHidden } from "@/lib/account/suppressions";
import { actionForm, arg, refuseQuietly, serverAction, textArg } from "@/lib/http/server-action";
import { auth, signOut, signOutEverywhere } from "@/lib/auth/session";
import { disconnectApp } from "@/lib/connectors/connections";
import { removeAppFact } from "@/lib/connectors/memories/facts";

export const disconnectAction = serverAction({ args: [textArg("app")], refuse: refuseQuietly }, async (app: string): Promise<void> => {
  const userId = (await auth())?.user?.id;
  const done = userId ? await disconnectApp(userId, app) : false;
  redirect(done ? `/account?disconnected=${encodeURIComponent(app)}` : "/account");
});

export const removeAppFactAction = serverAction({ args: [textArg("memoryId")], refuse: refuseQuietly }, async (memoryId: string): Promise<void> => {
  const userId = (await auth())?.user?.id;
  const done = userId ? await removeAppFact({ userId, memoryId }) : false;
  redirect(done ? "/account?removed=1" : "/account");
});

export const signOutAction = serverAction({ args: [], refuse: refuseQuietly }, async (): Promise<void> => {
  await signOut({ redirectTo: "/" });
});

/** Ends every session of the signed-in person, on every browser, this one too. */
export const signOutEverywhereAction = serverAction({ args: [], refuse: refuseQuietly }, async (): Promise<void> => {
  const userId = (await auth())?.user?.id;
  if (userId) await signOutEverywhere(userId);
  await signOut({ redirectTo: "/account" });
});

/** The memory list's filters, as the page bound them: an object (its fields are read leniently by memoriesPath). */
const filtersArg = arg("filters", z.unknown().refine((v) => v == null || (typeof v === "object" && !Array.isArray(v)), "Expected the list's filters."));

/** The memory list again, with the filters it was on (rebuilt from the parsed filters, never taken as a URL). */
function memoriesPath(filters: unknown, notice: Record<string, string>): string {
  const f = memoryFilterSchema.parse(filters ?? {});
  const q = new URLSearchParams({ ...(f.box ? { box: f.box } : {}), ...(f.source ? { source: f.source } : {}), ...(f.page > 1 ? { page: String(f.page) } : {}), ...notice });
  const query = q.toString();
  return `/account/memories${query ? `?${query}` : ""}`;
}

/** Runs a memory action for the signed-in person; an AccountError comes back as the page's error notice. */
async function onMemory(filters: unknown, done: string, act: (userId: string) => Promise<unknown>): Promise<never> {
  const userId = (await auth())?.user?.id;
  if (!userId) redirect("/account");
  let notice: Record<string, string> = { done };
  try {
    await act(userId);
  } catch (err) {
    if (!(err instanceof AccountError)) throw err;
    notice = { error: err.code };
  }
  redirect(memoriesPath(filters, notice));
}

export const editMemoryAction = serverAction({ args: [textArg("memoryId"), filtersArg, actionForm()], refuse: refuseQuietly }, async (memoryId: string, filters: unknown, form: FormData): Promise<void> => {
  await onMemory(filters, "edited", (userId) => editMemory({ userId, memoryId, text: form.get("text") }));
});

export const removeMemoryAction = serverAction({ args: [textArg("memoryId"), filtersArg], refuse: refuseQuietly }, async (memoryId: string, filters: unknown): Promise<void> => {
  await onMemory(filters, "removed", (userId) => removeMemory({ userId, memoryId }));
});

export const forgetMemoryAction = serverAction({ args: [textArg("memoryId"), filtersArg], refuse: refuseQuietly }, async (memoryId: string, filters: unknown): Promise<void> => {
  await onMemory(filters, "forgotten", (userId) => forgetMemory({ userId, memoryId }));
});

/** Undoes one suppression of the signed-in person's (what an agent, or they, hid): back to the memories page. */
export const restoreHiddenAction = serverAction({ args: [textArg("suppressionId"), filtersArg], refuse: refuseQuietly }, async (suppressionId: string, filters: unknown): Promise<void> => {
  await onMemory(filters, "restored", (userId) => restoreHidden({ userId, suppressionId }));
});

export const revokeAgentAction = serverAction({ args: [textArg("agentId")], refuse: refuseQuietly }, async (agentId: string): Promise<void> => {
  const userId = (await auth())?.user?.id;
  if (!userId) redirect("/account");
  let outcome = "revoked=1";
  try {
    await revokeAgent({ userId, agentId });
  } catch (err) {
    if (!(err instanceof AccountError)) throw err;
    outcome = "revoke_error=1";
  }
  redirect(`/account?${outcome}#agents-title`);
});

/** Takes one app back from one agent (its read grant and its actions there); the rest stays. */
export const revokeAgentAppAction = serverAction({ args: [textArg("agentId"), textArg("app")], refuse: refuseQuietly }, async (agentId: string, app: string): Promise<void> => {
  const userId = (await auth())?.user?.id;
  if (!userId) redirect("/account");
  let outcome = `app_revoked=${encodeURIComponent(String(app))}`;
  try {
    await revokeAgentApp({ userId, agentId, app });
  } catch (err) {
    if (!(err instanceof AccountError)) throw err;
    outcome = "revoke_error=1";
  }
  redirect(`/account?${outcome}#agents-title`);
});

export const deleteAccountAction = serverAction({ args: [actionForm()], refuse: refuseQuietly }, async (form: FormData): Promise<void> => {
  const userId = (await auth())?.user?.id;
  if (!userId) redirect("/account");
  try {
    await deleteAccount({ userId, confirmation: form.get("confirmation") });
  } catch (err) {
    if (!(err instanceof AccountError)) throw err;
    redirect("/account/delete?error=confirmation");
  }
  await signOut({ redirectTo: "/account/deleted" });
});
