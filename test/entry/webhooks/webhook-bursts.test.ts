import "../admin/browser-env";
import type { ChildProcess } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_BURST_CHANNEL } from "../../../app/wiring/webhook-bursts.server";
import { inheritedEnv, spawnWorkerProcess } from "../../../scripts/lib/app-process";
import { repoRoot, sandboxAppEnv, startTestAppServer, type AppServer } from "../admin/app-server";
import { shopifyOrder } from "../../support/orders";
import { DEFAULT_BURST_CONCURRENCY, DEFAULT_MAX_YIELD_MS } from "../../../app/platform/queue/defaults";
import { jobStatusWithin, mostOrderJobsRunningWithin, queueCancellation, storeReferredOrders } from "../../support/quick-jobs";
import { clearSandboxFaults, connectShop, sandboxFaults, useTestSandbox } from "../../support/pipeline";
import { signedWebhook } from "../../support/shopify-requests";
import { testDatabaseKind } from "../../support/database";

// On PostgreSQL (app processes and worker processes apart, as production
// runs), an app process answering a burst of order webhooks says so on a
// database channel, and worker processes hold back their claims while they
// hear it, keeping only a few jobs running (app/wiring/webhook-bursts.server.ts):
// acknowledgements first.

const onPostgres = testDatabaseKind() === "postgresql";
const sandbox = useTestSandbox();
let server: AppServer | undefined;
let worker: ChildProcess | undefined;
const listener = onPostgres ? new pg.Client({ connectionString: process.env.DATABASE_URL! }) : undefined;
let heard = 0;

beforeAll(async () => {
  if (!onPostgres) return;
  server = await startTestAppServer();
  listener!.on("notification", (message) => message.channel === WEBHOOK_BURST_CHANNEL && heard++);
  await listener!.connect();
  await listener!.query(`LISTEN ${WEBHOOK_BURST_CHANNEL}`);
}, 60_000);

afterAll(async () => {
  worker?.kill("SIGTERM");
  await listener?.end();
  await server?.stop();
});

function deliver(id: number): Promise<number> {
  const body = shopifyOrder({ id, email: `buyer-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
  return fetch(signedWebhook({ topic: "orders/paid", body, url: `${server!.origin}/webhooks/orders/paid` })).then((response) => response.status);
}

describe.skipIf(!onPostgres)("bursts of order webhooks across processes (PostgreSQL)", () => {
  it("an app process announces a burst, and not webhooks answered one at a time", async () => {
    await connectShop(sandbox);
    for (let i = 0; i < 3; i++) expect(await deliver(5_712_347_889_100 + i)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toBe(0);

    const statuses = await Promise.all(Array.from({ length: 120 }, (_, i) => deliver(5_712_347_889_200 + i)));
    expect(statuses.every((status) => status === 200)).toBe(true);
    for (let i = 0; i < 50 && heard === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toBeGreaterThan(0);
  });

  it("a worker process keeps at most a few jobs running while it hears of a burst, then runs the rest", async () => {
    await connectShop(sandbox);
    worker = spawnWorkerProcess({
      cwd: repoRoot,
      env: { ...inheritedEnv(), ...sandboxAppEnv(), NODE_ENV: "development", SHOPIFY_APP_URL: server!.origin, WORKER_CONCURRENCY: "16" },
      stdio: "ignore",
    });
    // The worker is up (and listening) once it has run a first job.
    const warm = await queueCancellation("5712347889123457001");
    expect(await jobStatusWithin(warm, 30_000)).toBe("done");
    // Each order's recording takes a while at the service, so the jobs running at once can be counted.
    await sandboxFaults(sandbox, { latencyMs: 1_000, operations: ["event/record"] });

    // Announced as an app process does, every 50 ms on a timer, each notification sent without waiting for
    // the one before: on a busy machine, a loop that waited for each one left gaps longer than the 250 ms
    // after which a worker counts a burst as over, and the worker (rightly) claimed freely.
    const announcer = setInterval(() => void listener!.query(`SELECT pg_notify('${WEBHOOK_BURST_CHANNEL}', '')`).catch(() => undefined), 50);
    const announcedFrom = performance.now();
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await storeReferredOrders(12, 5_712_347_889_400);
      // Counted only while the worker's hold lasts (at most DEFAULT_MAX_YIELD_MS in a row, then it claims freely).
      const holdLeft = DEFAULT_MAX_YIELD_MS - (performance.now() - announcedFrom) - 250;
      expect(holdLeft, "the 12 orders took too long to store to count within the hold").toBeGreaterThan(500);
      const during = await mostOrderJobsRunningWithin(Math.min(1_500, holdLeft));
      expect(during).toBeGreaterThan(0);
      expect(during).toBeLessThanOrEqual(DEFAULT_BURST_CONCURRENCY);
    } finally {
      clearInterval(announcer);
    }
    expect(await mostOrderJobsRunningWithin(1_500)).toBeGreaterThan(4);
    await clearSandboxFaults(sandbox);
  }, 60_000);
});
