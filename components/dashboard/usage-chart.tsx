"use client";
// A developer's usage per day as a chart: requests as bars, the error rate as a line on its own axis.
// The drawing is for the eye only; screen readers get the same figures as a table (visually hidden),
// and the figure names its totals in its description.
import { useId } from "react";
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DayUsage } from "@/lib/request-log/queries";

/** One day as the chart takes it: the fields of lib/request-log/queries.ts usagePerDay that it shows. */
export type UsageChartDay = Pick<DayUsage, "day" | "requests" | "errors" | "errorRate"> & Partial<Pick<DayUsage, "p50Ms" | "p95Ms">>;

/** Months as the chart writes them: fixed, so the server's and the browser's text are the same whatever their ICU data ("Sep" or "Sept"). */
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;
const COUNT = new Intl.NumberFormat("en-GB");
const PERCENT = new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 });
const COMPACT = new Intl.NumberFormat("en-GB", { notation: "compact", maximumFractionDigits: 1 });

/** Tops of the error-rate axis, in percent: each splits into round quarters. */
const RATE_TOPS = [4, 8, 20, 40, 60, 80, 100] as const;

/** "2026-06-30" → "30 Jun" (the days are UTC days). */
function dayLabel(day: string): string {
  const [, month, date] = day.split("-").map(Number) as [number, number, number];
  return `${date} ${MONTHS[month - 1]}`;
}

function ms(value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : `${COUNT.format(value)} ms`;
}

/** What the figure says in words: the days covered, the requests, the errors and their rate. */
export function usageSummary(days: readonly UsageChartDay[]): string {
  if (!days.length) return "No days to show.";
  const requests = days.reduce((n, d) => n + d.requests, 0);
  const errors = days.reduce((n, d) => n + d.errors, 0);
  const span = `${dayLabel(days[0]!.day)} to ${dayLabel(days.at(-1)!.day)}`;
  if (!requests) return `No requests from ${span}.`;
  if (requests === 1) return `1 request from ${span}${errors ? ", an error" : ""}.`;
  return `${COUNT.format(requests)} requests from ${span}, ${errors === 1 ? "1 of them an error" : `${COUNT.format(errors)} of them errors`} (${PERCENT.format(errors / requests)}).`;
}

export function UsageChart({ days, title = "Requests per day", height = 240 }: { days: readonly UsageChartDay[]; title?: string; height?: number }) {
  const id = useId();
  const data = days.map((d) => ({ ...d, label: dayLabel(d.day), errorPercent: Math.round(d.errorRate * 1000) / 10 }));
  const showLatency = days.some((d) => d.p50Ms !== undefined || d.p95Ms !== undefined);
  // The error rate's axis: 0 to the first of a few round tops that holds the highest day, in quarters.
  const highest = Math.max(0, ...data.map((d) => d.errorPercent));
  const rateTop = RATE_TOPS.find((top) => top >= highest) ?? 100;
  return (
    <figure aria-labelledby={`${id}-title`} aria-describedby={`${id}-summary`} className="rounded-2xl bg-white p-4 ring-1 ring-slate-200">
      <figcaption>
        <span id={`${id}-title`} className="block text-base font-semibold text-slate-900">
          {title}
        </span>
        <span id={`${id}-summary`} className="mt-1 block text-sm text-slate-600">
          {usageSummary(days)}
        </span>
      </figcaption>
      <div aria-hidden="true" className="mt-3 w-full" style={{ height }} data-testid="usage-chart-drawing">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={data} margin={{ top: 8, right: 0, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid stroke="#e2e8f0" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#475569" }} tickLine={false} axisLine={{ stroke: "#cbd5e1" }} minTickGap={16} />
            <YAxis
              yAxisId="requests"
              allowDecimals={false}
              tickFormatter={(v: number) => COMPACT.format(v)}
              tick={{ fontSize: 12, fill: "#475569" }}
              tickLine={false}
              axisLine={false}
              width={40}
            />
            <YAxis
              yAxisId="rate"
              orientation="right"
              unit="%"
              domain={[0, rateTop]}
              ticks={[0, rateTop / 4, rateTop / 2, (rateTop * 3) / 4, rateTop]}
              tick={{ fontSize: 12, fill: "#475569" }}
              tickLine={false}
              axisLine={false}
              width={40}
            />
            <Tooltip
              formatter={(value, name) => (name === "Error rate" ? `${String(value)} %` : COUNT.format(Number(value)))}
              contentStyle={{ borderRadius: 12, borderColor: "#e2e8f0", fontSize: 13 }}
            />
            <Legend wrapperStyle={{ fontSize: 13 }} />
            <Bar yAxisId="requests" dataKey="requests" name="Requests" fill="var(--color-brand-600, #4338ca)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
            <Line yAxisId="rate" dataKey="errorPercent" name="Error rate" stroke="#dc2626" strokeWidth={2} dot={false} type="linear" isAnimationActive={false} />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      {/* The wrapper is what is hidden: a table keeps its content's width whatever width it is given. */}
      <div className="sr-only">
        <table>
          <caption>{title}: requests, errors and error rate per day (UTC)</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Requests</th>
              <th scope="col">Errors</th>
              <th scope="col">Error rate</th>
              {showLatency ? <th scope="col">Latency p50</th> : null}
              {showLatency ? <th scope="col">Latency p95</th> : null}
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{dayLabel(d.day)}</th>
                <td>{COUNT.format(d.requests)}</td>
                <td>{COUNT.format(d.errors)}</td>
                <td>{d.requests ? PERCENT.format(d.errorRate) : "—"}</td>
                {showLatency ? <td>{ms(d.p50Ms)}</td> : null}
                {showLatency ? <td>{ms(d.p95Ms)}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
