// The "Referral links" app block in real Chromium: markup rendered from
// blocks/referral-links.liquid (signed-in customer or guest), the real JS and CSS,
// and a stand-in for the app proxy at /apps/referrals/links.
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { artifactsDir, describeInBrowser, launchBrowser, watchNetwork } from "../../support/browser";
import { renderBlock, storefrontPage } from "./liquid-lite";
import { sendHtml, sendJson, startStorefront, type Storefront } from "./storefront-server";
import type { ShareLinksAnswer } from "../../../app/domains/storefront/share-links-contract";
import { readAmountFormat, withDisplayAmounts } from "../../../app/domains/storefront/share-links-display";

const ALICE_LINKS = {
  status: "ok",
  ambassador: {
    firstName: "Alice",
    email: "alice@example.com",
    balanceMoney: "12.50",
    balancePoints: "0",
    moneyPaid: "0.00",
    pointsPaid: "0",
    uniqueReferrals: 2,
    pointName: "points",
  },
  links: [
    {
      campaignUid: "1001",
      campaignName: "Friends & Family",
      description: "Give 10%, get 10%",
      url: "https://demo-outfitters.example/?mbsy=ALICE10",
      socialEnabled: true,
      totalMoneyEarned: "10.00",
      totalPointsEarned: "0",
    },
    {
      campaignUid: "1002",
      campaignName: "Summer Club",
      description: "Your friend gets free shipping, you get 150 points",
      url: "https://demo-outfitters.example/?mbsy=ALICE10&campaignid=1002",
      socialEnabled: false,
      totalMoneyEarned: "0.00",
      totalPointsEarned: "150",
    },
  ],
};
const URL_1 = ALICE_LINKS.links[0].url;
const URL_2 = ALICE_LINKS.links[1].url;

type ProxyAnswer = { status: number; body: unknown } | "drop";

// A product photo (a 1×1 PNG; the page gives it its size).
const PHOTO = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC", "base64");

const state = {
  customer: { first_name: "Alice", email: "alice@example.com" } as Record<string, unknown> | null,
  settings: {} as Record<string, unknown>,
  answer: { status: 200, body: ALICE_LINKS } as ProxyAnswer,
  proxyCalls: [] as { accept: string | undefined; cookie: string | undefined; query: string }[],
  /** Whether the stand-in formats the amounts as the app's route does (an older app does not). */
  appFormats: true,
  photoHeld: Promise.resolve() as Promise<void>,
};

let storefront: Storefront;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let network: ReturnType<typeof watchNetwork>;
let pageErrors: string[];
let consoleMessages: string[];

