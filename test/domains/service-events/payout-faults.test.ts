import "../../entry/admin/browser-env";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { claimNextJob } from "../../../app/platform/queue/claim.server";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { SIGNATURE_HEADER, signServiceBody } from "../../../app/domains/service-events/signature.server";
import { appWorker } from "../../../app/wiring/jobs.server";
import { boundAdminCalls } from "../../../app/platform/shopify-admin/bounded-admin";
import { startAppServer, testAppEnv, type AppServer } from "../../entry/admin/app-server";
import { resetDatabase, testDatabaseKind } from "../../support/database";
import { testPipeline, type TestPipeline } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import type { StandInCustomer } from "../../support/standin-customers";
import { TEST_SHOP } from "../../support/shopify-requests";

// The service's events are recent: an event older than its replay window is refused, so a fixed date goes stale.
const recentServiceTime = () => new Date(Date.now() - 60 * 60_000).toISOString().slice(0, 19);

// A payout's job stopped, killed or taken over while its store credit call
// is at Shopify: it credits exactly once, counted in the Admin API
// stand-in's own transactions. The production build runs the job (its
// worker in the process, Shopify's Admin API the stand-in over HTTP) and is
// killed with SIGKILL or stopped with SIGTERM mid-call; the test's own
// worker, the app's code on the same database, then plays the next worker
// with a clock it moves past the lease and the settle window.

const CREDIT = "ReferralBridgeCreditStoreCredit";
const LEASE_MS = 2_000;
let shopify: ShopifyAdminStandIn;
let standIn: { origin: string; close(): Promise<void> };
let pipeline: TestPipeline;
let endpoint: { endpointId: string; secret: string };
let alice: StandInCustomer;
let servers: AppServer[] = [];

beforeAll(async () => {
  shopify = new ShopifyAdminStandIn();
  standIn = await shopify.serve();
});
afterAll(() => standIn?.close());

beforeEach(async () => {
  await resetDatabase();
  await installShop();
  endpoint = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
  await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { storeCreditPayouts: true, payoutCurrency: "USD" } });
  pipeline = testPipeline();
  // A full bucket each test, roomy enough that no call waits for it: the shop's reconciliation runs as
  // the test moves the clock on, and throttling is not what these tests are about.
  shopify.setBucket(100_000, 50_000);
  shopify.calls = [];
  shopify.customers.byId.clear();
  shopify.customers.now = () => pipeline.ctx.now();
  alice = shopify.customers.add("alice@example.com", { balance: "1.00" });
  pipeline.ctx.adminForShop = shopify.access();
});
afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

async function startApp(): Promise<AppServer> {
  const server = await startAppServer({
    ...testAppEnv(),
    WORKER_IN_PROCESS: "true",
    JOB_LEASE_MS: String(LEASE_MS),
    SHUTDOWN_DEADLINE_MS: "300",
    SHOPIFY_ADMIN_API_ORIGIN: standIn.origin,
  });
  servers.push(server);
  return server;
}

let nextEvent = 72_000;
function payoutBody(payoutId: number, amount: number): string {
  return JSON.stringify({
    webhook_version: 0.4,
    created_at: recentServiceTime(),
    event_id: nextEvent++,
    event_type: "payout-created",
    event_data: {
      contact: { id: 101, email: "alice@example.com", first_name: "Alice", last_name: "Archer", internal_id: "" },
      payout: { id: payoutId, created_at: recentServiceTime(), amount, unit: "money", payment_method: "storeplatform", gift_card_sku: null, voucher_code: null, transaction_id: null },
    },
  });
}

/** The service posts a signed payout-created to the app at `origin`. */
async function deliverPayout(origin: string, payoutId: number, amount: number): Promise<void> {
  const body = payoutBody(payoutId, amount);
  const response = await fetch(`${origin}/referral-webhooks/${endpoint.endpointId}`, {
    method: "POST",
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signServiceBody(endpoint.secret, body) },
    body,
  });
  expect(response.status).toBe(200);
}

/** The credits the stand-in holds for alice since her opening balance: the count that must be one. */
const creditsToAlice = () => shopify.customers.creditsOf(alice).slice(1).map((t) => t.amount);
const credit = () => prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The next worker: after the dead one's lease has run out and the settle window has passed, it runs what is due. */
async function nextWorkerRuns(): Promise<void> {
  pipeline.advance(LEASE_MS + 3 * 60_000);
  for (let round = 0; round < 3; round++) {
    await pipeline.drain();
    pipeline.advance(30 * 60_000);
  }
}

