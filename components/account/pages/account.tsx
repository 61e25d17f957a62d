// The account page as the signed-in person sees it, from the data app/(hosted)/account/page.tsx loads
// (and the screen gallery's fixtures): email, the profile as agents read it, approved agents, connected
// apps and what they taught, the access log, the export, deleting the account, and signing out.
import { AccessLogSection } from "@/components/account/access-log";
import { AppFactsList } from "@/components/account/app-facts";
import { ApprovedAgents } from "@/components/account/approved-agents";
import { AccountPasskeys, type PasskeyShown } from "@/components/account/passkeys";
import { ProfileView, type ProfileShown } from "@/components/account/profile-view";
import { SignOutEverywhere } from "@/components/account/sign-out-everywhere";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { AppIdentity, Badge, ConnectErrorBanner } from "@/components/flow/marks";
import { secondaryButton } from "@/components/flow/styles";
import { ACCESS_LOG_RETENTION_DAYS } from "@/lib/access-log/access-log";
import type { AccessLogPage } from "@/lib/access-log/pages";
import type { ApprovedAgent } from "@/lib/account/agents";
import type { AccountApp } from "@/lib/account/apps";
import { APP_NAMES, isApp } from "@/lib/catalogue";
import type { AccountActions } from "./actions";

/** What the page was sent back with after a form: which notice to show. */
export interface AccountNotices {
  connected?: string;
  disconnected?: string;
  removed?: string;
  revoked?: string;
  /** An app taken back from one agent. */
  appRevoked?: string;
  revokeError?: string;
  connectError?: string;
  /** What a passkey form did (renamed, removed) or why it did not. */
  passkey?: string;
}

export interface AccountPageData {
  user: { phoneLast4: string | null; email: string | null; emailVerified: boolean };
  notices: AccountNotices;
  profile: ProfileShown;
  agents: ApprovedAgent[];
  apps: AccountApp[];
  log: AccessLogPage;
  /** The person's passkeys (the section is left out when absent). */
  passkeys?: PasskeyShown[];
}

function noticeOf({ connected, disconnected, removed, revoked, appRevoked }: AccountNotices): string | null {
  if (appRevoked && isApp(appRevoked)) return `${APP_NAMES[appRevoked]} taken back. That agent can no longer use it; your other agents keep what you gave them.`;
  if (connected && isApp(connected)) return `${APP_NAMES[connected]} is connected.`;
  if (disconnected && isApp(disconnected)) return `${APP_NAMES[disconnected]} is disconnected. Its access was revoked, and its tokens and what it taught your profile deleted.`;
  if (removed) return "Removed. No agent sees it, and the app will not teach it again.";
  if (revoked) return "Revoked. The agent can no longer read or change your profile.";
  return null;
}

function statusText(a: AccountApp): string {
  if (a.state === "connected") return a.accountEmail ?? "Connected";
  if (a.state === "reconnect") return "Needs reconnecting";
  if (a.state === "connect") return a.inDevelopment ? "Not connected · development" : "Not connected";
  return "Not set up on this service";
}

export function AccountPage({ data, actions }: { data: AccountPageData; actions: AccountActions }) {
  const { disconnectAction, removeAppFactAction, revokeAgentAction, revokeAgentAppAction, signOutAction } = actions;
  const { user, notices } = data;
  const notice = noticeOf(notices);
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
      <ConnectErrorBanner code={notices.connectError} />
      {notices.revokeError && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200">
          That agent was not among those you approved, or had no access to that app.
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

      <ProfileView profile={data.profile} />

      <ApprovedAgents agents={data.agents} revokeAction={revokeAgentAction} revokeAppAction={revokeAgentAppAction} />

      <section aria-labelledby="apps-title" className="mt-6">
        <h2 id="apps-title" className="font-semibold text-slate-900">
          Connected apps
        </h2>
        <ul className="mt-3 space-y-2">
          {data.apps.map((a) => (
            <li key={a.app} className="flex min-h-14 flex-wrap items-center gap-x-3 gap-y-2 rounded-xl px-4 py-3 ring-1 ring-slate-200">
              <AppIdentity app={a.app} dimmed={a.state === "unavailable"} detail={statusText(a)} className="min-w-40 flex-1" />
              <span className="ml-auto flex gap-2">
                {(a.state === "connect" || a.state === "reconnect") && (
                  <a
                    href={`/account/connect/${a.app}`}
                    className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300 hover:bg-brand-50"
                  >
                    {a.state === "reconnect" ? "Reconnect" : "Connect"}
                    <span className="sr-only">&nbsp;{APP_NAMES[a.app]}</span>
                  </a>
                )}
                {a.held && (
                  <form action={disconnectAction.bind(null, a.app)}>
                    <button type="submit" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50">
                      Disconnect<span className="sr-only">&nbsp;{APP_NAMES[a.app]}</span>
                    </button>
                  </form>
                )}
              </span>
              {a.state === "connected" && a.reads && <AppFactsList facts={a.facts} reads={a.reads} removeAction={removeAppFactAction} />}
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm text-slate-500">
          Disconnecting revokes the service&rsquo;s access at the app, takes it back from every agent, and deletes its tokens and what it taught your profile.
        </p>
      </section>

      <AccessLogSection page={data.log} retentionDays={ACCESS_LOG_RETENTION_DAYS} />

      <section aria-labelledby="data-title" className="mt-6">
        <h2 id="data-title" className="font-semibold text-slate-900">
          Your data
        </h2>
        <p className="mt-2 text-sm text-slate-600">
          A copy of everything the service holds about you: your profile, memories with where each came from, imports, approvals, connected apps (never their tokens) and the access
          log.
        </p>
        <div className="mt-3 flex flex-wrap gap-2">
          <a
            href="/account/export.json"
            download
            className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300 hover:bg-brand-50"
          >
            Download everything (JSON)
          </a>
          <a href="/account/delete" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50">
            Delete your account
          </a>
        </div>
      </section>

      {data.passkeys && actions.addPasskeyAction && actions.renamePasskeyAction && actions.removePasskeyAction && (
        <AccountPasskeys
          passkeys={data.passkeys}
          notice={notices.passkey}
          add={actions.addPasskeyAction}
          rename={actions.renamePasskeyAction}
          remove={actions.removePasskeyAction}
        />
      )}

      <SignOutEverywhere action={actions.signOutEverywhereAction} />

      <form action={signOutAction} className="mt-8 border-t border-slate-200 pt-6">
        <button type="submit" className={`${secondaryButton} w-full`}>
          Sign out
        </button>
      </form>
    </FlowShell>
  );
}
