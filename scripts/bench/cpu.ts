// CPU time of the benchmark's processes and threads, read from /proc: a
// process's utime and stime, plus cutime and cstime, where the kernel adds
// the time of its children once it has reaped them. A process kind's time is
// that of its process and all its descendants, living (their own fields) or
// gone (their parent's children fields), so a PostgreSQL backend that exits
// during the run is counted once, whichever side of the reaping it was read on.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

interface Stat {
  pid: number;
  comm: string;
  ppid: number;
  /** utime + stime: this process's (or thread's) own time, all its threads included. */
  own: number;
  /** cutime + cstime: its reaped children's. */
  children: number;
}

function readStat(path: string): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(path, "latin1");
  } catch {
    return undefined; // gone meanwhile
  }
  // The command name is in parentheses and may hold spaces; the fields after it are numbers.
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" ");
  const field = (n: number) => Number(fields[n - 3]);
  return { pid: Number(text.slice(0, text.indexOf(" "))), comm: text.slice(text.indexOf("(") + 1, close), ppid: field(4), own: field(14) + field(15), children: field(16) + field(17) };
}

function allProcesses(): Map<number, Stat> {
  const stats = new Map<number, Stat>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(`/proc/${name}/stat`);
    if (stat) stats.set(stat.pid, stat);
  }
  return stats;
}

function tree(stats: Map<number, Stat>, roots: number[]): Stat[] {
  const byParent = new Map<number, Stat[]>();
  for (const stat of stats.values()) byParent.set(stat.ppid, [...(byParent.get(stat.ppid) ?? []), stat]);
  const found: Stat[] = [];
  const visit = (pid: number) => {
    const stat = stats.get(pid);
    if (!stat) return;
    found.push(stat);
    for (const child of byParent.get(pid) ?? []) visit(child.pid);
  };
  for (const root of roots) visit(root);
  return found;
}

/**
 * CPU seconds used so far by each kind's processes and their descendants.
 * Read twice until both readings agree on which processes live and on their
 * reaped children's time: a child reaped between the reading of its own
 * stat and its parent's would otherwise count twice, or not at all.
 */
export function cpuSeconds(kinds: Record<string, number[]>): Record<string, number> {
  const read = () => {
    const stats = allProcesses();
    return Object.fromEntries(Object.entries(kinds).map(([kind, roots]) => [kind, tree(stats, roots)]));
  };
  const signature = (reading: Record<string, Stat[]>) =>
    JSON.stringify(Object.values(reading).map((stats) => stats.map((s) => [s.pid, s.children])));
  let reading = read();
  for (let attempt = 0; attempt < 10; attempt++) {
    const again = read();
    const stable = signature(again) === signature(reading);
    reading = again;
    if (stable) break;
  }
  return Object.fromEntries(Object.entries(reading).map(([kind, stats]) => [kind, stats.reduce((sum, s) => sum + s.own + s.children, 0) / TICKS_PER_SECOND]));
}

export interface ThreadCpu {
  tid: number;
  comm: string;
  seconds: number;
}

/** Each living thread of a process with its CPU seconds, and the whole process's own (threads that have ended included). */
export function threadSeconds(pid: number): { threads: ThreadCpu[]; process: number } {
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    // gone
  }
  const threads = tids.flatMap((tid) => {
    const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
    return stat ? [{ tid: Number(tid), comm: stat.comm, seconds: stat.own / TICKS_PER_SECOND }] : [];
  });
  return { threads, process: (readStat(`/proc/${pid}/stat`)?.own ?? 0) / TICKS_PER_SECOND };
}

export function parentPid(pid: number): number | undefined {
  return readStat(`/proc/${pid}/stat`)?.ppid;
}
