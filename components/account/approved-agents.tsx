// The agents the person approved on the account page, each with a way to revoke it at once.
import type { ApprovedAgent } from "@/lib/account/agents";

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export function ApprovedAgents({ agents, revokeAction }: { agents: ApprovedAgent[]; revokeAction: (agentId: string) => Promise<void> }) {
  return (
    <section aria-labelledby="agents-title" className="mt-6">
      <h2 id="agents-title" className="scroll-mt-6 font-semibold text-slate-900">
        Agents you approved
      </h2>
      {agents.length ? (
        <ul className="mt-3 space-y-2">
          {agents.map((a) => (
            <li key={a.agentId} className="flex min-h-14 flex-wrap items-center gap-x-3 gap-y-2 rounded-xl bg-white px-4 py-3 ring-1 ring-slate-200">
              <span
                aria-hidden="true"
                className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-700 text-sm font-bold text-white"
                style={a.brandColor ? { backgroundColor: a.brandColor } : undefined}
              >
                {a.displayName.slice(0, 1).toUpperCase()}
              </span>
              <span className="min-w-40 flex-1">
                <span className="block font-semibold text-slate-900 [overflow-wrap:anywhere]">{a.displayName}</span>
                <span className="block text-sm text-slate-500">Approved {DAY.format(a.approvedAt)}</span>
              </span>
              <form action={revokeAction.bind(null, a.agentId)} className="ml-auto">
                <button type="submit" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-red-700 ring-1 ring-red-200 hover:bg-red-50">
                  Revoke<span className="sr-only">&nbsp;{a.displayName}</span>
                </button>
              </form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-3 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200">No agent can read your profile.</p>
      )}
      <p className="mt-3 text-sm text-slate-500">Revoking ends the agent&rsquo;s access at once: its tokens, sessions and links stop working. It keeps nothing it could use to read your profile again.</p>
    </section>
  );
}
