import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { DEFAULT_SCOPES } from "../../../app/wiring/env.server";
import { action } from "../../../app/routes/webhooks.app.scopes_update";
import { resetDatabase } from "../../support/database";
import { installShop } from "../../support/sessions";
import { routeArgs, signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

async function respond(request: Request): Promise<Response> {
  try {
    return await action(routeArgs(request));
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const scopeOf = async (shop: string) => (await prisma.session.findFirstOrThrow({ where: { shop } })).scope;
const update = (current: unknown, options: { shop?: string; secret?: string } = {}) =>
  signedWebhook({
    topic: "app/scopes_update",
    shop: options.shop,
    secret: options.secret,
    body: { id: 1, previous: DEFAULT_SCOPES.split(","), current, updated_at: new Date().toISOString() },
  });

describe("webhooks/app/scopes_update", () => {
  beforeEach(resetDatabase);

  it("stores the scopes the merchant now grants on the shop's session, and no other shop's", async () => {
    await installShop();
    await installShop("other-shop.myshopify.com");

    const response = await respond(update(["read_orders", "read_customers"]));

    expect(response.status).toBe(200);
    expect(await scopeOf(TEST_SHOP)).toBe("read_orders,read_customers");
    expect(await scopeOf("other-shop.myshopify.com")).toBe(DEFAULT_SCOPES);
  });

  it("refuses a forged signature with 401 and changes nothing", async () => {
    await installShop();
    const response = await respond(update(["read_orders"], { secret: "not-the-app-secret" }));
    expect(response.status).toBe(401);
    expect(await scopeOf(TEST_SHOP)).toBe(DEFAULT_SCOPES);
  });

  it("answers 200 without a session (uninstalled meanwhile) and to a payload it cannot read", async () => {
    expect((await respond(update(["read_orders"]))).status).toBe(200);
    await installShop();
    expect((await respond(update("read_orders"))).status).toBe(200);
    expect(await scopeOf(TEST_SHOP)).toBe(DEFAULT_SCOPES);
  });
});

describe("webhooks/app/scopes_update: optional scopes revoked", () => {
  beforeEach(resetDatabase);

  const features = async () => prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP }, select: { storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true } });

  it("turns off what can no longer work, and only that", async () => {
    // GIVEN a shop that granted the optional scopes and turned on store credit payouts and tagging
    const all = [...DEFAULT_SCOPES.split(","), "write_customers", "read_store_credit_accounts", "write_store_credit_account_transactions"];
    await installShop();
    await prisma.shop.create({ data: { shop: TEST_SHOP, storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true } });

    // WHEN the merchant revokes the store credit scopes
    expect((await respond(update(all.filter((s) => !s.includes("store_credit"))))).status).toBe(200);
    // THEN store credit payouts are off, tagging stays on
    expect(await features()).toEqual({ storeCreditPayouts: false, tagContacts: true, shareLinkMetafield: true });

    // WHEN write_customers goes too
    expect((await respond(update(DEFAULT_SCOPES.split(",")))).status).toBe(200);
    expect(await features()).toEqual({ storeCreditPayouts: false, tagContacts: false, shareLinkMetafield: false });
    expect(await scopeOf(TEST_SHOP)).toBe(DEFAULT_SCOPES);
  });

  it("turns them off even when the delivery comes without the shop's session (its token could not be refreshed just then)", async () => {
    await prisma.shop.create({ data: { shop: TEST_SHOP, storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true } });
    expect((await respond(update(DEFAULT_SCOPES.split(",")))).status).toBe(200);
    expect(await features()).toEqual({ storeCreditPayouts: false, tagContacts: false, shareLinkMetafield: false });
  });
});
