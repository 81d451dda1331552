// The service's webhooks as the sandbox really sends them: signed deliveries
// over HTTP, retried on failure, caused by real operations.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { storeOrderWebhook } from "../../../app/wiring/order-intake.server";
import { ensureInboundEndpoint, receivingUrl } from "../../../app/domains/service-events/endpoint.server";
import { listServiceEvents } from "../../../app/domains/service-events/events.server";
import type { SandboxHandle } from "../../../sandbox/server";
import { resetDatabase } from "../../support/database";
import { shopifyOrder } from "../../support/orders";
import { connectShop, startTestSandbox, testPipeline, type TestPipeline } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import type { StandInCustomer } from "../../support/standin-customers";
import { ShopifyAdminStandIn, type StandInCall } from "../../support/shopify-admin-standin";
import { TEST_SHOP } from "../../support/shopify-requests";
import { Forwarder, type Mode } from "./forwarder";
import { sandboxClient } from "../../support/sandbox-client";

let sandbox: SandboxHandle;
const forwarder = new Forwarder();
const key = () => ({ credentialsKey: getEnv().CREDENTIALS_KEY });
let endpointId: string;
let pipeline: TestPipeline;
let shopify: ShopifyAdminStandIn;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  await forwarder.start();
});
afterAll(async () => {
  await sandbox.close();
  await forwarder.close();
});
beforeEach(async () => {
  sandbox.reset();
  await resetDatabase();
  await connectShop(sandbox);
  await installShop();
  const endpoint = await ensureInboundEndpoint(prisma, TEST_SHOP, key());
  endpointId = endpoint.endpointId;
  forwarder.reset(endpoint.secret);
  pipeline = testPipeline();
  // Shopify's Admin API as the stand-in (every document checked against Shopify's schema), its clock the pipeline's.
  shopify = new ShopifyAdminStandIn();
  shopify.customers.now = () => pipeline.ctx.now();
  pipeline.ctx.adminForShop = shopify.access();
});

async function control(path: string, body: unknown) {
  const response = await fetch(`${sandbox.baseUrl}/_sandbox/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json();
}

/** Registers a receiver at the sandbox (its control API), as a merchant would paste the URL and secret. */
async function subscribe(mode: Mode, events: string[], secret = forwarder.secret) {
  await control("webhooks", { url: forwarder.url(mode, endpointId), secret, events });
}

async function waitFor<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("waitFor: condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const eventsOfType = (eventType: string) => prisma.serviceEvent.findMany({ where: { shop: TEST_SHOP, eventType } });
const waitForEvents = (eventType: string, count = 1) =>
  waitFor(async () => {
    const rows = await eventsOfType(eventType);
    return rows.length >= count ? rows : undefined;
  });

let nextOrder = 8_800_000;
/** A referred order through the app's own pipeline: the sandbox records it and emits commission-created. */
async function recordReferredOrder(email = "jon@example.com") {
  const order = shopifyOrder({ id: nextOrder++, email, customerEmail: email, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });
  await storeOrderWebhook({ topic: "ORDERS_PAID", shop: TEST_SHOP, payload: order, webhookId: null, triggeredAt: null });
  await pipeline.drain();
  return String(order.id);
}

const commissionState = async (orderId: string) =>
  (await prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderId: { shop: TEST_SHOP, orderId } } })).commissionState;

describe("the shop's receiving endpoint", () => {
  it("has an opaque id, not the shop domain, and keeps the same id and secret once made", async () => {
    const first = await ensureInboundEndpoint(prisma, TEST_SHOP, key());
    const again = await ensureInboundEndpoint(prisma, TEST_SHOP, key());
    expect(again).toEqual(first);
    expect(first.endpointId).not.toContain("referral-demo");
    expect(first.secret.length).toBeGreaterThanOrEqual(32);
    const row = await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect(row.inboundWebhookSecretSealed).not.toContain(first.secret); // sealed at rest
    expect(receivingUrl("https://referral-bridge.test/", first.endpointId)).toBe(`https://referral-bridge.test/referral-webhooks/${first.endpointId}`);
    const other = await ensureInboundEndpoint(prisma, "other-shop.myshopify.com", key());
    expect(other.endpointId).not.toBe(first.endpointId);
    expect(other.secret).not.toBe(first.secret);
  });
});

