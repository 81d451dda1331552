import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { ORDER_LINE_ITEMS_QUERY, ORDERS_PER_PAGE, ORDERS_QUERY, REFUND_QUERY } from "../../../app/domains/order-sync/order-query";
import { CREDITS_PER_PAGE } from "../../../app/domains/service-events/shopify-customers.server";
import { ORDER_SELLING_PLANS_QUERY } from "../../../app/domains/referrals/selling-plan.server";
import { adminCall } from "../../../app/platform/shopify-admin/admin-call.server";
import { AdminCallError } from "../../../app/platform/shopify-admin/admin-graphql.server";
import { shopifyOrder } from "../../support/orders";
import { appDocuments } from "../../support/admin-documents";
import { MAX_QUERY_COST, operationOf, queryCost } from "../../support/admin-query-cost";
import { adminSchema } from "../../support/admin-schema";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";

// Every Admin GraphQL document the app sends, priced by Shopify's documented
// rules at the sizes the app sends it, against Shopify's 1,000 a query.

const schema = adminSchema();
const price = (text: string, variables: Record<string, unknown> = {}) => queryCost(schema, parse(text), variables);

/** The page sizes the app hands as variables, by operation (a document paged by a variable not named here cannot be priced, and fails). */
const SENT_SIZES: Record<string, Record<string, unknown>> = {
  OrdersPage: { first: ORDERS_PER_PAGE },
  ReferralBridgeStoreCredits: { first: CREDITS_PER_PAGE },
};

const documents = appDocuments().map((d) => ({ ...d, operation: operationOf(parse(d.text)).name?.value ?? "anonymous" }));

describe("Shopify's cost rules", () => {
  it("scalars and enums 0, an object 1, a connection 2 plus first × one node, nested connections multiplying", () => {
    expect(price("query { shop { id name currencyCode } }")).toBe(1);
    expect(price("query { shop { id billingAddress { city } } }")).toBe(2);
    // shopify.dev's own example: 2 + 10 × (1 + 2 + 5 × 1).
    expect(price("query { products(first: 10) { edges { node { title variants(first: 5) { edges { node { price } } } } } } }")).toBe(82);
    expect(price("query P($n: Int!) { products(first: $n) { nodes { id } pageInfo { hasNextPage } } }", { n: 3 })).toBe(2 + 3 + 1);
    // A list with `first`: that many elements.
    expect(price('query { order(id: "gid://shopify/Order/1") { refunds(first: 4) { id } } }')).toBe(1 + 4);
  });

  it("a mutation costs 10; a union the dearest of its types' selections", () => {
    expect(price('mutation { tagsAdd(id: "gid://shopify/Customer/1", tags: ["a"]) { node { id } userErrors { message } } }')).toBe(10);
    const union = `query { codeDiscountNodeByCode(code: "A") { codeDiscount {
      ... on DiscountCodeBasic { codes(first: 3) { nodes { code } } }
      ... on DiscountCodeFreeShipping { title } } } }`;
    expect(price(union)).toBe(1 + 1 + 2 + 3);
  });

  it("given the answer, the actual cost counts what came back", () => {
    const document = parse("query { products(first: 10) { nodes { id variants(first: 5) { nodes { id } } } } }");
    expect(queryCost(schema, document)).toBe(2 + 10 * (1 + 2 + 5));
    const data = { products: { nodes: [{ id: "1", variants: { nodes: [{ id: "v" }] } }] } };
    expect(queryCost(schema, document, {}, data)).toBe(2 + (1 + 2 + 1));
  });

  it("a connection without a page size, or a size the call does not give, is an error, not a guess", () => {
    expect(() => price("query P($n: Int) { products(first: $n) { nodes { id } } }")).toThrow(/names no page size/);
  });
});

