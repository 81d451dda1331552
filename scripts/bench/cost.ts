// The cost of the measured phase: CPU seconds by process kind and thread,
// and database statements, per accepted webhook and per recorded order.
import type { PrismaClient } from "@prisma/client";
import type { ThreadStatementCounts } from "../../app/platform/db/statement-counts";
import { cpuSeconds, threadSeconds, type ThreadCpu } from "./cpu";
import { monotonicMicros } from "./profiles";
import { countsBetween, postgresCounts, ROLES, sum } from "./statements";

export interface Topology {
  onPostgres: boolean;
  apps: number[];
  workers: number[];
  /** The cluster's postmaster (PostgreSQL only). */
  postmaster?: number;
  sandbox: number;
}

interface Reading {
  at: number;
  /** The monotonic clock, in microseconds (a CPU profile's samples are stamped with it). */
  monotonic: number;
  cpu: Record<string, number>;
  threads: Map<number, { threads: ThreadCpu[]; process: number }>;
  recorded: number;
  postgres?: Awaited<ReturnType<typeof postgresCounts>>;
}

export type CpuReading = Omit<Reading, "recorded" | "postgres">;

/** CPU first, at this moment; then the orders recorded and, on PostgreSQL, the server's statement counts. */
export async function readCost(topology: Topology, db: PrismaClient): Promise<Reading> {
  const reading = readCpu(topology);
  const recorded = await db.orderRecord.count({ where: { status: "recorded" } });
  const postgres = topology.onPostgres ? await postgresCounts(db) : undefined;
  return { ...reading, recorded, postgres };
}

/** The CPU of each process kind and of the app and worker processes' threads, at this moment. */
export function readCpu(topology: Topology): CpuReading {
  const at = Date.now();
  const monotonic = monotonicMicros();
  const cpu = cpuSeconds({
    app: topology.apps,
    worker: topology.workers,
    ...(topology.postmaster ? { postgres: [topology.postmaster] } : {}),
    sandbox: [topology.sandbox],
  });
  // This process only: its children are the kinds above.
  cpu["load generator"] = threadSeconds(process.pid).process;
  const threads = new Map([...topology.apps, ...topology.workers].map((pid) => [pid, threadSeconds(pid)]));
  return { at, monotonic, cpu, threads };
}

const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

/** A process's threads over the phase, grouped: the main thread, JS threads named by the statements they sent, the rest by kernel name. */
function threadLines(
  pid: number,
  before: CpuReading,
  after: CpuReading,
  counts: ThreadStatementCounts[],
  perOrder: (seconds: number) => string,
  { unit = "order", statements = true } = {},
): string[] {
  const start = new Map(before.threads.get(pid)?.threads.map((t) => [t.tid, t.seconds]));
  const end = after.threads.get(pid);
  if (!end) return [];
  const js = new Map(counts.filter((c) => c.pid === pid).map((c) => [c.tid, c]));
  const groups = new Map<string, { seconds: number; threads: string[]; statements: string }>();
  for (const thread of end.threads) {
    const seconds = thread.seconds - (start.get(thread.tid) ?? 0);
    const counted = js.get(thread.tid);
    const sources = counted ? Object.entries(counted.counts).filter(([, n]) => n > 0) : [];
    const name =
      thread.tid === pid
        ? "main thread"
        : counted?.counts.intake !== undefined
          ? counted.counts.plain !== undefined || counted.counts.prisma !== undefined
            ? "worker thread with the intake"
            : "intake thread"
          : counted
            ? `JS worker thread ${counted.threadId}`
            : `threads "${thread.comm}"`;
    const group = groups.get(name) ?? { seconds: 0, threads: [], statements: "" };
    group.seconds += seconds;
    group.threads.push(`${thread.tid}:${seconds.toFixed(2)}`);
    if (statements && sources.length > 0) group.statements = sources.map(([source, n]) => `${n} ${source} statements`).join(", ");
    groups.set(name, group);
  }
  const living = sum([...groups.values()].map((g) => g.seconds));
  const processSeconds = end.process - (before.threads.get(pid)?.process ?? 0);
  const lines = [...groups.entries()]
    .sort((a, b) => b[1].seconds - a[1].seconds)
    .map(
      ([name, g]) =>
        `    ${name.padEnd(30)} ${fixed(g.seconds).padStart(8)} s ${perOrder(g.seconds).padStart(8)} ms/${unit}` +
        `   ${g.threads.length} thread${g.threads.length > 1 ? "s" : ""}${g.statements ? `; ${g.statements}` : ""}`,
    );
  lines.push(`    ${"threads that ended".padEnd(30)} ${fixed(processSeconds - living).padStart(8)} s`);
  lines.push(`    (each thread, tid:CPU s: ${[...groups.entries()].map(([name, g]) => `${name} ${g.threads.join(" ")}`).join("; ")})`);
  return lines;
}

