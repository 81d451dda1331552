// The Settings page's "Data retention" card in Chromium, served by the
// production build: the periods the purge applies, in the merchant's words.
import "../admin/browser-env";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { adminRequest } from "../admin/admin-requests";
import { startSandboxAppServer, type AppServer } from "../admin/app-server";
import { artifactsDir, describeInBrowser, launchBrowser, openAdminBrowserPage, watchNetwork } from "../support/browser";
import { resetDatabase } from "../support/database";
import { installShop } from "../support/sessions";

let server: AppServer;
let browser: Browser;
let page: Page;

describeInBrowser("Settings: data retention", () => {
  beforeAll(async () => {
    server = await startSandboxAppServer();
    browser = await launchBrowser();
    await resetDatabase();
    await installShop();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows every retention period at the end of the page, read-only", async () => {
    const { context, page: opened } = await openAdminBrowserPage(browser, { origins: [server.origin] });
    page = opened;
    const signed = new URL((await adminRequest("/app/settings")).url);
    const network = watchNetwork(page);
    await page.goto(`${server.origin}${signed.pathname}${signed.search}`);
    await network.settled(200, 15_000);

    const card = page.getByRole("region", { name: "Data retention" });
    await expect.poll(() => card.isVisible(), { timeout: 10_000, message: (await page.content()).slice(0, 3000) }).toBe(true);
    await card.scrollIntoViewIfNeeded();
    const text = await card.innerText();
    expect(text).toContain("Browser IP, phone and address of orders that were not referred");
    expect(text).toContain("Kept 3 days after the order.");
    expect(text).toContain("Kept 6 hours. Deleted.");
    expect(text).toContain("Kept 7 days.");
    expect(text).toContain("Kept 30 days after the report is ready.");
    // Nothing to change there: no field, no button.
    expect(await card.locator("input, button, select, textarea").count()).toBe(0);
    await page.screenshot({ path: path.join(artifactsDir, "settings-data-retention.png"), fullPage: true });
    await context.close();
  }, 60_000);
});
