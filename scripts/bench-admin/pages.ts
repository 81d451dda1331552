// The nine embedded admin pages and the interaction a merchant makes first on
// each: what INP is measured on.
import type { Locator, Page } from "playwright-core";
import { SAMPLE_AMBASSADOR } from "./data";

export interface AdminPage {
  name: string;
  path: string;
  /** What the merchant does, in words, for the report. */
  interaction: string;
  /** What the merchant clicks: a real mouse click in its middle (Polaris hides a checkbox's input under its drawn box). */
  target(page: Page): Locator;
  /** What the merchant does next, if anything (types). */
  afterClick?(page: Page): Promise<void>;
}

export const ADMIN_PAGES: AdminPage[] = [
  {
    name: "Overview",
    path: "/app",
    interaction: 'clicks "Review pending"',
    target: (page) => page.getByText("Review pending"),
  },
  {
    name: "Activity",
    path: "/app/activity",
    interaction: "clicks the second tab",
    target: (page) => page.getByRole("tab").nth(1),
  },
  {
    name: "Commissions",
    path: "/app/commissions",
    interaction: "selects every row of the page",
    target: (page) => page.locator("thead input[type=checkbox]").first(),
  },
  {
    name: "Ambassadors",
    path: "/app/ambassadors",
    interaction: "types in the Email filter",
    target: (page) => page.getByLabel("Email", { exact: true }),
    afterClick: (page) => page.keyboard.type("amb", { delay: 60 }),
  },
  {
    name: "Ambassador",
    path: `/app/ambassadors/${encodeURIComponent(SAMPLE_AMBASSADOR)}`,
    interaction: "ticks a group",
    target: (page) => page.getByRole("checkbox").first(),
  },
  {
    name: "Campaigns",
    path: "/app/campaigns",
    interaction: "tracks or stops tracking a campaign",
    target: (page) => page.getByRole("button", { name: /^(Track orders in|Stop tracking)/ }).first(),
  },
  {
    name: "Events",
    path: "/app/events",
    interaction: "ticks an option",
    target: (page) => page.getByRole("checkbox", { name: "Tag new ambassadors in Shopify" }),
  },
  {
    name: "Data requests",
    path: "/app/data-requests",
    interaction: "ticks an option",
    target: (page) => page.getByRole("checkbox", { name: "Also erase the customer at the referral service" }),
  },
  {
    name: "Settings",
    path: "/app/settings",
    interaction: "ticks a campaign",
    target: (page) => page.getByRole("checkbox", { name: /Friends & Family/ }),
  },
];
