// /account — the signed-in person's own page: their email address and whether it is verified, their
// profile as agents read it (with the way to every memory, /account/memories), the agents they
// approved (each revocable), the apps connected to their profile (connect, reconnect, disconnect; what
// each is read for and the facts it taught, each removable), the access log of what agents did for
// them (paged by ?before= / ?after=, downloadable), the export of everything, deleting the account,
// and signing out. Not signed in: the way to sign in. The page loads; components/account/pages draws.
import type { Metadata } from "next";
import { AccountPage } from "@/components/account/pages/account";
import { SignedOutPage } from "@/components/account/pages/signed-out";
import { accessLogPage } from "@/lib/access-log/pages";
import { approvedAgents } from "@/lib/account/agents";
import { accountApps } from "@/lib/account/apps";
import { accountProfile } from "@/lib/account/profile";
import { auth } from "@/lib/person-auth/session";
import { accountOverview } from "@/lib/account/overview";
import { listPasskeys } from "@/lib/passkeys/credentials";
import * as accountActions from "./actions";
import * as passkeyActions from "./passkeys/actions";

const actions = { ...accountActions, ...passkeyActions };

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your profile", robots: { index: false } };

type Query = {
  connected?: string;
  disconnected?: string;
  removed?: string;
  revoked?: string;
  app_revoked?: string;
  revoke_error?: string;
  connect_error?: string;
  passkey?: string;
  before?: string | string[];
  after?: string | string[];
};

export default async function AccountRoute({ searchParams }: { searchParams: Promise<Query> }) {
  const { connected, disconnected, removed, revoked, app_revoked: appRevoked, revoke_error: revokeError, connect_error: connectError, passkey, before, after } = await searchParams;
  const userId = (await auth())?.user?.id;
  const user = userId ? await accountOverview(userId) : null;
  if (!userId || !user) return <SignedOutPage page="account" />;
  const apps = await accountApps(userId);
  const [profile, agents, passkeys] = await Promise.all([accountProfile(userId), approvedAgents(userId), listPasskeys(userId)]);
  const log = await accessLogPage(userId, { before: typeof before === "string" ? before : null, after: typeof after === "string" ? after : null });
  return (
    <AccountPage
      data={{ user, notices: { connected, disconnected, removed, revoked, appRevoked, revokeError, connectError, passkey }, profile, agents, apps, log, passkeys }}
      actions={actions}
    />
  );
}
