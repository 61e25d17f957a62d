// Resident memory of a process and all its descendants, read from Linux's /proc.
import { readdirSync, readFileSync } from "node:fs";

function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) may hold spaces or parentheses: the fields after its last ')' are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
    return ppid === undefined ? undefined : Number(ppid);
  } catch {
    return undefined; // the process ended while we looked
  }
}

function rssKiB(pid: number): number {
  try {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+)\s+kB/m);
    return match?.[1] ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** The pid followed by every descendant's pid. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const ppid = parentOf(pid);
    if (ppid !== undefined) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** VmRSS summed over the process tree, in MiB. */
export function treeRssMiB(root: number): number {
  const kib = processTree(root).reduce((sum, pid) => sum + rssKiB(pid), 0);
  return kib / 1024;
}
