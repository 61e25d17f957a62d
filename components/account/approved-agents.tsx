// The agents the person approved on the account page: the developer behind each, the apps the person
// gave it (each can be taken back from that agent alone), and a way to revoke the agent at once.
import type { ApprovedAgent } from "@/lib/account/agents";
import { APP_NAMES } from "@/lib/catalogue";

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** What an agent may do with an app, from its capabilities there (gmail:read, gmail:send). */
function mayDo(capabilities: readonly string[]): string {
  const actions = capabilities
    .map((c) => c.slice(c.indexOf(":") + 1))
    .filter((p) => p !== "read")
    .map((p) => p.replace(/_/g, " "));
  const reads = capabilities.some((c) => c.endsWith(":read"));
  return [...(reads ? ["read"] : []), ...actions].join(", ");
}

export function ApprovedAgents({
  agents,
  revokeAction,
  revokeAppAction,
}: {
  agents: ApprovedAgent[];
  revokeAction: (agentId: string) => Promise<void>;
  revokeAppAction: (agentId: string, app: string) => Promise<void>;
}) {
  return (
    <section aria-labelledby="agents-title" className="mt-6">
      <h2 id="agents-title" className="scroll-mt-6 font-semibold text-slate-900">
        Agents you approved
      </h2>
      {agents.length ? (
        <ul className="mt-3 space-y-2">
          {agents.map((a) => (
            <li key={a.agentId} className="rounded-xl bg-white px-4 py-3 ring-1 ring-slate-200">
              <div className="flex min-h-8 flex-wrap items-center gap-x-3 gap-y-2">
                <span
                  aria-hidden="true"
                  className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-700 text-sm font-bold text-white"
                  style={a.brandColor ? { backgroundColor: a.brandColor } : undefined}
                >
                  {a.displayName.slice(0, 1).toUpperCase()}
                </span>
                <span className="min-w-40 flex-1">
                  <span className="block font-semibold text-slate-900 [overflow-wrap:anywhere]">
                    <span>{a.displayName}</span>
                    <span className="font-normal text-slate-600"> by {a.developerName}</span>
                  </span>
                  <span className="block text-sm text-slate-500">Approved {DAY.format(a.approvedAt)}</span>
                </span>
                <form action={revokeAction.bind(null, a.agentId)} className="ml-auto">
                  <button type="submit" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50">
                    Revoke<span className="sr-only">&nbsp;{a.displayName}</span>
                  </button>
                </form>
              </div>
              {a.apps.length ? (
                <ul aria-label={`Apps ${a.displayName} may use`} className="mt-3 space-y-1.5 border-t border-slate-100 pt-3">
                  {a.apps.map((g) => (
                    <li key={g.app} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                      <span className="min-w-0 flex-1 text-sm text-slate-700">
                        <span className="font-medium text-slate-900">{APP_NAMES[g.app]}</span>
                        <span className="text-slate-500"> · {mayDo(g.capabilities)}</span>
                      </span>
                      <form action={revokeAppAction.bind(null, a.agentId, g.app)}>
                        <button type="submit" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-red-700 hover:bg-red-50">
                          Take back
                          <span className="sr-only">
                            &nbsp;{APP_NAMES[g.app]} from {a.displayName}
                          </span>
                        </button>
                      </form>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="mt-2 text-sm text-slate-500">Uses none of your apps.</p>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200">No agent can read your profile.</p>
      )}
      <p className="mt-3 text-sm text-slate-500">
        Each agent uses only the apps you gave it. Taking an app back stops that agent alone; revoking an agent ends its access at once: its tokens, sessions and links stop
        working.
      </p>
    </section>
  );
}
