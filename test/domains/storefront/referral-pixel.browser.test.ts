// The referral web pixel in real Chromium: its source bundled with esbuild as the
// CLI does, loaded into a page whose `shopify.extend` hands the pixel a fake
// ExtensionApi (analytics, browser, init, customerPrivacy) shaped by
// @shopify/web-pixels-extension's types; the page's origin stands for the app.
import { fileURLToPath } from "node:url";
import type { ExtensionApi } from "@shopify/web-pixels-extension";
import { build } from "esbuild";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { describeInBrowser, launchBrowser } from "../../support/browser";
import { sendHtml, sendJson, startStorefront, type Storefront } from "./storefront-server";

const entry = fileURLToPath(new URL("../../../extensions/referral-pixel/src/index.ts", import.meta.url));

let bundle: string;
let storefront: Storefront;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let signals: unknown[];

beforeAll(async () => {
  const result = await build({ entryPoints: [entry], bundle: true, format: "iife", write: false, target: "es2020" });
  bundle = result.outputFiles[0].text;
  storefront = await startStorefront((req, res) => {
    if (req.path === "/api/pixel" && req.method === "POST") {
      signals.push(JSON.parse(req.body));
      return sendJson(res, 200, { ok: true });
    }
    if (req.path === "/pixel.js") {
      res.writeHead(200, { "Content-Type": "text/javascript" });
      res.end(bundle);
      return;
    }
    return sendHtml(res, "<!doctype html><title>sandbox</title>");
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await storefront?.close();
});

beforeEach(async () => {
  signals = [];
  context = await browser.newContext();
  page = await context.newPage();
});

afterEach(async () => {
  await context?.close();
});

interface Harness {
  publish(name: string, event: unknown): Promise<void>;
  consent(allowed: boolean): void;
  writes: number;
  /** Requests the pixel started, and those answered (or failed). */
  fetches: number;
  answered: number;
}

/** Loads the pixel with the given initial consent; window.harness drives it. */
async function loadPixel(allowed: boolean): Promise<void> {
  await page.goto(storefront.origin + "/");
  await page.evaluate(
    ({ allowed, appUrl }) => {
      const subscribers = new Map<string, ((event: unknown) => unknown)[]>();
      const privacy: ((event: { customerPrivacy: ExtensionApi["init"]["customerPrivacy"] }) => void)[] = [];
      const grant = (ok: boolean) => ({
        analyticsProcessingAllowed: ok,
        marketingAllowed: ok,
        preferencesProcessingAllowed: ok,
        saleOfDataAllowed: ok,
      });
      const harness: Harness = {
        writes: 0,
        fetches: 0,
        answered: 0,
        async publish(name, event) {
          await Promise.all((subscribers.get(name) ?? []).map((callback) => callback(event)));
        },
        consent(ok) {
          privacy.forEach((callback) => callback({ customerPrivacy: grant(ok) }));
        },
      };
      const api = {
        settings: { appUrl, codeParam: "mbsy", campaignParam: "campaignid", attribution: "first_touch", lifetimeDays: "30" },
        analytics: {
          subscribe(name: string, callback: (event: unknown) => unknown) {
            subscribers.set(name, [...(subscribers.get(name) ?? []), callback]);
            return () => true;
          },
        },
        browser: {
          localStorage: {
            getItem: async (key: string) => localStorage.getItem(key),
            setItem: async (key: string, value: string) => {
              harness.writes++;
              localStorage.setItem(key, value);
            },
            removeItem: async (key: string) => localStorage.removeItem(key),
          },
        },
        init: { customerPrivacy: grant(allowed), data: { shop: { myshopifyDomain: "demo-outfitters.myshopify.com" } } },
        customerPrivacy: {
          subscribe(_name: string, callback: (typeof privacy)[number]) {
            privacy.push(callback);
            return () => true;
          },
        },
      } as unknown as ExtensionApi;
      const w = window as unknown as { shopify: unknown; harness: Harness };
      w.harness = harness;
      // The pixel's requests are counted, so a test can see that none is still on its way.
      const send = window.fetch.bind(window);
      window.fetch = (...args: Parameters<typeof fetch>) => {
        harness.fetches++;
        return send(...args).finally(() => harness.answered++);
      };
      w.shopify = { extend: (_point: string, extend: (api: ExtensionApi) => void) => extend(api) };
    },
    { allowed, appUrl: storefront.origin },
  );
  await page.addScriptTag({ url: "/pixel.js" });
}

const landing = (origin: string) => ({ context: { document: { location: { href: `${origin}/?mbsy=ALICE10&campaignid=1001` } } } });
const completed = {
  data: { checkout: { token: "d3b1c2a0e4f54a6b8c9d0e1f2a3b4c5d", order: { id: "5512345678901" } } },
};

/**
 * A landing page view, then a completed checkout; returns once every request
 * the pixel started has been answered (keepalive requests are not seen by
 * watchNetwork, so the page counts them).
 */
async function journey(): Promise<void> {
  await page.evaluate(
    async ({ landing, completed }) => {
      const { harness } = window as unknown as { harness: Harness };
      await harness.publish("page_viewed", landing);
      await harness.publish("checkout_completed", completed);
    },
    { landing: landing(storefront.origin), completed },
  );
  await page.waitForFunction(() => {
    const { harness } = window as unknown as { harness: Harness };
    return harness.answered === harness.fetches;
  });
}

const fetches = () => page.evaluate(() => (window as unknown as { harness: Harness }).harness.fetches);

const writes = () => page.evaluate(() => (window as unknown as { harness: Harness }).harness.writes);

describeInBrowser("referral web pixel", () => {
  it("keeps and sends nothing when consent is refused", async () => {
    await loadPixel(false);
    await journey();

    expect(await writes()).toBe(0);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await fetches()).toBe(0);
    expect(signals).toEqual([]);
  });

  it("sends one signal with the checkout token, order id and code when consent is given", async () => {
    await loadPixel(true);
    await journey();

    expect(await writes()).toBe(1);
    expect(signals).toEqual([
      {
        shop: "demo-outfitters.myshopify.com",
        checkoutToken: completed.data.checkout.token,
        orderId: "5512345678901",
        code: "ALICE10",
        campaign: "1001",
      },
    ]);
  });

  it("follows a consent change: refused at first, given on the banner", async () => {
    await loadPixel(false);
    await page.evaluate(() => (window as unknown as { harness: Harness }).harness.consent(true));
    await journey();

    expect(signals).toHaveLength(1);
  });
});
