import "../admin/browser-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { startTestAppServer, type AppServer } from "../admin/app-server";
import { clearSandboxFaults, connectShop, sandboxCommissions, sandboxFaults, sandboxRequests, testPipeline, useTestSandbox } from "../../support/pipeline";
import { shopifyOrder, shopifyRefund, type OrderOptions } from "../../support/orders";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { expectUnreadable } from "../../support/kept-deliveries";
import { expectServedError } from "../../support/served-output";

// Every kind of order decision, end to end: real-shaped Shopify payloads
// (Admin API 2026-10: *_set money bags, presentment currency, refund lines,
// transactions, order adjustments) through the built app under server.mjs,
// the jobs run by the worker's code, and what the sandbox service recorded.

const sandbox = useTestSandbox();
let server: AppServer;

beforeAll(async () => {
  server = await startTestAppServer();
}, 60_000);

afterAll(() => server?.stop());

async function deliver(topic: string, body: unknown): Promise<Response> {
  const response = await fetch(signedWebhook({ topic, body, url: `${server.origin}/webhooks/${topic}` }));
  await response.text();
  return response;
}

async function order(options: OrderOptions & { id: bigint }): Promise<string> {
  const response = await deliver("orders/paid", shopifyOrder({ email: "jon@example.com", customerEmail: "jon@example.com", ...options }));
  expect(response.status).toBe(200);
  return options.id.toString();
}

const recordOf = (orderId: string) => prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId } });

async function eventsSent(orderId: string) {
  const ledger = (await (await fetch(`${sandbox.baseUrl}/_sandbox/ledger`)).json()) as {
    events: { params: Record<string, string>; result: { status: number } }[];
  };
  return ledger.events.filter((e) => e.params.transaction_uid === orderId);
}

describe("which code refers an order", () => {
  it("records the referrer's coupon behind a store promotion, and remembers the promotion", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await order({ id: 820982911946154508n, customerId: 115310627314723954n, discountCodes: ["FREESHIP", "ALICE-15"] });
    await pipeline.drain();

    const [commission] = await sandboxCommissions(sandbox, orderId);
    expect(commission).toMatchObject({ transaction_id: "820982911946154508", affiliate_email: "alice@example.com", revenue_amount: "90.00", state: "pending" });
    const row = await recordOf(orderId);
    expect(row).toMatchObject({ status: "recorded", couponCode: "ALICE-15", customerId: "115310627314723954" });
    const explanation = JSON.parse(row.explanation!);
    expect(explanation.signals).toEqual([
      { source: "discount_code", code: "FREESHIP", outcome: "The store's own discount code (not a referral coupon at the service)" },
      { source: "discount_code", code: "ALICE-15", outcome: "Referral code of alice@example.com", won: true },
    ]);
    expect(explanation.decision).toBe("Credited to alice@example.com through ALICE-15");

    // The second order with FREESHIP does not ask the service about it again.
    const next = await order({ id: 1234567890123456789n, email: "maria@example.com", customerEmail: "maria@example.com", discountCodes: ["FREESHIP", "BOBFRIEND"] });
    await pipeline.drain();
    expect((await eventsSent(next)).map((e) => e.params.coupon_code)).toEqual(["BOBFRIEND"]);
    expect((await sandboxCommissions(sandbox, next))[0]).toMatchObject({ transaction_id: "1234567890123456789", affiliate_email: "bob@example.com" });
  });

  it("marks an order with only the store's promotion not referred, naming the code, with no retry", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await order({ id: 820982911946154601n, discountCodes: ["SUMMER20"] });
    await pipeline.drain();
    // No web pixel signal weighed yet: it waits for one, naming why it is not referred so far
    expect(await recordOf(orderId)).toMatchObject({
      status: "awaiting_signal",
      statusReason: "Waiting up to 30 minutes for the web pixel's signal (Not referred: SUMMER20 is the store's own discount code)",
      couponCode: null,
      lastError: null,
    });
    expect(JSON.parse((await recordOf(orderId)).explanation!).decision).toBe("Not referred: SUMMER20 is the store's own discount code");
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(0);
    expect(await prisma.job.findFirstOrThrow({ where: { key: `${TEST_SHOP}:order.record:${orderId}` } })).toMatchObject({ status: "done" });
  });

  it("marks an unknown link code not referred, and reads ?MBSY= whatever the case of its name", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const unknown = await order({ id: 820982911946154602n, landingSite: "/?mbsy=NOSUCHCODE" });
    const upper = await order({ id: 820982911946154603n, email: "li@example.com", customerEmail: "li@example.com", landingSite: "/products/hoodie?MBSY=ALICE10" });
    await pipeline.drain();
    expect(await recordOf(unknown)).toMatchObject({
      status: "awaiting_signal",
      statusReason: "Waiting up to 30 minutes for the web pixel's signal (Not referred: link code NOSUCHCODE isn't known at the referral service)",
      shortCode: null,
    });
    expect((await sandboxCommissions(sandbox, upper))[0]).toMatchObject({ affiliate_email: "alice@example.com" });
  });
});

