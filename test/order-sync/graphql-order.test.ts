import { describe, expect, it } from "vitest";
import { GraphqlOrderError, numericId, orderWebhooks, restOrder } from "../../app/order-sync/graphql-order";
import { ORDERS_QUERY, type GraphqlOrder } from "../../app/order-sync/order-query";
import { readOrderEvent } from "../../app/referrals/order-event";
import { parseShopifyJson } from "../../app/referrals/lossless-json";
import { readOrderPayload } from "../../app/referrals/order-payload";
import { PIPELINE_DEFAULTS, readPipelineSettings } from "../../app/referrals/pipeline-settings";
import { shopifyOrder, type OrderOptions } from "../support/orders";
import { ShopifyAdminStandIn } from "../support/shopify-admin-standin";

// An order read back from the Admin API must read exactly as its webhook
// did: same fields, same attribution, same 64-bit ids.

const settings = readPipelineSettings({ ...PIPELINE_DEFAULTS, campaignUids: "1001" });

/** The sample order as a webhook delivers it, and as the stand-in answers ORDERS_QUERY for it. */
function bothWays(options: OrderOptions & { financialStatus?: string } = {}) {
  const sample = shopifyOrder(options);
  const shopify = new ShopifyAdminStandIn();
  shopify.orders.add(sample, { financialStatus: options.financialStatus });
  const answer = shopify.answer(ORDERS_QUERY, { query: "updated_at:>='2000-01-01T00:00:00Z'", first: 25, after: null, sortKey: "UPDATED_AT" }) as {
    data: { orders: { nodes: GraphqlOrder[] } };
  };
  expect(shopify.refused).toEqual([]);
  const order = answer.data.orders.nodes[0]!;
  return { webhook: readOrderPayload(parseShopifyJson(JSON.stringify(sample))), order };
}

describe("a GraphQL order as the intake reads it", () => {
  it("reads the fields attribution uses as the webhook gave them", () => {
    const { webhook, order } = bothWays({
      noteAttributes: [{ name: "_referral_code", value: "ALICE10" }],
      discountCodes: ["FRIEND-BOB"],
      landingSite: "/products/hoodie?mbsy=BOB20",
      taxesIncluded: true,
    });
    const read = readOrderPayload(restOrder(order, order.lineItems.nodes));
    for (const field of ["id", "name", "email", "test", "browser_ip", "currency", "taxes_included", "note_attributes", "discount_codes"] as const) {
      expect(read[field], field).toEqual(webhook[field]);
    }
    expect(read.customer).toMatchObject({ id: webhook.customer!.id, email: webhook.customer!.email });
    expect(read.shipping_address).toEqual(webhook.shipping_address);
    // GraphQL always says how many orders the customer has (the 2026-10 webhook no longer does); the landing page comes as a full URL.
    const asWebhook = { ...webhook, landing_site: read.landing_site, customer: { ...webhook.customer, orders_count: read.customer!.orders_count } };
    expect(read.landing_site).toMatch(/\/products\/hoodie\?mbsy=BOB20$/);
    expect(readOrderEvent(read, settings)).toEqual(readOrderEvent(asWebhook, settings));
    expect(readOrderEvent(read, settings).event?.params.revenue).toBe(readOrderEvent(webhook, settings).event?.params.revenue);
  });

  it("keeps 19-digit order and customer ids digit for digit", () => {
    const { order } = bothWays({ id: 9_007_199_254_740_993n, customerId: 7_210_000_000_000_000_123n });
    const read = readOrderPayload(restOrder(order, order.lineItems.nodes));
    expect(read.id).toBe("9007199254740993");
    expect(read.customer?.id).toBe("7210000000000000123");
  });

  it("makes the webhooks Shopify would have sent: created, paid once paid, cancelled once cancelled", () => {
    const { order } = bothWays();
    const topics = (o: GraphqlOrder) => orderWebhooks("shop.myshopify.com", o, { lineItems: o.lineItems.nodes, refunds: [], arrivedBy: "reconciliation" }).map((h) => h.topic);
    expect(topics(order)).toEqual(["ORDERS_CREATE", "ORDERS_PAID"]);
    expect(topics({ ...order, fullyPaid: false, displayFinancialStatus: "PENDING" })).toEqual(["ORDERS_CREATE"]);
    expect(topics({ ...order, cancelledAt: "2026-11-22T10:00:00Z" })).toEqual(["ORDERS_CREATE", "ORDERS_PAID", "ORDERS_CANCELLED"]);
  });

  it("refuses an id that is not the gid it should be", () => {
    expect(numericId("gid://shopify/Order/5640000000001", "Order")).toBe("5640000000001");
    expect(() => numericId("gid://shopify/Customer/1", "Order")).toThrow(GraphqlOrderError);
    expect(() => numericId("5640000000001", "Order")).toThrow(/expected a Order gid/);
    const { order } = bothWays();
    expect(() => restOrder({ ...order, legacyResourceId: "1" }, [])).toThrow(/legacyResourceId/);
  });
});
