// Every embedded admin page in real Chromium, served by the production build
// (server.mjs) against the sandbox service: at a phone's width (375 px) none
// scrolls sideways as a whole, and while the service is slow each page paints
// its frame and local data at once and streams the service's data in after.
import "./browser-env";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterEach, expect, it } from "vitest";
import { artifactsDir, describeInBrowser, watchNetwork } from "../../support/browser";
import { connectShop, testPipeline } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { useAdminInBrowser } from "./admin-in-browser";
import { byLink, failedOrder, receiveOrder } from "./fixtures";

const PHONE = { width: 375, height: 812 };
const AMBASSADOR = "alice@example.com";

/** The admin pages, with their heading and, for those that wait on the service, the heading of their frame and what shows while it comes. */
const PAGES = [
  { name: "overview", path: "/app", heading: "Overview", loading: "Loading ambassadors" },
  { name: "activity", path: "/app/activity", heading: "Activity" },
  { name: "commissions", path: "/app/commissions", heading: "Commissions", loading: "Loading commissions" },
  { name: "ambassadors", path: "/app/ambassadors", heading: "Ambassadors", loading: "Loading ambassadors" },
  {
    name: "ambassador",
    path: `/app/ambassadors/${encodeURIComponent(AMBASSADOR)}`,
    heading: "Alice Archer",
    // The name comes from the service; the frame has the email.
    frameHeading: AMBASSADOR,
    loading: "Loading the ambassador's status",
  },
  { name: "campaigns", path: "/app/campaigns", heading: "Campaigns", loading: "Loading campaigns" },
  { name: "events", path: "/app/events", heading: "Service events" },
  { name: "data-requests", path: "/app/data-requests", heading: "Data requests" },
  { name: "settings", path: "/app/settings", heading: "Settings", loading: "Loading your program's campaigns" },
];

const admin = useAdminInBrowser({
  seed: async ({ sandbox }) => {
    await installShop();
    await connectShop(sandbox, { campaignUids: "1001" });
  },
  // Each test opens its page at the width it is about.
  openPage: "in each test",
});
const { sandbox, signedUrl } = admin;
let page: Page;

async function newPage(viewport: { width: number; height: number }): Promise<void> {
  page = await admin.openPage(viewport);
}

/** The elements sticking out past the page's right edge that no scrolling container of theirs holds in. */
function overflowingElements(): string[] {
  const width = document.documentElement.clientWidth;
  const clipped = (element: Element) => {
    for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
      const overflow = getComputedStyle(parent).overflowX;
      if (overflow !== "visible") return true;
    }
    return false;
  };
  return [...document.body.querySelectorAll("*")]
    .filter((element) => element.getBoundingClientRect().right > width + 0.5 && !clipped(element))
    .slice(0, 8)
    .map((element) => {
      const classes = typeof element.className === "string" ? element.className.split(" ").slice(0, 2).join(".") : "";
      return `${element.tagName.toLowerCase()}${classes ? `.${classes}` : ""} (right ${Math.round(element.getBoundingClientRect().right)} px): ${(element.textContent ?? "").trim().slice(0, 60)}`;
    });
}

describeInBrowser("admin pages at a phone's width and with a slow service", () => {
  afterEach(() => {
    sandbox.clearFaults();
  });

  it("shows every admin page at 375 px wide without scrolling the page sideways", async () => {
    // GIVEN a shop with recorded, failed and not referred orders, so every list has rows
    const pipeline = testPipeline();
    await receiveOrder({ ...byLink, subtotal: "120.00" });
    await receiveOrder({ subtotal: "64.50" });
    await pipeline.drain();
    await failedOrder(sandbox, pipeline);
    await newPage(PHONE);

    for (const target of PAGES) {
      // WHEN the merchant opens the page on a phone
      const network = watchNetwork(page);
      await page.goto(await signedUrl(target.path));
      await network.settled(250, 15_000);
      await expect.poll(() => page.getByRole("heading", { level: 1, name: target.heading }).isVisible()).toBe(true);
      await page.waitForTimeout(200);
      await page.screenshot({ path: path.join(artifactsDir, `admin-phone-${target.name}.png`), fullPage: true });

      // THEN the page as a whole is no wider than the screen (a table may scroll inside its own container)
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.scrollingElement!.scrollWidth,
        clientWidth: document.scrollingElement!.clientWidth,
      }));
      const sticking = scrollWidth > clientWidth ? await page.evaluate(overflowingElements) : [];
      expect({ page: target.path, scrollWidth, sticking }).toEqual({ page: target.path, scrollWidth: clientWidth, sticking: [] });
    }
  }, 120_000);

  it("paints each page's frame while the service has not answered, and streams the service's data in when it answers", async () => {
    await newPage({ width: 1200, height: 900 });

    for (const target of PAGES.filter((p) => p.loading)) {
      // GIVEN a service that holds every call until the test lets it answer
      const answer = sandbox.holdCalls();
      const url = await signedUrl(target.path);
      // WHEN the merchant opens the page (the document keeps streaming while the service thinks)
      const loading = page.goto(url);
      loading.catch(() => undefined); // awaited below; a failure above must not leave it unhandled
      // THEN its heading, and the skeleton where the service's data goes, are painted while the
      // service still has not answered (within the 8 s the admin waits before it says the service is slow)
      const frameHeading = "frameHeading" in target ? target.frameHeading : target.heading;
      const beforeTheAdminGivesUp = { state: "visible" as const, timeout: 7_000 };
      await page.getByRole("heading", { level: 1, name: frameHeading }).waitFor(beforeTheAdminGivesUp);
      // (The document arrives in pieces: the skeleton may come a moment after the heading.)
      await page.getByRole("status", { name: target.loading }).first().waitFor(beforeTheAdminGivesUp);
      const painted = () => page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null);
      await expect.poll(painted, { message: `${target.path}: first paint`, timeout: 2_000 }).not.toBeNull();

      // AND the data replaces the skeleton once the service has answered
      answer();
      await loading;
      await expect.poll(() => page.getByRole("status", { name: target.loading }).count(), { timeout: 10_000 }).toBe(0);
      await expect.poll(() => page.getByRole("heading", { level: 1, name: target.heading }).isVisible()).toBe(true);
      expect(await page.getByText("The referral service is slow to answer").count(), target.path).toBe(0);
      await page.screenshot({ path: path.join(artifactsDir, `admin-slow-service-${target.name}.png`) });
    }
  }, 120_000);

  it("says the service is slow, in the page, when it answers after the admin stops waiting", async () => {
    // GIVEN a service slower than the admin waits for (8 seconds)
    sandbox.setFaults({ latencyMs: 9_000 });
    await newPage({ width: 1200, height: 900 });

    // WHEN the merchant opens the commissions
    const loading = page.goto(await signedUrl("/app/commissions"));
    loading.catch(() => undefined); // awaited below; a failure above must not leave it unhandled
    // The frame comes without waiting on the service: well before the admin stops waiting (a fixed 2 s failed on a busy machine).
    await page.getByRole("heading", { level: 1, name: "Commissions" }).waitFor({ state: "visible", timeout: 6_000 });

    // THEN the page's own words about a slow service come in place of the list, not a cut stream
    await expect.poll(() => page.getByText("The referral service is slow to answer").isVisible(), { timeout: 12_000 }).toBe(true);
    await loading;
    expect(await page.getByText("Part of this page couldn't be loaded").count()).toBe(0);
    expect(await page.getByRole("tab", { name: "Pending" }).isVisible()).toBe(true);
  }, 30_000);
});
