// The dashboard's usage chart renders the figures for everyone: the drawing is hidden from screen
// readers, which read the same days as a table, and the figure's description names the totals.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { UsageChart, usageSummary, type UsageChartDay } from "@/components/dashboard/usage-chart";

const DAYS: UsageChartDay[] = [
  { day: "2026-06-28", requests: 0, errors: 0, errorRate: 0, p50Ms: null, p95Ms: null },
  { day: "2026-06-29", requests: 10, errors: 2, errorRate: 0.2, p50Ms: 10, p95Ms: 12 },
  { day: "2026-06-30", requests: 1990, errors: 1, errorRate: 1 / 1990, p50Ms: 4, p95Ms: 19 },
];

/** The text of the HTML, tags gone, spaces collapsed. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

describe("usage chart", () => {
  it("says the totals in words", () => {
    expect(usageSummary(DAYS)).toBe("2,000 requests from 28 Jun to 30 Jun, 3 of them errors (0.2%).");
    expect(usageSummary(DAYS.slice(0, 1))).toBe("No requests from 28 Jun to 28 Jun.");
    expect(usageSummary([])).toBe("No days to show.");
    // One request, one error: said in the singular.
    expect(usageSummary([{ day: "2026-06-30", requests: 1, errors: 0, errorRate: 0 }])).toBe("1 request from 30 Jun to 30 Jun.");
    expect(usageSummary([{ day: "2026-06-30", requests: 1, errors: 1, errorRate: 1 }])).toBe("1 request from 30 Jun to 30 Jun, an error.");
    expect(usageSummary([{ day: "2026-06-30", requests: 4, errors: 1, errorRate: 0.25 }])).toBe("4 requests from 30 Jun to 30 Jun, 1 of them an error (25%).");
  });

  it("renders a figure named and described, its drawing hidden from screen readers, and every day as a table row", () => {
    const html = renderToStaticMarkup(createElement(UsageChart, { days: DAYS, title: "Live requests per day" }));
    const figure = /<figure aria-labelledby="([^"]+)" aria-describedby="([^"]+)"/.exec(html);
    expect(figure).not.toBeNull();
    expect(html).toContain(`id="${figure![1]}"`);
    expect(html).toMatch(new RegExp(`id="${figure![2]}"[^>]*>2,000 requests from 28 Jun to 30 Jun, 3 of them errors \\(0\\.2%\\)\\.<`));
    expect(html).toMatch(/<div aria-hidden="true"[^>]*data-testid="usage-chart-drawing"/);
    const table = /<div class="sr-only"><table>([\s\S]*)<\/table>/.exec(html)![1]!;
    expect(text(table)).toBe(
      [
        "Live requests per day: requests, errors and error rate per day (UTC)",
        "Day Requests Errors Error rate Latency p50 Latency p95",
        "28 Jun 0 0 — — —",
        "29 Jun 10 2 20% 10 ms 12 ms",
        "30 Jun 1,990 1 0.1% 4 ms 19 ms",
      ].join(" "),
    );
    expect(table.match(/<th scope="row">/g)).toHaveLength(3);
  });

  it("leaves the latency columns out when the days have none", () => {
    const html = renderToStaticMarkup(createElement(UsageChart, { days: DAYS.map(({ day, requests, errors, errorRate }) => ({ day, requests, errors, errorRate })) }));
    expect(html).not.toContain("Latency");
    expect(html).toContain("Requests per day");
  });
});
