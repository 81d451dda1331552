// The admin's forms with App Bridge's contextual save bar, in real Chromium,
// served by the production build against the sandbox service. App Bridge's
// part (the admin's bar, its dialogs, the permission dialog) is played by
// test/support/app-bridge-standin.ts; Shopify's Admin API by its stand-in.
import "./browser-env";
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeEach, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { DEFAULT_SCOPES } from "../../../app/wiring/env.server";
import { standInAppBridge, type AppBridgeStandIn } from "../../support/app-bridge-standin";
import { artifactsDir, describeInBrowser, watchNetwork } from "../../support/browser";
import { connectShop } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";
import { useAdminInBrowser } from "./admin-in-browser";

const admin = useAdminInBrowser({
  shopifyAdmin: true,
  seed: async ({ sandbox, shopify }) => {
    await connectShop(sandbox);
    shopify.grantedScopes = DEFAULT_SCOPES.split(",");
  },
  pageReaches: "the app and the service",
});
const { shopify, open } = admin;
let page: Page;
let appBridge: AppBridgeStandIn;

const settle = () => watchNetwork(page).settled(250, 15_000);
const saveBar = () => page.getByRole("region", { name: "Unsaved changes" });
const dialog = (name: string) => page.getByRole("alertdialog", { name });
const shopRow = () => prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } });
/** What the page shows after a round trip to the server, which a busy machine makes slow: waited for, not assumed. */
const eventually = <T,>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

describeInBrowser("App Bridge's save bar on the admin's forms", () => {
  beforeEach(async () => {
    ({ page } = admin);
    // Registered last, so it answers first: App Bridge's address gets the stand-in.
    appBridge = await standInAppBridge(page, {
      granted: DEFAULT_SCOPES.split(","),
      // What the merchant grants in the admin's dialog, Shopify then knows.
      onGrant: (scopes) => {
        shopify.grantedScopes = scopes;
      },
    });
  });

  it("shows the save bar for a changed settings form, discards, blocks leaving, and saves", async () => {
    // GIVEN the Settings page, as stored
    await open("/app/settings");
    const codeParams = page.getByLabel("Link parameters with the referral code");
    await eventually(() => codeParams.inputValue()).toBe("mbsy");
    expect(await saveBar().count()).toBe(0);
    // The page has no save button of its own any more.
    expect(await page.getByRole("button", { name: "Save settings" }).count()).toBe(0);

    // WHEN a field changes, THEN the admin's save bar shows
    await codeParams.fill("mbsy, ref");
    await eventually(() => saveBar().isVisible()).toBe(true);

    // WHEN the merchant discards (and confirms), THEN the stored value is back and the bar goes
    await saveBar().getByRole("button", { name: "Discard" }).click();
    await dialog("Discard all unsaved changes?").getByRole("button", { name: "Discard changes" }).click();
    await eventually(() => codeParams.inputValue()).toBe("mbsy");
    await eventually(() => saveBar().count()).toBe(0);
    await settle();
    expect((await shopRow()).codeParams).toBe("mbsy");

    // WHEN the guard's limit changes and the merchant follows a link to another page
    const limit = page.getByLabel("Referred orders a day before the two daily rules apply");
    await limit.fill("9");
    await eventually(() => saveBar().isVisible()).toBe(true);
    await page.getByRole("link", { name: "Campaigns" }).click();
    // THEN the admin asks first; staying keeps the page and the change
    await eventually(() => dialog("Leave page with unsaved changes?").isVisible()).toBe(true);
    await dialog("Leave page with unsaved changes?").getByRole("button", { name: "Stay" }).click();
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe("/app/settings");
    expect(await limit.inputValue()).toBe("9");
    await page.screenshot({ path: path.join(artifactsDir, "admin-settings-save-bar.png") });

    // WHEN the merchant saves from the bar
    await saveBar().getByRole("button", { name: "Save" }).click();
    await settle();
    // THEN it is stored, the page says so, and the bar is gone
    await eventually(() => page.getByText("Settings saved").isVisible()).toBe(true);
    await eventually(() => saveBar().count()).toBe(0);
    expect((await shopRow()).guardDailyLimit).toBe(9);
    expect(await limit.inputValue()).toBe("9");

    // AND with nothing changed, leaving asks nothing
    await page.getByRole("link", { name: "Campaigns" }).click();
    await eventually(() => new URL(page.url()).pathname).toBe("/app/campaigns");
    expect(await dialog("Leave page with unsaved changes?").count()).toBe(0);
  });

  it("asks for the store credit scopes when the merchant turns store credit payouts on, and keeps it off when declined", async () => {
    await open("/app/events");
    const credit = page.getByLabel("Pay store platform payouts as Shopify store credit");
    expect(await credit.isChecked()).toBe(false);

    // WHEN the merchant turns it on and declines the permission
    appBridge.answerScopeRequests("decline");
    await credit.click();
    // THEN it stays off, saying why, with nothing to save
    await eventually(() => page.getByText("Store credit payouts stays off until you allow the app").isVisible()).toBe(true);
    expect(await credit.isChecked()).toBe(false);
    expect(await saveBar().count()).toBe(0);
    expect(appBridge.requests).toEqual([["read_store_credit_accounts", "write_store_credit_account_transactions"]]);

    // WHEN the merchant grants it
    appBridge.answerScopeRequests("grant");
    await credit.click();
    await eventually(() => credit.isChecked()).toBe(true);
    await eventually(() => saveBar().isVisible()).toBe(true);
    await saveBar().getByRole("button", { name: "Save" }).click();
    await settle();
    // THEN it is saved on (Shopify confirmed the grant) and the bar goes
    await eventually(() => page.getByText("Saved.").isVisible()).toBe(true);
    await eventually(() => saveBar().count()).toBe(0);
    expect((await shopRow()).storeCreditPayouts).toBe(true);
  });

  it("requests access to older orders from the Overview, and knows the grant at once", async () => {
    await open("/app");
    const request = page.getByRole("button", { name: "Request access to older orders" });
    await eventually(() => request.isVisible()).toBe(true);

    appBridge.answerScopeRequests("decline");
    await request.click();
    await eventually(() => page.getByText("Not granted: backfills stay within the last 60 days.").isVisible()).toBe(true);

    appBridge.answerScopeRequests("grant");
    await request.click();
    await settle();
    await eventually(() => page.getByText("The app may read all of your orders (read_all_orders granted).").isVisible()).toBe(true);
    expect(appBridge.requests).toEqual([["read_all_orders"], ["read_all_orders"]]);
    expect((await prisma.session.findFirstOrThrow({ where: { shop: TEST_SHOP } })).scope?.split(",")).toContain("read_all_orders");
  });

  it("disconnects the referral service after the merchant confirms", async () => {
    await open("/app/settings");
    await page.getByRole("button", { name: "Disconnect" }).click();
    const modal = page.getByRole("dialog", { name: "Disconnect the referral service?" });
    await eventually(() => modal.isVisible()).toBe(true);
    await modal.getByRole("button", { name: "Disconnect" }).click();
    await settle();
    await eventually(() => page.getByText("Disconnected from the referral service").isVisible()).toBe(true);
    expect(await shopRow()).toMatchObject({ connectionStatus: "not_connected", serviceTokenSealed: null });
    expect(await page.getByRole("button", { name: "Connect" }).isVisible()).toBe(true);
  });
});
