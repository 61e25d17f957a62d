// /account/memories — every memory in the signed-in person's profile, filtered by box and by source;
// each editable, removable, or forgotten for good. Not signed in: the way to sign in. The page loads;
// components/account/pages draws.
import type { Metadata } from "next";
import { MemoriesPage } from "@/components/account/pages/memories";
import { SignedOutPage } from "@/components/account/pages/signed-out";
import { accountMemories, memoryFilterSchema } from "@/lib/account/memories";
import { accountSuppressions } from "@/lib/account/suppressions";
import { auth } from "@/lib/person-auth/session";
import { accountOverview } from "@/lib/account/overview";
import * as actions from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your memories", robots: { index: false } };

type Query = Record<string, string | string[] | undefined>;

export default async function MemoriesRoute({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const signedIn = (await auth())?.user?.id;
  // A session outliving its account (deleted in another browser) is no one.
  const userId = signedIn && (await accountOverview(signedIn)) ? signedIn : null;
  if (!userId) return <SignedOutPage page="memories" />;
  const filter = memoryFilterSchema.parse(query);
  const [list, hidden] = await Promise.all([accountMemories(userId, filter), accountSuppressions(userId)]);
  const notice = (name: string) => (typeof query[name] === "string" ? query[name] : undefined);
  return <MemoriesPage data={{ filter, ...list, hidden, done: notice("done"), error: notice("error") }} actions={actions} />;
}
