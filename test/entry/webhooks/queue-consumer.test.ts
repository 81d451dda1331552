import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { createLogger } from "../../../app/platform/logger/logger.server";
import { intakeOver, intakeStoreFor, keepRefusal, queueConsumerFor, shopHasSession } from "../../../app/wiring/order-intake.server";
import { cachedShopCheck, NOT_INSTALLED_KEPT_MS } from "../../../app/entry/webhooks/installed-shops";
import type { OrderWebhook } from "../../../app/domains/referrals/order-intake";
import { createQueueConsumer, eventBridgeDelivery, pubSubDelivery, type QueueConsumerDeps, type QueuedDelivery, type Settlement } from "../../../app/entry/webhooks/queued-delivery.server";
import { shopifyOrder, shopifyRefund } from "../../support/orders";
import { connectShop, sandboxCommissions, testPipeline, useTestSandbox } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";
import { deliveriesPlanned, plannedStore } from "../../support/kept-deliveries";

// The queue consumer entry point (Pub/Sub or EventBridge delivery) fed from
// an in-memory queue that redelivers what is not acknowledged, as a cloud
// queue does: the same intake as the HTTP path, each order once at the
// service whatever is delivered twice or fails on the way.

const sandbox = useTestSandbox();

// The app's intake, each delivery answered with what became of it (on SQLite it is kept, then planned: decision 022).
const quiet = createLogger({ level: "silent" });
const intake = intakeOver(plannedStore(intakeStoreFor(process.env.DATABASE_URL!)), quiet);
const storeOrderWebhook = (hook: OrderWebhook) => intake.store(hook);
beforeEach(() => connectShop(sandbox));

/** A queue in memory: hands out messages, forgets acknowledged ones, puts the others back at the end. */
class InMemoryQueue {
  private waiting: { id: number; delivery: QueuedDelivery; attempts: number }[] = [];
  readonly settled: Settlement[] = [];
  private nextId = 0;

  publish(delivery: QueuedDelivery): void {
    this.waiting.push({ id: this.nextId++, delivery, attempts: 0 });
  }

  async consumeAll(consume: (delivery: QueuedDelivery) => Promise<Settlement>, maxAttempts = 5): Promise<void> {
    while (this.waiting.length > 0) {
      const message = this.waiting.shift()!;
      message.attempts += 1;
      const settlement = await consume(message.delivery);
      this.settled.push(settlement);
      if (settlement.settle === "retry" && message.attempts < maxAttempts) this.waiting.push(message);
    }
  }
}

/** An order's id as its digits (sample orders keep 64-bit ids exact as raw JSON). */
const idOf = (order: { id: unknown }) => JSON.stringify(order.id).replaceAll('"', "");

const headersOf = (topic: string, order: { id: unknown }, webhookId = `wh-${idOf(order)}`): Record<string, string> => ({
  "X-Shopify-Topic": topic,
  "X-Shopify-Shop-Domain": TEST_SHOP,
  "X-Shopify-Webhook-Id": webhookId,
  "X-Shopify-API-Version": "2026-10",
  "X-Shopify-Triggered-At": new Date().toISOString(),
});

/** As Pub/Sub carries a webhook: the X-Shopify-* headers as attributes, the body base64-encoded. */
const pubSub = (topic: string, order: { id: unknown; [field: string]: unknown }, body = JSON.stringify(order)) =>
  pubSubDelivery({ attributes: headersOf(topic, order), data: Buffer.from(body).toString("base64") });

/** As EventBridge carries one: the raw event's text, headers in detail.metadata, the order in detail.payload. */
const eventBridge = (topic: string, order: { id: unknown }) =>
  eventBridgeDelivery(
    `{"version":"0","detail-type":"shopifyWebhook","source":"aws.partner/shopify.com/1234/referral-bridge","detail":{"metadata":${JSON.stringify(headersOf(topic, order))},"payload":${JSON.stringify(order)}}}`,
  );

