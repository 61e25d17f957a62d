// /account/memories — every memory in the signed-in person's profile, filtered by box and by source;
// each editable, removable, or forgotten for good. Not signed in: the way to sign in.
import type { Metadata } from "next";
import { MemoryFilters, MemoryList } from "@/components/account/memory-list";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";
import { primaryButton } from "@/components/flow/styles";
import { accountMemories, memoryFilterSchema } from "@/lib/account/memories";
import { auth } from "@/lib/auth/session";
import { accountOverview } from "@/lib/users/users";
import { ownEntry } from "@/lib/own";
import { editMemoryAction, forgetMemoryAction, removeMemoryAction } from "../actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Your memories", robots: { index: false } };

const DONE: Readonly<Record<string, string>> = {
  edited: "Saved. Agents now read it as you wrote it, and the old wording is not learned again.",
  removed: "Removed.",
  forgotten: "Forgotten. No agent sees it, and it is not learned again.",
};
const ERRORS: Readonly<Record<string, string>> = {
  not_found: "That memory is no longer in your profile.",
  invalid: "Write what the memory should say (up to 500 characters).",
};

type Query = Record<string, string | string[] | undefined>;

export default async function MemoriesPage({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const signedIn = (await auth())?.user?.id;
  // A session outliving its account (deleted in another browser) is no one.
  const userId = signedIn && (await accountOverview(signedIn)) ? signedIn : null;
  if (!userId) {
    return (
      <FlowShell own appName={SERVICE_NAME} title="Your memories">
        <p className="mt-3 text-slate-600">Sign in with your phone number to see your memories.</p>
        <a href="/sign-up" className={`${primaryButton} mt-6`}>
          Sign in
        </a>
      </FlowShell>
    );
  }
  const filter = memoryFilterSchema.parse(query);
  const { memories, hasMore, boxes, sources } = await accountMemories(userId, filter);
  const done = typeof query.done === "string" ? ownEntry(DONE, query.done) : undefined;
  const error = typeof query.error === "string" ? ownEntry(ERRORS, query.error) : undefined;
  const pageLink = (page: number) => {
    const q = new URLSearchParams({ ...(filter.box ? { box: filter.box } : {}), ...(filter.source ? { source: filter.source } : {}), page: String(page) });
    return `/account/memories?${q.toString()}`;
  };

  return (
    <FlowShell own appName={SERVICE_NAME} title="Your memories">
      <p className="mt-3 text-slate-600">
        What your profile holds, newest first. Remove a memory, or forget it so that no agent sees it and it is not learned again.
      </p>
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
    </FlowShell>
  );
}
