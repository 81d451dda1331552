// The Overview's order sync in Chromium: the production build with its
// worker, the sandbox service and the Admin API stand-in over HTTP. The
// setup guide shows what Shopify says of the embed and the pixel; a merchant
// sends the last 30 days of orders and watches the progress to the end.
import "../../entry/admin/browser-env";
import path from "node:path";
import { beforeAll, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { useAdminInBrowser } from "../../entry/admin/admin-in-browser";
import { artifactsDir, describeInBrowser } from "../../support/browser";
import { shopifyOrder } from "../../support/orders";
import { connectShop } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";

const admin = useAdminInBrowser({
  shopifyAdmin: true,
  // The app runs the backfill's jobs itself, as deployed, retrying soon.
  appEnv: { WORKER_IN_PROCESS: "true", JOB_RETRY_BASE_MS: "200" },
  reset: "once, before the app starts",
  viewport: { width: 1200, height: 1000 },
});
const { sandbox, shopify, server, open } = admin;
beforeAll(() => shopify.setBucket(100_000, 50_000));

describeInBrowser("order sync on the Overview", () => {
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

    await open("/app");
    const { page } = admin;

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
  }, 120_000);
});
