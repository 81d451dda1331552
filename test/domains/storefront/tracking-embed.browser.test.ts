// The "Referral tracking" app embed in real Chromium: the page carries the embed's
// markup rendered from blocks/referral-tracking.liquid with its schema defaults (or
// the test's settings), the real assets/referral-tracking.js, and a stand-in for
// Shopify's cart Ajax API (/cart.js, /cart/update.js) kept in server memory.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { describeInBrowser, launchBrowser, watchNetwork } from "../../support/browser";
import { renderBlock, storefrontPage } from "./liquid-lite";
import { sendHtml, sendJson, startStorefront, type Storefront } from "./storefront-server";

interface Cart {
  token: string;
  attributes: Record<string, string>;
}

interface UpdateCall {
  contentType: string | undefined;
  body: unknown;
  token: string;
}

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date("2026-03-02T10:00:00Z").getTime();

const state = {
  settings: {} as Record<string, unknown>,
  cart: { token: "cart-1", attributes: {} } as Cart,
  cartReads: 0,
  updates: [] as UpdateCall[],
  failCartRead: false,
  failUpdate: false,
};

function newCart(token: string): void {
  state.cart = { token, attributes: {} };
}

let storefront: Storefront;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let network: ReturnType<typeof watchNetwork>;
let pageErrors: string[];
let consoleMessages: string[];

