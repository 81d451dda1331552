// The Settings page's "Data retention" card in Chromium, served by the
// production build: the periods the purge applies, in the merchant's words.
import "../../entry/admin/browser-env";
import path from "node:path";
import { expect, it } from "vitest";
import { useAdminInBrowser } from "../../entry/admin/admin-in-browser";
import { artifactsDir, describeInBrowser } from "../../support/browser";
import { installShop } from "../../support/sessions";

const admin = useAdminInBrowser({ seed: () => installShop() });

describeInBrowser("Settings: data retention", () => {
  it("shows every retention period at the end of the page, read-only", async () => {
    await admin.open("/app/settings");
    const { page } = admin;

    const card = page.getByRole("region", { name: "Data retention" });
    await expect.poll(() => card.isVisible(), { timeout: 10_000, message: (await page.content()).slice(0, 3000) }).toBe(true);
    await card.scrollIntoViewIfNeeded();
    const text = await card.innerText();
    expect(text).toContain("Browser IP, phone and address of orders that were not referred");
    expect(text).toContain("Kept 3 days after the order.");
    expect(text).toContain("Kept 6 hours. Deleted.");
    expect(text).toContain("Kept 7 days.");
    expect(text).toContain("Kept 30 days after the report is ready.");
    expect(text).toContain("Kept 92 days after their last such order. Deleted.");
    // Nothing to change there: no field, no button.
    expect(await card.locator("input, button, select, textarea").count()).toBe(0);
    await page.screenshot({ path: path.join(artifactsDir, "settings-data-retention.png"), fullPage: true });
  }, 60_000);
});
