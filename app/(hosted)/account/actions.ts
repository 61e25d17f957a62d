"use server";
// The account page's forms: disconnect an app, sign out. Each acts for the signed-in person only.
import { redirect } from "next/navigation";
import { auth, signOut } from "@/lib/auth/session";
import { disconnectApp } from "@/lib/connectors/connections";

export async function disconnectAction(app: string): Promise<void> {
  const userId = (await auth())?.user?.id;
  const done = userId ? await disconnectApp(userId, app) : false;
  redirect(done ? `/account?disconnected=${encodeURIComponent(app)}` : "/account");
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/" });
}
