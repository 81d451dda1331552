// The Overview in Chromium, served by the production build against the
// sandbox service and the Admin API stand-in: the setup guide's deep links
// and the extensions' placements as App Bridge's app.extensions() reports
// them (through a stand-in of App Bridge's script), what it shows without
// App Bridge, one attention banner however many things need attention, and
// the support link.
import "./browser-env";
import type { Page } from "playwright-core";
import { beforeAll, beforeEach, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { afterPaints, describeInBrowser } from "../../support/browser";
import { clearSandboxFaults, connectShop, sandboxFaults } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";
import { appBridgeCalls, appExtensions, standInAppBridge, type ExtensionInfo } from "../../support/app-bridge-standin";
import { useAdminInBrowser } from "./admin-in-browser";

const API_KEY = "test-api-key";

const admin = useAdminInBrowser({
  shopifyAdmin: true,
  appEnv: { SUPPORT_CONTACT: "help@referral-bridge.example" },
  seed: async ({ sandbox, shopify }) => {
    await clearSandboxFaults(sandbox);
    // The live theme's settings say the embed is off; App Bridge, where it answers, says what is placed.
    shopify.themeSettingsData = JSON.stringify({ current: { blocks: {} } });
  },
});
const { sandbox, shopify, open, shot } = admin;
beforeAll(() => shopify.setBucket(100_000, 50_000));
let page: Page;
beforeEach(() => {
  ({ page } = admin);
});

/** Opens the Overview as the admin does; with App Bridge's stand-in when `extensions` is given. */
async function openOverview(extensions?: ExtensionInfo[] | "fails"): Promise<void> {
  if (extensions) await standInAppBridge(page, { extensions });
  await open("/app");
  await expect.poll(() => page.getByRole("heading", { level: 1, name: "Overview" }).isVisible()).toBe(true);
}

const step = (title: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title }) });

