// npm run bench [-- N C] [--db sqlite|postgresql]: acknowledgement latency
// and throughput of the order webhooks, queued (the app) against inline
// (event/record inside the request), side by side in one run, while the
// sandbox service adds 300 ms to every event/record; then the drain rate,
// another shop's latency while the burst drains (fairness) and each
// process's peak resident memory. Checks that every order was recorded
// exactly once. Then the cost of the measured phase: CPU seconds by process
// kind (and by thread), per accepted webhook and per recorded order, and the
// database statements per webhook and per order (cost.ts); and the burst's
// alone: the CPU per answered webhook of each of the bench's processes, the
// share of the cores it kept busy, and so the most the cores could answer
// at that cost. --cpu-profile
// also profiles the app and worker processes and prints where their CPU went;
// --timeline prints the acknowledgements' latency through the burst.
// SQLite runs as `npm start` does: server.mjs with the worker in the same
// process. PostgreSQL runs the production topology: a private cluster, two
// app processes and two worker processes; the load generator spreads its
// connections over the two app processes as a round-robin balancer would,
// and the inline baseline gets two processes the same way.
import "../lib/require-node";
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { resolve } from "node:path";
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { buildIfNeeded, freePort, freshRunDatabase, serveBuild, spawnWorkerProcess, startApp, type ServedBuild } from "../lib/app-process";
import { generatePrismaClient } from "../lib/prisma-client";
import { shopifyOrder } from "../lib/sample-orders";
import { percentile, sendRequests, signedOrderRequest, type LoadResult } from "./load";
import { printBurstCost, printCost, readCost, readCpu, type CpuReading, type Topology } from "./cost";
import { printProfiles } from "./profiles";
import { parentPid } from "./cpu";
import { peakResidentMb, SERVICE_LATENCY_MS, startChild, startSlowService } from "./processes";
import { asRole, clearCounts, COUNTS_DIR, preparePostgresCounting, resetPostgresCounts, ROLES, threadCounts } from "./statements";

const { values: flags, positionals } = parseArgs({
  options: { db: { type: "string", default: "sqlite" }, pubsub: { type: "boolean", default: false }, "cpu-profile": { type: "boolean", default: false }, timeline: { type: "boolean", default: false }, "warm-up": { type: "string", default: "3000" } },
  allowPositionals: true,
});
const onPostgres = flags.db === "postgresql";
if (!onPostgres && flags.db !== "sqlite") throw new Error(`--db is sqlite or postgresql, not ${flags.db}`);
/** Long enough (about a second at full speed) that one garbage collection or checkpoint does not decide the figures. */
const N = Number(positionals[0] ?? 10_000);
if (flags.pubsub) {
  if (!onPostgres) throw new Error("--pubsub runs the production topology: add --db postgresql");
  const { runPubSubBench } = await import("./pubsub");
  process.exit((await runPubSubBench(N)) ? 0 : 1);
}
const C = Number(positionals[1] ?? 200);
/** App processes (and inline baseline processes) behind the one address the load goes to. */
const PROCESSES = onPostgres ? 2 : 1;
/** Unmeasured orders first, at full concurrency, so that start-up (JIT, first connections) is not counted. */
const WARM_UP = Number(flags["warm-up"]);

async function ledgerCounts(baseUrl: string, ids: Set<string>): Promise<Map<string, number>> {
  const ledger = (await (await fetch(`${baseUrl}/_sandbox/ledger`)).json()) as { commissions: { transaction_id: string | null }[] };
  const counts = new Map<string, number>();
  for (const c of ledger.commissions) if (c.transaction_id && ids.has(c.transaction_id)) counts.set(c.transaction_id, (counts.get(c.transaction_id) ?? 0) + 1);
  return counts;
}

/**
 * Waits (10 minutes at most) until the app has recorded `expected` orders of
 * a shop. It asks the app's database, not the service's ledger: reading the
 * whole ledger four times a second would load the service the bench measures.
 */
