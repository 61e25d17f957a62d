// How the dashboard writes times, counts and rates: UTC always (the request log and usage days are UTC),
// British English forms as on the hosted pages.
const TIME = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
const COUNT = new Intl.NumberFormat("en-GB");
const PERCENT = new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1 });

/** "24 Nov, 23:04:05 UTC". */
export function utcTime(at: Date | string): string {
  return `${TIME.format(typeof at === "string" ? new Date(at) : at)} UTC`;
}

export function count(n: number): string {
  return COUNT.format(n);
}

export function percent(rate: number): string {
  return PERCENT.format(rate);
}

export function milliseconds(value: number | null): string {
  return value === null ? "—" : `${COUNT.format(value)} ms`;
}
