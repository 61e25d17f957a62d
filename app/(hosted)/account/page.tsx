// /account — the signed-in person's own page: their email address and whether it is verified, their
// profile as agents read it (with the way to every memory, /account/memories), the agents they
// approved (each revocable), the apps connected to their profile (connect, reconnect, disconnect; what
// each is read for and the facts it taught, each removable), the access log of what agents did for
// them (paged by ?before= / ?after=, downloadable), the export of everything, deleting the account,
// and signing out. Not signed in: the way to sign in.
import type { Metadata } from "next";
import { AccessLogSection } from "@/components/account/access-log";
import { ApprovedAgents } from "@/components/account/approved-agents";
import { ProfileView } from "@/components/account/profile-view";
import { AppFactsList } from "@/components/account/app-facts";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { AppIdentity, Badge, ConnectErrorBanner } from "@/components/flow/marks";
import { primaryButton, secondaryButton } from "@/components/flow/styles";
import { ACCESS_LOG_RETENTION_DAYS } from "@/lib/access-log/access-log";
import { accessLogPage } from "@/lib/access-log/pages";
import { approvedAgents } from "@/lib/account/agents";
import { accountProfile } from "@/lib/account/profile";
import { auth } from "@/lib/auth/session";
import { appState, connectionsOf, connectsInDevelopment } from "@/lib/connectors/connections";
import { appFactsOf, APP_READS } from "@/lib/connectors/memories/facts";
import { accountOverview } from "@/lib/users/users";
import { APP_NAMES, appsListedFor, isApp, type App } from "@/lib/catalogue";
import { disconnectAction, removeAppFactAction, revokeAgentAction, signOutAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your profile", robots: { index: false } };

const STATUS_TEXT = {
  reconnect: () => "Needs reconnecting",
  connect: (app: App) => (connectsInDevelopment(app) ? "Not connected · development" : "Not connected"),
  unavailable: () => "Not set up on this service",
};


type Query = {
  connected?: string;
  disconnected?: string;
  removed?: string;
  revoked?: string;
  revoke_error?: string;
  connect_error?: string;
  before?: string | string[];
  after?: string | string[];
};

export default async function AccountPage({ searchParams }: { searchParams: Promise<Query> }) {
  const { connected, disconnected, removed, revoked, revoke_error: revokeError, connect_error: connectError, before, after } = await searchParams;
  const userId = (await auth())?.user?.id;
  const user = userId ? await accountOverview(userId) : null;
  if (!userId || !user) {
    return (
      <FlowShell own appName={SERVICE_NAME} title="Your profile">
        <p className="mt-3 text-slate-600">Sign in with your phone number to see your email address and the apps connected to your profile.</p>
        <a href="/sign-up" className={`${primaryButton} mt-6`}>
          Sign in
        </a>
      </FlowShell>
    );
  }
  const connections = await connectionsOf(userId);
  const learned = await appFactsOf(userId, connections.filter((c) => c.status === "active" && isApp(c.app)).map((c) => c.app as App));
  const [profile, agents] = await Promise.all([accountProfile(userId), approvedAgents(userId)]);
  const log = await accessLogPage(userId, { before: typeof before === "string" ? before : null, after: typeof after === "string" ? after : null });
  const notice =
    connected && isApp(connected)
      ? `${APP_NAMES[connected]} is connected.`
      : disconnected && isApp(disconnected)
        ? `${APP_NAMES[disconnected]} is disconnected. Its access was revoked, and its tokens and what it taught your profile deleted.`
        : removed
          ? "Removed. No agent sees it, and the app will not teach it again."
          : revoked
            ? "Revoked. The agent can no longer read or change your profile."
            : null;

  return (
    <FlowShell own appName={SERVICE_NAME} title="Your profile">
      <p className="mt-3 text-slate-600">
        Signed in with the number ending in <span className="font-semibold text-slate-900">{user.phoneLast4 ?? "····"}</span>.
      </p>
      {notice && (
        <p role="status" className="mt-4 rounded-xl bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-900 ring-1 ring-emerald-200">
          {notice}
        </p>
      )}
      <ConnectErrorBanner code={connectError} />
      {revokeError && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200">
          That agent was not among those you approved.
        </p>
      )}

      <section aria-labelledby="email-title" className="mt-6">
        <h2 id="email-title" className="font-semibold text-slate-900">
          Email
        </h2>
        <p className="mt-2 flex flex-wrap items-center gap-2 break-all text-slate-700">
          {user.email ?? "No address yet"}
          {user.email && (user.emailVerified ? <Badge tone="done">✓ Verified</Badge> : <Badge tone="muted">Not verified</Badge>)}
        </p>
      </section>

      <ProfileView profile={profile} />

      <ApprovedAgents agents={agents} revokeAction={revokeAgentAction} />

      <section aria-labelledby="apps-title" className="mt-6">
        <h2 id="apps-title" className="font-semibold text-slate-900">
          Connected apps
        </h2>
        <ul className="mt-3 space-y-2">
          {appsListedFor(connections.map((c) => c.app)).map((app) => {
            const c = connections.find((x) => x.app === app);
            const status = appState(app, c);
            return (
              <li key={app} className="flex min-h-14 flex-wrap items-center gap-x-3 gap-y-2 rounded-xl px-4 py-3 ring-1 ring-slate-200">
                <AppIdentity
                  app={app}
                  dimmed={status === "unavailable"}
                  detail={status === "connected" ? (c?.accountEmail ?? "Connected") : STATUS_TEXT[status](app)}
                  className="min-w-40 flex-1"
                />
                <span className="ml-auto flex gap-2">
                  {(status === "connect" || status === "reconnect") && (
                    <a href={`/account/connect/${app}`} className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300 hover:bg-brand-50">
                      {status === "reconnect" ? "Reconnect" : "Connect"}
                      <span className="sr-only">&nbsp;{APP_NAMES[app]}</span>
                    </a>
                  )}
                  {c && (
                    <form action={disconnectAction.bind(null, app)}>
                      <button type="submit" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50">
                        Disconnect<span className="sr-only">&nbsp;{APP_NAMES[app]}</span>
                      </button>
                    </form>
                  )}
                </span>
                {status === "connected" && APP_READS[app] && (
                  <AppFactsList facts={learned.find((l) => l.app === app)?.facts ?? []} reads={APP_READS[app]} removeAction={removeAppFactAction} />
                )}
              </li>
            );
          })}
        </ul>
        <p className="mt-3 text-sm text-slate-500">Disconnecting revokes the service&rsquo;s access at the app and deletes its tokens and what it taught your profile.</p>
      </section>

      <AccessLogSection page={log} retentionDays={ACCESS_LOG_RETENTION_DAYS} />

      <section aria-labelledby="data-title" className="mt-6">
        <h2 id="data-title" className="font-semibold text-slate-900">
          Your data
        </h2>
        <p className="mt-2 text-sm text-slate-600">A copy of everything the service holds about you: your profile, memories with where each came from, imports, approvals, connected apps (never their tokens) and the access log.</p>
        <div className="mt-3 flex flex-wrap gap-2">
          <a href="/account/export.json" download className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300 hover:bg-brand-50">
            Download everything (JSON)
          </a>
          <a href="/account/delete" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50">
            Delete your account
          </a>
        </div>
      </section>

      <form action={signOutAction} className="mt-8 border-t border-slate-200 pt-6">
        <button type="submit" className={`${secondaryButton} w-full`}>
          Sign out
        </button>
      </form>
    </FlowShell>
  );
}