export interface CostFigures {
  cpuMsPerWebhook: number;
  cpuMsPerOrder: number;
  workerCpuMsPerOrder: number;
  statementsPerWebhook: number;
  statementsPerOrder: number;
}

/** Prints the phase's cost after the bench's other figures; returns the headline figures. */
export function printCost(options: {
  topology: Topology;
  before: Reading;
  after: Reading;
  countsBefore: ThreadStatementCounts[];
  countsAfter: ThreadStatementCounts[];
  webhooks: number;
}): CostFigures {
  const { topology, before, after, webhooks } = options;
  const orders = after.recorded - before.recorded;
  const seconds = (kind: string) => (after.cpu[kind] ?? 0) - (before.cpu[kind] ?? 0);
  const counts = countsBetween(options.countsBefore, options.countsAfter);
  const counted = (pids: number[], source?: string) =>
    sum(counts.filter((c) => pids.includes(c.pid)).flatMap((c) => Object.entries(c.counts).filter(([s]) => !source || s === source).map(([, n]) => n)));
  const ms = (cpu: number, per: number) => fixed((cpu * 1000) / per);

  console.log(
    `\ncost of the measured phase (from the burst's first webhook to the last order recorded, as the drain: ${((after.at - before.at) / 1000).toFixed(1)} s; ` +
      `${webhooks} webhooks accepted, ${orders} orders recorded, both shops):`,
  );
  console.log(`process kind          CPU s   ms / webhook   ms / order`);
  const kinds = Object.keys(after.cpu);
  for (const kind of kinds) {
    const cpu = seconds(kind);
    const label = kind === "app" ? (topology.onPostgres ? `app (${topology.apps.length} processes)` : "app (worker inside)") : kind === "worker" ? `worker (${topology.workers.length} processes)` : kind;
    if (kind === "worker" && topology.workers.length === 0) continue;
    console.log(`${label.padEnd(20)} ${fixed(cpu).padStart(7)}   ${ms(cpu, webhooks).padStart(12)}   ${ms(cpu, orders).padStart(10)}`);
  }
  console.log(`${"all".padEnd(20)} ${fixed(sum(kinds.map(seconds))).padStart(7)}`);

  for (const pid of [...topology.apps, ...topology.workers]) {
    const name = topology.apps.includes(pid) ? `app process ${pid}` : `worker process ${pid}`;
    console.log(`  ${name}, by thread (ms per recorded order):`);
    for (const line of threadLines(pid, before, after, options.countsAfter.length ? counts : [], (s) => ms(s, orders))) console.log(line);
  }

  let figures: CostFigures;
  if (!topology.onPostgres) {
    const app = seconds("app");
    const intake = counted(topology.apps, "intake");
    // Everything but the intake's: the worker's jobs (plain SQL and Prisma) and any other query of the app's.
    const others = counted(topology.apps, "prisma") + counted(topology.apps, "plain");
    figures = { cpuMsPerWebhook: (app * 1000) / webhooks, cpuMsPerOrder: (app * 1000) / orders, workerCpuMsPerOrder: (app * 1000) / orders, statementsPerWebhook: intake / webhooks, statementsPerOrder: others / orders };
    console.log(
      `CPU per webhook (app + database) ${fixed(figures.cpuMsPerWebhook)} ms; per order (worker + database) ${fixed(figures.cpuMsPerOrder)} ms: ` +
        `SQLite runs inside the app process and the worker runs there too, so both divide the same CPU (intake, worker and database); the threads above split it`,
    );
    console.log(
      `database statements (counted by the app's database layer, BEGIN and COMMIT included): ${fixed(figures.statementsPerWebhook)} per webhook ` +
        `(the intake's), ${fixed(figures.statementsPerOrder)} per order (the worker's jobs, in plain SQL and through Prisma, and any other query of the app's)`,
    );
  } else {
    const roles = after.postgres!.byRole;
    const base = before.postgres!.byRole;
    const ran = (role: string) => (roles[role] ?? 0) - (base[role] ?? 0);
    const appStatements = ran(ROLES.app);
    const workerStatements = ran(ROLES.worker);
    const allStatements = sum(Object.keys(roles).map(ran));
    const database = seconds("postgres");
    const appShare = database * (appStatements / allStatements);
    const workerShare = database * (workerStatements / allStatements);
    figures = {
      cpuMsPerWebhook: ((seconds("app") + appShare) * 1000) / webhooks,
      cpuMsPerOrder: ((seconds("worker") + workerShare) * 1000) / orders,
      workerCpuMsPerOrder: (seconds("worker") * 1000) / orders,
      statementsPerWebhook: appStatements / webhooks,
      statementsPerOrder: workerStatements / orders,
    };
    console.log(
      `CPU per webhook (apps + their share of the database) ${fixed(figures.cpuMsPerWebhook)} ms; per order (workers + their share) ${fixed(figures.cpuMsPerOrder)} ms; ` +
        `the workers alone ${fixed(figures.workerCpuMsPerOrder)} ms per order`,
    );
    console.log(
      `  the database's CPU (${fixed(database)} s: postmaster, backends, background processes) is split by the statements each kind ran: ` +
        `apps ${fixed((appStatements / allStatements) * 100, 1)}%, workers ${fixed((workerStatements / allStatements) * 100, 1)}%, ` +
        `the bench's own progress queries the rest (counted in neither)`,
    );
    console.log(
      `database statements (pg_stat_statements, by the role each kind connects as; BEGIN and COMMIT included): ${fixed(figures.statementsPerWebhook)} per webhook (${appStatements} by the apps), ` +
        `${fixed(figures.statementsPerOrder)} per order (${workerStatements} by the workers); ` +
        `the app's own count: ${fixed(counted(topology.apps) / webhooks)} and ${fixed(counted(topology.workers) / orders)}`,
    );
    if (after.postgres!.evicted > 0) console.log(`  WARNING: pg_stat_statements dropped ${after.postgres!.evicted} entries; its counts are short`);
  }
  return figures;
}