describe("a payout job killed during its Shopify call", () => {
  it("SIGKILL after Shopify credited it: the next worker finds the credit in the account and does not send it again", async () => {
    const app = await startApp();
    const held = shopify.holdNext(CREDIT, { acted: true });
    await deliverPayout(app.origin, 9401, 5);
    await held.arrived;
    expect(await credit()).toMatchObject({ state: "sending", attempts: 1 });

    await app.kill();
    held.drop();
    await nextWorkerRuns();

    expect(creditsToAlice()).toEqual(["5.00"]);
    expect(shopify.callsOf(CREDIT)).toHaveLength(1);
    expect(await credit()).toMatchObject({ state: "credited", transactionId: shopify.customers.creditsOf(alice).at(-1)!.id });
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "service-event.process" } })).toMatchObject({ status: "done" });
  }, 90_000);

  it("SIGKILL before Shopify acted: the next worker finds no credit and sends it once", async () => {
    const app = await startApp();
    const held = shopify.holdNext(CREDIT, { acted: false });
    await deliverPayout(app.origin, 9402, 5);
    await held.arrived;

    await app.kill();
    held.drop();
    await nextWorkerRuns();

    expect(creditsToAlice()).toEqual(["5.00"]);
    expect(shopify.callsOf(CREDIT).map((c) => c.outcome)).toEqual(["lost", "ok"]);
    expect(await credit()).toMatchObject({ state: "credited", attempts: 2 });
  }, 90_000);

  it("SIGTERM mid-call: the stopping app keeps the job's lease (its write may land), so no worker takes it early; then it credits once", async () => {
    const app = await startApp();
    const held = shopify.holdNext(CREDIT, { acted: true });
    await deliverPayout(app.origin, 9403, 5);
    await held.arrived;

    // WHEN the app is told to stop and its deadline passes with the call still at Shopify
    expect(await app.terminate()).toBe(0);

    // THEN the job was not given back: still running under the stopped worker, marked, its lease not yet run out
    const job = await prisma.job.findFirstOrThrow({ where: { kind: "service-event.process" } });
    expect(job).toMatchObject({ status: "running", lockedBy: expect.any(String), writingAt: expect.any(Date) });
    expect(job.leaseUntil!.getTime()).toBeGreaterThan(Date.now());
    expect(app.output()).toMatch(/"writing":1/);
    expect(await claimNextJob(prisma, { database: testDatabaseKind(), workerId: "eager", leaseMs: 10_000, now: new Date() })).toBeNull();

    held.drop();
    await nextWorkerRuns();
    expect(creditsToAlice()).toEqual(["5.00"]);
    expect(shopify.callsOf(CREDIT)).toHaveLength(1);
    expect(await credit()).toMatchObject({ state: "credited" });
  }, 90_000);
});

