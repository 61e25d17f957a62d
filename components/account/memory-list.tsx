// The account's memory list: filters by box and by source, and each memory with its source, box and
// date, editable in place, removable, or forgotten for good ("don't learn this again"). Plain forms:
// everything works without JavaScript and from the keyboard.
import type { AccountMemory, MemoryFilter } from "@/lib/account/memories";
import { MEMORY_TEXT_MAX } from "@/lib/account/memories";
import { APP_NAMES, ASSISTANT_NAMES, isApp, isAssistant } from "@/lib/catalogue";

type MemoryAction = (memoryId: string, filters: MemoryFilter) => Promise<void>;

const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** A source in the person's words: "Imported from ChatGPT", "Agent assistant", "Gmail". */
export function sourceLabel(source: string): string {
  const [kind, name = ""] = source.split("/", 2) as [string, string?];
  if (kind === "imports") return `Imported from ${isAssistant(name) ? ASSISTANT_NAMES[name] : name}`;
  if (kind === "apps") return isApp(name) ? APP_NAMES[name] : name;
  return `Agent ${name}`;
}

function boxLabel(box: string): string {
  return box.startsWith("projects/") ? `Project ${box.slice("projects/".length)}` : box.charAt(0).toUpperCase() + box.slice(1);
}

const selectClass = "mt-1 block min-h-11 w-full rounded-xl border-0 bg-white px-3 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 focus:ring-2 focus:ring-brand-600";
const smallButton = "inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold ring-1";

export function MemoryFilters({ filter, boxes, sources }: { filter: MemoryFilter; boxes: { box: string; count: number }[]; sources: { source: string; count: number }[] }) {
  return (
    <form method="get" action="/account/memories" className="mt-4 grid gap-3 rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:grid-cols-2" aria-label="Filter memories">
      <label className="block text-sm font-medium text-slate-700">
        Box
        <select name="box" defaultValue={filter.box ?? ""} className={selectClass}>
          <option value="">Every box</option>
          {boxes.map((b) => (
            <option key={b.box} value={b.box}>
              {boxLabel(b.box)} ({b.count})
            </option>
          ))}
        </select>
      </label>
      <label className="block text-sm font-medium text-slate-700">
        Source
        <select name="source" defaultValue={filter.source ?? ""} className={selectClass}>
          <option value="">Every source</option>
          {sources.map((s) => (
            <option key={s.source} value={s.source}>
              {sourceLabel(s.source)} ({s.count})
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={`${smallButton} min-h-11 justify-center px-5 text-brand-700 ring-slate-300 hover:bg-brand-50 sm:col-span-2 sm:justify-self-end`}>
        Show
      </button>
    </form>
  );
}

export function MemoryList({
  memories,
  filter,
  editAction,
  removeAction,
  forgetAction,
}: {
  memories: AccountMemory[];
  filter: MemoryFilter;
  editAction: (memoryId: string, filters: MemoryFilter, form: FormData) => Promise<void>;
  removeAction: MemoryAction;
  forgetAction: MemoryAction;
}) {
  if (!memories.length) {
    return <p className="mt-4 rounded-xl bg-slate-50 px-4 py-3 text-sm text-slate-600 ring-1 ring-slate-200">No memories here.</p>;
  }
  return (
    <ul className="mt-4 space-y-3" aria-label="Memories">
      {memories.map((m) => (
        <li key={m.id} className="rounded-xl bg-white px-3 py-3 ring-1 ring-slate-200 sm:px-4" data-testid="memory">
          <p className="text-slate-900 [overflow-wrap:anywhere]">{m.text}</p>
          <p className="mt-1 text-xs text-slate-500">
            {sourceLabel(m.source)} · {boxLabel(m.box)} · {DAY.format(new Date(m.said_at ?? m.learned_at))}
            {m.yours && <> · edited by you</>}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <details className="group open:basis-full">
              <summary className={`${smallButton} cursor-pointer list-none text-brand-700 ring-slate-300 hover:bg-brand-50 [&::-webkit-details-marker]:hidden`}>
                Edit<span className="sr-only">&nbsp;{m.text}</span>
              </summary>
              <form action={editAction.bind(null, m.id, filter)} className="mt-2">
                <label className="block text-sm font-medium text-slate-700" htmlFor={`text-${m.id}`}>
                  What it should say
                </label>
                <textarea
                  id={`text-${m.id}`}
                  name="text"
                  required
                  maxLength={MEMORY_TEXT_MAX}
                  rows={2}
                  defaultValue={m.text}
                  className="mt-1 block w-full rounded-xl border-0 bg-white px-3 py-2 text-base text-slate-900 shadow-sm ring-1 ring-slate-300 focus:ring-2 focus:ring-brand-600"
                />
                <button type="submit" className={`${smallButton} mt-2 bg-brand-600 text-white ring-brand-600 hover:bg-brand-700`}>
                  Save<span className="sr-only">&nbsp;the edited memory</span>
                </button>
              </form>
            </details>
            <form action={removeAction.bind(null, m.id, filter)}>
              <button type="submit" className={`${smallButton} text-slate-700 ring-slate-300 hover:bg-slate-50`}>
                Remove<span className="sr-only">&nbsp;{m.text}</span>
              </button>
            </form>
            <form action={forgetAction.bind(null, m.id, filter)}>
              <button type="submit" className={`${smallButton} text-red-700 ring-red-200 hover:bg-red-50`}>
                Forget, don&rsquo;t learn again<span className="sr-only">:&nbsp;{m.text}</span>
              </button>
            </form>
          </div>
        </li>
      ))}
    </ul>
  );
}
