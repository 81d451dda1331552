// "Payout credited as store credit" from where the app learns it: a signed
// payout-created delivery to the app's receiving route, the jobs run by the
// app's worker, and Shopify (store credit and Flow) as the Admin stand-in.
import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { getEnv } from "../../../app/wiring/env.server";
import { action as receiveAction } from "../../../app/routes/referral-webhooks.$endpointId";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { SIGNATURE_HEADER, signServiceBody } from "../../../app/domains/service-events/signature.server";
import { resetDatabase } from "../../support/database";
import { testPipeline, type TestPipeline } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { TEST_SHOP } from "../../support/shopify-requests";

// The service's events are recent: an event older than its replay window is refused, so a fixed date goes stale.
const recentServiceTime = () => new Date(Date.now() - 60 * 60_000).toISOString().slice(0, 19);

let pipeline: TestPipeline;
let shopify: ShopifyAdminStandIn;
let endpoint: { endpointId: string; secret: string };

beforeEach(async () => {
  await resetDatabase();
  await installShop();
  endpoint = await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY });
  await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { storeCreditPayouts: true, payoutCurrency: "USD" } });
  pipeline = testPipeline();
  shopify = new ShopifyAdminStandIn();
  shopify.customers.now = () => pipeline.ctx.now();
  pipeline.ctx.adminForShop = shopify.access();
});

let nextEvent = 91_000;
async function deliverPayout(id: number, amount: string, eventId = nextEvent++): Promise<void> {
  const body = JSON.stringify({
    webhook_version: 0.4,
    created_at: new Date().toISOString().slice(0, 19),
    event_id: eventId,
    event_type: "payout-created",
    event_data: {
      contact: { id: 101, first_name: "Alice", last_name: "Archer", email: "alice@example.com", internal_id: "" },
      payout: { id, created_at: recentServiceTime(), amount, unit: "money", payment_method: "storeplatform", gift_card_sku: null, voucher_code: null, transaction_id: null },
    },
  });
  const request = new Request(`https://referral-bridge.test/referral-webhooks/${endpoint.endpointId}`, {
    method: "POST",
    headers: { "content-type": "application/json", [SIGNATURE_HEADER]: signServiceBody(endpoint.secret, body) },
    body,
  });
  const response = await receiveAction({ request, params: { endpointId: endpoint.endpointId }, context: {} });
  expect(response.status).toBe(200);
}

async function drainWithRetries(rounds = 3) {
  for (let round = 0; round < rounds; round++) {
    await pipeline.drain();
    pipeline.advance(30 * 60_000);
  }
}

describe("Payout credited as store credit", () => {
  it("is sent once the credit landed, once per payout however often the service delivers it", async () => {
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    const alice = shopify.customers.add("alice@example.com");
    await deliverPayout(5501, "12.50", 91_500);
    await deliverPayout(5501, "12.50", 91_501);
    await drainWithRetries();
    const received = shopify.flow.receivedOf("payout-store-credit");
    console.log("stand-in received payout-store-credit:", JSON.stringify(received));
    expect(received).toEqual([
      {
        handle: "payout-store-credit",
        payload: { customer_id: Number(alice.id.split("/").pop()), "Ambassador email": "alice@example.com", Amount: 12.5, Currency: "USD", "Payout id": "5501" },
      },
    ]);
  });

  it("is not sent when the shop has Flow off", async () => {
    shopify.customers.add("alice@example.com");
    await deliverPayout(5502, "10.00");
    await drainWithRetries();
    expect((await prisma.payoutCredit.findFirstOrThrow({ where: { shop: TEST_SHOP } })).state).toBe("credited");
    expect(shopify.flow.received).toEqual([]);
    expect(await prisma.job.count({ where: { kind: "flow.trigger" } })).toBe(0);
  });
});