describe("the app's Admin documents, at the sizes the app sends them", () => {
  it("are all found in app/, filled in as the app sends them", () => {
    const texts = documents.map((d) => d.text);
    for (const sent of [ORDERS_QUERY, ORDER_LINE_ITEMS_QUERY, REFUND_QUERY]) expect(texts).toContain(sent);
    expect(new Set(documents.map((d) => d.file))).toEqual(
      new Set([
        "app/platform/shopify-admin/access-scopes.server.ts",
        "app/platform/shopify-admin/customer-lookup.server.ts",
        "app/platform/shopify-admin/shop-currency.server.ts",
        "app/domains/offers/offer-admin.server.ts",
        "app/domains/offers/offer-metafield.server.ts",
        "app/domains/order-sync/order-query.ts",
        "app/domains/order-sync/web-pixel.server.ts",
        "app/domains/order-sync/storefront-health.server.ts",
        "app/domains/customer-metafields/customer-documents.server.ts",
        "app/domains/service-events/shopify-customers.server.ts",
        "app/domains/flow-triggers/send-trigger.server.ts",
        "app/domains/referrals/selling-plan.server.ts",
      ]),
    );
    expect(documents.length).toBeGreaterThanOrEqual(33);
  });

  it("a subscription order's selling plans: 50 line items at 103 points", () => {
    expect(price(ORDER_SELLING_PLANS_QUERY, { id: "gid://shopify/Order/1" })).toBe(1 + 2 + 50 * (1 + 1));
  });

  it.each(documents.map((d) => [d.operation, d] as const))("%s is requested at no more than Shopify's 1,000", (_name, document) => {
    const cost = price(document.text, SENT_SIZES[document.operation] ?? {});
    expect(cost, `${document.operation} (${document.file})`).toBeLessThanOrEqual(MAX_QUERY_COST);
  });
});

describe("the Admin stand-in prices each query as Shopify does", () => {
  const page = (first: number) => ({ query: "updated_at:>='2000-01-01T00:00:00Z'", first, after: null, sortKey: "UPDATED_AT" });

  it("refuses a query requested above 1,000 before running it, with Shopify's MAX_COST_EXCEEDED, charging nothing", async () => {
    const shopify = new ShopifyAdminStandIn();
    const before = shopify.bucket.currentlyAvailable;
    const tooMany = 25;
    const cost = price(ORDERS_QUERY, page(tooMany));
    expect(cost).toBeGreaterThan(MAX_QUERY_COST);

    const answer = shopify.answer(ORDERS_QUERY, page(tooMany)) as { data?: unknown; errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(answer.data).toBeUndefined();
    expect(answer.errors).toHaveLength(1);
    expect(answer.errors[0]!.message).toMatch(new RegExp(`^Query cost is ${cost}, which exceeds the single query max cost limit \\(1000\\)`));
    expect(answer.errors[0]!.extensions).toEqual({ code: "MAX_COST_EXCEEDED", cost, maxCost: 1000, documentation: "https://shopify.dev/api/usage/rate-limits" });
    expect(shopify.callsOf("OrdersPage")).toEqual([expect.objectContaining({ outcome: "too-costly" })]);
    expect(shopify.refused).toHaveLength(1);
    expect(shopify.bucket.currentlyAvailable).toBeGreaterThanOrEqual(before);

    // The app's call fails for good, with Shopify's words; it is not taken for a throttle and retried.
    const sleeps: number[] = [];
    const call = adminCall({ admin: shopify, sleep: async (ms) => void sleeps.push(ms) }, ORDERS_QUERY, page(tooMany));
    await expect(call).rejects.toBeInstanceOf(AdminCallError);
    await expect(call).rejects.toThrow(/Shopify refused the request: Query cost is \d+, which exceeds the single query max cost limit/);
    expect(sleeps).toEqual([]);
  });

  it("answers a query within the limit with its requested and actual cost and the bucket, charging what the answer held", () => {
    const shopify = new ShopifyAdminStandIn();
    shopify.orders.add(shopifyOrder({ id: 6_560_000_000_001 }));
    const answer = shopify.answer(ORDERS_QUERY, page(ORDERS_PER_PAGE)) as {
      extensions: { cost: { requestedQueryCost: number; actualQueryCost: number; throttleStatus: { maximumAvailable: number; currentlyAvailable: number; restoreRate: number } } };
    };
    const { requestedQueryCost, actualQueryCost, throttleStatus } = answer.extensions.cost;
    expect(requestedQueryCost).toBe(price(ORDERS_QUERY, page(ORDERS_PER_PAGE)));
    // One order of ten, with one line item of five and no refund.
    expect(actualQueryCost).toBeLessThan(requestedQueryCost / 5);
    expect(actualQueryCost).toBeGreaterThan(0);
    expect(throttleStatus.maximumAvailable - throttleStatus.currentlyAvailable).toBeLessThanOrEqual(actualQueryCost + 1);
    expect(shopify.refused).toEqual([]);
  });
});
