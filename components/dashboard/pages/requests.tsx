// The request log page: find one request by the X-Request-Id its answer carried, and the recent
// requests of one plane, newest first, filtered by route, status and agent, a page at a time. The
// forms are plain GET forms: a search or a filter is a link that can be shared with a teammate.
import Link from "next/link";
import type { DashboardContext } from "@/lib/dashboard/context";
import { STATUS_CLASSES, type RequestLogFilters, type RequestLogView } from "@/lib/dashboard/requests";
import type { Plane } from "@/lib/platform/db/generated/enums";
import type { RequestLogRow } from "@/lib/request-log/queries";
import { milliseconds, utcTime } from "../format";
import { PlaneTabs } from "../plane-tabs";
import { DashboardShell, Section } from "../shell";
import { buttonStyles, inputStyle, labelStyle } from "../styles";
import type { DashboardActions } from "./actions";
import { SelectField } from "../fields";

const PATH = "/dashboard/requests";

const STATUS_LABELS: Readonly<Record<(typeof STATUS_CLASSES)[number], string>> = {
  "2xx": "2xx success",
  "3xx": "3xx redirect",
  "4xx": "4xx client error",
  "5xx": "5xx server error",
  error: "Any error (400 and over)",
};

/** The page's address with these values (empty ones left out). */
function href(values: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(values).filter((e): e is [string, string] => !!e[1]));
  const s = q.toString();
  return s ? `${PATH}?${s}` : PATH;
}

function filterValues(plane: Plane, f: RequestLogFilters) {
  return { plane, route: f.route, status: f.status, agent: f.agentId };
}

export function StatusBadge({ status }: { status: number }) {
  const tone =
    status >= 500 ? "bg-red-100 text-red-800" : status >= 400 ? "bg-amber-100 text-amber-900" : status >= 300 ? "bg-sky-100 text-sky-800" : "bg-emerald-100 text-emerald-800";
  return <span className={`rounded-full px-2 py-0.5 font-mono text-xs font-semibold ${tone}`}>{status}</span>;
}

function agentName(row: RequestLogRow): string | null {
  return row.agent ? row.agent.handle : row.agentId ? "deleted agent" : null;
}

/** One filter of the listing: "any" first, then the values it may take. */
function FilterSelect({
  id,
  name,
  label,
  value,
  any,
  options,
}: {
  id: string;
  name: string;
  label: string;
  value: string | undefined;
  any: string;
  options: Array<readonly [string, string]>;
}) {
  return <SelectField id={id} name={name} label={label} options={[["", any], ...options]} defaultValue={value ?? ""} />;
}

