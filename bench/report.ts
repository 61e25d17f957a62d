// The benchmark's printed output: a header naming the machine and a compact table of figures.
import { cpus } from "node:os";
import type { LoadFigures } from "./load";

export interface Row extends LoadFigures {
  /** RSS of the server's process tree right after this run, MiB. */
  rssAfter: number;
}

export function machine(): string {
  const list = cpus();
  return `${list.length} CPU(s) ${list[0]?.model ?? "unknown"} · Node ${process.version} · ${process.platform}/${process.arch}`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

export function loadTable(rows: Row[]): string {
  return table(
    ["scenario", "conns", "requests", "req/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "non-2xx", "errors", "RSS MiB"],
    rows.map((r) => [
      r.scenario,
      String(r.connections),
      String(r.requests),
      r.rps.toFixed(0),
      String(r.p50),
      String(r.p90),
      String(r.p99),
      String(r.max),
      String(r.non2xx),
      String(r.errors),
      r.rssAfter.toFixed(0),
    ]),
  );
}

export function statusNote(rows: LoadFigures[]): string | undefined {
  const odd = rows.filter((r) => r.non2xx > 0).map((r) => `${r.scenario}@${r.connections}: ${JSON.stringify(r.statusCodes)}`);
  return odd.length ? `status codes of runs with non-2xx answers: ${odd.join("; ")}` : undefined;
}
