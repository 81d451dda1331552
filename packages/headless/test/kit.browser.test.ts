// The kit in a real page in Chromium: its browser bundle on a storefront page
// whose landing URL carries Alice's code, a consent banner that sets
// window.Shopify.customerPrivacy and sends visitorConsentCollected as Shopify's
// Customer Privacy API does, and the kit's own Storefront API client calling the
// validating stand-in from the browser (CORS). Then the Hydrogen example's share
// links panel, rendered as its route renders it, photographed.
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { artifactsDir, describeInBrowser, launchBrowser, openAdminBrowserPage, watchNetwork } from "../../../test/support/browser";
import { listenOnLoopback, type LoopbackServer } from "../../../test/support/loopback-server";
import { startStorefrontStandIn, type StorefrontStandIn } from "../../../test/support/storefront-standin";
import { ShareLinksPanel } from "../examples/hydrogen/app/components/ShareLinksPanel";
import type { ShareLinksState } from "../src";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));

let browser: Browser;
let api: StorefrontStandIn;
let storefront: LoopbackServer;

/** The storefront page: the kit, the banner, and the wiring a Storefront API front end would write. */
const storefrontPage = (apiOrigin: string) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Demo Outfitters</title>
<style>body{font:16px system-ui;margin:2rem} .banner{position:fixed;bottom:0;left:0;right:0;padding:1rem;background:#222;color:#fff}</style></head>
<body><h1>Hoodie</h1><p>A headless storefront page.</p>
<div class="banner">We use cookies for analytics and marketing.
  <button id="accept">Accept</button> <button id="decline">Decline</button></div>
<script src="/kit.js"></script>
<script>
  const kit = ReferralBridgeHeadless;
  const cart = kit.storefrontCart({
    storeDomain: ${JSON.stringify(apiOrigin)},
    publicAccessToken: "public-storefront-token",
    getCartId: () => localStorage.getItem("cart_id") || undefined,
    setCartId: (id) => localStorage.setItem("cart_id", id),
  });
  window.applied = [];
  kit.trackReferral({
    window,
    apply: (landing) => kit.applyReferralToCart(cart, landing, { offerCampaigns: ["1001"] }).then((result) => window.applied.push(result)),
  });
  // The banner, as Shopify's Customer Privacy API behaves: the choice is kept, the API answers it, the event announces it.
  function privacyApi(choice) {
    window.Shopify = { customerPrivacy: { analyticsProcessingAllowed: () => choice.analytics, marketingAllowed: () => choice.marketing } };
  }
  function choose(choice) {
    localStorage.setItem("consent", JSON.stringify(choice));
    privacyApi(choice);
    document.dispatchEvent(new CustomEvent("visitorConsentCollected", { detail: { analyticsAllowed: choice.analytics, marketingAllowed: choice.marketing } }));
  }
  document.getElementById("accept").onclick = () => choose({ analytics: true, marketing: true });
  document.getElementById("decline").onclick = () => choose({ analytics: false, marketing: false });
  // A returning visitor: the API loads with their stored choice and says so.
  setTimeout(() => {
    const saved = JSON.parse(localStorage.getItem("consent") || "null");
    if (saved) { privacyApi(saved); document.dispatchEvent(new CustomEvent("consentTrackingApiLoaded")); }
  }, 30);
</script></body></html>`;

beforeAll(async () => {
  api = await startStorefrontStandIn({ shop: "referral-demo.myshopify.com" });
  api.discountCodes.add("ALICE10");
  const bundle = await build({
    entryPoints: [path.join(packageRoot, "src/index.ts")],
    bundle: true,
    write: false,
    format: "iife",
    globalName: "ReferralBridgeHeadless",
    target: "es2020",
  });
  const kitJs = bundle.outputFiles[0]!.text;
  storefront = await listenOnLoopback(
    createServer((request, response) => {
      if (request.url === "/kit.js") {
        response.writeHead(200, { "Content-Type": "text/javascript" });
        return response.end(kitJs);
      }
      response.writeHead(200, { "Content-Type": "text/html" });
      response.end(storefrontPage(api.origin));
    }),
  );
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await storefront?.close();
  await api?.close();
});

const applied = (page: Page) => page.evaluate(() => (window as unknown as { applied: unknown[] }).applied);
const kept = (page: Page) => page.evaluate(() => localStorage.getItem("referral_bridge"));

describeInBrowser("the headless kit in Chromium", () => {
  it("keeps and writes nothing until the visitor accepts; then writes the cart once, and later pages leave it be", async () => {
    const { page, problems, context } = await openAdminBrowserPage(browser, { origins: [storefront.origin, api.origin] });
    const network = watchNetwork(page);
    try {
      // GIVEN a visitor landing from Alice's link, the banner not yet answered
      await page.goto(`${storefront.origin}/products/hoodie?mbsy=ALICE10&campaignid=1001`);
      await network.settled(300);
      expect(await kept(page)).toBeNull();
      expect(api.calls).toEqual([]);

      // WHEN they decline: still nothing
      await page.click("#decline");
      await network.settled(300);
      expect(await kept(page)).toBeNull();
      expect(api.calls).toEqual([]);

      // WHEN they accept: the code is kept and the cart made with it and the friend's offer code
      await page.click("#accept");
      await page.waitForFunction(() => (window as unknown as { applied: unknown[] }).applied.length === 1);
      expect(JSON.parse((await kept(page))!)).toMatchObject({ c: "ALICE10", k: "1001" });
      const cartId = await page.evaluate(() => localStorage.getItem("cart_id"));
      expect(api.carts.get(cartId!)).toMatchObject({
        attributes: [
          { key: "_referral_code", value: "ALICE10" },
          { key: "_referral_campaign", value: "1001" },
        ],
        discountCodes: [{ code: "ALICE10", applicable: true }],
      });
      await page.screenshot({ path: path.join(artifactsDir, "headless-kit-landing.png") });

      // AND a later page without a code (the stored choice announced as the API loads) only reads the cart
      const before = api.calls.length;
      await page.goto(`${storefront.origin}/pages/about`);
      await page.waitForFunction(() => (window as unknown as { applied: unknown[] }).applied.length === 1);
      expect(await applied(page)).toEqual([expect.objectContaining({ created: false, attributesWritten: false, discountCodeApplied: null })]);
      expect(api.calls.slice(before).map((c) => c.fields)).toEqual([["cart"]]);
      expect(api.calls.filter((c) => c.invalid.length > 0)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows the Hydrogen example's share links panel (screenshot looked at)", async () => {
    const states: ShareLinksState[] = [
      {
        kind: "ok",
        ambassador: { balanceMoney: "12.00", balancePoints: "40", moneyPaid: "0.00", pointsPaid: "0", uniqueReferrals: 3, pointName: "points" },
        links: [
          { campaignName: "Give 15%, get 10%", description: "Your friends get 15% off their first order.", url: "https://refer.example/s/ALICE10", socialEnabled: true, totalMoneyEarned: "12.00", totalPointsEarned: "0" },
          { campaignName: "Points for friends", description: "", url: "https://refer.example/s/ALICEPTS", socialEnabled: false, totalMoneyEarned: "0.00", totalPointsEarned: "40" },
        ],
      },
      { kind: "guest" },
      { kind: "not_enrolled", reason: "no_email" },
    ];
    const html = states.map((state) => renderToStaticMarkup(createElement(ShareLinksPanel, { state }))).join("<hr>");
    const context = await browser.newContext({ viewport: { width: 720, height: 520 } });
    try {
      const page = await context.newPage();
      await page.setContent(`<!doctype html><html><head><style>
        body{font:15px system-ui;margin:1.5rem;color:#222} h2{margin:0 0 .5rem} ul{list-style:none;padding:0}
        li{display:grid;gap:.25rem;margin:.75rem 0;padding:.75rem;border:1px solid #ddd;border-radius:8px}
        .campaign{font-weight:600} .description,.earned{color:#555} input{font:inherit;padding:.35rem}
      </style></head><body>${html}</body></html>`);
      expect(await page.locator("input").first().inputValue()).toBe("https://refer.example/s/ALICE10");
      expect(await page.textContent("body")).toContain("Sign in to see your share link.");
      await page.screenshot({ path: path.join(artifactsDir, "headless-hydrogen-share-links.png"), fullPage: true });
    } finally {
      await context.close();
    }
  });
});
