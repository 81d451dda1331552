// End to end in real Chromium: the theme's "Referral links" block (markup from
// its Liquid, its real JS and CSS) on a storefront page whose
// /apps/referrals/links is forwarded, signed like Shopify's app proxy does, to
// the app's real proxy route, which asks the real sandbox service.
import { adminApi } from "./support/admin-api-stub";

import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { loader } from "../../../app/routes/proxy.links";
import { MESSAGES } from "../../../app/domains/storefront/share-links.server";
import type { SandboxHandle } from "../../../sandbox/server";
import { artifactsDir, describeInBrowser, launchBrowser, watchNetwork } from "../../support/browser";
import { startTestSandbox } from "../../support/pipeline";
import { renderBlock, storefrontPage } from "../../domains/storefront/liquid-lite";
import { sendHtml, sendJson, startStorefront, type Storefront } from "../../domains/storefront/storefront-server";
import { proxyRequest, respond } from "./support/requests";
import { CUSTOMERS, resetWorld, serviceOperations, setUpShop } from "./support/world";

const { alice, nina } = CUSTOMERS;
const byId = new Map<string, { id: string; email: string | null; firstName: string }>(
  Object.values(CUSTOMERS).map((customer) => [customer.id, customer]),
);

let sandbox: SandboxHandle;
let storefront: Storefront;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let network: ReturnType<typeof watchNetwork>;
let pageErrors: string[];
const proxied: { status: number; query: string }[] = [];

/** The storefront's own session: who is signed in (the page cannot choose it). */
function sessionCustomer(cookie: string | undefined) {
  const id = /(?:^|;\s*)customer=(\d+)/.exec(cookie ?? "")?.[1];
  return id ? byId.get(id) : undefined;
}