describe("commission events", () => {
  it("commission-created sets the order's commission to pending, then commission-status-updated to approved", async () => {
    // GIVEN the sandbox posts commission-created and status updates as sent
    await subscribe("plain", ["commission-created"]);
    await subscribe("plain", ["commission-status-updated"]);

    // WHEN an order is recorded (event/record) and its commission then approved (commission/update)
    const orderId = await recordReferredOrder();
    const [created] = await waitForEvents("commission-created");
    // Received, and maybe processed already: the event can arrive while recordReferredOrder's drain is still taking jobs.
    expect(created).toMatchObject({ signedForm: "raw", reference: expect.stringMatching(/^commission:\d+$/) });
    expect(["received", "processed"]).toContain(created.state);
    await pipeline.drain();
    expect(await commissionState(orderId)).toBe("pending");

    const client = sandboxClient(sandbox);
    await client.updateCommission({ transactionUid: orderId, campaignUid: "1001", status: "approved" });
    const [updated] = await waitForEvents("commission-status-updated");
    expect(updated.signedForm).toBe("raw");
    expect(JSON.parse(updated.payload).event_data.commission).not.toHaveProperty("transaction_id");
    await pipeline.drain();

    // THEN the record follows the service, matched through the commission-created event
    expect(await commissionState(orderId)).toBe("approved");
    const events = await prisma.serviceEvent.findMany({ where: { shop: TEST_SHOP }, orderBy: { receivedAt: "asc" } });
    expect(events.map((e) => [e.eventType, e.state])).toEqual([
      ["commission-created", "processed"],
      ["commission-status-updated", "processed"],
    ]);
    expect(events[1].detail).toMatch(/approved: order #\d+ updated/);
    expect(forwarder.handled.map((h) => h.status)).toEqual([200, 200]);
    // well within the service's 10 seconds
    const slowest = Math.max(...forwarder.handled.map((h) => h.ms));
    console.info(`service webhook answered in at most ${slowest.toFixed(1)} ms`);
    expect(slowest).toBeLessThan(1_000);
  });

  it("a commission the shop has no order for is shown as not acted on", async () => {
    await subscribe("plain", ["commission-status-updated"]);
    const client = sandboxClient(sandbox);
    await client.updateCommission({ commissionUid: "5002", status: "denied" }); // a seeded commission
    await waitForEvents("commission-status-updated");
    await pipeline.drain();
    const [event] = await eventsOfType("commission-status-updated");
    expect(event).toMatchObject({ state: "ignored", detail: expect.stringContaining("matches no order") });
  });
});

describe("refused deliveries", () => {
  it("refuses a delivery signed with another secret (401) and stores nothing", async () => {
    await subscribe("plain", ["payout-created"], "not-the-shop-secret");
    await control("payouts", { email: "alice@example.com", amount: 1, payment_method: "manual" });
    await waitFor(async () => forwarder.handled.length > 0);
    expect(forwarder.handled[0].status).toBe(401);
    expect(await prisma.serviceEvent.count()).toBe(0);
    expect(await prisma.job.count({ where: { kind: "service-event.process" } })).toBe(0);
  });

  it("refuses an unsigned delivery (401)", async () => {
    await subscribe("unsigned", ["payout-created"]);
    await control("payouts", { email: "alice@example.com", amount: 1, payment_method: "manual" });
    await waitFor(async () => forwarder.handled.length > 0);
    expect(forwarder.handled[0].status).toBe(401);
    expect(await prisma.serviceEvent.count()).toBe(0);
  });

  it("answers 400 to a correctly signed body that is cut short or has no event_id", async () => {
    await subscribe("truncated", ["payout-created"]);
    await subscribe("no-event-id", ["payout-created"]);
    await control("payouts", { email: "alice@example.com", amount: 1, payment_method: "manual" });
    await waitFor(async () => forwarder.handled.length >= 2);
    expect(forwarder.handled.map((h) => [h.mode, h.status]).sort()).toEqual([
      ["no-event-id", 400],
      ["truncated", 400],
    ]);
    expect(await prisma.serviceEvent.count()).toBe(0);
  });

  it("answers 404 for an endpoint id no shop has", async () => {
    await control("webhooks", { url: forwarder.url("plain", "AAAAAAAAAAAAAAAAAAAAAAAA"), secret: forwarder.secret, events: ["payout-created"] });
    await control("payouts", { email: "alice@example.com", amount: 1, payment_method: "manual" });
    await waitFor(async () => forwarder.handled.length > 0);
    expect(forwarder.handled[0].status).toBe(404);
  });
});

describe("replays", () => {
  it("acts on an event once when the same body comes twice", async () => {
    await subscribe("twice", ["payout-created"]);
    await control("payouts", { email: "alice@example.com", amount: 1, payment_method: "manual" });
    await waitFor(async () => forwarder.handled.length >= 2);
    expect(forwarder.handled.map((h) => h.status)).toEqual([200, 200]);
    expect(forwarder.handled[0].eventId).toBe(forwarder.handled[1].eventId);
    expect(await prisma.serviceEvent.count()).toBe(1);
    expect(await prisma.job.count({ where: { kind: "service-event.process" } })).toBe(1);
    expect(await pipeline.drain()).toBe(1);
  });
});

describe("store credit payouts", () => {
  async function storeCreditOn() {
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { storeCreditPayouts: true } });
  }
  const creditCalls = (outcome?: StandInCall["outcome"]) => shopify.callsOf("ReferralBridgeCreditStoreCredit", outcome);
  const balance = (customer: StandInCustomer) => shopify.customers.balanceOf(customer);
  /** The credits the stand-in itself holds for the customer since the test began (a balance they had is an older credit). */
  const creditsSince = (customer: StandInCustomer, since: Date) => shopify.customers.creditsOf(customer).filter((t) => t.createdAt >= since).map((t) => t.amount);
  /** Runs the due jobs now and after the retry backoff has passed. */
  async function drainWithRetries(rounds = 3) {
    for (let round = 0; round < rounds; round++) {
      await pipeline.drain();
      pipeline.advance(30 * 60_000);
    }
  }

  it("credits a storeplatform payout once, across a redelivery by the sandbox, a duplicate delivery and a refused Admin call", async () => {
    // GIVEN the shop pays payouts as store credit, alice is a Shopify customer,
    // the first delivery is answered 503 (the sandbox delivers again) and every delivery reaches the app twice
    await storeCreditOn();
    const began = pipeline.ctx.now();
    const alice = shopify.customers.add("Alice@Example.com", { balance: "2.50" });
    shopify.failNext("ReferralBridgeCreditStoreCredit", "refused");
    await subscribe("fail-first", ["payout-created"]);
    await subscribe("twice", ["payout-created"]);

    // WHEN the service pays alice 5.00 by store platform
    await control("payouts", { email: "alice@example.com", amount: 5, payment_method: "storeplatform" });
    await waitFor(async () => (forwarder.handled.filter((h) => h.mode === "fail-first").length >= 2 ? true : undefined));
    await waitFor(async () => (forwarder.handled.filter((h) => h.mode === "twice").length >= 2 ? true : undefined));
    await pipeline.drain();
    const credit = await prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } });
    expect(credit).toMatchObject({ state: "failed", lastError: expect.stringContaining("Access denied") });
    await drainWithRetries();

    // THEN the event was stored once, the mutation succeeded exactly once and alice's account holds one credit of 5.00
    expect(await prisma.serviceEvent.count({ where: { eventType: "payout-created" } })).toBe(1);
    expect(creditCalls()).toHaveLength(2);
    expect(creditCalls("ok")).toHaveLength(1);
    expect(creditCalls("ok")[0].variables).toEqual({
      id: alice.id,
      creditInput: { creditAmount: { amount: "5.00", currencyCode: "USD" } },
    });
    expect(creditsSince(alice, began)).toEqual(["5.00"]);
    expect(balance(alice)).toBe("7.50");
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({
      state: "credited",
      amount: "5.00",
      currency: "USD",
      transactionId: shopify.customers.creditsOf(alice).at(-1)!.id,
    });
    const [event] = await eventsOfType("payout-created");
    expect(event).toMatchObject({ state: "processed", detail: expect.stringContaining("store credit given") });
    // The sandbox saw its first attempt fail and its retry succeed: a real redelivery.
    // It records an attempt once the answer is back, which can be after the app has handled it.
    const attempts = await waitFor(async () => {
      const delivery = sandbox.deliveries().find((d) => d.url.includes("/fail-first/"));
      return delivery && delivery.attempts.length >= 2 ? delivery.attempts : undefined;
    });
    expect(attempts.map((a) => a.status)).toEqual([503, 200]);
    expect(shopify.refused).toEqual([]);
  });

  it("waits out Shopify's throttling within the attempt and credits once", async () => {
    await storeCreditOn();
    const alice = shopify.customers.add("alice@example.com");
    shopify.failNext("ReferralBridgeCreditStoreCredit", "throttled");
    await subscribe("plain", ["payout-created"]);
    await control("payouts", { email: "alice@example.com", amount: 5, payment_method: "storeplatform" });
    await waitForEvents("payout-created");

    await pipeline.drain();

    expect(creditCalls().map((call) => call.outcome)).toEqual(["throttled", "ok"]);
    expect(shopify.customers.creditsOf(alice).map((t) => t.amount)).toEqual(["5.00"]);
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ state: "credited" });
  });

  it("does not credit again when the answer to a credit that went through was lost", async () => {
    await storeCreditOn();
    const alice = shopify.customers.add("alice@example.com");
    shopify.failNext("ReferralBridgeCreditStoreCredit", "lost-after-acting");
    await subscribe("plain", ["payout-created"]);
    await control("payouts", { email: "alice@example.com", amount: 5, payment_method: "storeplatform" });
    await waitForEvents("payout-created");

    await drainWithRetries();

    expect(creditCalls()).toHaveLength(1);
    const [landed] = shopify.customers.creditsOf(alice);
    expect(shopify.customers.creditsOf(alice)).toHaveLength(1);
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ state: "credited", transactionId: landed!.id });
    expect((await eventsOfType("payout-created"))[0].detail).toContain("confirmed");
  });

  it("recognises a credit whose answer was lost from the account's transactions even when the customer spent it meanwhile", async () => {
    // GIVEN the credit lands but its answer is lost
    await storeCreditOn();
    const alice = shopify.customers.add("alice@example.com", { balance: "1.00" });
    const began = pipeline.ctx.now();
    shopify.failNext("ReferralBridgeCreditStoreCredit", "lost-after-acting");
    await subscribe("plain", ["payout-created"]);
    await control("payouts", { email: "alice@example.com", amount: 5, payment_method: "storeplatform" });
    await waitForEvents("payout-created");
    await pipeline.drain();
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ state: "sending" });

    // WHEN alice spends most of it at checkout before the app looks again (her balance is back where it was, and lower)
    pipeline.advance(60_000);
    shopify.customers.spend(alice, "5.50");
    expect(balance(alice)).toBe("0.50");
    await drainWithRetries();

    // THEN the app finds its credit among her transactions and does not send it again
    expect(creditCalls()).toHaveLength(1);
    expect(creditsSince(alice, began)).toEqual(["5.00"]);
    const [, landed] = shopify.customers.creditsOf(alice);
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ state: "credited", transactionId: landed!.id });
    expect((await eventsOfType("payout-created"))[0]).toMatchObject({ state: "processed", detail: expect.stringContaining("confirmed") });
  });

  it("sends again, once, when the answer was lost before the credit happened, whatever the customer spent meanwhile", async () => {
    await storeCreditOn();
    const alice = shopify.customers.add("alice@example.com", { balance: "4.00" });
    const began = pipeline.ctx.now();
    shopify.failNext("ReferralBridgeCreditStoreCredit", "lost");
    await subscribe("plain", ["payout-created"]);
    await control("payouts", { email: "alice@example.com", amount: 5, payment_method: "storeplatform" });
    await waitForEvents("payout-created");
    await pipeline.drain();
    shopify.customers.spend(alice, "3.00"); // her balance moved, which says nothing about the credit

    await drainWithRetries();

    expect(creditCalls().map((call) => call.outcome)).toEqual(["lost", "ok"]);
    expect(creditsSince(alice, began)).toEqual(["5.00"]);
    expect(balance(alice)).toBe("6.00");
    expect(await prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({ state: "credited", attempts: 2 });
  });

  it("leaves payouts alone when the shop has not turned store credit on, or the method is not storeplatform", async () => {
    shopify.customers.add("alice@example.com");
    await subscribe("plain", ["payout-created"]);
    await control("payouts", { email: "alice@example.com", amount: 1, payment_method: "storeplatform" });
    await waitForEvents("payout-created");
    await pipeline.drain();
    await storeCreditOn();
    await control("payouts", { email: "alice@example.com", amount: 1, payment_method: "payservice1" });
    await waitForEvents("payout-created", 2);
    await pipeline.drain();

    const events = await prisma.serviceEvent.findMany({ where: { shop: TEST_SHOP }, orderBy: { receivedAt: "asc" } });
    expect(events.map((e) => e.detail)).toEqual([
      expect.stringContaining("store credit payouts are turned off"),
      expect.stringContaining("only store platform payouts"),
    ]);
    expect(creditCalls()).toHaveLength(0);
    expect(await prisma.payoutCredit.count()).toBe(0);
  });
});

