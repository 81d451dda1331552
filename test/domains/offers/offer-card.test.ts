// The Friend's offer card through the Campaigns page's real loader and
// action, then in Chromium on the production build (a screenshot is kept).
import "../../entry/admin/browser-env";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { action, loader } from "../../../app/routes/app.campaigns";
import type { SandboxHandle } from "../../../sandbox/server";
import { adminRequest, load, submit } from "../../entry/admin/admin-requests";
import { startSandboxAppServer, type AppServer } from "../../entry/admin/app-server";
import { artifactsDir, describeInBrowser, launchBrowser, openAdminBrowserPage, watchNetwork } from "../../support/browser";
import type { TestPipeline } from "../../support/pipeline";
import type { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { useOfferWorld } from "./offer-world";

let sandbox: SandboxHandle;
let pipeline: TestPipeline;
let shopify: ShopifyAdminStandIn;

const saveForm = (fields: Record<string, string> = {}) => ({
  intent: "save-offer",
  campaignUid: "1001",
  kind: "percentage",
  value: "",
  eligibility: "new_customers",
  oncePerCustomer: "on",
  minimumSubtotal: "",
  combinesShipping: "on",
  ...fields,
});

const world = useOfferWorld();
beforeEach(() => {
  ({ sandbox, pipeline, shopify } = world);
  shopify.addForeignDiscount("Spring sale", ["DAN10"]);
});

describe("the Friend's offer card (loader and action)", () => {
  it("saves the merchant's offer, answers at once, and shows the state once the job ran", async () => {
    const saved = await submit(action, "/app/campaigns", saveForm({ value: "15", minimumSubtotal: "30" }));
    expect(saved.status).toBe(200);
    expect(shopify.calls).toEqual([]);
    let data = await load(loader, "/app/campaigns");
    expect(data.ok && data.offers["1001"]).toMatchObject({ inShopify: false, codesInShopify: 0, codesWaiting: 0 });

    await pipeline.drain();
    data = await load(loader, "/app/campaigns");
    expect(data.ok && data.offers["1001"]).toMatchObject({
      inShopify: true,
      settings: { kind: "percentage", value: "15", minimumSubtotal: "30" },
      takenCodes: ["DAN10"],
      lastError: null,
    });
    expect(shopify.discountTitled("Friends & Family").input).toMatchObject({ customerGets: { value: { percentage: 0.15 } } });
  });

  it("refuses a percentage over 100 in the merchant's words, and pauses", async () => {
    const refused = await submit(action, "/app/campaigns", saveForm({ value: "150" }));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain("A percentage is more than 0 and at most 100.");
    expect(await prisma.friendOffer.count()).toBe(0);

    await submit(action, "/app/campaigns", saveForm());
    await submit(action, "/app/campaigns", { intent: "pause-offer", campaignUid: "1001" });
    await pipeline.drain();
    expect(shopify.discountTitled("Friends & Family").active).toBe(false);
    expect(shopify.refused).toEqual([]);
  });
});

describeInBrowser("the Friend's offer card in Chromium", () => {
  let server: AppServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startSandboxAppServer();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows codes in Shopify, a taken code and the last sync", async () => {
    await submit(action, "/app/campaigns", saveForm());
    await pipeline.drain();
    const { context, page } = await openAdminBrowserPage(browser, { origins: [server.origin, sandbox.baseUrl] });
    const signed = new URL((await adminRequest("/app/campaigns")).url);
    await page.goto(`${server.origin}${signed.pathname}${signed.search}`);
    await watchNetwork(page).settled(200, 15_000);
    const card = page.getByRole("form", { name: "Friend's offer of Friends & Family" });
    await expect.poll(() => card.isVisible()).toBe(true);
    await expect.poll(() => page.getByText("Live in Shopify").first().isVisible()).toBe(true);
    expect(await page.getByText("1 code is already used by another discount").isVisible()).toBe(true);
    // The card: the form's parent, from the "Friend's offer" heading to the Save button.
    const section = card.locator("xpath=..");
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: path.join(artifactsDir, "friend-offer-card.png") });
    await context.close();
  }, 120_000);
});