describe("the referral guard", () => {
  it("blocks a self-referral by a Gmail address with dots and a +tag, without sending it", async () => {
    await connectShop(sandbox);
    await fetch(`${sandbox.baseUrl}/api/v2/${sandbox.username}/${sandbox.token}/json/ambassador/get/?email=jon.snow@gmail.com&auto_create=1`);
    const owner = (await (await fetch(`${sandbox.baseUrl}/_sandbox/ledger`)).json()) as { ambassadors: { email: string; short_codes: Record<string, string> }[] };
    const code = owner.ambassadors.find((a) => a.email === "jon.snow@gmail.com")!.short_codes["1001"]!;
    const pipeline = testPipeline();
    const orderId = await order({
      id: 820982911946154604n,
      email: "JonSnow+deals@gmail.com",
      customerEmail: "JonSnow+deals@gmail.com",
      noteAttributes: [{ name: "_referral_code", value: code }],
    });
    await pipeline.drain();
    const row = await recordOf(orderId);
    expect(row).toMatchObject({ status: "blocked", statusReason: expect.stringMatching(/^Blocked: Buyer's email is the referrer's/) });
    expect(await eventsSent(orderId)).toHaveLength(0);
    expect(JSON.parse(row.explanation!).guard.find((v: { rule: string }) => v.rule === "self_email")).toMatchObject({ verdict: "blocked" });
  });

  it("shows the service's own self-referral refusal as blocked, not failed", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await order({ id: 820982911946154605n, email: "alice@example.com", customerEmail: "alice@example.com", discountCodes: ["ALICE-15"] });
    await pipeline.drain();
    expect(await recordOf(orderId)).toMatchObject({ status: "blocked", statusReason: expect.stringMatching(/^Self-referral: the referral service refused it/) });
  });

  it("blocks a coupon self-referral once the service names the referrer: the commission it made is denied", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    // Alice's own coupon, with a +tag on her email: the service does not see a self-referral.
    const orderId = await order({ id: 820982911946154608n, email: "alice+coupon@example.com", customerEmail: "alice+coupon@example.com", discountCodes: ["ALICE-15"] });
    await pipeline.drain();
    const row = await recordOf(orderId);
    expect(row).toMatchObject({ status: "blocked", statusReason: expect.stringMatching(/^Blocked: Buyer's email is the referrer's/) });
    expect(JSON.parse(row.explanation!).signals).toEqual([
      { source: "discount_code", code: "ALICE-15", outcome: "Coupon of alice@example.com; the guard blocked it once the referral service named the referrer", won: true },
    ]);
    expect((await sandboxCommissions(sandbox, orderId)).map((c) => c.state)).toEqual(["denied"]);
  });

  it("sends a coupon pending until the service has named its referrer and the guard has passed them, then approves it as the shop asks", async () => {
    await connectShop(sandbox, { approval: "approved" });
    const pipeline = testPipeline();
    const orderId = await order({ id: 820982911946154609n, discountCodes: ["ALICE-15"] });
    await pipeline.drain();
    const [sent] = await eventsSent(orderId);
    expect(sent!.params).toMatchObject({ coupon_code: "ALICE-15", is_approved: "0" });
    expect(sent!.params.event_data3).toBeUndefined();
    expect((await sandboxCommissions(sandbox, orderId)).map((c) => c.state)).toEqual(["approved"]);
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded", flags: null, commissionState: "approved" });
    expect(JSON.parse((await recordOf(orderId)).results!)["1001"].held).toBeUndefined();
  });

  it("keeps a coupon pending when the referrer the service names shares the buyer's IP address, though the shop approves", async () => {
    await connectShop(sandbox, { approval: "approved" });
    const pipeline = testPipeline();
    await order({ id: 820982911946154610n, email: "alice@example.com", customerEmail: "alice@example.com", browserIp: "198.51.100.9", discountCodes: ["WELCOME"] });
    const orderId = await order({ id: 820982911946154611n, browserIp: "198.51.100.9", discountCodes: ["ALICE-15"] });
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, orderId)).map((c) => c.state)).toEqual(["pending"]);
    const row = await recordOf(orderId);
    expect(row).toMatchObject({ status: "recorded", flags: "self_ip", commissionState: "pending" });
    expect(JSON.parse(row.explanation!).decision).toBe("Credited to alice@example.com through ALICE-15; sent as pending because the guard flagged it");
    expect(await sandboxRequests(sandbox, "commission/update")).toHaveLength(0);
  });

  it("checks a coupon's referrer again on a retry after the send, and never takes the coupon for a store promotion", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    // The referrer's profile cannot be read just after the coupon was sent: the job stops there.
    await sandboxFaults(sandbox, { failNext: 50, operations: ["ambassador/get"] });
    const orderId = await order({ id: 820982911946154612n, email: "alice+again@example.com", customerEmail: "alice+again@example.com", discountCodes: ["ALICE-15"] });
    await pipeline.drain();
    expect(await recordOf(orderId)).toMatchObject({ status: "queued" });
    expect((await sandboxCommissions(sandbox, orderId)).map((c) => c.state)).toEqual(["pending"]);

    await clearSandboxFaults(sandbox);
    pipeline.advance(2 * 3_600_000);
    await pipeline.drain();
    expect(await recordOf(orderId)).toMatchObject({ status: "blocked", statusReason: expect.stringMatching(/^Blocked: Buyer's email is the referrer's/) });
    expect((await sandboxCommissions(sandbox, orderId)).map((c) => c.state)).toEqual(["denied"]);
    expect(await eventsSent(orderId)).toHaveLength(1);

    // Someone else's order with the coupon, in the same process, still credits Alice.
    const next = await order({ id: 820982911946154613n, discountCodes: ["ALICE-15"] });
    await pipeline.drain();
    expect(await recordOf(next)).toMatchObject({ status: "recorded", couponCode: "ALICE-15" });
    expect((await sandboxCommissions(sandbox, next))[0]).toMatchObject({ affiliate_email: "alice@example.com" });
  });

  it("flags an order from the referrer's own IP address: sent as pending with the rule in event_data3", async () => {
    await connectShop(sandbox, { approval: "approved" });
    const pipeline = testPipeline();
    await order({ id: 820982911946154606n, email: "alice@example.com", customerEmail: "alice@example.com", browserIp: "198.51.100.4", discountCodes: ["WELCOME"] });
    const orderId = await order({ id: 820982911946154607n, browserIp: "198.51.100.4", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    await pipeline.drain();
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded", flags: "self_ip", commissionState: "pending" });
    const [sent] = await eventsSent(orderId);
    expect(sent!.params).toMatchObject({ is_approved: "0", event_data3: "Flagged: self_ip" });
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ state: "pending" });
  });
});

