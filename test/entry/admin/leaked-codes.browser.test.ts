// Leaked codes on the admin pages (issue 48, item 5; decision 036), in real
// Chromium, served by the production build against the sandbox service: the
// Ambassador page's banner and the Commissions page's badge and hold, and
// both pages as before while no code is flagged.
import "./browser-env";
import type { Page } from "playwright-core";
import { beforeEach, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { DEFAULT_SCOPES } from "../../../app/wiring/env.server";
import { formatDate } from "../../../app/entry/admin/components/format";
import { standInAppBridge } from "../../support/app-bridge-standin";
import path from "node:path";
import { artifactsDir, describeInBrowser } from "../../support/browser";
import { installShop } from "../../support/sessions";
import { connectShop, testPipeline } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";
import { useAdminInBrowser } from "./admin-in-browser";
import { receiveOrder } from "./fixtures";

const admin = useAdminInBrowser({ seed: () => installShop(), pageReaches: "the app and the service" });
const { sandbox, open, shot } = admin;
let page: Page;
const eventually = <T,>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const ALICE = `/app/ambassadors/${encodeURIComponent("alice@example.com")}`;

/** Three buyers type ALICE-15 at checkout, with no link: more than the threshold of 2. */
async function leakAlice15(): Promise<string[]> {
  await connectShop(sandbox, { campaignUids: "1001" });
  await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { leakThreshold: 2 } });
  const ids: string[] = [];
  for (const n of [1, 2, 3]) {
    ids.push(await receiveOrder({ noteAttributes: [], landingSite: "/", discountCodes: ["ALICE-15"], email: `buyer${n}@example.com`, customerEmail: `buyer${n}@example.com`, customerId: 7390003000000000 + n, browserIp: `198.51.100.${n}` }));
    await testPipeline().drain();
  }
  return ids;
}

describeInBrowser("leaked codes on the admin pages", () => {
  beforeEach(async () => {
    ({ page } = admin);
    await standInAppBridge(page, { granted: DEFAULT_SCOPES.split(",") });
  });

  it("shows nothing of it while no code is flagged", async () => {
    await connectShop(sandbox, { campaignUids: "1001" });
    await receiveOrder({ noteAttributes: [], landingSite: "/", discountCodes: ["ALICE-15"], email: "buyer9@example.com", customerEmail: "buyer9@example.com", customerId: 7390003000000009 });
    await testPipeline().drain();

    await open(ALICE);
    await eventually(() => page.getByRole("heading", { level: 1, name: "Alice Archer" }).isVisible()).toBe(true);
    expect(await page.getByText(/has leaked|have leaked/).count()).toBe(0);

    await open("/app/commissions");
    await eventually(() => page.getByRole("row").filter({ hasText: "buyer9@example.com" }).count()).toBe(1);
    expect(await page.getByText("Code leaked").count()).toBe(0);
    expect(await page.getByText(/^Held for your review/).count()).toBe(0);

    // Settings shows the defaults: more than 5 buyers within 7 days, held
    await open("/app/settings");
    const threshold = page.getByLabel("Buyers without a link before a code is flagged");
    await eventually(() => threshold.isVisible()).toBe(true);
    expect(await threshold.inputValue()).toBe("5");
    expect(await page.getByLabel("Within").inputValue()).toBe("7");
    expect(await page.getByLabel("Hold a leaked code's commissions for my review").isChecked()).toBe(true);
    const section = page.locator(".Polaris-Layout__AnnotatedSection").filter({ has: page.locator("#leaked-codes") });
    await section.screenshot({ path: path.join(artifactsDir, "leaked-code-settings.png") });
  }, 60_000);

  it("the Ambassador page names the leaked code, when and what to do; each of its commissions on Commissions is badged and says it is held", async () => {
    const ids = await leakAlice15();
    const flag = await prisma.leakedCode.findFirstOrThrow({ where: { shop: TEST_SHOP } });

    await open(ALICE);
    const banner = page.locator(".Polaris-Banner").filter({ hasText: "Code ALICE-15 has leaked" });
    await eventually(() => banner.isVisible()).toBe(true);
    expect(await banner.textContent()).toContain(
      `ALICE-15: flagged on ${formatDate(flag.flaggedAt.toISOString())}, after 3 buyers used it without the ambassador's link within 7 days.`,
    );
    expect(await banner.textContent()).toContain("disable or replace the code in Shopify (Discounts)");
    expect(await banner.textContent()).toContain("Its commissions from then on wait for your review in Commissions");
    await shot("leaked-code-ambassador.png");

    await open("/app/commissions");
    for (const n of [1, 2, 3]) {
      const row = page.getByRole("row").filter({ hasText: `buyer${n}@example.com` });
      await eventually(() => row.getByText("Code leaked").isVisible()).toBe(true);
      expect(await row.getByText("Held for your review", { exact: true }).isVisible()).toBe(true);
    }
    expect(ids).toHaveLength(3);
    await shot("leaked-code-commissions.png");
  }, 60_000);
});
