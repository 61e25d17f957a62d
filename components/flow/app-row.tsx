// An app's row on the import, mailbox and app screens: connected (with its account), needing
// reconnection, ready to connect, or not available here. What it says comes from its view (lib/flow/views.ts).
import { AppIdentity, Badge } from "@/components/flow/marks";
import { APP_NAMES } from "@/lib/catalogue";
import type { AppRowView } from "@/lib/flow/views";

export function AppRow({ row }: { row: AppRowView }) {
  const inner = (
    <>
      <AppIdentity app={row.app} dimmed={row.state === "unavailable"} detail={row.detail} />
      {row.state === "connected" ? <Badge tone="done">✓ Connected</Badge> : row.required ? <Badge tone="required">Required</Badge> : null}
    </>
  );
  const box = "flex min-h-14 items-center gap-3 rounded-xl px-4 py-3 ring-1";
  return (
    <li>
      {row.state === "connect" || row.state === "reconnect" ? (
        <a href={row.href} className={`${box} ring-slate-200 hover:bg-slate-50`}>
          {inner}
          <span className="sr-only">: connect {APP_NAMES[row.app]}</span>
        </a>
      ) : (
        <div className={`${box} ${row.state === "connected" ? "ring-emerald-200" : "ring-slate-200"}`} aria-disabled={row.state === "unavailable" || undefined}>
          {inner}
        </div>
      )}
    </li>
  );
}
