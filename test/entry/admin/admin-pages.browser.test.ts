// The embedded admin pages in real Chromium, served by the production build
// (server.mjs) against the sandbox service. Shopify's App Bridge script can't
// load here: its stand-in (test/support/app-bridge-standin.ts) plays the
// admin's save bar, as the settings forms save from it.
import "./browser-env";
import type { Page } from "playwright-core";
import { beforeEach, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { DEFAULT_SCOPES, getEnv } from "../../../app/wiring/env.server";
import { ensureInboundEndpoint } from "../../../app/domains/service-events/endpoint.server";
import { standInAppBridge } from "../../support/app-bridge-standin";
import { describeInBrowser, watchNetwork } from "../../support/browser";
import { installShop } from "../../support/sessions";
import { connectShop, sandboxCommissions, testPipeline, type TestPipeline } from "../../support/pipeline";
import { TEST_SHOP } from "../../support/shopify-requests";
import { useAdminInBrowser } from "./admin-in-browser";
import { failedOrder, receiveOrder, recordOf } from "./fixtures";
import { formatDate } from "../../../app/entry/admin/components/format";

const admin = useAdminInBrowser({
  seed: () => installShop(),
  pageReaches: "the app and the service",
});
const { sandbox, open, shot } = admin;
let page: Page;
let pipeline: TestPipeline;
/** The page's requests, watched from the moment it opens, so a submission's request is counted however soon it starts. */
let network: ReturnType<typeof watchNetwork>;

/** Waits for a submission's answer and the page's reload of its data. */
async function settle(): Promise<void> {
  await network.settled(250, 15_000);
}

/** What the page shows once its answer has come: on a busy machine that can take seconds. */
const eventually = <T,>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

describeInBrowser("admin pages in Chromium", () => {
  beforeEach(async () => {
    ({ page } = admin);
    pipeline = testPipeline();
    network = watchNetwork(page);
    // App Bridge's stand-in: routed after the page's own routes, so it answers first.
    await standInAppBridge(page, { granted: DEFAULT_SCOPES.split(",") });
  });

  it("takes a merchant from install to a tracked program", async () => {
    // GIVEN a fresh install: the dashboard shows the setup steps
    await open("/app");
    await eventually(() => page.getByRole("heading", { name: "Set up your referral program" }).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { level: 1, name: "Overview" }).isVisible()).toBe(true);
    await shot("admin-dashboard-setup.png");

    // WHEN the merchant connects with a wrong token
    await open("/app/settings");
    await page.getByLabel("Base URL").fill(sandbox.baseUrl);
    await page.getByLabel("API username").fill("demo");
    await page.getByLabel("API token").fill("wrong-token");
    await page.getByRole("button", { name: "Connect" }).click();
    await settle();
    // THEN it says so and stores nothing
    await eventually(() => page.getByText("Wrong username or API token").isVisible()).toBe(true);
    expect(await page.getByText("didn't accept this username and token").first().isVisible()).toBe(true);
    expect(await prisma.shop.findUnique({ where: { shop: TEST_SHOP } })).toMatchObject({
      connectionStatus: "not_connected",
      serviceTokenSealed: null,
    });
    await shot("admin-settings-wrong-credentials.png");

    // WHEN they enter the right token
    await page.getByLabel("API token").fill(sandbox.token);
    await page.getByRole("button", { name: "Connect" }).click();
    await settle();
    await eventually(() => page.getByText("Connected to Demo Outfitters").isVisible()).toBe(true);
    await eventually(() => page.getByText("A token is set").isVisible()).toBe(true);
    expect(await page.content()).not.toContain(sandbox.token);

    // AND choose a campaign to track
    await page.getByRole("checkbox", { name: /Friends & Family/ }).check();
    await page.getByRole("region", { name: "Unsaved changes" }).getByRole("button", { name: "Save" }).click();
    await settle();
    await eventually(() => page.getByText("Settings saved").isVisible()).toBe(true);
    expect(await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).toMatchObject({
      connectionStatus: "connected",
      campaignUids: "1001",
    });
    await shot("admin-settings.png");

    await open("/app/campaigns");
    expect(await page.getByRole("heading", { name: "Friends & Family" }).isVisible()).toBe(true);
    expect(await page.getByText("10% of revenue").first().isVisible()).toBe(true);
    expect(await page.getByText("Tracked", { exact: true }).count()).toBe(1);
    await shot("admin-campaigns.png");

    // Connected, but no order yet: the pages say what comes next
    await open("/app");
    await eventually(() => page.getByText("No referred orders yet").isVisible()).toBe(true);
    await shot("admin-dashboard-no-orders.png");
    await open("/app/activity");
    expect(await page.getByText("No orders yet").isVisible()).toBe(true);
    await shot("admin-activity-empty.png");
  }, 120_000);

  it("shows the program and its orders, and takes a pending commission to approved", async () => {
    // GIVEN a connected shop tracking Friends & Family, with referred orders: some recorded, two that failed during a service outage, and earlier weeks of history
    await connectShop(sandbox, { campaignUids: "1001" });
    // A 30-day review window: the pending commissions of these orders approve themselves then.
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { reviewWindowDays: 30 } });
    const recorded = [await receiveOrder({ subtotal: "120.00" }), await receiveOrder({ subtotal: "64.50" })];
    await pipeline.drain();
    // Their own buyers: a later order of a credited buyer would be a repeat purchase, judged without the guard.
    const buyer = (n: number) => ({ email: `retried${n}@example.net`, customerEmail: `retried${n}@example.net` });
    const failed = [await failedOrder(sandbox, pipeline, TEST_SHOP, buyer(1)), await failedOrder(sandbox, pipeline, TEST_SHOP, buyer(2))];
    for (let day = 1; day < 30; day += 1) {
      const orders = [0, 1, 3, 2, 0, 4, 1][day % 7]!;
      for (let n = 0; n < orders; n += 1) {
        const createdAt = new Date(Date.now() - day * 86_400_000 - n * 3_600_000);
        await prisma.orderRecord.create({
          data: {
            shop: TEST_SHOP,
            orderId: `history-${day}-${n}`,
            orderName: `#${900 + day * 5 + n}`,
            email: `customer${day}${n}@example.com`,
            shortCode: "ALICE10",
            codeSource: "cart_attribute",
            campaignUids: "1001",
            revenue: `${40 + ((day * 17 + n * 29) % 90)}.00`,
            currency: "USD",
            status: "recorded",
            commissionState: "pending",
            placedAt: createdAt,
            createdAt,
            recordedAt: createdAt,
          },
        });
      }
    }

    await open("/app");
    const ordersChart = page.getByRole("img", { name: "Referred orders per day over the last 30 days" });
    // The line has a point for each of the 30 days (29 segments), whatever the data's scale.
    const longestLine = () =>
      ordersChart.locator("svg path").evaluateAll((paths) => Math.max(0, ...paths.map((p) => (p.getAttribute("d") ?? "").split("L").length - 1)));
    await expect.poll(longestLine, { timeout: 10_000 }).toBeGreaterThanOrEqual(29);
    expect(await page.getByRole("heading", { name: "Referred orders, last 30 days" }).isVisible()).toBe(true);
    expect(await page.getByText("2 orders couldn't be recorded").isVisible()).toBe(true);
    await page.waitForTimeout(300);
    await shot("admin-dashboard.png");

    // The merchant approves the commission of a referred order and denies another one
    await open("/app/commissions");
    const ours = (await sandboxCommissions(sandbox, recorded[0]))[0]!;
    expect(ours.state).toBe("pending");
    const ourRow = page.getByRole("row").filter({ hasText: (await recordOf(recorded[0]!)).orderName! });
    expect(await ourRow.getByRole("link", { name: /Open order .* in Shopify/ }).getAttribute("href")).toBe(
      `https://admin.shopify.com/store/referral-demo/orders/${recorded[0]}`
    );
    // Each pending commission of the shop's orders says when the review window approves it.
    const windowEnds = new Date((await recordOf(recorded[0]!)).placedAt!.getTime() + 30 * 86_400_000);
    const approvesOn = ourRow.getByText(/^Approves on /);
    expect(await approvesOn.textContent()).toBe(`Approves on ${formatDate(windowEnds.toISOString())}`);
    await ourRow.getByRole("button", { name: /^Approve commission/ }).click();
    await settle();
    await eventually(() => page.getByText("1 commission approved").isVisible()).toBe(true);
    expect((await sandboxCommissions(sandbox, recorded[0]))[0]!.state).toBe("approved");
    expect((await recordOf(recorded[0]!)).commissionState).toBe("approved");

    await page
      .getByRole("row")
      .filter({ hasText: "bob@example.com" })
      .filter({ hasText: "Pending" })
      .first()
      .getByRole("button", { name: /^Deny commission/ })
      .click();
    await settle();
    await eventually(() => page.getByText("1 commission denied").isVisible()).toBe(true);
    expect((await sandboxCommissions(sandbox, "seed-order-2"))[0]!.state).toBe("denied");
    await shot("admin-commissions.png");

    // The merchant retries a failed order; the worker records it
    await open("/app/activity?status=failed");
    expect(await page.getByRole("row").filter({ hasText: "Gave up after 14 attempts" }).count()).toBe(2);
    const failedName = (await recordOf(failed[0]!)).orderName!;
    await page.getByRole("button", { name: `Retry order ${failedName}` }).click();
    await settle();
    await eventually(() => page.getByText("Retry started").isVisible()).toBe(true);
    expect((await recordOf(failed[0]!)).status).toBe("queued");
    await pipeline.drain();
    expect((await recordOf(failed[0]!)).status).toBe("recorded");
    await open("/app/activity");
    expect(await page.getByRole("row").filter({ hasText: failedName }).getByText("Recorded").isVisible()).toBe(true);
    // The merchant asks why the retried order was credited: its signals, the winner, the guard's verdicts
    await page.getByRole("row").filter({ hasText: failedName }).getByText("Why?").click();
    await eventually(() => page.getByText("Referral guard").first().isVisible()).toBe(true);
    expect(await page.getByText(/^Credited to .+ through /).first().isVisible()).toBe(true);
    await shot("admin-activity.png");

    await open("/app/ambassadors");
    expect(await page.getByRole("link", { name: "Alice Archer" }).isVisible()).toBe(true);
    await shot("admin-ambassadors.png");

    await open(`/app/ambassadors/${encodeURIComponent("alice@example.com")}`);
    expect(await page.getByRole("heading", { level: 1, name: "Alice Archer" }).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { name: "By campaign" }).isVisible()).toBe(true);
    await shot("admin-ambassador.png");
  }, 120_000);

  it("shows the service webhook secret once, rotates it after a confirmation, and asks for the token again for a new address", async () => {
    await connectShop(sandbox, { campaignUids: "1001" });
    const secretNow = async () => (await ensureInboundEndpoint(prisma, TEST_SHOP, { credentialsKey: getEnv().CREDENTIALS_KEY })).secret;

    // The first view makes the secret and shows it, to copy
    await open("/app/events");
    await eventually(() => page.getByText("Copy the secret now: it is shown only this once").isVisible()).toBe(true);
    const first = await secretNow();
    expect(await page.getByLabel("Secret", { exact: true }).inputValue()).toBe(first);

    // Later views say only that it is set
    await open("/app/settings");
    await eventually(() => page.getByText(/set, made .* UTC\. It is shown only when it is made/).isVisible()).toBe(true);
    expect(await page.content()).not.toContain(first);

    // Rotating asks first; cancelling changes nothing
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotate the webhook secret?" });
    await eventually(() => dialog.isVisible()).toBe(true);
    await eventually(() => dialog.getByText("The current secret keeps working for 24 hours").isVisible()).toBe(true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await eventually(() => dialog.isVisible()).toBe(false);
    expect(await secretNow()).toBe(first);

    // Confirmed, the new secret is shown once, and the old one still works for a day
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    await settle();
    await eventually(() => page.getByText("Copy the secret now: it is shown only this once").isVisible()).toBe(true);
    const second = await secretNow();
    expect(second).not.toBe(first);
    expect(await page.getByLabel("Secret", { exact: true }).inputValue()).toBe(second);
    await eventually(() => page.getByText(/The previous secret keeps working until/).isVisible()).toBe(true);
    await shot("admin-settings-webhook-secret-rotated.png");

    await open("/app/settings");
    await eventually(() => page.getByText(/The previous secret also works until/).isVisible()).toBe(true);
    expect(await page.content()).not.toContain(second);

    // A new base URL with the token left empty: the field says it must be typed again
    await page.getByLabel("Base URL").fill("https://other-service.example");
    await eventually(() => page.getByText("You changed one of them: enter the token again.").isVisible()).toBe(true);
  }, 120_000);
});
