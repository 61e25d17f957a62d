// Under a connected app on the account page: what the service reads from it, and the facts it taught
// the profile, each with a way to remove it (hidden from every agent, and not learned again).
import type { AppFacts } from "@/lib/connectors/memories/facts";

export function AppFactsList({ facts, reads, removeAction }: { facts: AppFacts["facts"]; reads: string; removeAction: (memoryId: string) => Promise<void> }) {
  return (
    <div className="basis-full border-t border-slate-100 pt-2 text-sm">
      <p className="text-slate-500">Reads: {reads.charAt(0).toLowerCase() + reads.slice(1)}.</p>
      {facts.length ? (
        <ul className="mt-1 divide-y divide-slate-100" aria-label="Learned from this app">
          {facts.map((fact) => (
            <li key={fact.id} className="flex items-center gap-3 py-1">
              <span className="min-w-0 flex-1 text-slate-700">{fact.text}</span>
              <form action={removeAction.bind(null, fact.id)}>
                <button type="submit" className="inline-flex min-h-9 items-center rounded-lg px-2 text-xs font-semibold text-slate-600 ring-1 ring-slate-200 hover:bg-slate-50">
                  Remove<span className="sr-only">&nbsp;{fact.text}</span>
                </button>
              </form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-slate-500">Nothing learned yet.</p>
      )}
    </div>
  );
}