const referred = (id: bigint) => shopifyOrder({ id, email: `queue-${id}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });

describe("the queue consumer entry point", () => {
  it("stores each order once from either queue, refuses what is not an order webhook, and survives a store that fails once", async () => {
    const log: unknown[] = [];
    let failOnce = true;
    const accept = (hook: OrderWebhook) => {
      if (failOnce && hook.webhookId === "wh-7205817436110159003") {
        failOnce = false;
        return Promise.reject(new Error("the database is restarting"));
      }
      return storeOrderWebhook(hook);
    };
    const consume = createQueueConsumer({ store: accept, shopHasSession, keepRefusal, logger: { warn: (...args: unknown[]) => log.push(args) } as never });
    const queue = new InMemoryQueue();

    // GIVEN three orders (64-bit ids), one delivered by both queues and once more by Pub/Sub, one whose first store fails
    const [a, b, c] = [referred(7205817436110159001n), referred(7205817436110159002n), referred(7205817436110159003n)];
    queue.publish(pubSub("orders/paid", a));
    queue.publish(eventBridge("orders/paid", b));
    queue.publish(pubSub("orders/paid", a));
    queue.publish(eventBridge("orders/paid", a));
    queue.publish(pubSub("orders/paid", c));
    // AND what must be refused without harming the others
    queue.publish(pubSub("orders/paid", { id: "7205817436110159004" }, '{"id": 7205817436110159004, "email": '));
    queue.publish(pubSub("orders/paid", { ...referred(7205817436110159005n), line_items: "many" }));
    queue.publish(pubSub("products/update", a));
    queue.publish(pubSubDelivery({ attributes: { ...headersOf("orders/paid", b), "X-Shopify-Shop-Domain": "evil.example.com" }, data: Buffer.from(JSON.stringify(b)).toString("base64") }));
    queue.publish(eventBridgeDelivery("not json"));

    // WHEN the queue is consumed and the jobs run
    await queue.consumeAll(consume);
    await testPipeline().drain();

    // THEN each of the three orders is at the service exactly once, under its exact id
    for (const order of [a, b, c]) {
      const id = idOf(order);
      expect(await sandboxCommissions(sandbox, id), id).toHaveLength(1);
      expect(await prisma.orderRecord.count({ where: { shop: TEST_SHOP, orderId: id } })).toBe(1);
    }
    // AND the repeats are duplicates, the failure was retried, the bad messages acknowledged as refused or malformed
    const outcomes = queue.settled.map((s) => `${s.settle}:${s.outcome}`);
    expect(outcomes.filter((o) => o === "ack:queued")).toHaveLength(3);
    expect(outcomes.filter((o) => o === "ack:duplicate")).toHaveLength(2);
    expect(outcomes.filter((o) => o === "retry:refused")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "ack:malformed")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "ack:refused")).toHaveLength(4);
    expect(log).toHaveLength(5);
    // AND the two orders of the shop that could not be read are kept for its merchant, saying why; the product update, the
    // message naming no shop of Shopify's and the one naming none are not
    const kept = await prisma.refusedDelivery.findMany({ orderBy: { id: "asc" }, select: { shop: true, topic: true, reason: true } });
    expect(kept).toEqual([
      { shop: TEST_SHOP, topic: "orders/paid", reason: "the body is not JSON" },
      { shop: TEST_SHOP, topic: "orders/paid", reason: 'line_items: expected a list, received string "many"' },
    ]);
  });

  it("hands a refused order back when the refusal cannot be kept for the merchant, and acknowledges it once it is", async () => {
    let keeping: QueueConsumerDeps["keepRefusal"] = () => Promise.reject(new Error("the database is restarting"));
    const consume = createQueueConsumer({ store: storeOrderWebhook, shopHasSession, keepRefusal: (refusal) => keeping(refusal), logger: { warn: () => undefined } as never });
    const unreadable = pubSub("orders/paid", { id: "7205817436110159501" }, '{"id": 7205817436110159501, "email": ');
    expect(await consume(unreadable)).toEqual({ settle: "retry", outcome: "refused", detail: "the refusal could not be kept" });
    keeping = keepRefusal;
    expect(await consume(unreadable)).toEqual({ settle: "ack", outcome: "refused", detail: "the body is not JSON" });
    expect(await prisma.refusedDelivery.count()).toBe(1);
  });

  it("checks a message's attributes and the body's shape before trusting them, and stores only what is sound", async () => {
    const log: unknown[] = [];
    const consume = createQueueConsumer({ store: storeOrderWebhook, shopHasSession, keepRefusal, logger: { warn: (...args: unknown[]) => log.push(args) } as never });
    const order = referred(7205817436110159101n);
    const refund = shopifyRefund(7205817436110159101n, ["30.00"], 7205817436110159102n);
    const withHeaders = (topic: string, body: { id: unknown }, change: Record<string, string | undefined>) =>
      pubSubDelivery({ attributes: { ...headersOf(topic, body), ...change } as Record<string, string>, data: Buffer.from(JSON.stringify(body)).toString("base64") });
    const hour = 3_600_000;

    // GIVEN messages whose attributes or body cannot be trusted
    const refusals: [QueuedDelivery, RegExp][] = [
      [pubSub("orders/paid", refund), /not of orders\/paid's shape: a refund's body/],
      [pubSub("refunds/create", order), /not of refunds\/create's shape: a refund without the id of its order/],
      [pubSub("orders/cancelled", order), /a cancellation without cancelled_at/],
      [pubSub("orders/paid", { ...order, admin_graphql_api_id: "gid://shopify/Order/1" }), /admin_graphql_api_id is not the Order 7205817436110159101/],
      [pubSub("refunds/create", { ...refund, order_id: null }), /a refund without the id of its order/],
      [pubSub("orders/paid", { ...order, id: -5 }), /the body has no id/],
      [pubSub("orders/paid", order, "[1, 2]"), /not a JSON object/],
      [withHeaders("orders/paid", order, { "X-Shopify-Shop-Domain": `${TEST_SHOP}.evil.example` }), /not a shop's domain/],
      [withHeaders("orders/paid", order, { "X-Shopify-Webhook-Id": undefined }), /Webhook-Id is missing/],
      [withHeaders("orders/paid", order, { "X-Shopify-Webhook-Id": "<script>" }), /not a webhook id/],
      [withHeaders("orders/paid", order, { "X-Shopify-Triggered-At": undefined }), /Triggered-At is missing/],
      [withHeaders("orders/paid", order, { "X-Shopify-Triggered-At": "yesterday" }), /Triggered-At is missing or not a time/],
      [withHeaders("orders/paid", order, { "X-Shopify-Triggered-At": new Date(Date.now() - 25 * hour).toISOString() }), /more than a day ago/],
      [withHeaders("orders/paid", order, { "X-Shopify-Triggered-At": new Date(Date.now() + hour).toISOString() }), /in the future/],
    ];
    // WHEN each is consumed THEN it is acknowledged as refused, saying why, and nothing is stored
    for (const [delivery, reason] of refusals) {
      const settlement = await consume(delivery);
      expect(settlement, String(reason)).toMatchObject({ settle: "ack", outcome: "refused", detail: expect.stringMatching(reason) });
    }
    expect(log).toHaveLength(refusals.length);
    // AND each is kept for the merchant, but the one naming a domain that is not a shop's
    expect(await prisma.refusedDelivery.count({ where: { shop: TEST_SHOP } })).toBe(refusals.length - 1);
    expect(await prisma.refusedDelivery.count()).toBe(refusals.length - 1);
    expect(await prisma.job.count({ where: { key: { contains: "7205817436110159101" } } })).toBe(0);
    expect(await prisma.orderRecord.count({ where: { orderId: "7205817436110159101" } })).toBe(0);

    // AND the same order and refund, sound, are stored (a day-old delivery within the day is taken)
    const fresh = { "X-Shopify-Triggered-At": new Date(Date.now() - 23 * hour).toISOString() };
    expect(await consume(withHeaders("orders/paid", order, fresh))).toMatchObject({ settle: "ack", outcome: "queued" });
    expect(await consume(pubSub("refunds/create", refund))).toMatchObject({ settle: "ack", outcome: "queued" });
    expect(await consume(pubSub("orders/cancelled", { ...order, cancelled_at: "2026-11-21T10:00:00-05:00" }))).toMatchObject({ settle: "ack", outcome: "queued" });
  });

  it("settles a malformed order the same way on both databases: acknowledged as malformed, naming the field, and nothing kept", async () => {
    // The app's consumer over an intake of the app's, answered as the intake answers (on SQLite a sound message is "accepted": kept, planned in a moment).
    const intakeOfItsOwn = intakeOver(intakeStoreFor(process.env.DATABASE_URL!), quiet);
    const consume = queueConsumerFor(intakeOfItsOwn);
    try {
      // GIVEN orders of the right shape for the consumer's own checks, but with a field the intake cannot read
      const priceless = { ...referred(7205817436110159401n), total_price: { amount: "10.00", currency_code: "USD" } };
      const many = { ...referred(7205817436110159402n), line_items: "many" };
      // WHEN each is consumed THEN it is acknowledged as malformed, with the field named, and not kept for later
      expect(await consume(pubSub("orders/paid", priceless))).toEqual({ settle: "ack", outcome: "malformed", detail: "total_price: expected an amount, received an object" });
      expect(await consume(pubSub("orders/paid", many))).toEqual({ settle: "ack", outcome: "malformed", detail: 'line_items: expected a list, received string "many"' });
      expect(await prisma.pendingDelivery.count()).toBe(0);
      // AND a sound one beside them is taken
      expect(["accepted", "queued"]).toContain((await consume(pubSub("orders/paid", referred(7205817436110159403n)))).outcome);
      await deliveriesPlanned();
      expect(await prisma.orderRecord.findMany({ where: { orderId: { startsWith: "72058174361101594" } }, select: { orderId: true } })).toEqual([{ orderId: "7205817436110159403" }]);
      expect(await prisma.job.count({ where: { key: { contains: "72058174361101594" } } })).toBe(1);
    } finally {
      await intakeOfItsOwn.close();
    }
  });

  it("hands a message back when its shop cannot be checked", async () => {
    const consume = createQueueConsumer({
      store: storeOrderWebhook,
      shopHasSession: () => Promise.reject(new Error("the database is restarting")),
      keepRefusal,
      logger: { warn: () => undefined } as never,
    });
    expect(await consume(pubSub("orders/paid", referred(7205817436110159201n)))).toEqual({ settle: "retry", outcome: "refused", detail: "the shop could not be checked" });
    expect(await prisma.orderRecord.count({ where: { orderId: "7205817436110159201" } })).toBe(0);
  });

  it("hands a message back while its shop does not have the app, as the HTTP path answers 403, and stores it once the shop has installed", async () => {
    // The app's cached check over the shops' offline sessions, on a clock of the test's.
    let clock = Date.now();
    const hasSession = cachedShopCheck(async (shop) => (await prisma.session.count({ where: { id: `offline_${shop}` } })) > 0, () => clock);
    const log: unknown[] = [];
    const consume = createQueueConsumer({ store: storeOrderWebhook, shopHasSession: hasSession, keepRefusal, logger: { warn: (...args: unknown[]) => log.push(args) } as never });
    const shop = "just-installed.myshopify.com";
    const order = referred(7205817436110159301n);
    const delivery = pubSubDelivery({ attributes: { ...headersOf("orders/paid", order), "X-Shopify-Shop-Domain": shop }, data: Buffer.from(JSON.stringify(order)).toString("base64") });

    // GIVEN an order of a shop whose offline session is not stored yet (it is installing), on the queue
    const queue = new InMemoryQueue();
    queue.publish(delivery);
    // WHEN the queue delivers it, and the shop has installed before the queue delivers it again
    let installed = false;
    await queue.consumeAll(async (message) => {
      const settlement = await consume(message);
      if (!installed) {
        installed = true;
        await connectShop(sandbox, { shop });
        clock += NOT_INSTALLED_KEPT_MS + 1;
      }
      return settlement;
    });
    await testPipeline().drain();

    // THEN it was handed back first, then stored, and the order is at the service once
    expect(queue.settled).toEqual([
      { settle: "retry", outcome: "no_session", detail: `${shop} does not have the app installed (no session)` },
      { settle: "ack", outcome: "queued" },
    ]);
    expect(await sandboxCommissions(sandbox, idOf(order))).toHaveLength(1);
    expect(log).toHaveLength(0);

    // AND a delivery of a shop without the app stops coming back once it is a day old: refused as stale, acknowledged
    const stale = pubSubDelivery({
      attributes: { ...headersOf("orders/paid", order), "X-Shopify-Shop-Domain": "never-installed.myshopify.com", "X-Shopify-Triggered-At": new Date(Date.now() - 25 * 3_600_000).toISOString() },
      data: Buffer.from(JSON.stringify(order)).toString("base64"),
    });
    expect(await consume(stale)).toMatchObject({ settle: "ack", outcome: "refused", detail: expect.stringMatching(/more than a day ago/) });
  });
});
