import "../admin/browser-env";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { appJobContext, appWorker } from "../../../app/wiring/jobs.server";
import { CodeDirectory } from "../../../app/domains/referrals/code-directory.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { decideCommission, listCommissionsPage, parseCommissionQuery } from "../../../app/entry/admin/commissions.server";
import { commissionEntry } from "../../../app/domains/commissions/commission-entry";
import { redactCustomer } from "../../../app/domains/privacy/redact-customer.server";
import { SERVICE_EVENT_JOB } from "../../../app/domains/service-events/job-kinds";
import type { Logger } from "../../../app/platform/logger/logger.server";
import { startTestAppServer, type AppServer } from "../admin/app-server";
import { connectShop, sandboxCommissions, sandboxFaults, shopServiceAccess, shopServiceClient, useTestSandbox } from "../../support/pipeline";
import { deliveriesPlanned } from "../../support/kept-deliveries";
import { shopifyOrder, type OrderOptions } from "../../support/orders";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { pixelSignalFor, postPixelSignal } from "../storefront/support/requests";

// Leaked codes (issue 48, item 5; decision 036), end to end: real-shaped
// orders/paid webhooks (Admin API 2026-10) through the built app under
// server.mjs, the order jobs run by the worker's code on a clock the test
// moves, against the sandbox service (whose coupon ALICE-15 is Alice's in
// campaign 1001, which leaves its commissions pending), and the Flow
// triggers received by the Admin stand-in (the app's flow_trigger TOMLs).

const sandbox = useTestSandbox();
let server: AppServer;
let shopify: ShopifyAdminStandIn;
const DAY = 24 * 60 * 60_000;

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);
afterAll(() => server?.stop());
beforeEach(async () => {
  shopify = new ShopifyAdminStandIn();
  // The file's tests share one database; each starts with no orders, jobs or codes of the shop.
  for (const table of [prisma.leakedCode, prisma.couponBuyer, prisma.orderRecord, prisma.job] as unknown as { deleteMany(args: object): Promise<unknown> }[]) {
    await table.deleteMany({ where: { shop: TEST_SHOP } });
  }
});

/** The worker's code over the test database, with a clock the test moves and Shopify's stand-in. */
function pipeline(serviceTimeoutMs = 2_000) {
  let offset = 0;
  const ctx = appJobContext({
    logger: createLogger({ level: "silent" }),
    clientForShop: (shop) => shopServiceAccess(shop, serviceTimeoutMs),
    now: () => new Date(Date.now() + offset),
    codes: new CodeDirectory(),
    adminForShop: shopify.access(),
  });
  const worker = appWorker(ctx, { workerId: "leak-test-worker" });
  return {
    ctx,
    advance(ms: number) {
      offset += ms;
    },
    drain: () => worker.drain(),
  };
}

let nextOrder = 5560000000000000001n;

/** A buyer: their own customer id, email and browser IP (so that the guard's daily IP rule leaves them alone). */
function buyer(n: number): OrderOptions {
  return { email: `buyer${n}@example.com`, customerEmail: `buyer${n}@example.com`, customerId: 7390002000000000000n + BigInt(n), browserIp: `198.51.100.${n}` };
}

/** A paid order of this buyer with ALICE-15 typed at checkout and no link (no cart attribute, the landing page without a code). */
async function couponOrder(who: OrderOptions, extra: OrderOptions = {}): Promise<string> {
  const id = nextOrder++;
  const response = await fetch(signedWebhook({ topic: "orders/paid", body: shopifyOrder({ ...who, discountCodes: ["ALICE-15"], ...extra, id }), url: `${server.origin}/webhooks/orders/paid` }));
  await response.text();
  expect(response.status).toBe(200);
  await deliveriesPlanned();
  return id.toString();
}

/** Until `n` order jobs are running at once. */
async function running(n: number): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if ((await prisma.job.count({ where: { shop: TEST_SHOP, kind: "order.record", status: "running" } })) === n) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${n} orders' jobs to run`);
}

