// Part of `npm run faults` (scripts/faults/run.ts) [-- --db sqlite|postgresql] [--backfill-orders N]
//
// A backfill of N orders (5,000 by default) read from the Admin API
// stand-in (served over HTTP, as Shopify is) by the built app, which is
// killed with SIGKILL twice while the backfill runs and started again.
// SQLite runs the worker inside the app; PostgreSQL runs the app beside two
// worker processes, one of which is killed too. It then counts at the
// referral service: every order exactly once, the backfill resumed from its
// stored cursor (one first page only), its progress exact.
import "../lib/require-node";
import type { ChildProcess } from "node:child_process";
import { parseArgs } from "node:util";
import { RECONCILE_JOB } from "../../app/domains/order-sync/job-kinds";
import { startSandbox } from "../../sandbox/server";
import { ShopifyAdminStandIn } from "../../test/support/shopify-admin-standin";
import { buildIfNeeded, freePort, freshRunDatabase, serveBuild, spawnWorkerProcess, startApp, type RunningApp } from "../lib/app-process";
import { useClientForRun } from "../lib/prisma-client";
import { shopifyOrder } from "../lib/sample-orders";

const { values } = parseArgs({ options: { db: { type: "string", default: "sqlite" }, "backfill-orders": { type: "string", default: "5000" } }, strict: false });
const onPostgres = values.db === "postgresql";
const ORDERS = Number(values["backfill-orders"]);
/** Only a stall reaches this; the check is against the run's own pace (below). */
const HARD_LIMIT_MS = 15 * 60_000;
/**
 * How long the whole backfill may take: twice what the pace before the first
 * kill gives for every order, and 30 s for the restarts. Measured in the run
 * itself, so a busy machine slows both sides alike while a queue that stalls
 * after a kill still fails.
 */
const paceLimitMs = (firstKillMs: number, share: number) => 2 * (firstKillMs / share) + 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

buildIfNeeded(console.log);
useClientForRun(onPostgres ? "postgresql" : "sqlite");
// Loaded after the client is generated for the database of this run.
const { connectDemoShop, DEMO_SHOP, demoDatabase } = await import("../lib/demo-shop");
const { startBackfill } = await import("../../app/domains/order-sync/backfill.server");

