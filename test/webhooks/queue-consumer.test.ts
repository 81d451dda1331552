import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { storeOrderWebhook } from "../../app/wiring/order-intake.server";
import type { OrderWebhook } from "../../app/referrals/order-intake";
import { createQueueConsumer, eventBridgeDelivery, pubSubDelivery, type QueuedDelivery, type Settlement } from "../../app/webhooks/queued-delivery.server";
import { shopifyOrder } from "../support/orders";
import { connectShop, sandboxCommissions, testPipeline, useTestSandbox } from "../support/pipeline";
import { TEST_SHOP } from "../support/shopify-requests";

// The queue consumer entry point (Pub/Sub or EventBridge delivery) fed from
// an in-memory queue that redelivers what is not acknowledged, as a cloud
// queue does: the same intake as the HTTP path, each order once at the
// service whatever is delivered twice or fails on the way.

const sandbox = useTestSandbox();
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

const headersOf = (topic: string, order: { id: unknown }, webhookId = `wh-${idOf(order)}`) => ({
  "X-Shopify-Topic": topic,
  "X-Shopify-Shop-Domain": TEST_SHOP,
  "X-Shopify-Webhook-Id": webhookId,
  "X-Shopify-API-Version": "2026-10",
  "X-Shopify-Triggered-At": new Date().toISOString(),
});

/** As Pub/Sub carries a webhook: the X-Shopify-* headers as attributes, the body base64-encoded. */
const pubSub = (topic: string, order: { id: unknown }, body = JSON.stringify(order)) =>
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
    const consume = createQueueConsumer(accept, { warn: (...args: unknown[]) => log.push(args) } as never);
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
    expect(outcomes.filter((o) => o === "ack:refused")).toHaveLength(3);
    expect(log).toHaveLength(4);
  });
});