/**
 * The two queued orders run at once, each by its own worker, the service
 * holding its answers until both have started: the first worker takes one
 * (a worker runs one job at a time), then the second takes the other.
 */
async function bothAtOnce(first: { drain(): Promise<number> }, second: { drain(): Promise<number> }): Promise<void> {
  const release = sandbox.holdCalls();
  const firstDrains = first.drain();
  await running(1);
  const secondDrains = second.drain();
  await running(2);
  release();
  await Promise.all([firstDrains, secondDrains]);
}

const leaked = () => prisma.leakedCode.findMany({ where: { shop: TEST_SHOP } });
const leakTriggerJobs = () => prisma.job.findMany({ where: { shop: TEST_SHOP, kind: "flow.trigger", key: { contains: "referral-code-leaked" } } });
const recordOf = (orderId: string) => prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId } });
const states = async (orderId: string) => (await sandboxCommissions(sandbox, orderId)).map((c) => c.state);

async function shop(data: { leakThreshold?: number; leakHold?: boolean; reviewWindowDays?: number; approval?: string } = {}) {
  await connectShop(sandbox);
  await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true, ...data } });
}

describe("a referral coupon used without a link", () => {
  it("is flagged once more distinct buyers than the threshold used it within the window; one buyer counts once, link buyers and older uses not at all; the trigger is sent once", async () => {
    // GIVEN the defaults: more than 5 buyers within 7 days
    await shop();
    const run = pipeline();
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ leakThreshold: 5, leakWindowDays: 7, leakHold: true });

    // Two buyers 10 days ago (outside the window); one buyer three times (their later orders are repeat purchases, credited to Alice without a code);
    // two buyers who came by a link and typed the coupon too: the cart's attribute (the link wins), and a landing page whose code the service no longer knows (the coupon wins, but a link was seen)
    await couponOrder(buyer(1), { createdAt: new Date(Date.now() - 10 * DAY) });
    await couponOrder(buyer(2), { createdAt: new Date(Date.now() - 10 * DAY) });
    for (let i = 0; i < 3; i++) await couponOrder(buyer(3));
    await couponOrder(buyer(4), { noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    await couponOrder(buyer(5), { landingSite: "/products/tea?mbsy=RETIRED7" });
    // and four other buyers without a link: five within the window, not more than five
    for (const n of [6, 7, 8, 9]) await couponOrder(buyer(n));
    await run.drain();
    // Buyer 5's order was credited by the coupon, the landing page's code noted as unknown
    expect(await recordOf((nextOrder - 5n).toString())).toMatchObject({ status: "recorded", couponCode: "ALICE-15" });
    expect((await recordOf((nextOrder - 1n).toString())).status).toBe("recorded");
    expect(await leaked()).toEqual([]);
    expect(await leakTriggerJobs()).toEqual([]);

    // WHEN a sixth distinct buyer uses it without a link
    const sixth = await couponOrder(buyer(10));
    await run.drain();

    // THEN the code is flagged, once, with its referrer, and Flow hears of it once
    expect(await leaked()).toMatchObject([{ code: "ALICE-15", referrerEmail: "alice@example.com", buyers: 6, windowDays: 7, orderId: sixth }]);
    await run.drain();
    expect(shopify.flow.receivedOf("referral-code-leaked").map((r) => r.payload)).toEqual([
      { "Referral code": "ALICE-15", "Ambassador email": "alice@example.com", Buyers: 6, "Window days": 7 },
    ]);
    expect(shopify.callsOf("ReferralBridgeFlowTrigger", "invalid")).toEqual([]);

    // AND later uses, by new buyers and by those counted, flag nothing more and send no second trigger
    for (const n of [11, 12, 3]) await couponOrder(buyer(n));
    await run.drain();
    await run.drain();
    expect(await leaked()).toHaveLength(1);
    expect(await leakTriggerJobs()).toHaveLength(1);
    expect(shopify.flow.receivedOf("referral-code-leaked")).toHaveLength(1);
  });

  it("two workers: one buyer's two first orders taken together count once; the last buyers taken together flag the code once and queue one trigger", async () => {
    await shop({ leakThreshold: 3 });
    // The service holds its answers until both jobs run: on a busy machine the second may be claimed seconds after the first.
    const run = pipeline(20_000);
    const second = appWorker(run.ctx, { workerId: "second-leak-worker" });
    await couponOrder(buyer(1));
    await couponOrder(buyer(2));
    await run.drain();

    // One buyer's two orders, both taken before either is settled (the service holds its answers until both run):
    // neither knows of the other, both are credited by the coupon
    const twice = [await couponOrder(buyer(3)), await couponOrder(buyer(3))];
    await bothAtOnce(run, second);
    for (const id of twice) expect(await recordOf(id)).toMatchObject({ status: "recorded", couponCode: "ALICE-15", repeatKind: null });
    expect(await leaked()).toEqual([]);

    // Two more buyers arrive together; two workers take them at once, and the service answers both together
    await couponOrder(buyer(4));
    await couponOrder(buyer(5));
    await bothAtOnce(run, second);
    await run.drain();

    expect(await leaked()).toHaveLength(1);
    expect(await leakTriggerJobs()).toMatchObject([{ status: "done" }]);
    expect(shopify.flow.receivedOf("referral-code-leaked")).toHaveLength(1);
  });
});

