"use server";
// The account pages' forms: disconnect an app, remove a fact an app taught, edit, remove or forget a
// memory, revoke an agent, delete the account, sign out. Each reads the session again and acts for the
// signed-in person only: lib/account refuses an id that is not theirs.
import { redirect } from "next/navigation";
import { revokeAgent } from "@/lib/account/agents";
import { deleteAccount } from "@/lib/account/delete";
import { AccountError } from "@/lib/account/errors";
import { editMemory, forgetMemory, memoryFilterSchema, removeMemory } from "@/lib/account/memories";
import { auth, signOut } from "@/lib/auth/session";
import { disconnectApp } from "@/lib/connectors/connections";
import { removeAppFact } from "@/lib/connectors/memories/facts";

export async function disconnectAction(app: string): Promise<void> {
  const userId = (await auth())?.user?.id;
  const done = userId ? await disconnectApp(userId, app) : false;
  redirect(done ? `/account?disconnected=${encodeURIComponent(app)}` : "/account");
}

export async function removeAppFactAction(memoryId: string): Promise<void> {
  const userId = (await auth())?.user?.id;
  const done = userId ? await removeAppFact({ userId, memoryId }) : false;
  redirect(done ? "/account?removed=1" : "/account");
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/" });
}

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

export async function editMemoryAction(memoryId: string, filters: unknown, form: FormData): Promise<void> {
  await onMemory(filters, "edited", (userId) => editMemory({ userId, memoryId, text: form.get("text") }));
}

export async function removeMemoryAction(memoryId: string, filters: unknown): Promise<void> {
  await onMemory(filters, "removed", (userId) => removeMemory({ userId, memoryId }));
}

export async function forgetMemoryAction(memoryId: string, filters: unknown): Promise<void> {
  await onMemory(filters, "forgotten", (userId) => forgetMemory({ userId, memoryId }));
}

export async function revokeAgentAction(agentId: string): Promise<void> {
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
}

export async function deleteAccountAction(form: FormData): Promise<void> {
  const userId = (await auth())?.user?.id;
  if (!userId) redirect("/account");
  try {
    await deleteAccount({ userId, confirmation: form.get("confirmation") });
  } catch (err) {
    if (!(err instanceof AccountError)) throw err;
    redirect("/account/delete?error=confirmation");
  }
  await signOut({ redirectTo: "/account/deleted" });
}
