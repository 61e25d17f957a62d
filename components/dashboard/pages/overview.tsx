// The dashboard's overview of the account shown: its keys, agents, origins and members, counted, and
// the next steps of a new integration.
import Link from "next/link";
import type { DashboardContext } from "@/lib/dashboard/context";
import type { accountOverview } from "@/lib/dashboard/overview";
import { DashboardShell, Section } from "../shell";
import type { DashboardActions } from "./actions";

export type OverviewData = Awaited<ReturnType<typeof accountOverview>>;

export function OverviewPage({ ctx, data: o, actions }: { ctx: DashboardContext; data: OverviewData; actions: DashboardActions }) {
  const { signOutAction, switchAccountAction } = actions;
  const tiles = [
    { href: "/dashboard/keys", label: "Live keys", value: o.liveKeys },
    { href: "/dashboard/keys", label: "Test keys", value: o.testKeys },
    { href: "/dashboard/agents", label: "Agents", value: o.agents, detail: `${o.activeAgents} active` },
    { href: "/dashboard/origins", label: "Approved origins", value: o.origins },
    { href: "/dashboard/members", label: "Members", value: o.members },
  ];
  const steps = [
    { done: o.liveKeys + o.testKeys > 0, text: "Create a secret key (start with the test plane)", href: "/dashboard/keys" },
    { done: o.agents > 0, text: "Create an agent: its handle goes in X-Agent, and it gets a sign-in link", href: "/dashboard/agents" },
    { done: o.origins > 0, text: "Approve the origin your sign-in callbacks and return addresses live on", href: "/dashboard/origins" },
    {
      done: o.requestPlane !== null,
      text: "Call the API with your key, and find the request in the request log",
      href: o.requestPlane ? `/dashboard/requests?plane=${o.requestPlane}` : "/dashboard/requests",
    },
  ];
  return (
    <DashboardShell
      ctx={ctx}
      current="overview"
      title={ctx.account.name}
      intro={<p>Everything your servers use to reach Profile Service, for this account.</p>}
      switchAction={switchAccountAction}
      signOutAction={signOutAction}
    >
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-5" aria-label="This account">
        {tiles.map((t) => (
          <li key={t.label}>
            <Link href={t.href} className="block h-full rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-brand-500">
              <span className="block text-2xl font-semibold text-slate-900">{t.value}</span>
              <span className="block text-sm text-slate-600">{t.label}</span>
              {t.detail && <span className="block text-xs text-slate-500">{t.detail}</span>}
            </Link>
          </li>
        ))}
      </ul>
      <Section id="next" title="Getting started">
        <ol className="space-y-2">
          {steps.map((s, i) => (
            <li key={s.text} className="flex items-start gap-3">
              <span
                aria-hidden="true"
                className={`mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold ${s.done ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-600"}`}
              >
                {s.done ? "✓" : i + 1}
              </span>
              <span className="text-slate-700">
                <Link href={s.href} className="font-medium text-brand-700 hover:underline">
                  {s.text}
                </Link>
                <span className="sr-only">{s.done ? " (done)" : " (to do)"}</span>
              </span>
            </li>
          ))}
        </ol>
        <p className="mt-4 text-sm text-slate-600">
          A first call to try: <code className="rounded bg-slate-100 px-1 py-0.5 text-[0.85em]">GET /v1/agents</code> answers with your agents. See the{" "}
          <Link href="/docs/getting-started" className="font-medium text-brand-700 hover:underline">
            getting started guide
          </Link>
          .
        </p>
      </Section>
    </DashboardShell>
  );
}
