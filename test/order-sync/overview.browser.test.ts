// The Overview's order sync in Chromium: the production build with its
// worker, the sandbox service and the Admin API stand-in over HTTP. The
// setup guide shows what Shopify says of the embed and the pixel; a merchant
// sends the last 30 days of orders and watches the progress to the end.
import "../admin/browser-env";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { adminRequest } from "../admin/admin-requests";
import { sandboxAppEnv, startAppServer, type AppServer } from "../admin/app-server";
import { artifactsDir, describeInBrowser, launchBrowser, openAdminBrowserPage, watchNetwork } from "../support/browser";
import { resetDatabase } from "../support/database";
import { shopifyOrder } from "../support/orders";
import { connectShop, startTestSandbox } from "../support/pipeline";
import { ShopifyAdminStandIn } from "../support/shopify-admin-standin";
import { TEST_SHOP } from "../support/shopify-requests";
import type { SandboxHandle } from "../../sandbox/server";

let sandbox: SandboxHandle;
let shopify: ShopifyAdminStandIn;
let standIn: { origin: string; close(): Promise<void> };
let server: AppServer;
let browser: Browser;

describeInBrowser("order sync on the Overview", () => {
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    shopify = new ShopifyAdminStandIn();
    shopify.setBucket(100_000, 50_000);
    standIn = await shopify.serve();
    await resetDatabase();
    server = await startAppServer({ ...sandboxAppEnv(), WORKER_IN_PROCESS: "true", SHOPIFY_ADMIN_API_ORIGIN: standIn.origin, JOB_RETRY_BASE_MS: "200" });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await standIn?.close();
    await sandbox?.close();
  });

  it("shows the embed on and the pixel not connected (a permission missing), and runs a backfill to the end with its progress", async () => {
    await connectShop(sandbox);
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { guardDailyLimit: 1_000_000 } });
    await prisma.orderSync.create({ data: { shop: TEST_SHOP, reconciledAt: new Date(Date.now() - 120_000), watermark: new Date(), missedOrders: 4, missedChanges: 1 } });
    shopify.themeSettingsData = JSON.stringify({
      current: { blocks: { "17": { type: "shopify://apps/referral-bridge/blocks/referral-tracking/0d1c3a5e", disabled: false, settings: {} } } },
    });
    for (let i = 0; i < 300; i++) {
      const order = { ...shopifyOrder({ id: 6_900_000_000_000 + i, email: `buyer-${i}@example.com`, noteAttributes: [{ name: "_referral_code", value: "ALICE10" }] }), browser_ip: `198.51.100.${i % 250}` };
      shopify.orders.add(order, { at: new Date(Date.now() - 20 * 86_400_000 + i * 60_000) });
    }
    // The merchant has not approved the pixel's permissions yet: the app cannot connect it.
    shopify.pixelScopesGranted = false;
    // A page at a time as the bucket refills, so that the progress is seen.
    shopify.setBucket(1_000, 800);

    const { context, page, problems } = await openAdminBrowserPage(browser, { origins: [server.origin], viewport: { width: 1200, height: 1000 } });
    const signed = new URL((await adminRequest("/app")).url);
    await page.goto(`${server.origin}${signed.pathname}${signed.search}`);
    await watchNetwork(page).settled(200, 15_000);

    await expect.poll(() => page.getByText("Referral tracking is on in your live theme (Dawn).").isVisible()).toBe(true);
    expect(await page.getByText("What the app can't check through Shopify:").isVisible()).toBe(true);
    expect(await page.getByText(/needs the write_pixels and read_customer_events permissions/).isVisible()).toBe(true);
    expect(await page.getByText(/Found 4 orders and 1 cancellation or refund/).isVisible()).toBe(true);
    await page.screenshot({ path: path.join(artifactsDir, "overview-order-sync.png"), fullPage: true });

    await page.getByRole("button", { name: "Send the last 30 days" }).click();
    await expect.poll(() => page.getByText(/Sending the orders of the last 30 days/).isVisible(), { timeout: 15_000 }).toBe(true);
    await page.screenshot({ path: path.join(artifactsDir, "overview-backfill-running.png"), fullPage: true });
    try {
      await expect.poll(() => page.getByText(/300 read, 300 orders new to the app/).isVisible(), { timeout: 60_000, interval: 500 }).toBe(true);
    } catch (error) {
      console.log(await prisma.orderSync.findMany(), await prisma.job.findMany(), server.output(), shopify.calls.slice(-5));
      throw error;
    }
    await page.screenshot({ path: path.join(artifactsDir, "overview-backfill-done.png"), fullPage: true });
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
