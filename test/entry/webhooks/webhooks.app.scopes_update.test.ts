import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { DEFAULT_SCOPES, getEnv } from "../../../app/wiring/env.server";
import { action } from "../../../app/routes/webhooks.app.scopes_update";
import { resetDatabase } from "../../support/database";
import { installShop } from "../../support/sessions";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { routeArgs, signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

// The route asks Shopify which scopes the shop granted (the body does not name the shop, and the header is not
// signed): its Admin API is a stand-in on loopback, its origin set on the parsed environment.
const shopify = new ShopifyAdminStandIn();
let served: Awaited<ReturnType<ShopifyAdminStandIn["serve"]>>;
beforeAll(async () => {
  served = await shopify.serve();
  getEnv().SHOPIFY_ADMIN_API_ORIGIN = served.origin;
});
afterAll(async () => {
  getEnv().SHOPIFY_ADMIN_API_ORIGIN = undefined;
  await served?.close();
});

async function respond(request: Request): Promise<Response> {
  try {
    return await action(routeArgs(request));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const OPTIONAL = ["write_customers", "read_store_credit_accounts", "write_store_credit_account_transactions"];
const scopeOf = async (shop: string) => (await prisma.session.findFirstOrThrow({ where: { shop } })).scope;
const update = (current: unknown, options: { shop?: string; secret?: string } = {}) =>
  signedWebhook({
    topic: "app/scopes_update",
    shop: options.shop,
    secret: options.secret,
    body: { id: 1, shop_id: 548_380_009, previous: DEFAULT_SCOPES.split(","), current, updated_at: new Date().toISOString() },
  });

describe("webhooks/app/scopes_update", () => {
  beforeEach(async () => {
    await resetDatabase();
    shopify.grantedScopes = DEFAULT_SCOPES.split(",");
  });

  it("stores the scopes Shopify says the shop grants on the shop's session, and no other shop's", async () => {
    await installShop();
    await installShop("other-shop.myshopify.com");
    shopify.grantedScopes = ["read_orders", "read_customers"];

    const response = await respond(update(["read_orders", "read_customers"]));

    expect(response.status).toBe(200);
    expect(await scopeOf(TEST_SHOP)).toBe("read_orders,read_customers");
    expect(await scopeOf("other-shop.myshopify.com")).toBe(DEFAULT_SCOPES);
  });

  it("takes the scopes from Shopify, not from the body", async () => {
    await installShop();
    const response = await respond(update(["read_orders"]));
    expect(response.status).toBe(200);
    expect(await scopeOf(TEST_SHOP)).toBe(DEFAULT_SCOPES);
  });

  it("refuses a forged signature with 401 and changes nothing", async () => {
    await installShop();
    shopify.grantedScopes = ["read_orders"];
    const response = await respond(update(["read_orders"], { secret: "not-the-app-secret" }));
    expect(response.status).toBe(401);
    expect(await scopeOf(TEST_SHOP)).toBe(DEFAULT_SCOPES);
  });

  it("answers 200 without a session (uninstalled meanwhile), whatever the body", async () => {
    expect((await respond(update(["read_orders"]))).status).toBe(200);
    expect((await respond(update("read_orders"))).status).toBe(200);
  });
});

describe("webhooks/app/scopes_update: optional scopes revoked", () => {
  beforeEach(resetDatabase);

  const features = async () => prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP }, select: { storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true } });

  it("turns off what can no longer work, and only that", async () => {
    // GIVEN a shop that granted the optional scopes and turned on store credit payouts and tagging
    await installShop();
    await prisma.shop.create({ data: { shop: TEST_SHOP, storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true } });

    // WHEN the merchant revokes the store credit scopes
    shopify.grantedScopes = [...DEFAULT_SCOPES.split(","), "write_customers"];
    expect((await respond(update(shopify.grantedScopes))).status).toBe(200);
    // THEN store credit payouts are off, tagging stays on
    expect(await features()).toEqual({ storeCreditPayouts: false, tagContacts: true, shareLinkMetafield: true });

    // WHEN write_customers goes too
    shopify.grantedScopes = DEFAULT_SCOPES.split(",");
    expect((await respond(update(shopify.grantedScopes))).status).toBe(200);
    expect(await features()).toEqual({ storeCreditPayouts: false, tagContacts: false, shareLinkMetafield: false });
    expect(await scopeOf(TEST_SHOP)).toBe(DEFAULT_SCOPES);
  });

  it("a body that says the scopes were revoked turns nothing off while Shopify still grants them", async () => {
    await installShop();
    await prisma.shop.create({ data: { shop: TEST_SHOP, storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true } });
    shopify.grantedScopes = [...DEFAULT_SCOPES.split(","), ...OPTIONAL];
    expect((await respond(update(DEFAULT_SCOPES.split(",")))).status).toBe(200);
    expect(await features()).toEqual({ storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true });
  });

  it("answers 503 (Shopify delivers it again) and changes nothing when Shopify cannot be asked just now", async () => {
    await installShop();
    await prisma.shop.create({ data: { shop: TEST_SHOP, storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true } });
    const origin = getEnv().SHOPIFY_ADMIN_API_ORIGIN;
    getEnv().SHOPIFY_ADMIN_API_ORIGIN = "http://127.0.0.1:9";
    try {
      expect((await respond(update(DEFAULT_SCOPES.split(",")))).status).toBe(503);
    } finally {
      getEnv().SHOPIFY_ADMIN_API_ORIGIN = origin;
    }
    expect(await features()).toEqual({ storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true });
  });
});
