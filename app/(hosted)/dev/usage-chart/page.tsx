// /dev/usage-chart — the developer dashboard's usage chart drawn from a fixed month of figures, for the
// people who change it (development mode only, as every /dev page). No database is read.
import type { Metadata } from "next";
import { UsageChart, type UsageChartDay } from "@/components/dashboard/usage-chart";
import { FlowShell, SERVICE_NAME } from "@/components/flow/flow-shell";

export const metadata: Metadata = { title: "Usage chart", robots: { index: false } };

/** Thirty days ending 30 June 2026: weekday traffic, quiet weekends, one bad day. */
function sampleDays(): UsageChartDay[] {
  return Array.from({ length: 30 }, (_, i) => {
    const day = new Date(Date.UTC(2026, 5, 1 + i));
    const weekend = day.getUTCDay() === 0 || day.getUTCDay() === 6;
    const requests = weekend ? 180 + ((i * 37) % 90) : 900 + ((i * 131) % 400);
    const errors = i === 17 ? Math.round(requests * 0.12) : Math.round(requests * (0.004 + ((i * 7) % 10) / 1000));
    return { day: day.toISOString().slice(0, 10), requests, errors, errorRate: errors / requests, p50Ms: 4 + (i % 3), p95Ms: 14 + (i % 5) };
  });
}

export default function UsageChartPage() {
  const days = sampleDays();
  return (
    <FlowShell own appName={SERVICE_NAME} title="Usage chart">
      <p className="mt-3 text-slate-600">The dashboard&apos;s usage chart, drawn from a fixed month of figures.</p>
      <div className="mt-5">
        <UsageChart days={days} title="Live requests per day" />
      </div>
      <div className="mt-5">
        <UsageChart days={days.map((d) => ({ ...d, requests: 0, errors: 0, errorRate: 0, p50Ms: null, p95Ms: null }))} title="Test requests per day" height={160} />
      </div>
    </FlowShell>
  );
}
