import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { action as ordersCancelled } from "../../../app/routes/webhooks.orders.cancelled";
import { action as ordersCreate } from "../../../app/routes/webhooks.orders.create";
import { action as ordersPaid } from "../../../app/routes/webhooks.orders.paid";
import { action as refundsCreate } from "../../../app/routes/webhooks.refunds.create";
import { shopifyOrder, shopifyRefund } from "../../support/orders";
import { resetDatabase } from "../../support/database";
import { installShop } from "../../support/sessions";
import { routeArgs, signedWebhook, TEST_SHOP } from "../../support/shopify-requests";
import { deliveriesPlanned, expectUnreadable } from "../../support/kept-deliveries";

type Action = typeof ordersPaid;

/** The route's answer, once what it accepted is planned. */
async function deliver(action: Action, request: Request): Promise<Response> {
  try {
    return await action(routeArgs(request));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  } finally {
    await deliveriesPlanned();
  }
}

const referredOrder = (id: number) =>
  shopifyOrder({ id, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] });

describe("order webhooks", () => {
  beforeEach(resetDatabase);

  it("stores a job and a queued record for a referred order, and answers 200 without calling the service", async () => {
    await installShop();
    // Within the day a delivery may be old (older ones are refused: test/entry/webhooks/webhook-binding.test.ts).
    const triggeredAt = new Date(Date.now() - 3_600_000).toISOString();
    const response = await deliver(
      ordersPaid,
      signedWebhook({ topic: "orders/paid", body: referredOrder(7001), webhookId: "wh-7001", triggeredAt }),
    );

    expect(response.status).toBe(200);
    const job = await prisma.job.findFirstOrThrow({ where: { shop: TEST_SHOP } });
    expect(job).toMatchObject({ kind: "order.record", status: "queued", webhookId: "wh-7001", key: `${TEST_SHOP}:order.record:7001` });
    expect(job.triggeredAt?.toISOString()).toBe(triggeredAt);
    // The order's signals are kept for its job, which decides which code wins.
    expect(JSON.parse(job.payload).event).toMatchObject({ signals: { cartAttribute: "ALICE10" }, params: { transactionUid: "7001" } });
    const record = await prisma.orderRecord.findFirstOrThrow({ where: { shop: TEST_SHOP, orderId: "7001" } });
    expect(record).toMatchObject({ status: "queued", shortCode: "ALICE10", codeSource: "cart_attribute", revenue: "90.00" });
  });

  it("collapses duplicate deliveries into one job", async () => {
    await installShop();
    const body = referredOrder(7002);
    for (let i = 0; i < 3; i++) {
      const response = await deliver(ordersPaid, signedWebhook({ topic: "orders/paid", body, webhookId: `wh-dup-${i}` }));
      expect(response.status).toBe(200);
    }
    expect(await prisma.job.count({ where: { shop: TEST_SHOP } })).toBe(1);
    expect(await prisma.orderRecord.count({ where: { shop: TEST_SHOP } })).toBe(1);
  });

  it("refuses a forged delivery with 401 and stores nothing", async () => {
    await installShop();
    const response = await deliver(
      ordersPaid,
      signedWebhook({ topic: "orders/paid", body: referredOrder(7003), secret: "someone-else" }),
    );
    expect(response.status).toBe(401);
    expect(await prisma.job.count()).toBe(0);
  });

  it("refuses a signed delivery for a shop without a session with 403, and queues nothing", async () => {
    const response = await deliver(ordersPaid, signedWebhook({ topic: "orders/paid", body: referredOrder(7004) }));
    expect([response.status, await response.text()]).toEqual([403, "The app is not installed on this shop."]);
    expect(await prisma.job.count()).toBe(0);
    expect(await prisma.orderRecord.count()).toBe(0);
  });

  it("answers a forged delivery 401 whether the shop has the app or not (the signature is checked first)", async () => {
    await installShop();
    const forged = (shop: string) => signedWebhook({ topic: "orders/paid", shop, body: referredOrder(7005), secret: "someone-else" });
    const installed = await deliver(ordersPaid, forged(TEST_SHOP));
    const other = await deliver(ordersPaid, forged("no-app-here.myshopify.com"));
    expect([other.status, await other.text()]).toEqual([installed.status, await installed.text()]);
    expect(other.status).toBe(401);
    expect(await prisma.job.count()).toBe(0);
  });

  it("refuses a signed body that is not an order, saying why", async () => {
    await installShop();
    const response = await deliver(ordersPaid, signedWebhook({ topic: "orders/paid", body: { name: "#1", email: 5 } }));
    await expectUnreadable(response, /Malformed payload: .*id/);
    expect(await prisma.job.count()).toBe(0);
  });

  it("keeps a record waiting for its web pixel signal, without a recording job, for an order with no code", async () => {
    await installShop();
    await deliver(ordersPaid, signedWebhook({ topic: "orders/paid", body: shopifyOrder({ id: 7005 }) }));
    // Only the shop's pixel sweep, booked for the end of the order's wait
    expect(await prisma.job.findMany({ select: { kind: true } })).toEqual([{ kind: "pixel.sweep" }]);
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { orderId: "7005" } })).toMatchObject({
      status: "awaiting_signal",
      statusReason: "No referral code on the order yet: waiting up to 30 minutes for the web pixel's signal",
      heldEvent: expect.any(String),
    });
  });

  it("keeps a not-referred record, without a job, for an order with no code placed too long ago for a signal to come", async () => {
    await installShop();
    await deliver(ordersPaid, signedWebhook({ topic: "orders/paid", body: shopifyOrder({ id: 7007, createdAt: new Date(Date.now() - 2 * 60 * 60_000) }) }));
    expect(await prisma.job.count()).toBe(0);
    expect(await prisma.orderRecord.findFirstOrThrow({ where: { orderId: "7007" } })).toMatchObject({
      status: "not_referred",
      statusReason: "No referral link code or discount code on the order",
      heldEvent: null,
    });
  });

  it("acts on orders/create only when the shop chose it", async () => {
    await installShop();
    await deliver(ordersCreate, signedWebhook({ topic: "orders/create", body: referredOrder(7006) }));
    expect(await prisma.job.count()).toBe(0);

    await prisma.shop.create({ data: { shop: TEST_SHOP, trigger: "orders_create" } });
    await deliver(ordersCreate, signedWebhook({ topic: "orders/create", body: referredOrder(7006) }));
    await deliver(ordersPaid, signedWebhook({ topic: "orders/paid", body: referredOrder(7007) }));
    expect((await prisma.job.findMany()).map((j) => j.key)).toEqual([`${TEST_SHOP}:order.record:7006`]);
  });

  it("queues a cancellation and each refund once", async () => {
    await installShop();
    const order = referredOrder(7008);
    const refund = shopifyRefund(7008, ["30.00"]);
    await deliver(ordersCancelled, signedWebhook({ topic: "orders/cancelled", body: order }));
    await deliver(ordersCancelled, signedWebhook({ topic: "orders/cancelled", body: order }));
    await deliver(refundsCreate, signedWebhook({ topic: "refunds/create", body: refund }));
    await deliver(refundsCreate, signedWebhook({ topic: "refunds/create", body: refund }));

    const jobs = await prisma.job.findMany({ orderBy: { kind: "asc" } });
    expect(jobs.map((j) => j.kind)).toEqual(["order.cancel", "order.refund"]);
    expect(JSON.parse(jobs[1]!.payload)).toEqual({ orderId: "7008", refundId: String(refund.id), amount: "30.00" });
  });
});
