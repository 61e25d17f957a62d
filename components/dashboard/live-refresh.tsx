"use client";
// Keeps a server-rendered page current while something on it is still moving (an import job): a few
// seconds after the page last came from the server, it asks for it again — never two at once, and only
// while the tab is visible — and stops once the page says nothing moves. Without JavaScript the page is
// simply as it was when loaded.
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";

export const LIVE_REFRESH_MS = 2_000;

export function LiveRefresh({ active, everyMs = LIVE_REFRESH_MS }: { active: boolean; everyMs?: number }) {
  const router = useRouter();
  const [refreshing, startRefresh] = useTransition();
  // Counts the waits: a wait that ended on a hidden tab still starts the next one.
  const [waits, setWaits] = useState(0);
  useEffect(() => {
    if (!active || refreshing) return;
    const timer = setTimeout(() => {
      if (document.visibilityState === "visible") startRefresh(() => router.refresh());
      setWaits((n) => n + 1);
    }, everyMs);
    return () => clearTimeout(timer);
  }, [active, refreshing, waits, everyMs, router]);
  if (!active) return null;
  return (
    <p className="inline-flex items-center gap-2 text-sm text-slate-600" data-testid="live-refresh">
      <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-emerald-500" />
      Updating live while a job runs
    </p>
  );
}