/** The web pixel's post at checkout_completed for the checkout of order `id`, naming `orderId` (its own, unless told). */
async function pixelSignal(id: string, orderId = id): Promise<void> {
  const response = await postPixelSignal(server.origin, pixelSignalFor(BigInt(id), "ALICE10", { orderId: `gid://shopify/OrderIdentity/${orderId}` }));
  expect(response.status).toBe(204);
}

const buyerRows = async () => (await prisma.couponBuyer.findMany({ where: { shop: TEST_SHOP }, select: { orderId: true } })).map((r) => r.orderId).sort();

describe("leaked codes and the web pixel's signal, come after the order", () => {
  it("a buyer whose link the pixel reports within the half hour no longer counts; a signal too late or naming another order changes nothing", async () => {
    await shop({ leakThreshold: 2 });
    const run = pipeline();
    // GIVEN two buyers who typed the coupon with no link the order could see, their orders recorded
    const first = await couponOrder(buyer(1));
    const second = await couponOrder(buyer(2));
    await run.drain();
    expect(await buyerRows()).toEqual([first, second].sort());

    // WHEN the pixel's signal of the first buyer's checkout comes, carrying the link's code
    await pixelSignal(first);
    // THEN that buyer no longer counts
    expect(await buyerRows()).toEqual([second]);
    // AND a signal of the second buyer's checkout that names another order is ignored
    await pixelSignal(second, "5560000000000999999");
    expect(await buyerRows()).toEqual([second]);

    // WHEN a third buyer's order, placed 40 minutes ago, gets its signal only now (past the half hour)
    const late = await couponOrder(buyer(3), { createdAt: new Date(Date.now() - 40 * 60_000) });
    await run.drain();
    await pixelSignal(late);
    // THEN the buyer still counts: two buyers, not more than two, and nothing is flagged
    expect(await buyerRows()).toEqual([second, late].sort());
    expect(await leaked()).toEqual([]);

    // AND a fourth buyer without a link flags the code with the three buyers that count
    await couponOrder(buyer(4));
    await run.drain();
    expect(await leaked()).toMatchObject([{ code: "ALICE-15", buyers: 3 }]);
  });
});