beforeAll(async () => {
  storefront = await startStorefront(async (req, res) => {
    if (req.path === "/apps/referrals/links") {
      state.proxyCalls.push({ accept: req.headers.accept, cookie: req.headers.cookie, query: req.url.search });
      if (state.answer === "drop") {
        res.destroy();
        return;
      }
      const format = state.appFormats ? readAmountFormat(req.url.searchParams) : null;
      const body = format ? withDisplayAmounts(state.answer.body as ShareLinksAnswer, format) : state.answer.body;
      return sendJson(res, state.answer.status, body);
    }
    if (req.path === "/images/photo.png") {
      // Held until the test lets it go: the page's own load is still under way meanwhile.
      await state.photoHeld;
      res.writeHead(200, { "content-type": "image/png", "cache-control": "no-store" });
      res.end(PHOTO);
      return;
    }
    if (req.path === "/products/hoodie") {
      const { html } = renderBlock("referral-links", { globals: { customer: state.customer } });
      const photo = '<img src="/images/photo.png" width="600" height="600" alt="Merino hoodie" fetchpriority="high">';
      return sendHtml(res, storefrontPage(`${photo}<h1>Merino hoodie</h1>${html}`));
    }
    if (req.path === "/pages/refer" && req.method === "GET") {
      const { html } = renderBlock("referral-links", {
        settings: state.settings,
        globals: { customer: state.customer },
      });
      return sendHtml(res, storefrontPage(html));
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
  state.customer = { first_name: "Alice", email: "alice@example.com" };
  state.settings = {};
  state.answer = { status: 200, body: ALICE_LINKS };
  state.proxyCalls = [];
  state.appFormats = true;
  state.photoHeld = Promise.resolve();
  context = await browser.newContext({ viewport: { width: 900, height: 900 }, deviceScaleFactor: 1 });
  await context.addCookies([{ name: "session", value: "signed-in", url: storefront.origin }]);
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

/** Opens the page and, for a signed-in customer, waits for the block's answer (it starts after the page's load event). */
async function openBlock(): Promise<void> {
  await page.goto(`${storefront.origin}/pages/refer`);
  if (state.customer) await page.waitForSelector("[data-referral-links][data-referral-started]:not([aria-busy])", { state: "attached" });
  await network.settled();
}

const cards = () => page.locator(".referral-links__card");
const status = () => page.locator("[data-referral-status]");
const scriptNoise = () => consoleMessages.filter((m) => !m.includes("Failed to load resource"));

describeInBrowser("referral links block", () => {
  it("renders a signed-in customer's links with balances and earnings", async () => {
    await openBlock();

    // One same-origin JSON request, with the storefront's cookies, naming the locale and currency the amounts are shown in.
    expect(state.proxyCalls).toEqual([{ accept: "application/json", cookie: "session=signed-in", query: "?locale=en&currency=USD" }]);

    await expect.poll(() => cards().count()).toBe(2);
    await expect(status().isHidden()).resolves.toBe(true);
    expect(await page.locator(".referral-links__campaign").allTextContents()).toEqual(["Friends & Family", "Summer Club"]);
    expect(await page.locator(".referral-links__description").allTextContents()).toEqual([
      "Give 10%, get 10%",
      "Your friend gets free shipping, you get 150 points",
    ]);

    // Each link sits in a labelled read-only input.
    const first = page.getByRole("textbox", { name: "Your share link Friends & Family" });
    await expect(first.inputValue()).resolves.toBe(URL_1);
    await expect(first.getAttribute("readonly")).resolves.not.toBeNull();
    await expect(page.getByRole("textbox", { name: "Your share link Summer Club" }).inputValue()).resolves.toBe(URL_2);
    expect(await page.getByRole("button", { name: "Copy link" }).count()).toBe(2);

    // Balances from the ambassador, earnings per campaign, with the point name.
    const stats = await page.locator(".referral-links__stat").allInnerTexts();
    expect(stats.map((s) => s.replace(/\s+/g, " ").trim())).toEqual([
      "Your balance $12.50 0 points",
      "Paid out $0.00 0 points",
      "Friends referred 2",
    ]);
    expect(await page.locator(".referral-links__earned").allTextContents()).toEqual([
      "Earned: $10.00 · 0 points",
      "Earned: $0.00 · 150 points",
    ]);

    expect(pageErrors).toEqual([]);
    expect(consoleMessages).toEqual([]);

    // Keep a picture of the block for people to look at.
    await page.locator(".referral-links").screenshot({ path: path.join(artifactsDir, "storefront-referral-links.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator(".referral-links").screenshot({ path: path.join(artifactsDir, "storefront-referral-links-mobile.png") });
  });

  it("waits for the page's own photo before it fetches its script or asks the app proxy", async () => {
    let release!: () => void;
    state.photoHeld = new Promise<void>((resolve) => (release = resolve));
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));

    // DOMContentLoaded comes after every deferred script has run: a block that
    // loaded its script that way would have asked the app proxy by now.
    await page.goto(`${storefront.origin}/products/hoodie`, { waitUntil: "domcontentloaded" });
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    expect(await page.evaluate(() => document.readyState)).toBe("interactive"); // the photo is still loading
    expect(requested).toContain("/images/photo.png");
    expect(requested.filter((p) => p.includes("referral-links") || p.startsWith("/apps/"))).toEqual([]);
    expect(await page.locator("script[src*='referral-links.js']").count()).toBe(0);
    expect(state.proxyCalls).toEqual([]);
    // Meanwhile the frame is painted, with its loading line in the room kept for the links.
    expect(await status().textContent()).toBe("Loading your referral links…");
    expect(await page.locator(".referral-links__app").evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThanOrEqual(384);

    release();
    await expect.poll(() => cards().count()).toBe(2);
    expect(requested.indexOf("/assets/referral-links.js")).toBeGreaterThan(requested.indexOf("/images/photo.png"));
    expect(state.proxyCalls).toHaveLength(1);
    expect(await page.locator("script[src*='referral-links.js']").count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });

  it("shows the amounts as they came, with the currency's code, when an older app does not format them", async () => {
    state.appFormats = false;
    await openBlock();
    await expect.poll(() => cards().count()).toBe(2);
    const stats = await page.locator(".referral-links__stat").allInnerTexts();
    expect(stats.map((s) => s.replace(/\s+/g, " ").trim())).toEqual(["Your balance 12.50 USD 0 points", "Paid out 0.00 USD 0 points", "Friends referred 2"]);
    expect(await page.locator(".referral-links__earned").allTextContents()).toEqual(["Earned: 10.00 USD · 0 points", "Earned: 0.00 USD · 150 points"]);
    expect(pageErrors).toEqual([]);
  });

  it("builds email and social share links for each campaign", async () => {
    await openBlock();
    await expect.poll(() => cards().count()).toBe(2);

    const message = "I think you’ll like this shop. Here’s my link:";
    const email = cards().nth(0).getByRole("link", { name: "Share by email" });
    expect(await email.getAttribute("href")).toBe(
      `mailto:?subject=${encodeURIComponent("A link for you")}&body=${encodeURIComponent(`${message}\n\n${URL_1}`)}`,
    );

    const social = cards().nth(0).getByRole("link", { name: "Share on X (opens in a new window)" });
    const intent = new URL((await social.getAttribute("href"))!);
    expect(intent.origin + intent.pathname).toBe("https://x.com/intent/tweet");
    expect(intent.searchParams.get("url")).toBe(URL_1);
    expect(intent.searchParams.get("text")).toBe(message);
    expect(await social.getAttribute("target")).toBe("_blank");
    expect(await social.getAttribute("rel")).toBe("noopener noreferrer");

    // The second campaign has social sharing turned off: email only.
    const second = cards().nth(1);
    expect(await second.getByRole("link").count()).toBe(1);
    expect(await second.getByRole("link", { name: "Share by email" }).getAttribute("href")).toContain(encodeURIComponent(URL_2));
  });

  it("uses the social network chosen in the settings", async () => {
    state.settings = { social_network: "facebook" };
    await openBlock();
    const social = cards().nth(0).getByRole("link", { name: /Share on Facebook/ });
    const intent = new URL((await social.getAttribute("href"))!);
    expect(intent.origin + intent.pathname).toBe("https://www.facebook.com/sharer/sharer.php");
    expect(intent.searchParams.get("u")).toBe(URL_1);
  });

  it("copies a link to the clipboard and confirms it for two seconds", async () => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: storefront.origin });
    await page.clock.install();
    await openBlock();

    const button = cards().nth(1).getByRole("button");
    await button.click();

    await expect.poll(() => button.textContent()).toBe("Copied!");
    expect(await cards().nth(1).locator("[aria-live]").textContent()).toBe("Copied!");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(URL_2);

    await page.clock.runFor(2100);
    await expect.poll(() => button.textContent()).toBe("Copy link");
    expect(await cards().nth(1).locator("[aria-live]").textContent()).toBe("");
    expect(pageErrors).toEqual([]);
  });

  it("falls back to the selection and execCommand when the Clipboard API is missing", async () => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: storefront.origin });
    const reader = await context.newPage();
    await reader.goto(`${storefront.origin}/blank`);
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, "clipboard", { configurable: true, get: () => undefined });
    });
    await page.bringToFront();
    await openBlock();
    expect(await page.evaluate(() => "clipboard" in navigator && navigator.clipboard)).toBeFalsy();

    // (Not located by name: the name changes to "Copied!".)
    const button = cards().nth(0).locator("button");
    expect(await button.textContent()).toBe("Copy link");
    await button.click();
    await expect.poll(() => button.textContent()).toBe("Copied!");

    // Read the clipboard from a page that still has the Clipboard API.
    await reader.bringToFront();
    expect(await reader.evaluate(() => navigator.clipboard.readText())).toBe(URL_1);
  });

  it("uses the merchant's copy label and hides balances when turned off", async () => {
    state.settings = { copy_label: "Copy my link", show_balances: false, heading: "Share & earn" };
    await openBlock();
    await expect.poll(() => cards().count()).toBe(2);
    expect(await page.getByRole("heading", { level: 2 }).textContent()).toBe("Share & earn");
    expect(await page.getByRole("button", { name: "Copy my link" }).count()).toBe(2);
    expect(await page.locator(".referral-links__summary, .referral-links__earned").count()).toBe(0);
  });

  it("shows a guest the sign-in prompt and asks the app nothing", async () => {
    state.customer = null;
    await openBlock();

    const signIn = page.getByRole("link", { name: "Sign in" });
    expect(await signIn.getAttribute("href")).toBe("/account/login");
    expect(await page.locator(".referral-links__signin").textContent()).toContain(
      "Sign in to get your personal referral links and see your rewards.",
    );
    expect(await page.locator("[data-referral-links], script[src*='referral-links.js']").count()).toBe(0);
    expect(state.proxyCalls).toEqual([]);
  });

  it.each([
    ["a server error", { status: 500, body: { message: "boom" } } as ProxyAnswer],
    ["an expired session", { status: 401, body: { message: "Unauthorized" } } as ProxyAnswer],
    ["a dropped connection", "drop" as ProxyAnswer],
    ["an answer it does not understand", { status: 200, body: { hello: "world" } } as ProxyAnswer],
  ])("shows a quiet message after %s", async (_name, answer) => {
    state.answer = answer;
    await openBlock();
    await expect.poll(() => status().textContent()).toBe(
      "Your referral links can’t be shown right now. Please try again later.",
    );
    expect(await cards().count()).toBe(0);
    expect(await page.locator("[data-referral-links]").getAttribute("aria-busy")).toBeNull();
    expect(pageErrors).toEqual([]);
    expect(scriptNoise()).toEqual([]);
  });

  it("tells a customer who is not enrolled why, in the block's own words (never the service's English message)", async () => {
    state.answer = { status: 200, body: { status: "not_enrolled", reason: "no_email", message: "Some English text" } };
    await openBlock();
    await expect.poll(() => status().textContent()).toBe("Add an email address to your account to get referral links.");

    state.answer = { status: 200, body: { status: "not_enrolled", reason: "inactive", message: "Some English text" } };
    await openBlock();
    await expect.poll(() => status().textContent()).toBe("Your referral account isn’t active.");

    state.answer = { status: 200, body: { status: "not_enrolled", message: "Some English text" } };
    await openBlock();
    await expect.poll(() => status().textContent()).toBe("You’re not part of the referral program yet.");

    state.answer = { status: 200, body: { status: "unavailable" } };
    await openBlock();
    await expect.poll(() => status().textContent()).toBe("The referral program isn’t available right now.");
    expect(await cards().count()).toBe(0);
  });

  it("treats the service's texts as text, never as markup", async () => {
    state.settings = { heading: "<img src=x onerror=\"window.__owned=1\">" };
    state.answer = {
      status: 200,
      body: {
        ...ALICE_LINKS,
        links: [
          {
            ...ALICE_LINKS.links[0],
            campaignName: '<img src=x onerror="window.__owned=2">',
            description: "<script>window.__owned=3</script>",
          },
          { ...ALICE_LINKS.links[1], url: "javascript:alert(1)" },
        ],
      },
    };
    await openBlock();
    await expect.poll(() => cards().count()).toBe(1);
    expect(await page.locator(".referral-links__campaign").textContent()).toBe('<img src=x onerror="window.__owned=2">');
    expect(await page.getByRole("heading", { level: 2 }).textContent()).toBe("<img src=x onerror=\"window.__owned=1\">");
    expect(await page.locator(".referral-links img, .referral-links__description script").count()).toBe(0);
    expect(await page.evaluate(() => (window as { __owned?: number }).__owned)).toBeUndefined();
  });
});
