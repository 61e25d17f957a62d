// The account page's access log: what agents did for the person, a page at a time (a table from sm
// up, a list of entries on phones), the links between pages, and the downloads of the whole log.
import { Badge } from "@/components/flow/marks";
import type { AccessLogRow } from "@/lib/access-log/access-log";
import type { AccessLogPage } from "@/lib/access-log/pages";
import { ownEntry } from "@/lib/platform/own";
import { RESTORE_ACTION, SUPPRESS_ACTION } from "@/lib/profile/suppressions";

/** What each tool and route did, in the person's words; anything else is shown by its name alone. */
const ACTION_TEXT: Readonly<Record<string, string>> = {
  service_profile_read: "Read your profile",
  "GET /v1/profile": "Read your profile",
  service_profile_search: "Searched your profile",
  "GET /v1/profile/search": "Searched your profile",
  service_profile_remember: "Added a memory",
  "POST /v1/profile/remember": "Added a memory",
  service_profile_forget: "Removed memories",
  "POST /v1/profile/forget": "Removed memories",
  service_profile_import: "Added memories from text",
  "POST /v1/profile/import": "Added memories from text",
  service_profile_commit: "Saved what it learned in a conversation",
  "POST /v1/profile/commit": "Saved what it learned in a conversation",
  "GET /v1/profile/commit/[commitId]": "Checked on saving a conversation",
  service_gmail_search: "Searched your Gmail",
  service_email_search: "Searched your email",
  service_email_send: "Sent an email",
  service_calendar_get: "Read your calendar",
  service_calendar_create_event: "Created a calendar event",
  service_drive_search: "Searched your Drive",
  service_notion_search: "Searched your Notion",
  [SUPPRESS_ACTION]: "Hid memories at your request",
  [RESTORE_ACTION]: "You restored what it hid",
};

/** Why a call did not go through, in the person's words (the error code is shown beside it). */
const OUTCOME_TEXT: Readonly<Record<string, string>> = {
  permission_needed: "Needed your permission",
  agent_not_approved: "Not approved by you",
  insufficient_scope: "Not allowed by its access",
  app_not_connected: "App not connected",
  app_needs_reconnect: "App needs reconnecting",
  rate_limited: "Too many requests",
  provider_error: "The app did not answer",
  action_in_progress: "Already in progress",
  idempotency_key_reused: "Refused as a repeat",
  invalid_request: "Invalid request",
  not_found: "Not found",
  internal_error: "Service error",
};

const SURFACE_TEXT = { rest: "API", mcp: "MCP", account: "Your account" } as const;

const TIME = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

function When({ at }: { at: string }) {
  return <time dateTime={at}>{TIME.format(new Date(at))} UTC</time>;
}

function Agent({ row }: { row: AccessLogRow }) {
  return (
    <>
      <span className="block font-medium text-slate-900 [overflow-wrap:anywhere]">{row.agent}</span>
      <span className="block text-xs text-slate-500 [overflow-wrap:anywhere]">by {row.developer}</span>
    </>
  );
}

function Action({ row }: { row: AccessLogRow }) {
  const text = ownEntry(ACTION_TEXT, row.action);
  return (
    <>
      {text && <span className="block text-slate-900">{text}</span>}
      <span className="block text-xs text-slate-500">
        <code className="font-mono text-slate-700 [overflow-wrap:anywhere]">{row.action}</code> · {SURFACE_TEXT[row.surface]}
      </span>
    </>
  );
}

function Outcome({ outcome }: { outcome: string }) {
  if (outcome === "ok") return <Badge tone="done">Succeeded</Badge>;
  return (
    <>
      <Badge tone="required">{ownEntry(OUTCOME_TEXT, outcome) ?? "Failed"}</Badge>
      <code className="mt-1 block font-mono text-xs text-slate-500 [overflow-wrap:anywhere]">{outcome}</code>
    </>
  );
}

const HEAD = ["Time", "Agent", "Tool or route", "Outcome"] as const;
const CAPTION = "Calls agents made for you, newest first";
const link = "inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300 hover:bg-brand-50";

function pageHref(cursor: { before: string } | { after: string } | null): string {
  return `/account${cursor ? `?${new URLSearchParams(cursor).toString()}` : ""}#access-log`;
}