describe("leaked codes and customers/redact", () => {
  it("a buyer's redaction deletes their buyer row; the ambassador's clears their email from the flag", async () => {
    await shop({ leakThreshold: 2 });
    const run = pipeline();
    const ids = [];
    for (const n of [1, 2, 3]) ids.push(await couponOrder(buyer(n)));
    await run.drain();
    expect(await leaked()).toMatchObject([{ referrerEmail: "alice@example.com" }]);
    const redact = (who: { email: string; customerId: string | null; orderIds: string[] }) =>
      redactCustomer(prisma, { info() {}, warn() {} } as unknown as Logger, { shop: TEST_SHOP, who, webhookId: null }, { credentialsKey: Buffer.alloc(32, 7).toString("base64"), serviceEventJobKind: SERVICE_EVENT_JOB.name, appSecret: "test-api-secret" });

    await redact({ email: "buyer1@example.com", customerId: "7390002000000000001", orderIds: [ids[0]!] });
    expect((await prisma.couponBuyer.findMany({ select: { orderId: true } })).map((r) => r.orderId).sort()).toEqual([ids[1], ids[2]]);

    await redact({ email: "Alice@Example.com", customerId: null, orderIds: [] });
    expect(await leaked()).toMatchObject([{ code: "ALICE-15", referrerEmail: null }]);
  });
});

describe("leaked codes off (an empty threshold on Settings)", () => {
  it("flags nothing and keeps no buyer", async () => {
    await shop({ leakThreshold: 0 });
    const run = pipeline();
    for (const n of [1, 2, 3, 4, 5, 6, 7]) await couponOrder(buyer(n));
    await run.drain();
    expect(await leaked()).toEqual([]);
    expect(await prisma.couponBuyer.count()).toBe(0);
  });
});

