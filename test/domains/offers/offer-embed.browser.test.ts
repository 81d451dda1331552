// The tracking embed applies the friend's code in real Chromium: the page is
// rendered from blocks/referral-tracking.liquid with the app's offer
// metafield, runs the real assets/referral-tracking.js, and a test server
// stands in for the storefront, its cart Ajax API and Shopify's
// /discount/<code> path (which keeps the code for checkout in a cookie and
// redirects).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { describeInBrowser, launchBrowser, watchNetwork } from "../../support/browser";
import { renderBlock, storefrontPage } from "../storefront/liquid-lite";
import { sendHtml, sendJson, startStorefront, type Storefront } from "../storefront/storefront-server";

const state = {
  offerCampaigns: "" as string | null,
  discountCalls: [] as { code: string; redirect: string | null }[],
  failDiscount: false,
};

let storefront: Storefront;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];

beforeAll(async () => {
  storefront = await startStorefront((req, res) => {
    const discount = /^\/discount\/([^/]+)$/.exec(req.path);
    if (discount) {
      const code = decodeURIComponent(discount[1]!);
      state.discountCalls.push({ code, redirect: req.url.searchParams.get("redirect") });
      if (state.failDiscount) return sendJson(res, 500, { message: "Internal error" });
      res.writeHead(302, { location: req.url.searchParams.get("redirect") ?? "/", "set-cookie": `discount_code=${encodeURIComponent(code)}; Path=/; SameSite=Lax` });
      res.end();
      return;
    }
    if (req.path === "/cart.js") return sendJson(res, 200, { token: "cart-1", attributes: {}, item_count: 0, items: [] });
    if (req.path === "/cart/update.js") return sendJson(res, 200, { token: "cart-1", attributes: JSON.parse(req.body).attributes, item_count: 0, items: [] });
    if (req.method === "GET") {
      const app = state.offerCampaigns === null ? undefined : { metafields: { referral_bridge: { offer_campaigns: { value: state.offerCampaigns } } } };
      const embed = renderBlock("referral-tracking", { globals: { app } }).html;
      return sendHtml(res, storefrontPage(`<h1>Demo Outfitters</h1>\n${embed}`));
    }
    sendJson(res, 404, { message: "Not found" });
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await storefront?.close();
});

beforeEach(async () => {
  state.offerCampaigns = "1001,1005";
  state.discountCalls = [];
  state.failDiscount = false;
  context = await browser.newContext();
  page = await context.newPage();
  problems = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (m) => {
    if (!m.text().includes("Failed to load resource")) problems.push(`${m.type()}: ${m.text()}`);
  });
});

afterEach(async () => {
  await context?.close();
});

async function visit(path: string): Promise<void> {
  const network = watchNetwork(page);
  await page.goto(storefront.origin + path);
  await network.settled();
}

const discountCookie = async () => (await context.cookies()).find((c) => c.name === "discount_code")?.value;

describeInBrowser("the friend's code applied by the tracking embed", () => {
  it("applies the code of a link to a campaign with a live offer, once, for checkout", async () => {
    await visit("/products/tee?mbsy=ALICE10&campaignid=1001");
    expect(state.discountCalls).toEqual([{ code: "ALICE10", redirect: "/products/tee" }]);
    expect(await discountCookie()).toBe("ALICE10");
    // A later page without the code does not apply it again.
    await visit("/collections/all");
    expect(state.discountCalls).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it("applies a link's code that names no campaign when the shop has a live offer", async () => {
    await visit("/?mbsy=BOB10");
    expect(await discountCookie()).toBe("BOB10");
  });

  it("does nothing for a campaign without an offer, or a shop without any", async () => {
    await visit("/?mbsy=ALICE10&campaignid=1002");
    state.offerCampaigns = "none"; // what the app writes when no offer is live
    await visit("/?mbsy=BOB10");
    state.offerCampaigns = null;
    await visit("/?mbsy=BOB10&campaignid=1001");
    expect(state.discountCalls).toEqual([]);
    expect(await discountCookie()).toBeUndefined();
  });

  it("stays silent when the discount path fails", async () => {
    state.failDiscount = true;
    await visit("/?mbsy=ALICE10&campaignid=1001");
    expect(state.discountCalls).toHaveLength(1);
    expect(await discountCookie()).toBeUndefined();
    expect(problems).toEqual([]);
  });
});