describe("the guard's velocity rules", () => {
  it("count orders by when they were placed, so past orders sent together (a backfill) are not one busy day", async () => {
    await connectShop(sandbox, { approval: "approved" });
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { guardRules: "velocity_code=block", guardDailyLimit: 2 } });
    const pipeline = testPipeline();
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    const withCode = (id: bigint, createdAt: Date, n: number) =>
      order({ id, createdAt, email: `velocity-${n}@example.com`, customerEmail: `velocity-${n}@example.com`, browserIp: `198.51.100.${100 + n}`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });

    // GIVEN three orders with one code placed days apart, arriving now (as a backfill brings them)
    const past = [await withCode(830000000000000001n, hoursAgo(24 * 10), 1), await withCode(830000000000000002n, hoursAgo(24 * 5), 2), await withCode(830000000000000003n, hoursAgo(24 * 2), 3)];
    await pipeline.drain();
    // THEN none counts against another
    for (const id of past) expect(await recordOf(id)).toMatchObject({ status: "recorded" });

    // WHEN three more with that code are placed within a day, with a limit of 2
    const today = [await withCode(830000000000000004n, hoursAgo(3), 4), await withCode(830000000000000005n, hoursAgo(2), 5)];
    await pipeline.drain();
    const third = await withCode(830000000000000006n, hoursAgo(1), 6);
    await pipeline.drain();

    // THEN the first two are recorded and the third is blocked
    for (const id of today) expect(await recordOf(id)).toMatchObject({ status: "recorded" });
    expect(await recordOf(third)).toMatchObject({ status: "blocked" });
    expect(await eventsSent(third)).toHaveLength(0);
    // AND the record keeps when the order was placed, to the second
    const placedAt = (await recordOf(past[0]!)).placedAt!.getTime();
    expect(Math.abs(placedAt - hoursAgo(24 * 10).getTime())).toBeLessThan(60_000);
  });
});