beforeAll(async () => {
  sandbox = await startTestSandbox();
  storefront = await startStorefront(async (req, res) => {
    const customer = sessionCustomer(req.headers.cookie);
    if (req.path === "/apps/referrals/links") {
      // What Shopify's app proxy does: add the signed-in customer and sign the forwarded query.
      const extra = Object.fromEntries([...req.url.searchParams].filter(([name]) => name !== "logged_in_customer_id"));
      const response = await respond(loader, await proxyRequest({ customerId: customer?.id ?? "", extra }));
      proxied.push({ status: response.status, query: req.url.search });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
      return;
    }
    if (req.path === "/pages/refer") {
      // ?lang=de&currency=EUR: a German storefront of a shop that sells in euros.
      const language = req.url.searchParams.get("lang") ?? "en";
      const { html } = renderBlock("referral-links", {
        locale: language,
        globals: {
          customer: customer ? { first_name: customer.firstName, email: customer.email } : null,
          shop: { name: "Demo Outfitters", currency: req.url.searchParams.get("currency") ?? "USD" },
        },
      });
      return sendHtml(res, storefrontPage(html, "", language));
    }
    sendJson(res, 404, { message: "Not found" });
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await storefront?.close();
  await sandbox?.close();
});

beforeEach(async () => {
  await resetWorld(sandbox);
  proxied.length = 0;
  context = await browser.newContext({ viewport: { width: 900, height: 900 }, deviceScaleFactor: 1 });
  page = await context.newPage();
  network = watchNetwork(page);
  pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterEach(async () => {
  await context?.close();
});

async function openAs(customerId: string | null, query = ""): Promise<void> {
  if (customerId) await context.addCookies([{ name: "customer", value: customerId, url: storefront.origin }]);
  await page.goto(`${storefront.origin}/pages/refer${query}`);
  // The block asks the app proxy after the page's load event.
  if (customerId) await page.waitForSelector("[data-referral-links][data-referral-started]:not([aria-busy])", { state: "attached" });
  await network.settled();
}

const cards = () => page.locator(".referral-links__card");
const status = () => page.locator("[data-referral-status]");

describeInBrowser("referral links block against the real proxy route", () => {
  it("shows a signed-in ambassador their own links and balances from the service", async () => {
    await setUpShop(sandbox);

    await openAs(alice.id);

    // The block names the storefront's locale and the shop's currency, so the route formats the amounts.
    expect(proxied).toEqual([{ status: 200, query: "?locale=en&currency=USD" }]);
    await expect.poll(() => cards().count()).toBe(2);
    expect(await page.locator(".referral-links__campaign").allTextContents()).toEqual(["Friends & Family", "Points Club"]);
    const first = page.getByRole("textbox", { name: "Your share link Friends & Family" });
    expect(await first.inputValue()).toBe(`${sandbox.baseUrl}/s/ALICE10`);
    const stats = await page.locator(".referral-links__stat").allInnerTexts();
    expect(stats.map((s) => s.replace(/\s+/g, " ").trim())).toEqual([
      "Your balance $12.00 0 points",
      "Paid out $0.00 0 points",
      expect.stringMatching(/^Friends referred \d+$/),
    ]);
    expect(await page.locator(".referral-links__earned").allTextContents()).toEqual([
      "Earned: $12.00 · 0 points",
      "Earned: $0.00 · 0 points",
    ]);
    expect(pageErrors).toEqual([]);
    await page.locator(".referral-links").screenshot({ path: path.join(artifactsDir, "storefront-referral-links-live.png") });
  });

  it("shows the amounts as the app formatted them for a German storefront in euros, with no number formatting in the page", async () => {
    await setUpShop(sandbox);
    // Counts the page's number formatters: a page's first one loads the browser's number data, one long task.
    await context.addInitScript(() => {
      const Original = Intl.NumberFormat;
      const counted = { made: 0 };
      Object.assign(window, { numberFormatters: counted });
      Intl.NumberFormat = function (...args: ConstructorParameters<typeof Original>) {
        counted.made++;
        return new Original(...args);
      } as unknown as typeof Intl.NumberFormat;
    });

    await openAs(alice.id, "?lang=de&currency=EUR");

    expect(proxied).toEqual([{ status: 200, query: "?locale=de&currency=EUR" }]);
    await expect.poll(() => cards().count()).toBe(2);
    const stats = await page.locator(".referral-links__stat").allInnerTexts();
    // "12,00 €" with the no-break space German puts before the sign.
    expect(stats.slice(0, 2).map((s) => s.replace(/[\n ]+/g, " ").trim())).toEqual(["Dein Guthaben 12,00\u00a0€ 0 points", "Ausgezahlt 0,00\u00a0€ 0 points"]);
    expect(await page.locator(".referral-links__earned").allTextContents()).toEqual(["Verdient: 12,00\u00a0€ · 0 points", "Verdient: 0,00\u00a0€ · 0 points"]);
    expect(await page.evaluate(() => (window as unknown as { numberFormatters: { made: number } }).numberFormatters.made)).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it("answers the next page view from the app's cache without asking the service again", async () => {
    await setUpShop(sandbox);
    await openAs(alice.id);
    await expect.poll(() => cards().count()).toBe(2);
    const requests = serviceOperations(sandbox).length;

    await page.reload();
    await network.settled();

    await expect.poll(() => cards().count()).toBe(2);
    expect(proxied).toHaveLength(2);
    expect(serviceOperations(sandbox).length).toBe(requests);
    expect(adminApi.calls).toHaveLength(1);
  });

  it("shows a customer who is not in the program the route's message", async () => {
    await setUpShop(sandbox, { autoEnrol: false });
    await openAs(nina.id);
    await expect.poll(() => status().textContent()).toBe(MESSAGES.notEnrolled);
    expect(await cards().count()).toBe(0);
  });

  it("enrols the customer on their first visit when the shop enrols automatically", async () => {
    await setUpShop(sandbox, { autoEnrol: true });
    await openAs(nina.id);
    await expect.poll(() => cards().count()).toBe(2);
    const created = sandbox.ledger().ambassadors.find((a) => a.email === nina.email);
    expect(await page.getByRole("textbox", { name: "Your share link Friends & Family" }).inputValue()).toBe(
      `${sandbox.baseUrl}/s/${created!.short_codes["1001"]}`,
    );
  });

  it("says the program is not available when the shop has no connection", async () => {
    await setUpShop(sandbox, { connected: false });
    await openAs(alice.id);
    await expect.poll(() => status().textContent()).toBe(MESSAGES.unavailable);
  });

  it("shows the quiet error when the service is down, and the links once it is back", async () => {
    await setUpShop(sandbox);
    sandbox.setFaults({ failNext: 1, operations: ["ambassador/get"] });
    await openAs(alice.id);
    expect(proxied.map((p) => p.status)).toEqual([503]);
    await expect.poll(() => status().textContent()).toBe("Your referral links can’t be shown right now. Please try again later.");

    await page.reload();
    // As in openAs: the block asks after the page's load event, which a busy machine can hold back past a poll's second.
    await page.waitForSelector("[data-referral-links][data-referral-started]:not([aria-busy])", { state: "attached" });
    await network.settled();
    await expect.poll(() => cards().count()).toBe(2);
  });

  it("asks the app nothing for a guest", async () => {
    await setUpShop(sandbox);
    await openAs(null);
    expect(await page.getByRole("link", { name: "Sign in" }).count()).toBe(1);
    expect(proxied).toEqual([]);
  });
});
