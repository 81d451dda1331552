// Part of the fault run (main.ts): the retention purge in the run's database,
// once the run's orders are recorded. Orders that were never referred arrive
// as webhooks, pixel signals and finished data requests are stored, the app
// and its workers are stopped, and the purge then runs as of later and later
// times (two purges at once each time, as two workers would): at each, what
// it changed must be exactly what app/domains/privacy/retention.server.ts's periods
// say, and the run's recorded orders must keep their data.
import type { PrismaClient } from "@prisma/client";
import { KEPT_JOB_KINDS, purgeExpired, type PurgeCounts } from "../../app/domains/privacy/purge.server";
import { DATA_REQUEST_REPORT_MS, FINISHED_JOB_MS, PIXEL_SIGNAL_MS, UNREFERRED_ORDER_PERSONAL_DATA_MS } from "../../app/domains/privacy/retention.server";
import { shopifyOrder } from "../lib/sample-orders";
import { shopifyWebhookHeaders } from "../lib/shopify-webhook";

const HOUR = 3_600_000;
const UNREFERRED = 50;
const SIGNALS = 20;
const REPORTS = 10;

export interface PurgeStep {
  db: PrismaClient;
  shop: string;
  appUrl: string;
  secret: string;
  /** Stops the app and its workers: the purge's counts are read on a database nobody else changes. */
  stopProcesses(): Promise<void>;
}

const sum = (runs: PurgeCounts[]): PurgeCounts => ({
  orderRecordsCleared: runs.reduce((n, r) => n + r.orderRecordsCleared, 0),
  pixelSignalsDeleted: runs.reduce((n, r) => n + r.pixelSignalsDeleted, 0),
  couponBuyersDeleted: runs.reduce((n, r) => n + r.couponBuyersDeleted, 0),
  finishedJobsDeleted: runs.reduce((n, r) => n + r.finishedJobsDeleted, 0),
  reportsDeleted: runs.reduce((n, r) => n + r.reportsDeleted, 0),
  setAsideDeliveriesDeleted: runs.reduce((n, r) => n + r.setAsideDeliveriesDeleted, 0),
  refusedDeliveriesDeleted: runs.reduce((n, r) => n + r.refusedDeliveriesDeleted, 0),
});

export async function runPurgeStep(step: PurgeStep): Promise<Record<string, boolean>> {
  const { db, shop } = step;
  const recordedWithEmail = await db.orderRecord.count({ where: { shop, status: "recorded", email: { not: null } } });
  // Orders with no referral code: judged not referred at intake, kept with the buyer's email and IP.
  for (let i = 0; i < UNREFERRED; i++) {
    const raw = JSON.stringify(shopifyOrder({ id: 6_200_000_000_000 + i, email: `walk-in-${i}@example.com` }));
    const response = await fetch(`${step.appUrl}/webhooks/orders/paid`, { method: "POST", body: raw, headers: shopifyWebhookHeaders({ topic: "orders/paid", shop, raw, secret: step.secret }) });
    if (!response.ok) throw new Error(`an unreferred order was answered ${response.status}`);
  }
  await step.stopProcesses();
  const now = Date.now();
  await db.pixelSignal.createMany({ data: Array.from({ length: SIGNALS }, (_, i) => ({ shop, checkoutToken: `purge-${i}`, code: "ALICE10", createdAt: new Date(now) })) });
  await db.dataRequest.createMany({
    data: Array.from({ length: REPORTS }, (_, i) => ({ shop, requestId: `purge-${i}`, email: `asker-${i}@example.com`, status: "ready", report: "{}", completedAt: new Date(now) })),
  });
  // Finished cancellations and refunds stay with their order (KEPT_JOB_KINDS).
  const finishedJobs = await db.job.count({ where: { status: "done", kind: { notIn: KEPT_JOB_KINDS } } });
  const otherJobs = await db.job.count({ where: { status: { not: "done" } } });

  // As of each time: what the periods say goes then, and nothing else.
  const none = { orderRecordsCleared: 0, pixelSignalsDeleted: 0, couponBuyersDeleted: 0, finishedJobsDeleted: 0, reportsDeleted: 0, setAsideDeliveriesDeleted: 0, refusedDeliveriesDeleted: 0 };
  const stages: [string, number, PurgeCounts][] = [
    ["now", 0, none],
    ["the pixel signals' period + 1 h", PIXEL_SIGNAL_MS + HOUR, { ...none, pixelSignalsDeleted: SIGNALS }],
    ["the unreferred orders' period - 1 h", UNREFERRED_ORDER_PERSONAL_DATA_MS - HOUR, none],
    ["the unreferred orders' period + 1 h", UNREFERRED_ORDER_PERSONAL_DATA_MS + HOUR, { ...none, orderRecordsCleared: UNREFERRED }],
    ["the finished jobs' period - 1 h", FINISHED_JOB_MS - HOUR, none],
    ["the finished jobs' period + 1 h", FINISHED_JOB_MS + HOUR, { ...none, finishedJobsDeleted: finishedJobs }],
    ["the reports' period + 1 h", DATA_REQUEST_REPORT_MS + HOUR, { ...none, reportsDeleted: REPORTS }],
  ];
  const checks: Record<string, boolean> = {};
  console.log(`purge: ${UNREFERRED} unreferred orders, ${SIGNALS} pixel signals, ${REPORTS} reports and ${finishedJobs} finished jobs (${otherJobs} others) in the run's database`);
  for (const [when, after, expected] of stages) {
    const at = new Date(now + after);
    const started = performance.now();
    const counts = sum(await Promise.all([purgeExpired(db, at, { batch: 100 }), purgeExpired(db, at, { batch: 100 })]));
    console.log(`  as of ${when}: ${JSON.stringify(counts)} in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    checks[`purge as of ${when} changes what the periods say`] = JSON.stringify(counts) === JSON.stringify(expected);
  }
  checks["purge keeps the recorded orders' data and every unfinished job"] =
    (await db.orderRecord.count({ where: { shop, status: "recorded", email: { not: null } } })) === recordedWithEmail &&
    (await db.job.count({ where: { status: { not: "done" } } })) === otherJobs;
  return checks;
}