describe("refunds", () => {
  const taxIncluded = { taxesIncluded: true, subtotal: "150.00", lineTax: "25.00", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] };

  it("takes a refund off the revenue without its tax when prices include tax", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await order({ id: 820982911946154610n, ...taxIncluded });
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ revenue_amount: "125.00" });
    const refund = shopifyRefund(820982911946154610n, ["59.50"], 890088186047892319n, { lineTaxes: ["9.50"], presentment: { currency: "EUR", rate: 0.92 } });
    expect((await deliver("refunds/create", refund)).status).toBe(200);
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ revenue_amount: "75.00", state: "pending" });
  });

  it("lowers revenue by an amount-only refund's merchandise part, and denies when refunds add up to the whole order", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await order({ id: 820982911946154611n, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    await pipeline.drain();
    // 25.00 paid back: 5.00 of it shipping (a refund shipping line), 20.00 with no line (a refund discrepancy).
    const goodwill = shopifyRefund(820982911946154611n, [], 890088186047892320n, {
      transactions: ["25.00"],
      shipping: "5.00",
      orderAdjustments: [{ kind: "refund_discrepancy", amount: "-20.00" }],
    });
    expect((await deliver("refunds/create", goodwill)).status).toBe(200);
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ revenue_amount: "70.00", state: "pending" });

    expect((await deliver("refunds/create", shopifyRefund(820982911946154611n, ["70.00"], 890088186047892321n))).status).toBe(200);
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ state: "denied" });
    expect(await recordOf(orderId)).toMatchObject({ status: "reversed" });
  });

  it("counts only what went back when the merchant kept a restocking fee (a positive refund discrepancy)", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await order({ id: 820982911946154615n, subtotal: "100.00", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ revenue_amount: "100.00" });

    // A 50.00 line returned, 40.00 paid back: Shopify writes the 10.00 kept as a discrepancy of +10.00.
    const restockingFee = shopifyRefund(820982911946154615n, ["50.00"], 890088186047892324n, {
      transactions: ["40.00"],
      orderAdjustments: [{ kind: "refund_discrepancy", amount: "10.00" }],
    });
    expect((await deliver("refunds/create", restockingFee)).status).toBe(200);
    await pipeline.drain();

    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ revenue_amount: "60.00", state: "pending" });
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded", statusReason: "Partly refunded: revenue reduced to 60.00", refunds: JSON.stringify({ "890088186047892324": "40.00" }) });
  });

  it("leaves revenue as it is for a refund of shipping, duties or a tip only, whatever currency the customer paid in", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await order({ id: 820982911946154614n, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    await pipeline.drain();
    const before = (await sandboxCommissions(sandbox, orderId))[0]!.revenue_amount;
    // Shipping only (API 2024-10: a refund shipping line, and the money in the transaction).
    const shipping = shopifyRefund(820982911946154614n, [], 890088186047892330n, { transactions: ["8.00"], shipping: "8.00", presentment: { currency: "EUR", rate: 0.92 } });
    // Duties only, and a tip given back (a transaction with nothing else in the refund).
    const duties = shopifyRefund(820982911946154614n, [], 890088186047892331n, { transactions: ["3.10"], duties: "3.10" });
    const tip = shopifyRefund(820982911946154614n, [], 890088186047892332n, { transactions: ["2.00"] });
    for (const refund of [shipping, duties, tip]) expect((await deliver("refunds/create", refund)).status).toBe(200);
    await pipeline.drain();
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ revenue_amount: before, state: "pending" });
    expect(await prisma.job.count({ where: { kind: "order.refund" } })).toBe(0);
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded" });
  });

  it("refuses a refund with a negative amount, saying why", async () => {
    expectServedError(/a refund amount must not be negative/);
    await connectShop(sandbox);
    const refund = shopifyRefund(820982911946154612n, ["-10.00"], 890088186047892322n);
    const response = await fetch(signedWebhook({ topic: "refunds/create", body: refund, url: `${server.origin}/webhooks/refunds/create` }));
    await expectUnreadable(response, /refund_line_items\.0: a refund amount must not be negative/);
    expect(await prisma.job.count()).toBe(0);
    // The app's error line for it is read within this test, not the next one's.
    await expect.poll(() => server.output()).toMatch(/a refund amount must not be negative/);
  });

  it("ends cancel-and-refund as reversed", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const orderId = await order({ id: 820982911946154613n, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    await pipeline.drain();
    await Promise.all([
      deliver("orders/cancelled", { ...shopifyOrder({ id: 820982911946154613n }), cancelled_at: "2026-11-21T09:00:00-05:00", cancel_reason: "customer" }),
      deliver("refunds/create", shopifyRefund(820982911946154613n, ["90.00"], 890088186047892323n)),
    ]);
    await pipeline.drain();
    expect(await recordOf(orderId)).toMatchObject({ status: "reversed" });
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ state: "denied" });
  });
});

