// Orders in the states the admin pages act on, made by the real pipeline
// against the sandbox (no hand-written job rows), and the service's pending
// commissions, added through the shop's own client.
import prisma from "../../../app/wiring/db.server";
import { storeOrderWebhook } from "../../../app/wiring/order-intake.server";
import type { SandboxHandle } from "../../../sandbox/server";
import { shopifyOrder, type OrderOptions } from "../../support/orders";
import { clearSandboxFaults, connectShop, sandboxFaults, shopServiceClient, type TestPipeline } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
let nextOrder = 8_200_000;

export const byLink: OrderOptions = { noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] };

export async function receiveOrder(options: OrderOptions = {}, shop = TEST_SHOP): Promise<string> {
  const order = shopifyOrder({ id: nextOrder++, ...byLink, ...options });
  await storeOrderWebhook({
    topic: "ORDERS_PAID",
    shop,
    payload: order,
    webhookId: null,
    triggeredAt: null
  });
  return String(order.id);
}

export async function cancelOrder(orderId: string, shop = TEST_SHOP): Promise<void> {
  await storeOrderWebhook({
    topic: "ORDERS_CANCELLED",
    shop,
    payload: { id: Number(orderId) },
    webhookId: null,
    triggeredAt: null
  });
}

/** An order whose recording gave up after every attempt failed during a service outage. */
export async function failedOrder(
  sandbox: SandboxHandle,
  pipeline: TestPipeline,
  shop = TEST_SHOP,
  options: OrderOptions = {}
): Promise<string> {
  const orderId = await receiveOrder(options, shop);
  await sandboxFaults(sandbox, { failNext: 1_000, operations: ["event/record", "event/multi_record"] });
  for (let i = 0; i < 16; i++) {
    await pipeline.drain();
    pipeline.advance(5 * 60 * 60_000);
  }
  await clearSandboxFaults(sandbox);
  return orderId;
}

export const recordOf = (orderId: string, shop = TEST_SHOP) =>
  prisma.orderRecord.findUniqueOrThrow({ where: { shop_orderId: { shop, orderId } } });

export const recordJobOf = (orderId: string, shop = TEST_SHOP) =>
  prisma.job.findUniqueOrThrow({ where: { key: `${shop}:order.record:${orderId}` } });

/** The shop installed and connected (campaign 1001), and `count` pending commissions added to the service's, one ambassador and friend each. */
export async function connectWithPendingCommissions(sandbox: SandboxHandle, count: number): Promise<void> {
  await installShop();
  await connectShop(sandbox, { campaignUids: "1001" });
  const client = await shopServiceClient();
  for (let i = 0; i < count; i += 1) {
    await client.addCommission({
      email: `ambassador${i}@example.com`,
      autoCreate: true,
      campaignUid: "1001",
      amount: `${(5 + (i % 7)).toFixed(2)}`,
      revenue: `${(50 + i).toFixed(2)}`,
      customerEmail: `friend${i}@example.com`,
      isApproved: false,
    });
  }
}