describeInBrowser("the Overview's setup guide and attention banner", () => {
  it("shows each extension's placement as App Bridge reports it, and links to where each is placed", async () => {
    await connectShop(sandbox, { campaignUids: "1001" });
    await openOverview(appExtensions({ embed: true, thankYou: true }));

    await expect.poll(() => appBridgeCalls(page)).toEqual({ extensions: 1, extensionsAnswered: 1, supportHandler: true });
    // App Bridge's word wins over the theme's settings the server read.
    await expect.poll(() => step("Turn on referral tracking in your theme").getByText("Referral tracking is on in your published theme.").isVisible()).toBe(true);
    expect(await step("Connect the referral pixel").getByText(/web pixel is connected/).isVisible()).toBe(true);
    expect(await step("Show the share link after a purchase").getByText("Shopify reports the share link on the Thank you page only.").isVisible()).toBe(true);
    expect(await step("Show share links in customer accounts").getByText(/Referral links block on the Profile page as not placed yet/).isVisible()).toBe(true);
    expect(await step("Take referrals at the counter with Shopify POS").getByText("Shopify reports the Referral tile on the POS home screen as not placed yet.").isVisible()).toBe(true);
    expect(await step("Selling on a headless storefront (Hydrogen or your own)?").getByText("Shopify can't tell the app whether a headless storefront uses the kit.").isVisible()).toBe(true);
    expect(await page.getByText("4 of 9 steps done").isVisible()).toBe(true);

    // The next step is the links block: the theme editor with the block added (Shopify's addAppBlockId link).
    const addBlock = step("Show customers their share links in your store").getByRole("link", { name: "Add the block in the theme editor" });
    expect(await addBlock.getAttribute("href")).toBe(
      `https://${TEST_SHOP}/admin/themes/current/editor?template=index&addAppBlockId=${API_KEY}/referral-links&target=newAppsSection`,
    );
    expect(await addBlock.getAttribute("target")).toBe("_top");

    // The support link under the page.
    const support = page.getByRole("link", { name: "Contact support (help@referral-bridge.example)" });
    expect(await support.getAttribute("href")).toBe("mailto:help@referral-bridge.example");
    await shot("overview-setup-app-bridge.png");

    // What the program needs is done: the merchant may hide the guide with optional steps left, and it stays hidden.
    await page.getByRole("button", { name: "Hide the setup guide" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Set up your referral program" }).count()).toBe(0);
    await openOverview(appExtensions({ embed: true, thankYou: true }));
    // The server's HTML has the guide; the page hides it once hydrated, and must not show it again when App Bridge answers.
    await expect.poll(() => page.getByRole("heading", { name: "Set up your referral program" }).count()).toBe(0);
    await expect.poll(async () => (await appBridgeCalls(page)).extensionsAnswered).toBeGreaterThan(0);
    await afterPaints(page);
    expect(await page.getByRole("heading", { name: "Set up your referral program" }).count()).toBe(0);
  }, 60_000);

  it("links to the checkout and accounts editor's place for the share link, and says where to put it", async () => {
    await connectShop(sandbox, { campaignUids: "1001" });
    await openOverview(appExtensions({ embed: true, linksBlock: true }));
    const thankYou = step("Show the share link after a purchase");
    await expect.poll(() => thankYou.getByText(/On the Thank you page, add the app block Referral share link/).isVisible()).toBe(true);
    expect(await thankYou.getByText("Shopify reports the share link as not placed yet.").isVisible()).toBe(true);
    expect(await thankYou.getByRole("link", { name: "Open checkout settings" }).getAttribute("href")).toBe(`https://${TEST_SHOP}/admin/settings/checkout`);
  }, 60_000);

  it("without App Bridge, turns the embed on from the guide and keeps what the server could check", async () => {
    await connectShop(sandbox, { campaignUids: "1001" });
    await openOverview();
    const embed = step("Turn on referral tracking in your theme");
    expect(await embed.getByText("Referral tracking is off in your live theme (Dawn).").isVisible()).toBe(true);
    // Shopify's activateAppId link: the theme editor with the embed switched on.
    expect(await embed.getByRole("link", { name: "Turn on in the theme editor" }).getAttribute("href")).toBe(
      `https://${TEST_SHOP}/admin/themes/current/editor?context=apps&template=index&activateAppId=${API_KEY}/referral-tracking`,
    );
    expect(await step("Show share links in customer accounts").getByText("Open the app in your Shopify admin to see whether it's placed.").isVisible()).toBe(true);
    await shot("overview-setup-without-app-bridge.png");
  }, 60_000);

  it("falls back to the server's checks when App Bridge's App API fails", async () => {
    await connectShop(sandbox, { campaignUids: "1001" });
    await openOverview("fails");
    expect((await appBridgeCalls(page)).extensions).toBe(1);
    expect(await step("Turn on referral tracking in your theme").getByText("Referral tracking is off in your live theme (Dawn).").isVisible()).toBe(true);
  }, 60_000);

  it("shows one attention banner, the most urgent, with the rest listed under it", async () => {
    await connectShop(sandbox, { campaignUids: "1001" });
    for (const n of [1, 2]) {
      await prisma.orderRecord.create({ data: { shop: TEST_SHOP, orderId: `56400000000${n}`, orderName: `#100${n}`, status: "failed", lastError: "The service refused the order" } });
    }
    await prisma.job.create({ data: { shop: TEST_SHOP, kind: "order.record", key: `${TEST_SHOP}:held:1`, status: "paused", lastError: "Waiting for new credentials", payload: "{}" } });
    await sandboxFaults(sandbox, { failNext: 50, operations: ["company/stats"] });
    await openOverview(appExtensions({ embed: true, linksBlock: true, thankYou: true, orderStatus: true, profile: true }));

    const banners = page.locator(".Polaris-Banner");
    await expect.poll(() => banners.count()).toBe(1);
    const banner = banners.first();
    expect(await banner.getByRole("heading", { name: "2 orders couldn't be recorded" }).isVisible()).toBe(true);
    expect(await banner.getByRole("link", { name: "Review failed orders" }).isVisible()).toBe(true);
    expect(await banner.getByText(/Also needing your attention|Also needs your attention/).isVisible()).toBe(true);
    const listed = await banner.getByRole("listitem").allTextContents();
    expect(listed.some((text) => /referral service/i.test(text)), listed.join(" | ")).toBe(true);
    await shot("overview-one-banner.png");
  }, 60_000);
});
