"use client";
// Keeps a server-rendered page current while something on it is still moving (an import job): it asks
// the server for the page again every few seconds, only while the tab is visible, and stops once the
// page says nothing moves. Without JavaScript the page is simply as it was when loaded.
import { useRouter } from "next/navigation";
import { useEffect } from "react";

export const LIVE_REFRESH_MS = 2_000;

export function LiveRefresh({ active, everyMs = LIVE_REFRESH_MS }: { active: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, router]);
  if (!active) return null;
  return (
    <p className="inline-flex items-center gap-2 text-sm text-slate-600" data-testid="live-refresh">
      <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-emerald-500" />
      Updating live while a job runs
    </p>
  );
}