/** The section, with one page of entries; away from the newest page, the way back to it. */
export function AccessLogSection({ page, retentionDays }: { page: AccessLogPage; retentionDays: number }) {
  const { entries, older, newer } = page;
  const paged = !page.newest;
  const nothingYet = entries.length === 0 && !paged;
  return (
    <section id="access-log" aria-labelledby="access-log-title" className="mt-6 scroll-mt-6">
      <h2 id="access-log-title" className="font-semibold text-slate-900">
        Access log
      </h2>
      <p className="mt-2 text-sm text-slate-600">
        Each call an agent made for you: the agent and its developer, the tool or route it used, when, and whether it went through. What it read, saved or sent is never recorded
        here. Entries are kept for {retentionDays} days.
      </p>

      {nothingYet ? (
        <p className="mt-3 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200">
          No agent has acted for you yet. When an app you approved reads your profile, adds to it or uses a connected app, it is listed here.
        </p>
      ) : entries.length === 0 ? (
        <p className="mt-3 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200">No entries here: they may have passed their {retentionDays} days.</p>
      ) : (
        <>
          <p className="mt-3 text-xs text-slate-500">Newest first. Times are in UTC.</p>
          <ul aria-label={CAPTION} className="mt-2 divide-y divide-slate-200 rounded-xl ring-1 ring-slate-200 sm:hidden">
            {entries.map((row, i) => (
              <li key={`${row.at}-${i}`} className="px-4 py-3 text-sm">
                <p className="font-medium text-slate-900">
                  <When at={row.at} />
                </p>
                <dl className="mt-1.5 space-y-1.5">
                  <div>
                    <dt className="text-xs font-medium text-slate-500">{HEAD[1]}</dt>
                    <dd className="leading-6">
                      <Agent row={row} />
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs font-medium text-slate-500">{HEAD[2]}</dt>
                    <dd className="leading-6">
                      <Action row={row} />
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs font-medium text-slate-500">{HEAD[3]}</dt>
                    <dd className="mt-0.5">
                      <Outcome outcome={row.outcome} />
                    </dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
          <div tabIndex={0} role="region" aria-label={CAPTION} className="mt-2 hidden overflow-x-auto rounded-xl ring-1 ring-slate-200 sm:block">
            <table className="w-full border-collapse text-left text-sm">
              <caption className="sr-only">{CAPTION}</caption>
              <thead className="bg-slate-50 text-slate-700">
                <tr>
                  {HEAD.map((h) => (
                    <th key={h} scope="col" className="border-b border-slate-200 px-2.5 py-2 font-semibold">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-200 text-slate-700">
                {entries.map((row, i) => (
                  <tr key={`${row.at}-${i}`} className="align-top">
                    <th scope="row" className="w-[7.5rem] px-2.5 py-2.5 font-normal text-slate-900">
                      <When at={row.at} />
                    </th>
                    <td className="px-2.5 py-2.5">
                      <Agent row={row} />
                    </td>
                    <td className="px-2.5 py-2.5">
                      <Action row={row} />
                    </td>
                    <td className="px-2.5 py-2.5">
                      <Outcome outcome={row.outcome} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}

      {(paged || older || newer) && (
        <nav aria-label="Access log pages" className="mt-3 flex flex-wrap gap-2">
          {paged && (
            <a href={pageHref(null)} className={link}>
              Newest entries
            </a>
          )}
          {newer && (
            <a href={pageHref({ after: newer })} rel="prev" className={link}>
              <span aria-hidden="true">←&nbsp;</span>Newer entries
            </a>
          )}
          {older && (
            <a href={pageHref({ before: older })} rel="next" className={`${link} ml-auto`}>
              Older entries<span aria-hidden="true">&nbsp;→</span>
            </a>
          )}
        </nav>
      )}

      {!nothingYet && (
        <div className="mt-4">
          <p className="text-sm text-slate-600">Every entry kept, as a file:</p>
          <p className="mt-2 flex flex-wrap gap-2">
            <a href="/account/access-log.csv" download className={link}>
              Download CSV<span className="sr-only">&nbsp;of your access log</span>
            </a>
            <a href="/account/access-log.json" download className={link}>
              Download JSON<span className="sr-only">&nbsp;of your access log</span>
            </a>
          </p>
        </div>
      )}
    </section>
  );
}
