import "../entry/admin/browser-env";
import { afterEach, describe, expect, it } from "vitest";
import { sandboxAppEnv, startAppServer, testAppEnv, type AppServer } from "../entry/admin/app-server";
import { TEST_SHOP } from "../support/shopify-requests";

// Shopify's review refuses an app that asks the merchant for their
// myshopify domain. The production build (NODE_ENV=production, as deployed)
// never shows the library's shop domain form: a visit without a shop goes to
// the app's listing (APP_LISTING_URL) or says how to open the app from the
// Shopify admin. A development process (`shopify app dev`, the demo) keeps it.

let app: AppServer | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const page = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, url: response.url, html: await response.text() };
};

const DOMAIN_FORM = /name="shop"|Shop domain/;

describe("a visit without a shop", () => {
  it("in production: no shop domain form anywhere, only how to open the app from the Shopify admin", async () => {
    app = await startAppServer(testAppEnv());

    for (const path of ["/", "/auth/login"]) {
      const visit = await page(`${app.origin}${path}`);
      expect(visit.status).toBe(200);
      expect(visit.url).toBe(`${app.origin}/auth/login`);
      expect(visit.html).not.toMatch(DOMAIN_FORM);
      expect(visit.html).toContain("Open Referral Bridge from your Shopify admin");
    }
    // Posting a domain to the form's address is not a way in either.
    const posted = await fetch(`${app.origin}/auth/login`, { method: "POST", body: new URLSearchParams({ shop: TEST_SHOP }) });
    expect(posted.status).toBe(404);
    expect(await posted.text()).not.toMatch(DOMAIN_FORM);
    // Shopify's own links carry the shop: those still go to Shopify to log in.
    const fromShopify = await fetch(`${app.origin}/auth/login?shop=${TEST_SHOP}`, { redirect: "manual" });
    expect(fromShopify.status).toBe(302);
    expect(new URL(fromShopify.headers.get("location")!).origin).not.toBe(app.origin);
  }, 60_000);

  it("in production with APP_LISTING_URL: sent to the app's listing", async () => {
    const listing = "https://apps.shopify.com/referral-bridge";
    app = await startAppServer({ ...testAppEnv(), APP_LISTING_URL: listing });

    const first = await fetch(`${app.origin}/`, { redirect: "manual" });
    expect(first.headers.get("location")).toBe("/auth/login");
    const second = await fetch(`${app.origin}/auth/login`, { redirect: "manual" });
    expect(second.status).toBe(302);
    expect(second.headers.get("location")).toBe(listing);
  }, 60_000);

  it("in development (shopify app dev): the shop domain form stays", async () => {
    app = await startAppServer(sandboxAppEnv());

    const visit = await page(`${app.origin}/`);
    expect(visit.url).toBe(`${app.origin}/auth/login`);
    expect(visit.html).toMatch(DOMAIN_FORM);
  }, 60_000);
});