/** One request in full: what the search found. */
function RequestDetail({ row }: { row: RequestLogRow }) {
  const facts: Array<[string, React.ReactNode]> = [
    [
      "Request id",
      <span key="id" className="font-mono break-all">
        {row.requestId}
      </span>,
    ],
    ["Time", utcTime(row.at)],
    ["Plane", row.plane],
    [
      "Request",
      <span key="r" className="font-mono break-all">
        {row.method} {row.route}
      </span>,
    ],
    ["Status", <StatusBadge key="s" status={row.status} />],
    [
      "Error code",
      row.errorCode ? (
        <span key="e" className="font-mono">
          {row.errorCode}
        </span>
      ) : (
        "—"
      ),
    ],
    ["Agent", row.agent ? `${row.agent.displayName} (${row.agent.handle})` : row.agentId ? "An agent since deleted" : "None named"],
    ["Time taken", milliseconds(row.latencyMs)],
  ];
  return (
    <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]" data-testid="request-detail">
      {facts.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-sm font-semibold text-slate-600">{term}</dt>
          <dd className="text-sm text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function RequestRow({ row, plane, filters }: { row: RequestLogRow; plane: Plane; filters: RequestLogFilters }) {
  const agent = agentName(row);
  return (
    <li className="py-3" data-testid="request-row">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <StatusBadge status={row.status} />
        <span className="min-w-0 flex-1 font-mono text-sm break-all text-slate-900">
          <span className="font-semibold">{row.method}</span> {row.route}
        </span>
        <span className="text-sm text-slate-600 tabular-nums">{milliseconds(row.latencyMs)}</span>
      </div>
      <p className="mt-1 text-sm text-slate-600">
        <time dateTime={row.at}>{utcTime(row.at)}</time>
        {agent && <> · {agent}</>}
        {row.errorCode && (
          <>
            {" · "}
            <span className="font-mono">{row.errorCode}</span>
          </>
        )}
      </p>
      <p className="mt-0.5 text-sm">
        <Link
          href={href({ ...filterValues(plane, filters), before: filters.before, id: row.requestId })}
          className="font-mono text-xs break-all text-brand-700 underline-offset-2 hover:underline"
        >
          {row.requestId}
        </Link>
      </p>
    </li>
  );
}

export function RequestsPage({ ctx, data, retentionDays, actions }: { ctx: DashboardContext; data: RequestLogView; retentionDays: number; actions: DashboardActions }) {
  const { signOutAction, switchAccountAction } = actions;
  const { plane, filters, page, search } = data;
  const filtered = !!(filters.route || filters.status || filters.agentId);
  return (
    <DashboardShell
      ctx={ctx}
      current="requests"
      title="Request log"
      intro={
        <p>
          Every API and MCP request made with the account&rsquo;s keys, kept {retentionDays} days. Each answer carries its id in the{" "}
          <span className="font-mono text-sm">X-Request-Id</span> header: search for it here.
        </p>
      }
      switchAction={switchAccountAction}
      signOutAction={signOutAction}
    >
      <Section id="find-request" title="Find a request">
        <form method="get" action={PATH} role="search" aria-label="Find a request by its id" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="plane" value={plane} />
          <div className="min-w-0 flex-1 basis-64">
            <label htmlFor="request-id" className={labelStyle}>
              Request id
            </label>
            <input
              id="request-id"
              name="id"
              type="search"
              defaultValue={search?.id ?? ""}
              required
              maxLength={100}
              spellCheck={false}
              autoComplete="off"
              className={`${inputStyle} font-mono`}
              placeholder="req_…"
            />
          </div>
          <button type="submit" className={buttonStyles.primary}>
            Find
          </button>
        </form>
        {search && (
          <div className="mt-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200" role="status">
            {search.found ? (
              <RequestDetail row={search.found} />
            ) : (
              <p className="text-sm text-slate-700" data-testid="request-not-found">
                No request <span className="font-mono break-all">{search.id}</span> in this account. Ids start with <span className="font-mono">req_</span>; requests are kept{" "}
                {retentionDays} days.
              </p>
            )}
          </div>
        )}
      </Section>
      <Section id="recent-requests" title="Recent requests" description={`Newest first, in the ${plane} plane. Times are UTC.`}>
        <div className="flex flex-wrap items-end justify-between gap-3">
          <PlaneTabs current={plane} hrefOf={(p) => href({ plane: p })} label="Plane of the requests" />
        </div>
        <form method="get" action={PATH} aria-label="Filter the requests" className="mt-4 grid gap-3 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
          <input type="hidden" name="plane" value={plane} />
          <FilterSelect
            id="filter-route"
            name="route"
            label="Route"
            value={filters.route}
            any="All routes"
            options={[...new Set([...data.routes, ...(filters.route ? [filters.route] : [])])].map((r) => [r, r])}
          />
          <FilterSelect id="filter-status" name="status" label="Status" value={filters.status} any="Any status" options={STATUS_CLASSES.map((c) => [c, STATUS_LABELS[c]])} />
          <FilterSelect
            id="filter-agent"
            name="agent"
            label="Agent"
            value={filters.agentId}
            any="Any agent"
            options={data.agents.map((a) => [a.id, `${a.displayName} (${a.handle})`])}
          />
          <button type="submit" className={buttonStyles.secondary}>
            Apply
          </button>
        </form>
        {page.requests.length === 0 ? (
          <p className="mt-4 text-sm text-slate-600" data-testid="requests-empty">
            {filtered || filters.before
              ? "No requests match."
              : `No ${plane} requests yet. Call the API with a ${plane === "live" ? "live key (sk_…)" : "test key (sk_test_…)"} and each request appears here within seconds.`}
          </p>
        ) : (
          <ol className="mt-2 divide-y divide-slate-200" aria-label={`Requests in the ${plane} plane`}>
            {page.requests.map((row) => (
              <RequestRow key={row.requestId} row={row} plane={plane} filters={filters} />
            ))}
          </ol>
        )}
        {(page.older || filters.before) && (
          <nav aria-label="Pages of requests" className="mt-4 flex flex-wrap gap-3">
            {filters.before && (
              <Link href={href(filterValues(plane, filters))} className={buttonStyles.secondary}>
                Newest
              </Link>
            )}
            {page.older && (
              <Link href={href({ ...filterValues(plane, filters), before: page.older })} className={buttonStyles.secondary}>
                Older requests
              </Link>
            )}
          </nav>
        )}
      </Section>
    </DashboardShell>
  );
}