describe("deliveries out of order", () => {
  it("applies a refund delivered before its order once the order is recorded: the commission is on what was kept", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 820982911946154620n;
    // Shopify retried the order's delivery: the refund of 40.00 of its 100.00 comes first.
    expect((await deliver("refunds/create", shopifyRefund(id, ["40.00"], 890088186047892340n))).status).toBe(200);
    await pipeline.drain();
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order.refund" } })).toMatchObject({ status: "queued", lastError: null });

    const orderId = await order({ id, subtotal: "100.00", noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    // The refund looks again later, behind the order's recording in their lane.
    for (let round = 0; round < 3; round++) {
      pipeline.advance(61_000);
      await pipeline.drain();
    }

    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(1);
    expect((await sandboxCommissions(sandbox, orderId))[0]).toMatchObject({ revenue_amount: "60.00", state: "pending" });
    expect(await recordOf(orderId)).toMatchObject({ status: "recorded", statusReason: "Partly refunded: revenue reduced to 60.00" });
  });

  it("credits nothing for an order whose cancellation came first", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 820982911946154621n;
    const cancelled = { ...shopifyOrder({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), cancelled_at: new Date().toISOString(), cancel_reason: "customer" };
    expect((await deliver("orders/cancelled", cancelled)).status).toBe(200);
    await pipeline.drain();

    const orderId = await order({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
    for (let round = 0; round < 3; round++) {
      pipeline.advance(61_000);
      await pipeline.drain();
    }

    // As in Shopify: the order is cancelled, so it is never recorded, and nobody is credited.
    expect(await sandboxCommissions(sandbox, orderId)).toHaveLength(0);
    expect(await recordOf(orderId)).toMatchObject({ status: "skipped", statusReason: "Order cancelled before it was recorded" });
  });

  it("waits for nothing when an order was cancelled before it was paid, in a shop that records paid orders", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    const id = 820982911946154622n;
    const placed = { ...shopifyOrder({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), financial_status: "pending" };
    // GIVEN an order placed unpaid (orders/create: this shop records on orders/paid), then cancelled with its items restocked
    expect((await deliver("orders/create", placed)).status).toBe(200);
    const cancelled = { ...placed, financial_status: "voided", cancelled_at: new Date().toISOString(), cancel_reason: "customer" };
    expect((await deliver("orders/cancelled", cancelled)).status).toBe(200);
    expect((await deliver("refunds/create", shopifyRefund(id, ["100.00"], 890088186047892341n, { transactions: [] }))).status).toBe(200);

    // WHEN the worker runs once
    await pipeline.drain();

    // THEN both are done at once, with nothing to change and nothing sent
    const jobs = await prisma.job.findMany({ where: { kind: { in: ["order.cancel", "order.refund"] } }, orderBy: { kind: "asc" } });
    expect(jobs.map((job) => [job.kind, job.status, job.lastError])).toEqual([
      ["order.cancel", "done", null],
      ["order.refund", "done", null],
    ]);
    expect(await prisma.orderRecord.count({ where: { orderId: id.toString() } })).toBe(0);
    expect(await sandboxCommissions(sandbox, id.toString())).toHaveLength(0);
  });

  it("still waits for an order cancelled unpaid in a shop that records orders when they are placed: its orders/create may come later", async () => {
    await connectShop(sandbox, { trigger: "orders_create" });
    const pipeline = testPipeline();
    const id = 820982911946154623n;
    const placed = { ...shopifyOrder({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), financial_status: "pending" };
    const cancelled = { ...placed, financial_status: "voided", cancelled_at: new Date().toISOString(), cancel_reason: "customer" };
    expect((await deliver("orders/cancelled", cancelled)).status).toBe(200);
    await pipeline.drain();
    expect(await prisma.job.findFirstOrThrow({ where: { kind: "order.cancel" } })).toMatchObject({ status: "queued", lastError: null });

    expect((await deliver("orders/create", placed)).status).toBe(200);
    for (let round = 0; round < 3; round++) {
      pipeline.advance(61_000);
      await pipeline.drain();
    }
    expect(await sandboxCommissions(sandbox, id.toString())).toHaveLength(0);
    expect(await recordOf(id.toString())).toMatchObject({ status: "skipped", statusReason: "Order cancelled before it was recorded" });
  });
});
