// The memories page's "Hidden at your request": each suppression (an agent's forget at the person's
// request, or the person's own "forget, don't learn again") with who asked, when, and the memories it
// hid, each restored with one button. Plain forms: works without JavaScript and from the keyboard.
import type { MemoryFilter } from "@/lib/account/memories";
import type { SuppressionView } from "@/lib/account/suppressions";
import { sourceLabel } from "./memory-list";

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

function whoAsked(s: SuppressionView): string {
  if (s.agent) return `${s.agent.name} (by ${s.agent.developer}) asked to forget`;
  if (s.requestedBy === "person") return "You chose to forget";
  return "Hidden before we recorded who asked";
}

export function HiddenMemories({
  hidden,
  filter,
  restoreAction,
}: {
  hidden: SuppressionView[];
  filter: MemoryFilter;
  restoreAction: (suppressionId: string, filters: MemoryFilter) => Promise<void>;
}) {
  return (
    <section aria-labelledby="hidden-title" className="mt-8">
      <h2 id="hidden-title" className="text-lg font-semibold text-slate-900">
        Hidden at your request
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        When you ask an agent to forget something, it also hides anything other agents, apps or imports told us that says the same. Hidden memories are not shown to agents or
        learned again until you restore them; one that something else you asked to forget also hides stays hidden until that is restored too.
      </p>
      {!hidden.length ? (
        <p className="mt-3 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200">Nothing is hidden.</p>
      ) : (
        <ul className="mt-3 space-y-3" aria-label="Hidden memories">
          {hidden.map((s) => (
            <li key={s.id} className="rounded-xl bg-white px-3 py-3 ring-1 ring-slate-200 sm:px-4" data-testid="suppression">
              <p className="font-medium text-slate-900 [overflow-wrap:anywhere]">{whoAsked(s)}</p>
              <p className="mt-0.5 text-xs text-slate-500">
                <time dateTime={s.createdAt}>{DAY.format(new Date(s.createdAt))}</time> · {s.count === 1 ? "1 memory hidden" : `${s.count} memories hidden`}
              </p>
              <ul className="mt-2 space-y-1 border-l-2 border-slate-200 pl-3 text-sm">
                {s.memories.map((m) => (
                  <li key={m.id}>
                    <span className="text-slate-800 [overflow-wrap:anywhere]">{m.text}</span>
                    <span className="block text-xs text-slate-500">{sourceLabel(m.source)}</span>
                  </li>
                ))}
                {s.count > s.memories.length && <li className="text-xs text-slate-500">and {s.count - s.memories.length} more</li>}
              </ul>
              <form action={restoreAction.bind(null, s.id, filter)} className="mt-3">
                <button type="submit" className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300 hover:bg-brand-50">
                  Restore
                  <span className="sr-only">
                    &nbsp;what {s.agent ? s.agent.name : "you"} hid on {DAY.format(new Date(s.createdAt))}
                  </span>
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
