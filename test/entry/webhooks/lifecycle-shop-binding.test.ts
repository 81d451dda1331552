import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { DEFAULT_SCOPES } from "../../../app/wiring/env.server";
import { RECONCILE_JOB } from "../../../app/domains/order-sync/job-kinds";
import { startAppServer, testAppEnv, type AppServer } from "../admin/app-server";
import { resetDatabase } from "../../support/database";
import { shopifyOrder } from "../../support/orders";
import { installShop } from "../../support/sessions";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { signedWebhook, TEST_SHOP } from "../../support/shopify-requests";

// app/uninstalled and app/scopes_update through the served build: Shopify's
// signature covers the body, not the X-Shopify-Shop-Domain header, and every
// signed request the app receives shares one secret. A signed body of one
// shop, replayed with another installed shop's header, must change nothing.

const OTHER_SHOP = "other-shop.myshopify.com";
const OPTIONAL = ["write_customers", "read_store_credit_accounts", "write_store_credit_account_transactions"];

const shopify = new ShopifyAdminStandIn();
let standIn: Awaited<ReturnType<ShopifyAdminStandIn["serve"]>>;
let server: AppServer;

beforeAll(async () => {
  standIn = await shopify.serve();
  // The scopes are asked of Shopify for the shop named: its Admin API is the stand-in on loopback.
  server = await startAppServer({ ...testAppEnv(), SHOPIFY_ADMIN_API_ORIGIN: standIn.origin });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await standIn?.close();
});

beforeEach(async () => {
  await resetDatabase();
  shopify.grantedScopes = [...DEFAULT_SCOPES.split(","), ...OPTIONAL];
  for (const shop of [TEST_SHOP, OTHER_SHOP]) {
    await installShop(shop);
    await prisma.session.updateMany({ where: { shop }, data: { scope: shopify.grantedScopes.join(",") } });
    await prisma.shop.create({ data: { shop, storeCreditPayouts: true, tagContacts: true, shareLinkMetafield: true } });
    await prisma.job.create({ data: { shop, kind: RECONCILE_JOB.name, key: `test-reconcile:${shop}`, payload: "{}", runAt: new Date(Date.now() + 3_600_000) } });
  }
});

/** What a replay could change in a shop: its sessions, its jobs, its settings. */
async function stateOf(shop: string) {
  const [sessions, jobs, settings] = await Promise.all([
    prisma.session.findMany({ where: { shop }, orderBy: { id: "asc" } }),
    prisma.job.findMany({ where: { shop }, orderBy: { key: "asc" }, select: { key: true, status: true, lastError: true } }),
    prisma.shop.findUnique({ where: { shop } }),
  ]);
  return { sessions, jobs, settings };
}

/** A captured signed delivery, sent again to `topic` with `shop` in the unsigned header. */
async function replay(captured: Request, topic: string, shop: string): Promise<Response> {
  const headers = new Headers(captured.headers);
  headers.set("X-Shopify-Topic", topic);
  headers.set("X-Shopify-Shop-Domain", shop);
  headers.set("X-Shopify-Triggered-At", new Date().toISOString());
  return fetch(`${server.origin}/webhooks/${topic}`, { method: "POST", headers, body: await captured.clone().text() });
}

const paidOrder = () => signedWebhook({ topic: "orders/paid", body: shopifyOrder({ id: 5_820_000_000_001, email: "buyer@example.com" }) });
const shopPayload = (shop: string) => ({ id: 548_380_009, name: "Referral Demo", email: "owner@example.com", domain: "shop.example.com", myshopify_domain: shop, plan_name: "basic" });

describe("app lifecycle webhooks bound to the shop their signed body names (served build)", () => {
  it("an orders/paid body replayed to app/uninstalled and app/scopes_update with another shop's header changes nothing in either shop", async () => {
    const before = { test: await stateOf(TEST_SHOP), other: await stateOf(OTHER_SHOP) };
    const captured = paidOrder();

    const uninstall = await replay(captured, "app/uninstalled", OTHER_SHOP);
    expect(uninstall.status).toBe(400);
    expect(await uninstall.text()).toBe("The payload is for another shop");
    // The scopes are asked of Shopify for the shop the header names; Shopify still grants them all.
    shopify.grantedScopes = [...DEFAULT_SCOPES.split(","), ...OPTIONAL];
    expect((await replay(captured, "app/scopes_update", OTHER_SHOP)).status).toBe(200);

    expect(await stateOf(TEST_SHOP)).toEqual(before.test);
    expect(await stateOf(OTHER_SHOP)).toEqual(before.other);
  });

  it("one shop's own lifecycle bodies replayed with another shop's header change nothing there", async () => {
    const before = await stateOf(OTHER_SHOP);

    expect((await replay(signedWebhook({ topic: "app/uninstalled", body: shopPayload(TEST_SHOP) }), "app/uninstalled", OTHER_SHOP)).status).toBe(400);
    const revoked = signedWebhook({ topic: "app/scopes_update", body: { id: 1, shop_id: 548_380_009, previous: shopify.grantedScopes, current: DEFAULT_SCOPES.split(","), updated_at: new Date().toISOString() } });
    expect((await replay(revoked, "app/scopes_update", OTHER_SHOP)).status).toBe(200);

    expect(await stateOf(OTHER_SHOP)).toEqual(before);
  });

  it("the shop's own deliveries still act: scopes revoked at Shopify turn off what needs them; its uninstall removes its sessions and stops its jobs", async () => {
    const other = await stateOf(OTHER_SHOP);

    shopify.grantedScopes = DEFAULT_SCOPES.split(",");
    const revoked = signedWebhook({ topic: "app/scopes_update", body: { id: 1, shop_id: 548_380_009, previous: OPTIONAL, current: DEFAULT_SCOPES.split(","), updated_at: new Date().toISOString() } });
    expect((await replay(revoked, "app/scopes_update", TEST_SHOP)).status).toBe(200);
    const settings = await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
    expect({ storeCreditPayouts: settings.storeCreditPayouts, tagContacts: settings.tagContacts, shareLinkMetafield: settings.shareLinkMetafield }).toEqual({
      storeCreditPayouts: false,
      tagContacts: false,
      shareLinkMetafield: false,
    });
    expect((await prisma.session.findFirstOrThrow({ where: { shop: TEST_SHOP } })).scope).toBe(DEFAULT_SCOPES);

    expect((await replay(signedWebhook({ topic: "app/uninstalled", body: shopPayload(TEST_SHOP) }), "app/uninstalled", TEST_SHOP)).status).toBe(200);
    expect(await prisma.session.count({ where: { shop: TEST_SHOP } })).toBe(0);
    expect((await prisma.job.findFirstOrThrow({ where: { shop: TEST_SHOP } })).status).not.toBe("queued");

    expect(await stateOf(OTHER_SHOP)).toEqual(other);
  });
});