/**
 * The burst alone, from its first webhook sent to its last answered: the CPU
 * each process kind (and each thread of the app processes) spent per
 * answered webhook, and how much of the machine's cores that was. When the
 * kinds together keep every core busy, the acknowledgements cannot come
 * faster than the cores over their CPU per webhook, however the app divides
 * its work between threads.
 */
export function printBurstCost(options: { topology: Topology; before: CpuReading; after: CpuReading; webhooks: number; cores: number; counts: ThreadStatementCounts[] }): void {
  const { topology, before, after, webhooks, cores } = options;
  const wallSeconds = (after.at - before.at) / 1000;
  const kinds = Object.keys(after.cpu).filter((kind) => !(kind === "worker" && topology.workers.length === 0));
  const cpu = (kind: string) => (after.cpu[kind] ?? 0) - (before.cpu[kind] ?? 0);
  const perWebhook = (seconds: number) => fixed((seconds * 1000) / webhooks, 3);
  const all = sum(kinds.map(cpu));
  console.log(`\nthe burst alone (${wallSeconds.toFixed(2)} s, ${webhooks} webhooks answered): CPU per answered webhook, by process kind:`);
  for (const kind of kinds) console.log(`  ${kind.padEnd(18)} ${perWebhook(cpu(kind)).padStart(7)} ms   (${fixed(cpu(kind))} s)`);
  const busy = all / (cores * wallSeconds);
  console.log(
    `  ${"all".padEnd(18)} ${perWebhook(all).padStart(7)} ms: ${fixed(busy * 100, 0)}% of the ${cores} cores over the burst; ` +
      `at this CPU per webhook the ${cores} cores answer at most ${fixed((cores * webhooks) / all, 0)} a second`,
  );
  for (const pid of topology.apps) {
    console.log(`  app process ${pid} during the burst, by thread (ms per answered webhook):`);
    for (const line of threadLines(pid, before, after, options.counts, perWebhook, { unit: "webhook", statements: false }).slice(0, -1)) console.log(line);
  }
}
