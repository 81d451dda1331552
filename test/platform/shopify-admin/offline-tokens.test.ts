import "../../entry/admin/browser-env";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { DEFAULT_SCOPES } from "../../../app/wiring/env.server";
import { RECONCILE_JOB } from "../../../app/domains/order-sync/job-kinds";
import { sandboxAppEnv, startAppServer, type AppServer } from "../../entry/admin/app-server";
import { STORE } from "../../entry/storefront/support/requests";
import { shopifyOrder } from "../../support/orders";
import { connectShop, useTestSandbox } from "../../support/pipeline";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { TEST_SHOP } from "../../support/shopify-requests";

// Shopify's offline tokens on the served build: expiring (an hour) and
// refreshed at the shop's token endpoint (the stand-in) before a background
// job calls the Admin API; a non-expiring token from before exchanged for an
// expiring pair; and both tokens sealed at rest, clear rows included once the
// app has started. The stand-in's Admin API lets in only live tokens it issued.

const sandbox = useTestSandbox();
let shopify: ShopifyAdminStandIn;
let standIn: { origin: string; close(): Promise<void> };
let app: AppServer | undefined;

beforeAll(async () => {
  shopify = new ShopifyAdminStandIn();
  shopify.tokens.strict = true;
  standIn = await shopify.serve();
});
afterAll(() => standIn?.close());
beforeEach(() => {
  shopify.calls = [];
  shopify.tokens.calls = [];
  shopify.orders.byId.clear();
});
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

async function openApp(server: AppServer): Promise<void> {
  const { token } = await getJwt(STORE, process.env.SHOPIFY_API_KEY!, process.env.SHOPIFY_API_SECRET!);
  const response = await fetch(`${server.origin}/app?_data=routes%2Fapp`, { headers: { Authorization: `Bearer ${token}`, "User-Agent": BROWSER } });
  expect(response.status).toBe(200);
}

const startApp = async () =>
  (app = await startAppServer({ ...sandboxAppEnv(), SHOPIFY_ADMIN_API_ORIGIN: standIn.origin, WORKER_IN_PROCESS: "true", JOB_RETRY_BASE_MS: "200" }));

const offlineRow = () => prisma.session.findUniqueOrThrow({ where: { id: `offline_${TEST_SHOP}` } });

/** No Shopify token in clear in the Session table: each sealed, none of the stand-in's tokens readable. */
async function expectNoClearToken(...clear: string[]): Promise<void> {
  const rows = await prisma.session.findMany();
  expect(rows.length).toBeGreaterThan(0);
  const known = [...clear, ...shopify.tokens.issuedAccessTokens()];
  for (const row of rows) {
    expect(row.accessToken).toMatch(/^v2\./);
    if (row.refreshToken !== null) expect(row.refreshToken).toMatch(/^v2\./);
    const stored = JSON.stringify(row, (_, value) => (typeof value === "bigint" ? String(value) : value));
    for (const token of known) expect(stored).not.toContain(token);
    expect(stored).not.toMatch(/shp(at|rt|ua)_/);
  }
}

/** A reconciliation pass due now, run by the app's own worker, and the order it should find. */
async function runReconcilePass(orderId: number): Promise<void> {
  shopify.orders.add(shopifyOrder({ id: orderId, email: "buyer@example.com" }), { at: new Date(Date.now() - 60_000) });
  await prisma.job.create({ data: { shop: TEST_SHOP, kind: RECONCILE_JOB.name, key: `${TEST_SHOP}:${RECONCILE_JOB.name}:test-${orderId}`, payload: "{}", lane: `order-sync:${TEST_SHOP}` } });
  const deadline = Date.now() + 30_000;
  while ((await prisma.job.count({ where: { key: `${TEST_SHOP}:${RECONCILE_JOB.name}:test-${orderId}`, status: "done" } })) === 0) {
    if (Date.now() > deadline) throw new Error(`the pass did not finish:\n${app?.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("expiring offline tokens", () => {
  it("a background job whose access token has expired refreshes it at the token endpoint and goes on", async () => {
    // GIVEN a shop installed through the app's authentication, with an expiring token
    await connectShop(sandbox, { installed: false });
    await startApp();
    await openApp(app!);
    expect(shopify.tokens.calls).toEqual([{ grant: "token_exchange", outcome: "issued" }]);
    const installed = await offlineRow();
    expect(installed.expires!.getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
    await expectNoClearToken();

    // WHEN an hour has passed: the token has expired at Shopify and by the session's own clock
    for (const token of shopify.tokens.issuedAccessTokens()) shopify.tokens.expire(token);
    await prisma.session.update({ where: { id: installed.id }, data: { expires: new Date(Date.now() - 1_000) } });
    // AND a reconciliation pass runs
    await runReconcilePass(7_200_000_000_001);

    // THEN the job refreshed the token once and read the shop's orders with the new one
    expect(shopify.tokens.calls).toEqual([
      { grant: "token_exchange", outcome: "issued" },
      { grant: "refresh_token", outcome: "issued" },
    ]);
    expect(shopify.callsOf("OrdersPage", "ok").length).toBeGreaterThan(0);
    expect(shopify.calls.filter((call) => call.outcome === "unauthorized")).toEqual([]);
    expect((await prisma.orderSync.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).reconcileError).toBeNull();
    expect(await prisma.orderRecord.count({ where: { shop: TEST_SHOP, orderId: "7200000000001" } })).toBe(1);
    // AND the new pair is stored, sealed, good for another hour
    const refreshed = await offlineRow();
    expect(refreshed.expires!.getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
    expect(refreshed.accessToken).not.toBe(installed.accessToken);
    expect(refreshed.refreshToken).not.toBe(installed.refreshToken);
    await expectNoClearToken();
    expect(app!.exitCode()).toBeNull();
  }, 60_000);

  it("a clear row from before is sealed when the app starts, and its non-expiring token is exchanged for an expiring pair by the first job", async () => {
    // GIVEN a shop installed before: its non-expiring token stored in clear
    const legacy = "shpat_legacy0000000000000000000000";
    shopify.tokens.acceptNonExpiring(legacy);
    await connectShop(sandbox, { installed: false });
    await prisma.session.create({ data: { id: `offline_${TEST_SHOP}`, shop: TEST_SHOP, state: "", isOnline: false, scope: DEFAULT_SCOPES, accessToken: legacy } });

    // WHEN the app starts
    await startApp();
    // THEN the row holds no clear token
    await expectNoClearToken(legacy);

    // WHEN a job calls the Admin API
    await runReconcilePass(7_200_000_000_002);

    // THEN the old token was exchanged once for an expiring pair, which the job used; the old one no longer opens the API
    expect(shopify.tokens.calls).toEqual([{ grant: "migrate", outcome: "issued" }]);
    expect(shopify.tokens.check(legacy)).toBe("unknown");
    expect(shopify.calls.filter((call) => call.outcome === "unauthorized")).toEqual([]);
    expect(await prisma.orderRecord.count({ where: { shop: TEST_SHOP, orderId: "7200000000002" } })).toBe(1);
    expect((await offlineRow()).expires!.getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);
    await expectNoClearToken(legacy);
  }, 60_000);
});