describe("new contacts", () => {
  it("tags the matching Shopify customer when the shop asks for it", async () => {
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { tagContacts: true } });
    const jon = shopify.customers.add("jon@example.com");
    await subscribe("plain", ["contact-created"]);
    await recordReferredOrder("jon@example.com"); // a new contact at the service
    await waitForEvents("contact-created");
    await pipeline.drain();
    expect(jon.tags).toEqual(["referral-ambassador"]);
    expect((await eventsOfType("contact-created"))[0].state).toBe("processed");
  });
});

describe("listServiceEvents", () => {
  it("pages the shop's events, newest first, and shows no other shop's", async () => {
    for (let i = 0; i < 3; i++) {
      await prisma.serviceEvent.create({
        data: { shop: TEST_SHOP, eventId: String(i), eventType: "share-tracked", payload: "{}", signedForm: "raw", receivedAt: new Date(Date.UTC(2026, 10, 1, 0, i)) },
      });
    }
    await prisma.serviceEvent.create({ data: { shop: "other-shop.myshopify.com", eventId: "9", eventType: "click-tracked", payload: "{}", signedForm: "raw" } });

    const first = await listServiceEvents(prisma, TEST_SHOP, { page: 1, pageSize: 2 });
    expect(first.events.map((e) => e.eventId)).toEqual(["2", "1"]);
    expect(first).toMatchObject({ total: 3, hasNext: true, hasPrevious: false });
    const second = await listServiceEvents(prisma, TEST_SHOP, { page: 2, pageSize: 2 });
    expect(second.events.map((e) => [e.eventId, e.eventType, e.state])).toEqual([["0", "share-tracked", "received"]]);
    expect(second.hasNext).toBe(false);
  });
});