describe("a leaked code's commissions", () => {
  /** Threshold 2: the third distinct buyer without a link flags the code; a fourth comes after. Each order a day apart, inside a 7-day window. */
  async function fourBuyers(run: ReturnType<typeof pipeline>) {
    const start = Date.now() - 4 * DAY;
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4]) {
      ids.push(await couponOrder(buyer(n), { createdAt: new Date(start + n * DAY) }));
      await run.drain();
    }
    return ids;
  }

  it("hold on: the review window approves none of them, Commissions says why, and the merchant can still approve one by hand", async () => {
    // GIVEN a 30-day review window, threshold 2, hold on (the default)
    await shop({ leakThreshold: 2, reviewWindowDays: 30 });
    const run = pipeline();
    const ids = await fourBuyers(run);
    expect(await leaked()).toMatchObject([{ code: "ALICE-15", buyers: 3, orderId: ids[2] }]);
    // The order that flagged it and the one after explain why they wait
    for (const id of ids.slice(2)) expect((await recordOf(id)).explanation).toContain("flagged as leaked");

    // WHEN the window has ended for all of them
    run.advance(40 * DAY);
    await run.drain();

    // THEN all four are still pending at the service (the window's first buyer on), their approval jobs done, having approved nothing
    for (const id of ids) expect(await states(id)).toEqual(["pending"]);
    expect(await prisma.job.findMany({ where: { kind: "order.review-approve" }, select: { status: true } })).toEqual(ids.map(() => ({ status: "done" })));

    // AND each row on Commissions carries the badge and says why it waits, with no "approves on" date
    const page = await listCommissionsPage({ db: prisma }, TEST_SHOP, await shopServiceClient(), parseCommissionQuery(new URLSearchParams("status=pending")));
    const rows = ids.map((id) => page.rows.find((r) => r.transactionId === id)!);
    for (const row of rows) {
      expect(row.codeLeaked).toMatchObject({ code: "ALICE-15", held: expect.stringContaining("Held for your review: the code ALICE-15 is flagged as leaked") });
      expect(row.approvesOn).toBeNull();
    }

    // AND the merchant approves one by hand
    const row = rows[0]!;
    expect(await decideCommission({ db: prisma }, TEST_SHOP, await shopServiceClient(), commissionEntry({ commissionUid: row.uid, transactionId: row.transactionId, campaignUid: row.campaignUid }), "approve")).toMatchObject({ ok: true });
    expect(await states(ids[0]!)).toEqual(["approved"]);
  });

  it("hold off: the same commissions are approved by the review window as usual, still badged", async () => {
    await shop({ leakThreshold: 2, reviewWindowDays: 30, leakHold: false });
    const run = pipeline();
    const ids = await fourBuyers(run);
    expect(await leaked()).toHaveLength(1);
    run.advance(40 * DAY);
    await run.drain();
    for (const id of ids) expect(await states(id)).toEqual(["approved"]);
    const page = await listCommissionsPage({ db: prisma }, TEST_SHOP, await shopServiceClient(), parseCommissionQuery(new URLSearchParams("status=approved")));
    expect(page.rows.find((r) => r.transactionId === ids[3])!.codeLeaked).toMatchObject({ code: "ALICE-15", held: null });
  });

  it("hold on, then leak detection turned off before the window ends: the review window approves them, and Commissions no longer says held", async () => {
    await shop({ leakThreshold: 2, reviewWindowDays: 30 });
    const run = pipeline();
    const ids = await fourBuyers(run);
    expect(await leaked()).toHaveLength(1);
    // WHEN the merchant turns leak detection off (an empty threshold), with the hold still on
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { leakThreshold: 0 } });
    const pending = await listCommissionsPage({ db: prisma }, TEST_SHOP, await shopServiceClient(), parseCommissionQuery(new URLSearchParams("status=pending")));
    expect(pending.rows.find((r) => r.transactionId === ids[3])!.codeLeaked).toMatchObject({ code: "ALICE-15", held: null });
    run.advance(40 * DAY);
    await run.drain();
    // THEN no commission waits on a watch that is off
    for (const id of ids) expect(await states(id)).toEqual(["approved"]);
  });

  it("hold on, a shop that approves at once with the guard's referrer rules off (coupons not held for the guard): once flagged, the code's next commissions are sent pending", async () => {
    await shop({ leakThreshold: 2, approval: "approved" });
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { guardRules: "self_email=off,self_customer=off,self_address=off,self_ip=off" } });
    const run = pipeline();
    const ids = await fourBuyers(run);
    // The flagging order was approved as it was sent (the service cannot take that back); the one after it waits
    expect(await Promise.all(ids.map(states))).toEqual([["approved"], ["approved"], ["approved"], ["pending"]]);
    expect(await recordOf(ids[3]!)).toMatchObject({ commissionState: "pending" });
    expect((await recordOf(ids[3]!)).explanation).toContain("flagged as leaked");
  });

  it("hold on, a shop that approves at once: an order retried after its send (the guard's read failed once) still keeps its commission pending", async () => {
    await shop({ leakThreshold: 2, approval: "approved" });
    const ids = await fourBuyers(pipeline());
    expect(await leaked()).toHaveLength(1);
    // GIVEN a fifth buyer's order, whose job sends the coupon (pending, while the guard checks its referrer),
    // then fails to read the referrer's profile once (a worker of its own: nothing cached), so the job is retried
    const run = pipeline();
    const fifth = await couponOrder(buyer(5), { createdAt: new Date() });
    await sandboxFaults(sandbox, { failNext: 1, operations: ["ambassador/get"] });
    await run.drain();
    expect(await states(fifth)).toEqual(["pending"]);
    expect(await recordOf(fifth)).toMatchObject({ status: "queued" });
    // WHEN the retry finds the campaign sent and releases what the guard held
    run.advance(10 * 60_000);
    await run.drain();
    // THEN the leaked code's commission stays pending for the merchant, at the service and in the app
    expect(await states(fifth)).toEqual(["pending"]);
    expect(await recordOf(fifth)).toMatchObject({ status: "recorded", commissionState: "pending" });
    expect((await recordOf(fifth)).explanation).toContain("flagged as leaked");
    expect(ids).toHaveLength(4);
  });

  it("hold on, a shop that approves at once: the order that flags the code and those after stay pending; those approved before stay approved", async () => {
    await shop({ leakThreshold: 2, approval: "approved" });
    const run = pipeline();
    const ids = await fourBuyers(run);
    expect(await Promise.all(ids.map(states))).toEqual([["approved"], ["approved"], ["pending"], ["pending"]]);
    expect(await recordOf(ids[3]!)).toMatchObject({ commissionState: "pending" });
  });
});
