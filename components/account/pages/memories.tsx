// The memory list as the signed-in person sees it, from the data app/(hosted)/account/memories/page.tsx
// loads (and the screen gallery's fixtures): filters by box and source, each memory editable, removable
// or forgotten, the pages, what was hidden at the person's request (restorable), and the notice a
// form came back with.
import { HiddenMemories } from "@/components/account/hidden-memories";
import { MemoryFilters, MemoryList } from "@/components/account/memory-list";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import type { AccountMemory, MemoryFilter } from "@/lib/account/memories";
import type { SuppressionView } from "@/lib/account/suppressions";
import { ownEntry } from "@/lib/platform/own";
import type { AccountActions } from "./actions";

const DONE: Readonly<Record<string, string>> = {
  edited: "Saved. Agents now read it as you wrote it, and the old wording is not learned again.",
  removed: "Removed.",
  forgotten: "Forgotten. No agent sees it, and it is not learned again.",
  restored: "Restored. Agents see those memories again, except any that something else you asked to forget still hides.",
};
const ERRORS: Readonly<Record<string, string>> = {
  not_found: "That memory is no longer in your profile.",
  invalid: "Write what the memory should say (up to 500 characters).",
};

export interface MemoriesPageData {
  filter: MemoryFilter;
  memories: AccountMemory[];
  hasMore: boolean;
  boxes: { box: string; count: number }[];
  sources: { source: string; count: number }[];
  /** What was hidden at the person's request, newest first. */
  hidden: SuppressionView[];
  /** The notice a form came back with (?done= or ?error=), when there is one. */
  done?: string;
  error?: string;
}

export function MemoriesPage({ data, actions }: { data: MemoriesPageData; actions: AccountActions }) {
  const { editMemoryAction, forgetMemoryAction, removeMemoryAction, restoreHiddenAction } = actions;
  const { filter, memories, hasMore, boxes, sources } = data;
  const done = data.done ? ownEntry(DONE, data.done) : undefined;
  const error = data.error ? ownEntry(ERRORS, data.error) : undefined;
  const pageLink = (page: number) => {
    const q = new URLSearchParams({ ...(filter.box ? { box: filter.box } : {}), ...(filter.source ? { source: filter.source } : {}), page: String(page) });
    return `/account/memories?${q.toString()}`;
  };

  return (
    <FlowShell own appName={SERVICE_NAME} title="Your memories">
      <p className="mt-3 text-slate-600">What your profile holds, newest first. Remove a memory, or forget it so that no agent sees it and it is not learned again.</p>
      <a href="/account" className="mt-3 inline-flex min-h-10 items-center text-sm font-semibold text-brand-700 underline-offset-4 hover:underline">
        ← Back to your profile
      </a>
      {done && (
        <p role="status" className="mt-4 rounded-xl bg-emerald-50 px-4 py-3 text-sm font-medium text-emerald-900 ring-1 ring-emerald-200">
          {done}
        </p>
      )}
      {error && (
        <p role="alert" className="mt-4 rounded-xl bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ring-1 ring-red-200">
          {error}
        </p>
      )}
      <MemoryFilters filter={filter} boxes={boxes} sources={sources} />
      <MemoryList memories={memories} filter={filter} editAction={editMemoryAction} removeAction={removeMemoryAction} forgetAction={forgetMemoryAction} />
      {(filter.page > 1 || hasMore) && (
        <nav aria-label="Pages of memories" className="mt-4 flex justify-between gap-2">
          {filter.page > 1 ? (
            <a href={pageLink(filter.page - 1)} className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300">
              Newer
            </a>
          ) : (
            <span />
          )}
          {hasMore && (
            <a href={pageLink(filter.page + 1)} className="inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 ring-1 ring-slate-300">
              Older
            </a>
          )}
        </nav>
      )}
      <HiddenMemories hidden={data.hidden} filter={filter} restoreAction={restoreHiddenAction} />
    </FlowShell>
  );
}
