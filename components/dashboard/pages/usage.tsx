// The usage page: in one plane and over a chosen span, requests and the error rate per day (the chart,
// with its figures as a table for screen readers), and per route: requests, errors, error rate and
// latency percentiles, busiest first; each route opens the chart of that route alone, from which its
// requests in the log are one link away.
import Link from "next/link";
import type { DashboardContext } from "@/lib/dashboard/context";
import { USAGE_SPANS, type UsageView } from "@/lib/dashboard/requests";
import type { Plane } from "@/lib/platform/db/generated/enums";
import { count, milliseconds, percent } from "../format";
import { PlaneTabs } from "../plane-tabs";
import { DashboardShell, Section } from "../shell";
import { UsageChart } from "../usage-chart";
import type { DashboardActions } from "./actions";

const PATH = "/dashboard/usage";
/** The per-route table's columns; on a phone only route, requests and error rate. */
const COLUMNS = [
  { name: "Route", phone: true },
  { name: "Requests", phone: true },
  { name: "Errors", phone: false },
  { name: "Error rate", phone: true },
  { name: "p50", phone: false },
  { name: "p95", phone: false },
] as const;
const onPhone = (phone: boolean) => (phone ? "" : "hidden sm:table-cell");

function href(plane: Plane, days: number, route?: { method: string; route: string } | null): string {
  return `${PATH}?${new URLSearchParams({ plane, days: String(days), ...(route ? { method: route.method, route: route.route } : {}) }).toString()}`;
}

export function UsagePage({ ctx, data, actions }: { ctx: DashboardContext; data: UsageView; actions: DashboardActions }) {
  const { signOutAction, switchAccountAction } = actions;
  const { plane, days, route, perDay, perRoute } = data;
  const routeName = route ? `${route.method} ${route.route}` : null;
  const total = perDay.reduce((n, d) => n + d.requests, 0);
  const errors = perDay.reduce((n, d) => n + d.errors, 0);
  return (
    <DashboardShell
      ctx={ctx}
      current="usage"
      title="Usage"
      intro={<p>Requests made with the account&rsquo;s keys, per UTC day and per route, with their error rates and how long they took.</p>}
      switchAction={switchAccountAction}
      signOutAction={signOutAction}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <PlaneTabs current={plane} hrefOf={(p) => href(p, days)} label="Plane of the usage" />
        <nav aria-label="Days shown">
          <ul className="inline-flex rounded-xl bg-white p-1 shadow-sm ring-1 ring-slate-200">
            {[...USAGE_SPANS]
              .sort((a, b) => a - b)
              .map((span) => (
                <li key={span}>
                  <Link
                    href={href(plane, span, route)}
                    aria-current={span === days ? "true" : undefined}
                    className={`inline-flex min-h-10 items-center rounded-lg px-3 text-sm font-semibold ${span === days ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"}`}
                  >
                    {span} days
                  </Link>
                </li>
              ))}
          </ul>
        </nav>
      </div>
      <dl className="grid grid-cols-3 gap-3" data-testid="usage-totals">
        {[
          ["Requests", count(total)],
          ["Errors", count(errors)],
          ["Error rate", total ? percent(errors / total) : "—"],
        ].map(([term, value]) => (
          <div key={term} className="rounded-2xl bg-white p-3 shadow-sm ring-1 ring-slate-200 sm:p-4">
            <dt className="text-xs font-semibold text-slate-600 sm:text-sm">{term}</dt>
            <dd className="mt-1 text-lg font-semibold text-slate-900 tabular-nums sm:text-2xl">{value}</dd>
          </div>
        ))}
      </dl>
      {route && (
        <p className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-2xl bg-white px-4 py-3 text-sm shadow-sm ring-1 ring-slate-200" data-testid="usage-route">
          <span className="min-w-0 break-all text-slate-700">
            Only <span className="font-mono font-semibold text-slate-900">{routeName}</span>
          </span>
          <Link href={href(plane, days)} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
            All routes
          </Link>
          <Link
            href={`/dashboard/requests?${new URLSearchParams({ plane, route: route.route }).toString()}`}
            className="font-semibold text-brand-700 underline-offset-2 hover:underline"
          >
            Its requests in the log
          </Link>
        </p>
      )}
      <UsageChart days={perDay} title={`${routeName ?? "Requests"} per day, ${plane} plane, last ${days} days`} />
      <Section
        id="per-route"
        title="Per route"
        description="Errors are answers of 400 and over; a rate in red includes server errors (500 and over). p50 and p95: half and 95 % of requests took at most this long."
      >
        {perRoute.length === 0 ? (
          <p className="text-sm text-slate-600" data-testid="usage-routes-empty">
            No {plane} requests in the last {days} days.
          </p>
        ) : (
          <div className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0" role="region" aria-label="Usage per route" tabIndex={0}>
            <table className="w-full text-left text-sm sm:min-w-[36rem]" data-testid="usage-routes">
              <thead className="border-b border-slate-200 text-xs text-slate-600">
                <tr>
                  {COLUMNS.map(({ name, phone }, i) => (
                    <th
                      key={name}
                      scope="col"
                      className={`py-2 font-semibold ${onPhone(phone)} ${i === 0 ? "pr-3" : i === COLUMNS.length - 1 ? "pl-3 text-right" : "px-3 text-right"}`}
                    >
                      {name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100 tabular-nums">
                {perRoute.map((r) => (
                  <tr key={`${r.method} ${r.route}`}>
                    <th scope="row" className="py-2 pr-3 font-mono text-xs font-normal break-all text-slate-900">
                      <Link
                        href={href(plane, days, r)}
                        aria-current={route?.method === r.method && route.route === r.route ? "true" : undefined}
                        className="text-brand-700 underline-offset-2 hover:underline aria-[current]:font-bold aria-[current]:text-slate-900"
                      >
                        <span className="font-semibold">{r.method}</span> {r.route}
                      </Link>
                    </th>
                    <td className="px-3 py-2 text-right">{count(r.requests)}</td>
                    <td className={`px-3 py-2 text-right ${onPhone(false)}`}>{count(r.errors)}</td>
                    <td className={`px-3 py-2 text-right ${r.serverErrors ? "font-semibold text-red-700" : ""}`}>
                      {percent(r.errorRate)}
                      {r.serverErrors > 0 && <span className="sr-only"> (includes server errors)</span>}
                    </td>
                    <td className={`px-3 py-2 text-right ${onPhone(false)}`}>{milliseconds(r.p50Ms)}</td>
                    <td className={`py-2 pl-3 text-right ${onPhone(false)}`}>{milliseconds(r.p95Ms)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
    </DashboardShell>
  );
}
