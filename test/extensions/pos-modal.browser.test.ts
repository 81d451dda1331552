// The POS extension's modal and customer-details block in real Chromium,
// calling the built app under server.mjs (which asks the sandbox referral
// service), with POS's `shopify` global stood in (test/extensions/support/
// pos-page.ts). A scan of a share link's QR code is checked by the app and
// "Add to sale" writes the cart; screenshots go to test-artifacts/.
import "../entry/admin/browser-env";
import { getJwt } from "@shopify/shopify-api/test-helpers";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import prisma from "../../app/wiring/db.server";
import { artifactsDir, describeInBrowser, launchBrowser } from "../support/browser";
import { sendHtml, sendJson, startStorefront, type Storefront } from "../domains/storefront/storefront-server";
import { sandboxAppEnv, startAppServer, startSandboxAppServer, type AppServer } from "../entry/admin/app-server";
import { ShopifyAdminStandIn } from "../support/shopify-admin-standin";
import { connectShop, useTestSandbox } from "../support/pipeline";
import { TEST_SHOP } from "../support/shopify-requests";
import { bundleBlock } from "./support/ui-block-page";
import { posPage } from "./support/pos-page";

const IPAD = "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Shopify POS/10.2.1";
const STORE = TEST_SHOP.replace(".myshopify.com", "");

const sandbox = useTestSandbox();
let server: AppServer;
/** The app with the Admin API stand-in: the customer-details block looks its customer up there. */
let blockServer: AppServer;
let standIn: { origin: string; close(): Promise<void> };
const shopify = new ShopifyAdminStandIn();
let blockCustomerId = 0;
let host: Storefront;
let browser: Browser;
let page: Page;
let pageErrors: string[];
const bundles: Record<string, string> = {};
let token = "";

beforeAll(async () => {
  server = await startSandboxAppServer();
  host = await startStorefront(async (req, res) => {
    const bundle = /^\/pos\/([\w-]+)\.js$/.exec(req.path);
    if (bundle && bundles[bundle[1]]) {
      res.writeHead(200, { "content-type": "text/javascript", "cache-control": "no-store" });
      res.end(bundles[bundle[1]]);
      return;
    }
    const target = /^\/pos\/([\w-]+)$/.exec(req.path);
    if (target && bundles[target[1]]) return sendHtml(res, posPage({ bundleUrl: `/pos/${target[1]}.js`, token, customerId: blockCustomerId, cartCustomerId: 7_210_000_000_321 }));
    sendJson(res, 404, { message: "Not found" });
  });
  // Bundled as `shopify app build` bundles them, pointed at the served app.
  bundles.modal = await bundleBlock("pos-referral/src/Modal.tsx", server.origin);
  bundles.tile = await bundleBlock("pos-referral/src/Tile.tsx", server.origin);
  standIn = await shopify.serve();
  blockServer = await startAppServer({ ...sandboxAppEnv(), SHOPIFY_ADMIN_API_ORIGIN: standIn.origin });
  bundles.block = await bundleBlock("pos-referral/src/CustomerBlock.tsx", blockServer.origin);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await server?.stop();
  await blockServer?.stop();
  await standIn?.close();
});