beforeAll(async () => {
  storefront = await startStorefront((req, res) => {
    if (req.path === "/cart.js" && req.method === "GET") {
      state.cartReads++;
      if (state.failCartRead) return sendJson(res, 500, { status: 500, message: "Internal error" });
      return sendJson(res, 200, { ...state.cart, item_count: 0, items: [] });
    }
    if (req.path === "/cart/update.js" && req.method === "POST") {
      const body = JSON.parse(req.body) as { attributes?: Record<string, string | null> };
      state.updates.push({ contentType: req.headers["content-type"], body, token: state.cart.token });
      if (state.failUpdate) return sendJson(res, 500, { status: 500, message: "Internal error" });
      // Like Shopify: a blank value removes the attribute.
      for (const [key, value] of Object.entries(body.attributes ?? {})) {
        if (value === null || value === "") delete state.cart.attributes[key];
        else state.cart.attributes[key] = value;
      }
      return sendJson(res, 200, { ...state.cart, item_count: 0, items: [] });
    }
    if (req.method === "GET" && !req.path.startsWith("/cart")) {
      const embed = renderBlock("referral-tracking", { settings: state.settings }).html;
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
  state.settings = {};
  newCart("cart-1");
  state.cartReads = 0;
  state.updates = [];
  state.failCartRead = false;
  state.failUpdate = false;
  context = await browser.newContext();
  page = await context.newPage();
  network = watchNetwork(page);
  pageErrors = [];
  consoleMessages = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => consoleMessages.push(`${message.type()}: ${message.text()}`));
});

afterEach(async () => {
  await context?.close();
});

/**
 * Waits until the script has done its work and its requests are over. Without a code in the URL it
 * works in an idle callback after the load event (page.goto waits for load); idle callbacks run in
 * the order they were asked for, so one asked now runs after it.
 */
async function settled(): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  await network.settled();
}

/** Opens a storefront page and waits until the script's work and requests are over. */
async function visit(path: string): Promise<void> {
  await page.goto(storefront.origin + path);
  await settled();
}

const written = (code: string, campaign = "") => ({
  attributes: { _referral_code: code, _referral_campaign: campaign },
});

/** Console output the script caused; Chromium's own "Failed to load resource" lines are the network's. */
const scriptNoise = () => consoleMessages.filter((m) => !m.includes("Failed to load resource"));

describeInBrowser("referral tracking embed", () => {
  it("writes the code and campaign from the landing URL to the cart exactly once", async () => {
    // GIVEN a visitor arriving from a referral link
    await visit("/?mbsy=ALICE10&campaignid=1001");

    // THEN one JSON update carries both hidden attributes
    expect(state.updates).toHaveLength(1);
    expect(state.updates[0].contentType).toMatch(/^application\/json/);
    expect(state.updates[0].body).toEqual(written("ALICE10", "1001"));
    expect(state.cart.attributes).toEqual({ _referral_code: "ALICE10", _referral_campaign: "1001" });

    // WHEN the page is reloaded and another page is opened
    await page.reload();
    await settled();
    await visit("/products/linen-shirt");

    // THEN the cart is read again but not written again
    expect(state.cartReads).toBe(3);
    expect(state.updates).toHaveLength(1);
    expect(pageErrors).toEqual([]);
    expect(consoleMessages).toEqual([]);
  });

  it("trims the code, keeps its case and writes no campaign when none is given", async () => {
    await visit("/collections/all?mbsy=%20AliCe10%20");
    expect(state.updates.map((u) => u.body)).toEqual([written("AliCe10")]);
    expect(state.cart.attributes).toEqual({ _referral_code: "AliCe10" });
  });

  it("leaves storage and the cart alone until the page has loaded, unless the visitor lands from a share link", async () => {
    // Every use of storage, with the moment it came: the first use of localStorage on a page loads
    // the shop's storage on the main thread, a long task while the page is still loading.
    await context.addInitScript(() => {
      const uses: string[] = [];
      let loaded = false;
      addEventListener("load", () => (loaded = true));
      Object.assign(window, { storageUses: uses });
      for (const name of ["getItem", "setItem", "removeItem"] as const) {
        const original = Storage.prototype[name] as (...args: unknown[]) => unknown;
        Storage.prototype[name] = function (this: Storage, ...args: unknown[]) {
          uses.push(`${name} ${loaded ? "after" : "before"} load`);
          return original.apply(this, args);
        } as never;
      }
    });
    const uses = () => page.evaluate(() => (window as unknown as { storageUses: string[] }).storageUses);

    await visit("/?mbsy=ALICE10&campaignid=1001");
    // Landing from a share link: the code is kept at once, before the visitor can leave.
    expect((await uses())[0]).toBe("setItem before load");
    expect(state.updates.map((u) => u.body)).toEqual([written("ALICE10", "1001")]);

    newCart("cart-2");
    await visit("/products/linen-shirt");
    // Any other page: the kept code still reaches the new cart, after the page's load.
    expect(new Set(await uses())).toEqual(new Set(["getItem after load", "setItem after load", "removeItem after load"]));
    expect(state.updates.map((u) => u.token)).toEqual(["cart-1", "cart-2"]);
    expect(state.cart.attributes).toEqual({ _referral_code: "ALICE10", _referral_campaign: "1001" });
    expect(pageErrors).toEqual([]);
  });

  it("sends no request at all to a visitor without a referral", async () => {
    await visit("/");
    await visit("/?utm_source=newsletter");
    expect(state.cartReads).toBe(0);
    expect(state.updates).toEqual([]);
  });

  it("keeps the first referrer by default (first touch)", async () => {
    await visit("/?mbsy=ALICE10&campaignid=1001");
    await visit("/?mbsy=BOB10");

    expect(state.updates.map((u) => u.body)).toEqual([written("ALICE10", "1001")]);
    expect(state.cart.attributes._referral_code).toBe("ALICE10");

    // A new cart (after a checkout, say) still gets the first referrer.
    newCart("cart-2");
    await visit("/?mbsy=BOB10");
    expect(state.updates.map((u) => u.body)).toEqual([written("ALICE10", "1001"), written("ALICE10", "1001")]);
  });

  it("switches to the latest referrer with the last-touch setting", async () => {
    state.settings = { attribution: "last_touch" };
    await visit("/?mbsy=ALICE10&campaignid=1001");
    await visit("/?mbsy=BOB10");

    expect(state.updates.map((u) => u.body)).toEqual([written("ALICE10", "1001"), written("BOB10")]);
    expect(state.cart.attributes).toEqual({ _referral_code: "BOB10" });

    // The same link again changes nothing.
    await visit("/?mbsy=BOB10");
    expect(state.updates).toHaveLength(2);
  });

  it("honours renamed URL parameters", async () => {
    state.settings = { code_param: "ref", campaign_param: "cid" };
    await visit("/?mbsy=IGNORED&ref=CAROL7&cid=2002");
    expect(state.updates.map((u) => u.body)).toEqual([written("CAROL7", "2002")]);
  });

  it("writes again to a new cart, and when the attributes were removed from the same cart", async () => {
    await visit("/?mbsy=ALICE10&campaignid=1001");
    expect(state.updates).toHaveLength(1);

    // GIVEN the store starts a new cart for this visitor
    newCart("cart-2");
    await visit("/");
    // A write is waited for: without a code in the URL the script reads the cart, then writes, and on a busy machine the
    // write may start after the page's network has been quiet for a moment (which is all visit() can wait for).
    await expect.poll(() => state.updates.map((u) => u.token)).toEqual(["cart-1", "cart-2"]);
    expect(state.cart.attributes).toEqual({ _referral_code: "ALICE10", _referral_campaign: "1001" });

    await visit("/");
    expect(state.updates).toHaveLength(2);

    // GIVEN something cleared the attributes of the same cart
    state.cart.attributes = {};
    await visit("/");
    await expect.poll(() => state.updates.map((u) => u.token)).toEqual(["cart-1", "cart-2", "cart-2"]);
  });

  it("stops writing a code once its lifetime has passed", async () => {
    // GIVEN a 5-day lifetime and a visit on day 0
    state.settings = { lifetime_days: 5 };
    await page.clock.setFixedTime(T0);
    await visit("/?mbsy=ALICE10&campaignid=1001");
    expect(state.updates).toHaveLength(1);

    // WHEN a new cart appears on day 4, the code is still alive
    newCart("cart-2");
    await page.clock.setFixedTime(T0 + 4 * DAY);
    await visit("/");
    await expect.poll(() => state.updates.length).toBe(2);

    // WHEN another new cart appears on day 6, the code has expired: nothing is read or written
    newCart("cart-3");
    const readsBefore = state.cartReads;
    await page.clock.setFixedTime(T0 + 6 * DAY);
    await visit("/");
    expect(state.updates).toHaveLength(2);
    expect(state.cartReads).toBe(readsBefore);
    expect(state.cart.attributes).toEqual({});

    // AND under first touch a new referrer is now accepted
    await visit("/?mbsy=BOB10");
    expect(state.updates.map((u) => u.body).at(-1)).toEqual(written("BOB10"));
  });

  it("survives a failing cart API quietly and retries on the next page", async () => {
    // GIVEN /cart/update.js answers 500
    state.failUpdate = true;
    await visit("/?mbsy=ALICE10&campaignid=1001");
    expect(state.updates).toHaveLength(1);
    expect(state.cart.attributes).toEqual({});

    // AND /cart.js answers 500 on the next page
    state.failUpdate = false;
    state.failCartRead = true;
    await visit("/");
    expect(state.updates).toHaveLength(1);

    // THEN nothing leaked to the page or the console
    expect(pageErrors).toEqual([]);
    expect(scriptNoise()).toEqual([]);

    // AND once the cart API works again, the attributes are written
    state.failCartRead = false;
    await visit("/");
    expect(state.updates).toHaveLength(2);
    expect(state.cart.attributes).toEqual({ _referral_code: "ALICE10", _referral_campaign: "1001" });
  });

  it("survives the cart API being unreachable", async () => {
    await page.route("**/cart.js", (route) => route.abort("connectionrefused"));
    await visit("/?mbsy=ALICE10");
    expect(state.updates).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(scriptNoise()).toEqual([]);
  });

  it("falls back to a first-party cookie when localStorage is unavailable", async () => {
    await context.addInitScript(() => {
      Object.defineProperty(window, "localStorage", {
        configurable: true,
        get() {
          throw new DOMException("The operation is insecure.", "SecurityError");
        },
      });
    });
    await visit("/?mbsy=ALICE10&campaignid=1001");
    await visit("/");

    expect(state.updates.map((u) => u.body)).toEqual([written("ALICE10", "1001")]);
    const cookie = (await context.cookies()).find((c) => c.name === "referral_bridge");
    expect(cookie).toBeDefined();
    expect(cookie!.sameSite).toBe("Lax");
    expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + 29 * DAY);

    // The cookie carries the code to a new cart like localStorage would.
    newCart("cart-2");
    await visit("/");
    expect(state.updates).toHaveLength(2);
    expect(pageErrors).toEqual([]);
  });

  describe("with Shopify's Customer Privacy API (a consent banner)", () => {
    /** A stand-in for window.Shopify.loadFeatures + customerPrivacy with the given answer. */
    async function consentBanner(allowed: boolean): Promise<void> {
      await context.addInitScript((initial: boolean) => {
        let consent = initial;
        const w = window as unknown as Record<string, unknown>;
        w.Shopify = {
          loadFeatures(features: { name: string; version: string }[], callback: (error?: Error) => void) {
            if (features[0]?.name !== "consent-tracking-api") return callback(new Error("unknown feature"));
            w.Shopify = {
              ...(w.Shopify as object),
              customerPrivacy: {
                analyticsProcessingAllowed: () => consent,
                marketingAllowed: () => consent,
                userCanBeTracked: () => consent,
              },
            };
            setTimeout(() => {
              callback();
              w.consentAnswered = true;
            }, 10);
          },
        };
        w.grantConsent = () => {
          consent = true;
          document.dispatchEvent(
            new CustomEvent("visitorConsentCollected", {
              detail: { analyticsAllowed: true, marketingAllowed: true, preferencesAllowed: true, saleOfDataAllowed: true },
            }),
          );
        };
      }, allowed);
    }

    /** Waits until the script has been told the visitor's consent, and for whatever it started then. */
    async function consentAnswered(): Promise<void> {
      await page.waitForFunction(() => (window as unknown as { consentAnswered?: boolean }).consentAnswered === true);
      await settled();
    }

    const stored = () => page.evaluate(() => ({ local: localStorage.getItem("referral_bridge"), cookie: document.cookie }));

    it("stores and sends nothing while consent is refused, and tracks once it is given", async () => {
      await consentBanner(false);
      await visit("/?mbsy=ALICE10&campaignid=1001");
      await consentAnswered();

      expect(state.cartReads).toBe(0);
      expect(state.updates).toEqual([]);
      expect(await stored()).toEqual({ local: null, cookie: "" });

      // The visitor accepts on the banner: the same page now keeps and writes the code.
      await page.evaluate(() => (window as unknown as { grantConsent: () => void }).grantConsent());
      await settled();
      expect(state.updates.map((u) => u.body)).toEqual([written("ALICE10", "1001")]);
      expect(JSON.parse((await stored()).local ?? "null")).toMatchObject({ c: "ALICE10", k: "1001" });
      expect(pageErrors).toEqual([]);
    });

    it("tracks as before when the visitor has already allowed it", async () => {
      await consentBanner(true);
      await visit("/?mbsy=ALICE10&campaignid=1001");
      await consentAnswered();

      expect(state.updates.map((u) => u.body)).toEqual([written("ALICE10", "1001")]);
      expect(pageErrors).toEqual([]);
    });
  });
});
