// Each customer-facing block in each of the eight languages, in real Chromium:
// the theme's "Referral links" block (its Liquid with the storefront's locale and
// its real script), the checkout thank-you block and the customer account block
// (their real bundles with a stand-in of the host's `shopify` global). Each test
// reads the texts the page shows and checks they are the language's own; each
// page is saved as a screenshot in .cache/screenshots/ (not committed).
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { describeInBrowser, launchBrowser } from "../support/browser";
import { renderBlock, storefrontPage } from "../domains/storefront/liquid-lite";
import { sendHtml, sendJson, startStorefront, type Storefront } from "../domains/storefront/storefront-server";
import { blockPage, bundleBlock, localeTexts, VISIBLE_TEXTS } from "./support/ui-block-page";
import { LANGUAGES, readTexts } from "./support/locales";

const screenshots = fileURLToPath(new URL("../../.cache/screenshots/", import.meta.url));
mkdirSync(screenshots, { recursive: true });

const LINK = {
  campaignUid: "1001",
  campaignName: "Friends & Family",
  description: "",
  url: "https://demo-outfitters.example/?mbsy=ALICE10",
  socialEnabled: true,
  totalMoneyEarned: "10.00",
  totalPointsEarned: "150",
};
const ANSWER = {
  status: "ok",
  ambassador: {
    firstName: "Alice",
    email: "alice@example.com",
    balanceMoney: "12.50",
    balancePoints: "150",
    moneyPaid: "0.00",
    pointsPaid: "0",
    uniqueReferrals: 2,
    pointName: null,
  },
  links: [LINK],
};

let storefront: Storefront;
let browser: Browser;
let page: Page;
let pageErrors: string[];
const bundles: Record<string, string> = {};
const current = { language: "en" };

beforeAll(async () => {
  storefront = await startStorefront(async (req, res) => {
    const language = req.url.searchParams.get("lang") ?? "en";
    if (req.path === "/apps/referrals/links" || req.path === "/api/checkout/share-link" || req.path === "/api/customer-account/links") {
      return sendJson(res, 200, ANSWER);
    }
    if (req.path === "/pages/refer") {
      const { html } = renderBlock("referral-links", { locale: language, globals: { customer: { first_name: "Alice" } } });
      return sendHtml(res, storefrontPage(html, "", language));
    }
    const bundle = /^\/ui\/([\w-]+)\.js$/.exec(req.path);
    if (bundle && bundles[bundle[1]]) {
      res.writeHead(200, { "content-type": "text/javascript", "cache-control": "no-store" });
      res.end(bundles[bundle[1]]);
      return;
    }
    const ui = /^\/ui\/([\w-]+)$/.exec(req.path);
    if (ui && bundles[ui[1]]) {
      const extension = ui[1] === "thank-you" ? "checkout-share-link" : "customer-account";
      return sendHtml(res, blockPage({ language, texts: localeTexts(extension, language), bundleUrl: `/ui/${ui[1]}.js` }));
    }
    sendJson(res, 404, { message: "Not found" });
  });
  bundles["thank-you"] = await bundleBlock("checkout-share-link/src/ThankYou.tsx", storefront.origin);
  bundles["customer-account"] = await bundleBlock("customer-account/src/ProfileBlock.tsx", storefront.origin);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await storefront?.close();
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 720, height: 640 }, deviceScaleFactor: 1, locale: current.language });
  pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
});

afterEach(async () => {
  await page?.close();
});

const visibleTexts = (): Promise<string[]> => page.evaluate(VISIBLE_TEXTS);

describeInBrowser.each(LANGUAGES)("the blocks in %s", (language) => {
  beforeAll(() => {
    current.language = language;
  });

  it("shows the theme's referral links block in the storefront's language", async () => {
    const t = readTexts({ dir: "referral-theme/locales", kind: "" }, language);
    await page.goto(`${storefront.origin}/pages/refer?lang=${language}`);
    await page.waitForSelector(".referral-links__card");
    const shown = await page.locator(".referral-links").innerText();
    for (const key of ["heading", "intro", "link_label", "copy", "share_email", "share_x", "balance", "paid", "referrals", "earned"])
      expect(shown, key).toContain(t[`referral_links.${key}`]);
    expect(pageErrors).toEqual([]);
    await page.locator(".referral-links").screenshot({ path: `${screenshots}theme-links-${language}.png` });
  });

  it("shows the checkout thank-you block in the checkout's language", async () => {
    const t = localeTexts("checkout-share-link", language);
    await page.goto(`${storefront.origin}/ui/thank-you?lang=${language}`);
    await page.waitForSelector("s-button");
    const shown = await visibleTexts();
    expect(shown).toEqual(
      expect.arrayContaining([t.heading, t.intro, t.linkLabel.replace("{{campaign}}", LINK.campaignName), t.copy, t.shareEmail, t.shareWhatsApp]),
    );
    expect(shown.join(" ")).not.toContain("[missing");
    expect(pageErrors).toEqual([]);
    await page.screenshot({ path: `${screenshots}thank-you-${language}.png` });
  });

  it("shows the customer account block in the customer's language", async () => {
    const t = localeTexts("customer-account", language);
    await page.goto(`${storefront.origin}/ui/customer-account?lang=${language}`);
    await page.waitForSelector("s-button");
    const shown = await visibleTexts();
    const points = (count: string) => t.points.replace("{{count}}", count).replace("{{name}}", t.defaultPointName);
    const number = (value: number) => new Intl.NumberFormat(language).format(value);
    const money = (value: number) => new Intl.NumberFormat(language, { style: "currency", currency: "EUR" }).format(value);
    expect(shown).toEqual(
      expect.arrayContaining([
        t.heading,
        t.intro,
        t.copy,
        t.shareEmail,
        t.balance.replace("{{money}}", money(12.5)).replace("{{points}}", points(number(150))),
        t.referrals.replace("{{count}}", number(2)),
      ]),
    );
    expect(shown.join(" ")).not.toContain("[missing");
    expect(pageErrors).toEqual([]);
    await page.screenshot({ path: `${screenshots}customer-account-${language}.png` });
  });
});