const unexpectedExits: string[] = [];
const killed = new Set<ChildProcess>();
const watch = (name: string, child: ChildProcess) => {
  child.once("exit", (code, signal) => {
    if (!killed.has(child)) unexpectedExits.push(`${name} exited (${code ?? signal})`);
  });
  return child;
};
async function kill(child: ChildProcess, signal: NodeJS.Signals) {
  killed.add(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}

const sandbox = await startSandbox({ port: 0, quiet: true });
const shopify = new ShopifyAdminStandIn();
// A bucket a large store has: the run is about kills, and still waits for the bucket now and then.
shopify.setBucket(10_000, 5_000);
const standIn = await shopify.serve();
const database = await freshRunDatabase(onPostgres ? "postgresql" : "sqlite", "faults-backfill");
const databaseUrl = database.url;

const appEnv = {
  LOG_LEVEL: "error",
  JOB_RETRY_BASE_MS: "250",
  JOB_LEASE_MS: "2000",
  WORKER_CONCURRENCY: "16",
  SHUTDOWN_DEADLINE_MS: "3000",
  WORKER_IN_PROCESS: onPostgres ? "false" : "true",
  SHOPIFY_ADMIN_API_ORIGIN: standIn.origin,
};
const port = await freePort();
let app: RunningApp = await startApp({ databaseUrl, env: appEnv, port });
watch("app", app.process);
await connectDemoShop({ databaseUrl, credentialsKey: app.credentialsKey, service: { baseUrl: sandbox.baseUrl, username: sandbox.username, token: sandbox.token }, campaignUids: "1001" });
const db = demoDatabase(databaseUrl);
await db.shop.update({ where: { shop: DEMO_SHOP }, data: { guardDailyLimit: 1_000_000 } });

const startWorker = (name: string) => watch(name, spawnWorkerProcess({ env: { ...process.env, ...app.env }, stdio: ["ignore", "inherit", "inherit"] }));
const workers = onPostgres ? [startWorker("worker 1"), startWorker("worker 2")] : [];

// The shop's orders of the last 30 days, every one referred.
const now = Date.now();
const orders = Array.from({ length: ORDERS }, (_, i) => {
  const order = { ...shopifyOrder({ id: 6_800_000_000_000 + i, email: `buyer-${i}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), browser_ip: `198.51.100.${i % 250}` };
  shopify.orders.add(order, { at: new Date(now - 29 * 86_400_000 + Math.floor((i * 29 * 86_400_000) / ORDERS)) });
  return order;
});
console.log(`${values.db}: a backfill of ${ORDERS} orders; the app is killed with SIGKILL at 30% and 65%.`);

const started = performance.now();
const backfill = await startBackfill(db, DEMO_SHOP, 30, new Date());
if (!backfill.ok) throw new Error(backfill.error);
const progress = async () => (await db.orderSync.findUniqueOrThrow({ where: { shop: DEMO_SHOP } })).backfillSeen;

const kills: string[] = [];
let limitMs = HARD_LIMIT_MS;
for (const [share, alsoWorker] of [[0.3, false], [0.65, true]] as const) {
  while ((await progress()) < ORDERS * share) {
    if (performance.now() - started > HARD_LIMIT_MS) break;
    await sleep(20);
  }
  const seen = await progress();
  if (limitMs === HARD_LIMIT_MS) limitMs = Math.min(HARD_LIMIT_MS, paceLimitMs(performance.now() - started, seen / ORDERS || share));
  await kill(app.process, "SIGKILL");
  if (alsoWorker && workers[0]) {
    await kill(workers[0], "SIGKILL");
    workers[0] = startWorker("worker 1 (restarted)");
  }
  kills.push(`SIGKILL at ${seconds(performance.now() - started)}, ${seen} of ${ORDERS} orders stored${alsoWorker && onPostgres ? " (app and worker 1)" : ""}`);
  const served = await serveBuild({ buildIndex: "build/index.js", env: app.env, port });
  app = { ...app, ...served };
  watch("app", app.process);
}

let finishedAt: number | undefined;
while (performance.now() - started < HARD_LIMIT_MS) {
  const sync = await db.orderSync.findUniqueOrThrow({ where: { shop: DEMO_SHOP } });
  const unfinished = await db.job.count({ where: { shop: DEMO_SHOP, status: { in: ["queued", "running"] }, kind: { not: RECONCILE_JOB.name } } });
  if (sync.backfillStatus !== "running" && unfinished === 0) {
    finishedAt = performance.now();
    break;
  }
  await sleep(250);
}

const ids = new Set(orders.map((o) => String(o.id)));
const perOrder = new Map<string, number>();
for (const c of sandbox.ledger().commissions) {
  const id = String(c.transaction_id);
  if (ids.has(id)) perOrder.set(id, (perOrder.get(id) ?? 0) + 1);
}
const sync = await db.orderSync.findUniqueOrThrow({ where: { shop: DEMO_SHOP } });
// The backfill's pages only: a reconciliation pass queued at boot reads a first page of its own (by updated_at).
const firstPages = shopify.callsOf("OrdersPage", "ok").filter((c) => String(c.variables.query).startsWith("created_at:") && c.variables.after === null).length;
const checks = {
  [`${ORDERS} orders at the service, each exactly once`]: perOrder.size === ORDERS && [...perOrder.values()].every((n) => n === 1),
  "the backfill done, its progress exact": sync.backfillStatus === "done" && sync.backfillTotal === ORDERS && sync.backfillSeen === ORDERS && sync.backfillAdded === ORDERS,
  "resumed from its stored cursor after each kill (one first page)": firstPages === 1,
  "every order recorded once in the app": (await db.orderRecord.count({ where: { status: "recorded" } })) === ORDERS,
  "no failed jobs": (await db.job.count({ where: { status: "failed" } })) === 0,
  "no Admin API document refused": shopify.refused.length === 0,
  "no unexpected process exit": unexpectedExits.length === 0,
  [`done within twice its pace before the first kill (${seconds(limitMs)})`]: finishedAt !== undefined && finishedAt - started <= limitMs,
};

console.log(kills.map((line) => `  ${line}`).join("\n"));
console.log(`  backfill ${finishedAt === undefined ? "NOT finished" : `finished after ${seconds(finishedAt - started)}`}: ${JSON.stringify({ status: sync.backfillStatus, total: sync.backfillTotal, seen: sync.backfillSeen, added: sync.backfillAdded })}`);
console.log(`  orders pages asked for: ${shopify.callsOf("OrdersPage", "ok").length} (${shopify.callsOf("OrdersPage", "throttled").length} throttled)`);
for (const exit of unexpectedExits) console.log(`  unexpected: ${exit}`);
for (const [check, ok] of Object.entries(checks)) console.log(`${ok ? "ok  " : "FAIL"} ${check}`);

await db.$disconnect();
for (const worker of workers) await kill(worker, "SIGTERM");
await kill(app.process, "SIGTERM");
await standIn.close();
await sandbox.close();
database.stop();
const passed = Object.values(checks).every(Boolean);
console.log(passed ? `backfill fault run on ${values.db}: every check held` : `backfill fault run on ${values.db}: a check FAILED`);
process.exit(passed ? 0 : 1);
