// CPU as Linux counts it, for the benchmarks that report where a run's CPU went: a process's ticks,
// PostgreSQL's processes, and the whole machine's busy ticks (/proc, 100 ticks a second), and a timed
// run's shares of them.
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { processTree } from "./rss";

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

// ─── A run's CPU: the server's process tree, PostgreSQL, this process, the machine ──────────────

/** More than this much of a CPU (%) going to other processes during a run: the machine was not idle. */
export const OTHER_WARNING = 15;
const QUIET_WAIT_S = 120;

export interface CpuSample {
  at: number;
  /** CPU ticks so far of each process, by pid. */
  server: Map<number, number>;
  postgres: Map<number, number>;
  bench: number;
  machine: number;
}

/** Percent of one CPU over a run: the server's process tree, PostgreSQL's processes, this process, the whole machine. */
export interface CpuShare {
  server: number;
  postgres: number;
  bench: number;
  machine: number;
}

export function cpuSample(serverPid: number): CpuSample {
  const ticks = (pids: number[]) => new Map(pids.map((pid) => [pid, processTicks(pid)]));
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    server: ticks(processTree(serverPid)),
    postgres: ticks(postgresPids()),
    bench: ((own.user + own.system) / 1e6) * TICKS_PER_SECOND,
    machine: machineBusyTicks(),
  };
}

/**
 * Ticks the processes alive at the end spent since the start (all of theirs if they began during the
 * run). A backend that ended during the run (an idle pool connection closing) is left out, not subtracted.
 */
function spent(from: Map<number, number>, to: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, t] of to) ticks += Math.max(0, t - (from.get(pid) ?? 0));
  return ticks;
}

export function cpuShare(from: CpuSample, to: CpuSample): CpuShare {
  const seconds = (to.at - from.at) / 1000;
  const pct = (ticks: number) => (ticks / TICKS_PER_SECOND / seconds) * 100;
  return {
    server: pct(spent(from.server, to.server)),
    postgres: pct(spent(from.postgres, to.postgres)),
    bench: pct(to.bench - from.bench),
    machine: pct(to.machine - from.machine),
  };
}

/** Busy time of the machine outside the server, PostgreSQL and the benchmark. */
export const other = (cpu: CpuShare) => Math.max(0, cpu.machine - cpu.server - cpu.postgres - cpu.bench);

/** Waits (at most QUIET_WAIT_S) until less than OTHER_WARNING % of a CPU is busy over two 1-second samples. */
export async function quietMachine(): Promise<void> {
  let quiet = 0;
  for (let waited = 0; waited < QUIET_WAIT_S && quiet < 2; waited++) {
    const before = machineBusyTicks();
    await sleep(1_000);
    quiet = ((machineBusyTicks() - before) / TICKS_PER_SECOND) * 100 < OTHER_WARNING ? quiet + 1 : 0;
  }
}