async function recordedCount(shop: string, expected: number): Promise<number> {
  const started = performance.now();
  let count = 0;
  while (performance.now() - started < 600_000) {
    count = await appDb.orderRecord.count({ where: { shop, status: "recorded" } });
    if (count >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return count;
}

/** The fairness scenario's other shop: one order a second while the burst's shop drains its backlog. */
const SMALL_SHOP = "corner-shop.myshopify.com";

function orders(count: number) {
  return Array.from({ length: count }, (_, i) =>
    shopifyOrder({ email: `bench-${i}-${randomBytes(3).toString("hex")}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }),
  );
}

/** --timeline: the burst's acknowledgements by when they were sent, 250 ms at a time (where in the burst the slow ones are). */
function printTimeline(result: LoadResult) {
  console.log("acknowledgements by when they were sent:");
  const start = Math.min(...result.sentAtMs);
  const windows = new Map<number, number[]>();
  result.sentAtMs.forEach((at, i) => {
    const w = Math.floor((at - start) / 250);
    if (!windows.has(w)) windows.set(w, []);
    windows.get(w)!.push(result.latenciesMs[i]!);
  });
  for (const [w, lat] of [...windows].sort((a, b) => a[0] - b[0])) {
    console.log(`  ${(w * 0.25).toFixed(2)} s: ${String(lat.length).padStart(5)} sent, p50 ${percentile(lat, 50).toFixed(0)} ms, p99 ${percentile(lat, 99).toFixed(0)} ms`);
  }
}

function summary(label: string, result: LoadResult) {
  return {
    label,
    p50: percentile(result.latenciesMs, 50),
    p99: percentile(result.latenciesMs, 99),
    perSecond: (result.latenciesMs.length / result.wallMs) * 1000,
    statuses: result.statuses,
  };
}

buildIfNeeded(console.log);
if (onPostgres) generatePrismaClient("postgresql");
process.on("exit", () => onPostgres && generatePrismaClient("sqlite"));
// Loaded after the client is generated for the database of this run.
const { connectDemoShop, demoDatabase, DEMO_SHOP } = await import("../lib/demo-shop");

const { sandbox, sandboxUrl, service } = await startSlowService();

// pg_stat_statements counts the statements each kind of process runs (statements.ts); 20,000 entries, so none is dropped.
const database = await freshRunDatabase(onPostgres ? "postgresql" : "sqlite", "bench", {
  postgresSettings: ["shared_preload_libraries=pg_stat_statements", "pg_stat_statements.max=20000", "pg_stat_statements.track_utility=on"],
});
const databaseUrl = database.url;
const appDb = demoDatabase(databaseUrl);
if (onPostgres) await preparePostgresCounting(appDb);
clearCounts();
const PROFILES_DIR = resolve(".cache/bench/cpu-profiles", new Date().toISOString().replace(/[:.]/g, "-"));
// The app's own worker settings (WORKER_CONCURRENCY, SHOP_CONCURRENCY) unless the environment says otherwise.
const workerEnv = {
  LOG_LEVEL: "error",
  DB_STATEMENT_COUNTS_DIR: resolve(COUNTS_DIR),
  ...(flags["cpu-profile"] ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --cpu-prof --cpu-prof-dir=${PROFILES_DIR}`.trim() } : {}),
};
const first = await startApp({
  databaseUrl: onPostgres ? asRole(databaseUrl, ROLES.app) : databaseUrl,
  env: { ...workerEnv, WORKER_IN_PROCESS: onPostgres ? "false" : "true" },
});
const apps: ServedBuild[] = [first];
while (apps.length < PROCESSES) apps.push(await serveBuild({ buildIndex: "build/index.js", env: first.env }));
const workerProcessEnv = { ...process.env, ...first.env, ...(onPostgres ? { DATABASE_URL: asRole(databaseUrl, ROLES.worker) } : {}) };
const workers: ChildProcess[] = onPostgres
  ? [1, 2].map(() => spawnWorkerProcess({ env: workerProcessEnv, stdio: ["ignore", "ignore", "inherit"] }))
  : [];
await connectDemoShop({ databaseUrl, credentialsKey: first.credentialsKey, service, campaignUids: "1001" });
await connectDemoShop({ databaseUrl, credentialsKey: first.credentialsKey, service, campaignUids: "1001", shop: SMALL_SHOP });

const baselines: ChildProcess[] = [];
const baselinePorts: number[] = [];
for (let i = 0; i < PROCESSES; i++) {
  const port = await freePort();
  baselinePorts.push(port);
  baselines.push(
    await startChild(
      ["scripts/bench/inline-baseline.ts"],
      { PORT: String(port), SHOPIFY_API_SECRET: first.secret, SERVICE_BASE_URL: service.baseUrl, SERVICE_USERNAME: service.username, SERVICE_TOKEN: service.token },
      "ready",
    ),
  );
}

const processes = [
  ...apps.map((app, i) => ({ name: onPostgres ? `app ${i + 1}` : "app (worker inside)", pid: app.process.pid })),
  ...workers.map((worker, i) => ({ name: `worker ${i + 1}`, pid: worker.pid })),
];

let failed = false;
/** The measured phase on the monotonic clock, for the CPU profiles. */
const phase = { from: 0, to: 0 };
try {
  const topology = onPostgres
    ? "PostgreSQL 15 (private cluster), 2 app processes (the load's connections alternate between them) and 2 worker processes"
    : "SQLite, 1 app process with its worker inside (npm start)";
  console.log(`${topology}; ${availableParallelism()} cores.`);
  console.log(`${N} signed orders/paid webhooks at concurrency ${C}; the service adds ${SERVICE_LATENCY_MS} ms to event/record.`);
  const appPorts = apps.map((app) => Number(new URL(app.url).port));
  const requests = (bodies: unknown[]) =>
    bodies.map((body) => signedOrderRequest({ host: "127.0.0.1", shop: DEMO_SHOP, secret: first.secret, body }));
  const warmUp = orders(WARM_UP);
  await sendRequests(appPorts, requests(warmUp), C);
  await sendRequests(baselinePorts, requests(orders(WARM_UP)), C);
  await recordedCount(DEMO_SHOP, WARM_UP);
  console.log(`(after ${WARM_UP} unmeasured orders to each, all recorded)\n`);

  const measured: Topology = {
    onPostgres,
    apps: apps.map((app) => app.process.pid!),
    workers: workers.map((worker) => worker.pid!),
    // The postmaster: the parent of the backend that answers this query.
    postmaster: onPostgres ? parentPid(Number((await appDb.$queryRawUnsafe<{ pid: number }[]>("SELECT pg_backend_pid() AS pid"))[0]!.pid)) : undefined,
    sandbox: sandbox.pid!,
  };
  // The threads write their statement counts every 100 ms: let the last of the warm-up's land.
  await new Promise((resolve) => setTimeout(resolve, 300));
  if (onPostgres) await resetPostgresCounts(appDb);
  const countsBefore = threadCounts();
  const costBefore = await readCost(measured, appDb);
  phase.from = costBefore.monotonic;

  const queuedOrders = orders(N);
  const queuedRequests = requests(queuedOrders);
  // Fairness: while this shop's burst drains, another shop sends one order a second.
  // Its latency: from sending the webhook to the app storing the service's answer (recordedAt, same clock).
  const small = { ids: new Set<string>(), sentAt: new Map<string, number>() };
  let smallShopSends = true;
  let smallAccepted = 0;
  const smallShop = (async () => {
    while (smallShopSends) {
      const [order] = orders(1);
      const id = String(order!.id);
      small.ids.add(id);
      small.sentAt.set(id, Date.now());
      const sent = await sendRequests(appPorts, [signedOrderRequest({ host: "127.0.0.1", shop: SMALL_SHOP, secret: first.secret, body: order })], 1);
      smallAccepted += sent.statuses[200] ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  })();
  const queuedStart = Date.now();
  // Read as the load generator's clock starts (sendRequests calls it before it sends anything).
  let burstStart!: CpuReading;
  const queued = await sendRequests(appPorts, queuedRequests, C, () => (burstStart = readCpu(measured)));
  const burstEnd = readCpu(measured);
  if (flags.timeline) printTimeline(queued);
  await recordedCount(DEMO_SHOP, WARM_UP + N);
  const costAfter = await readCost(measured, appDb);
  phase.to = costAfter.monotonic;
  const webhooksInPhase = (queued.statuses[200] ?? 0) + smallAccepted;
  await new Promise((resolve) => setTimeout(resolve, 250));
  const countsAfter = threadCounts();
  // From the first webhook sent to the app storing the service's answer for the last order.
  const lastRecorded = (await appDb.orderRecord.aggregate({ where: { shop: DEMO_SHOP }, _max: { recordedAt: true } }))._max.recordedAt;
  const allRecordedMs = (lastRecorded?.getTime() ?? Infinity) - queuedStart;
  smallShopSends = false;
  await smallShop;
  await recordedCount(SMALL_SHOP, small.ids.size);
  const counts = await ledgerCounts(sandboxUrl, new Set(queuedOrders.map((o) => String(o.id))));
  const stored = await appDb.orderRecord.findMany({ where: { shop: SMALL_SHOP, orderId: { in: [...small.ids] } }, select: { orderId: true, recordedAt: true } });
  const recordedAt = new Map(stored.map((row) => [row.orderId, row.recordedAt?.getTime() ?? Infinity]));
  const smallLatencies = [...small.ids].map((id) => (recordedAt.get(id) ?? Infinity) - small.sentAt.get(id)!);

  const inline = await sendRequests(baselinePorts, requests(orders(N)), C);

  const rows = [summary("queued (the app)", queued), summary("inline baseline", inline)];
  console.log("design             ack p50    ack p99    accepted/s   statuses");
  for (const r of rows) {
    console.log(`${r.label.padEnd(18)} ${r.p50.toFixed(1).padStart(6)} ms ${r.p99.toFixed(1).padStart(7)} ms ${r.perSecond.toFixed(0).padStart(10)}   ${JSON.stringify(r.statuses)}`);
  }
  const ratio = rows[0]!.perSecond / rows[1]!.perSecond;
  const once = [...counts.values()].every((n) => n === 1) && counts.size === N;
  const drainPerSecond = (N / allRecordedMs) * 1000;
  console.log(`\naccepted/s ratio, queued : inline = ${ratio.toFixed(1)} : 1`);
  console.log(`drain: all ${N} queued orders recorded at the service ${(allRecordedMs / 1000).toFixed(1)} s after the first was sent (the app's recordedAt), ${drainPerSecond.toFixed(0)} events/s`);
  console.log(`every order recorded exactly once: ${once ? "yes" : `NO (${counts.size} of ${N} recorded, duplicates: ${[...counts.values()].filter((n) => n > 1).length})`}`);
  const smallP99 = percentile(smallLatencies, 99);
  console.log(
    `fairness: ${SMALL_SHOP} sent ${smallLatencies.length} orders (one a second) while ${DEMO_SHOP} drained its ${N}: ` +
      `recorded ${percentile(smallLatencies, 50).toFixed(0)} ms (p50), ${smallP99.toFixed(0)} ms (p99) after sending`,
  );
  const peaks = processes.map((p) => ({ ...p, mb: peakResidentMb(p.pid) }));
  console.log(`peak resident memory: ${peaks.map((p) => `${p.name} ${p.mb === undefined ? "?" : `${p.mb.toFixed(0)} MB`}`).join(", ")}`);
  const underMemory = peaks.every((p) => p.mb !== undefined && p.mb < 250);
  printCost({ topology: measured, before: costBefore, after: costAfter, countsBefore, countsAfter, webhooks: webhooksInPhase });
  printBurstCost({ topology: measured, before: burstStart, after: burstEnd, webhooks: queued.statuses[200] ?? 0, cores: availableParallelism(), counts: countsAfter });
  // Issue 30's targets, which differ by mode.
  const targets: [string, boolean][] = onPostgres
    ? [
        ["drain >= 200 orders/s", drainPerSecond >= 200],
        ["ack p99 < 150 ms", rows[0]!.p99 < 150],
        ["every process < 250 MB", underMemory],
        ["other shop's p99 < 5 s", smallP99 < 5_000],
      ]
    : [
        ["ack p99 < 50 ms", rows[0]!.p99 < 50],
        ["accepted/s >= 20x inline", ratio >= 20],
        ["drain >= 100 orders/s", drainPerSecond >= 100],
        ["peak memory < 250 MB", underMemory],
      ];
  console.log(`\ntargets: ${targets.map(([name, met]) => `${name} ${met ? "met" : "NOT met"}`).join("; ")}`);
  failed = !once || queued.statuses[200] !== N;
} finally {
  await appDb.$disconnect();
  const exited = workers.map((worker) => new Promise((resolve) => (worker.exitCode !== null || worker.signalCode !== null ? resolve(undefined) : worker.once("exit", resolve))));
  for (const child of [...baselines, ...workers, sandbox]) child.kill();
  for (const app of apps) await app.stop();
  // A profile is written as its process exits.
  await Promise.all(exited);
  database.stop();
}
if (flags["cpu-profile"] && phase.to > 0) printProfiles(PROFILES_DIR, new Map(processes.map((p) => [p.pid!, p.name.replace(/ \d+$/, "")])), phase);
process.exit(failed ? 1 : 0);
