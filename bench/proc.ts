// CPU as Linux counts it, for the benchmarks that report where a run's CPU went: a process's ticks,
// PostgreSQL's processes, and the whole machine's busy ticks (/proc, 100 ticks a second).
import { readdirSync, readFileSync } from "node:fs";

export const TICKS_PER_SECOND = 100;

/** CPU ticks (user + system) a process has used so far; 0 once it has ended. */
export function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  } catch {
    return 0; // the process ended while we looked
  }
}

/** Every PostgreSQL process on the machine. */
export function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres") pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/** The machine's busy ticks so far, all CPUs: user, nice, system, irq, softirq, steal. */
export function machineBusyTicks(): number {
  const [, ...values] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = values.map(Number);
  return user! + nice! + system! + irq! + softirq! + steal!;
}
