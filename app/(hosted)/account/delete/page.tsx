// /account/delete — deleting the signed-in person's account and everything of it, after they type the
// confirmation word; then they are signed out. Not signed in: the way to sign in.
import type { Metadata } from "next";
import { DeleteAccountPage } from "@/components/account/pages/delete";
import { SignedOutPage } from "@/components/account/pages/signed-out";
import { auth } from "@/lib/person-auth/session";
import { accountOverview } from "@/lib/account/overview";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Delete your account", robots: { index: false } };

export default async function DeleteAccountRoute({ searchParams }: { searchParams: Promise<{ error?: string }> }) {
  const { error } = await searchParams;
  const signedIn = (await auth())?.user?.id;
  // A session outliving its account (deleted in another browser) is no one.
  const userId = signedIn && (await accountOverview(signedIn)) ? signedIn : null;
  if (!userId) return <SignedOutPage page="delete" />;
  return <DeleteAccountPage data={{ invalid: error === "confirmation" }} actions={actions} />;
}