describe("a payout job taken over during its Shopify call", () => {
  /** `acted`: whether Shopify has carried the held call out already (else it is still on its way). */
  async function stalledWorkerMidCall(acted: boolean) {
    await deliverPayoutInProcess(9501, 5);
    const held = shopify.holdNext(CREDIT, { acted });
    // A worker that stalls: it never renews its short lease while Shopify holds its call.
    const stalled = appWorker(pipeline.ctx, { workerId: "stalled", leaseMs: 150, heartbeatMs: 60_000 });
    const run = stalled.drain();
    await held.arrived;
    await sleep(300);
    return { held, run };
  }

  it("the worker that takes it over waits while the first call may still land, and the first worker's answer is kept", async () => {
    // GIVEN the first call has not reached Shopify yet: a worker that judged now would find no credit and send again
    const { held, run } = await stalledWorkerMidCall(false);

    // WHEN another worker takes the job at once: the attempt is young, so it reads nothing and sends nothing
    await pipeline.drain();
    expect(await prisma.job.findFirstOrThrow()).toMatchObject({ status: "queued", lockedBy: null });
    expect(shopify.callsOf("ReferralBridgeStoreCredits")).toEqual([]);

    // AND the first call then lands and its answer comes
    held.answer();
    await run;
    await nextWorkerRuns();

    expect(creditsToAlice()).toEqual(["5.00"]);
    expect(shopify.callsOf(CREDIT)).toHaveLength(1);
    expect(await credit()).toMatchObject({ state: "credited", transactionId: shopify.customers.creditsOf(alice).at(-1)!.id });
  });

  it("the worker that takes it over after the settle window finds the credit; the first worker's late answer changes nothing", async () => {
    const { held, run } = await stalledWorkerMidCall(true);

    await nextWorkerRuns();
    expect(await credit()).toMatchObject({ state: "credited" });
    held.answer();
    await run;

    expect(creditsToAlice()).toEqual(["5.00"]);
    expect(shopify.callsOf(CREDIT)).toHaveLength(1);
    expect(await credit()).toMatchObject({ state: "credited", transactionId: shopify.customers.creditsOf(alice).at(-1)!.id });
  });

  it.each([
    { acted: true, what: "it had landed" },
    { acted: false, what: "it had not" },
  ])("a store credit call that hangs ($what): the worker gives up within the Admin bound, loses the lease, and the next worker credits it exactly once", async ({ acted }) => {
    // GIVEN the app's Admin calls bounded as the wiring bounds them (here 200 ms instead of 20 s)
    const access = shopify.access();
    pipeline.ctx.adminForShop = async (shop) => {
      const open = await access(shop);
      return open.ok ? { ok: true, admin: boundAdminCalls(open.admin, 200) } : open;
    };
    await deliverPayoutInProcess(9601, 5);
    const hung = shopify.holdNext(CREDIT, { acted });

    // WHEN the credit call never answers, on a worker whose short lease is not renewed
    const stalled = appWorker(pipeline.ctx, { workerId: "stalled", leaseMs: 150, heartbeatMs: 60_000 });
    const run = stalled.drain();
    await hung.arrived;
    // THEN the worker stops waiting by itself (unbounded, this would wait for the library's five minutes)
    await run;
    expect(await credit()).toMatchObject({ state: "sending", attempts: 1, lastError: expect.stringMatching(/^No answer from Shopify within 200 ms/) });
    // The abort cut the connection: the call ends there, landed or not.
    hung.drop();

    // WHEN the next worker takes the job over once the lease and the settle window have passed
    await nextWorkerRuns();

    // THEN the customer was credited exactly once: the landed credit found in the account, or the one that never landed sent once
    expect(creditsToAlice()).toEqual(["5.00"]);
    // One call that landed and was found; or one lost and one sent again.
    expect(shopify.callsOf(CREDIT).map((c) => c.outcome)).toEqual(acted ? ["ok"] : ["lost", "ok"]);
    expect(await credit()).toMatchObject({ state: "credited", transactionId: shopify.customers.creditsOf(alice).at(-1)!.id });
  });

  it("a worker that lost the job before its call starts no call", async () => {
    await deliverPayoutInProcess(9502, 5);
    // The job is taken and its lease runs out before the handler gets to Shopify.
    const taken = await claimNextJob(prisma, { database: testDatabaseKind(), workerId: "slow", leaseMs: 1, now: new Date() });
    await sleep(10);
    const rescuer = await claimNextJob(prisma, { database: testDatabaseKind(), workerId: "rescuer", leaseMs: 60_000, now: new Date() });
    expect(rescuer?.id).toBe(taken?.id);
    const { runJob } = await import("../../../app/platform/queue/run-job.server");
    const { APP_JOBS } = await import("../../../app/wiring/jobs.server");
    await runJob(pipeline.ctx, APP_JOBS, taken!, { workerId: "slow" });

    expect(shopify.callsOf(CREDIT)).toEqual([]);
    expect(await credit()).toMatchObject({ state: "claimed", attempts: 0 });
  });
});

/** Through the app's receiving route, in this process (the test's worker runs the job). */
async function deliverPayoutInProcess(payoutId: number, amount: number): Promise<void> {
  const { action } = await import("../../../app/routes/referral-webhooks.$endpointId");
  const body = payoutBody(payoutId, amount);
  const request = new Request(`https://referral-bridge.test/referral-webhooks/${endpoint.endpointId}`, {
    method: "POST",
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signServiceBody(endpoint.secret, body) },
    body,
  });
  expect((await action({ request, params: { endpointId: endpoint.endpointId }, context: {} })).status).toBe(200);
}