beforeEach(async () => {
  ({ token } = await getJwt(STORE, process.env.SHOPIFY_API_KEY!, process.env.SHOPIFY_API_SECRET!, {
    iss: `https://${TEST_SHOP}/admin`,
    dest: `https://${TEST_SHOP}`,
    sub: "548380009",
  }));
  page = await browser.newPage({ viewport: { width: 640, height: 720 }, deviceScaleFactor: 1, userAgent: IPAD });
  pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterEach(async () => {
  await page?.close();
});

const writes = () => page.evaluate(() => (window as unknown as { posWrites: Record<string, unknown> }).posWrites);

describeInBrowser("the POS extension", () => {
  it("checks a scanned share link with the app and puts the code and the friend's offer on the sale", async () => {
    await connectShop(sandbox);
    await prisma.offerCode.create({ data: { shop: TEST_SHOP, campaignUid: "1001", code: "ALICE10", email: "alice@example.com", state: "added" } });
    await page.goto(`${host.origin}/pos/modal`);
    await page.waitForSelector("s-text-field");

    // The camera reads the QR code of Alice's share link.
    await page.evaluate((link) => (window as unknown as { posScan(data: string): void }).posScan(link), `${sandbox.baseUrl}/s/ALICE10`);
    const banner = page.locator('s-banner[tone="success"]');
    await banner.waitFor();
    expect(await banner.getAttribute("heading")).toBe("Referred by Alice Archer");
    expect(await banner.innerText()).toContain("Code ALICE10");
    expect(await page.locator("s-text-field").getAttribute("value")).toBe(`${sandbox.baseUrl}/s/ALICE10`);
    await page.screenshot({ path: `${artifactsDir}pos-modal-checked.png` });

    await page.locator("s-button", { hasText: "Add to sale" }).click();
    await page.locator('s-banner[heading="Added"]').waitFor();
    expect(await writes()).toMatchObject({
      cartProperties: { _referral_code: "ALICE10", _referral_campaign: "1001" },
      discountCodes: ["ALICE10"],
      toasts: ["Referral code ALICE10 added to the sale, with the friend's offer ALICE10."],
    });
    await page.screenshot({ path: `${artifactsDir}pos-modal-added.png` });
    expect(pageErrors).toEqual([]);
  });

  it("says a code is no referrer's and writes nothing to the cart", async () => {
    await connectShop(sandbox);
    await page.goto(`${host.origin}/pos/modal`);
    await page.waitForSelector("s-text-field");
    await page.evaluate(() => (window as unknown as { posScan(data: string): void }).posScan("NOSUCHCODE"));
    const banner = page.locator('s-banner[tone="critical"]');
    await banner.waitFor();
    expect(await banner.innerText()).toContain("This code isn't a referral code of this store's program.");
    expect(await page.locator("s-button", { hasText: "Add to sale" }).count()).toBe(0);
    expect(await writes()).toMatchObject({ cartProperties: {}, discountCodes: [] });
    await page.screenshot({ path: `${artifactsDir}pos-modal-unknown.png` });
    expect(pageErrors).toEqual([]);
  });

  it("shows the home tile, which opens the modal", async () => {
    await page.goto(`${host.origin}/pos/tile`);
    const tile = page.locator("s-tile");
    await tile.waitFor();
    expect(await tile.getAttribute("heading")).toBe("Referral");
    await tile.click();
    expect(await writes()).toMatchObject({ modalsPresented: 1 });
    expect(pageErrors).toEqual([]);
  });

  it("shows a customer's block, and enrols a customer who is not an ambassador yet", async () => {
    await connectShop(sandbox);
    const customer = shopify.customers.add("pat.counter@example.com");
    blockCustomerId = Number(customer.id.slice(customer.id.lastIndexOf("/") + 1));
    await page.goto(`${host.origin}/pos/block`);
    const enrol = page.locator("s-button", { hasText: "Enrol as ambassador" });
    await enrol.waitFor();
    expect(await page.locator("s-pos-block").innerText()).toContain("Not an ambassador yet.");
    await page.screenshot({ path: `${artifactsDir}pos-customer-block-not-enrolled.png` });

    await enrol.click();
    const link = page.locator("s-text", { hasText: `${sandbox.baseUrl}/s/` });
    await link.waitFor();
    expect(sandbox.ledger().ambassadors.find((a) => a.email === "pat.counter@example.com")).toMatchObject({ uid: String(blockCustomerId) });
    await page.screenshot({ path: `${artifactsDir}pos-customer-block-enrolled.png` });
    expect(pageErrors).toEqual([]);
  });
});
