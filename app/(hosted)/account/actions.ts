"use server";
// The account page's forms: disconnect an app, remove a fact an app taught, sign out. Each acts for the
// signed-in person only.
import { redirect } from "next/navigation";
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
