// What every browser test of the admin pages stands on: the referral service's
// sandbox, the production build served against it (and against the Admin API
// stand-in where asked), Chromium, and for each test a fresh database, its
// seed, and a page opened as the Shopify admin's iframe opens the app.
// A file imports "./browser-env" first, as every test of the served build does.
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import type { SandboxHandle } from "../../../sandbox/server";
import { artifactsDir, launchBrowser, openAdminBrowserPage, watchNetwork, type AdminBrowserPage } from "../../support/browser";
import { current } from "../../support/current";
import { resetDatabase } from "../../support/database";
import { startTestSandbox } from "../../support/pipeline";
import { ShopifyAdminStandIn } from "../../support/shopify-admin-standin";
import { adminRequest } from "./admin-requests";
import { sandboxAppEnv, startAppServer, type AppServer } from "./app-server";

export interface Viewport {
  width: number;
  height: number;
}

export interface AdminInBrowserOptions {
  /** The window's size. */
  viewport?: Viewport;
  /** What each test starts from, once the database is empty and the service back to its own demo data: the shop's rows, the service's, the stand-in's. */
  seed?: (world: { sandbox: SandboxHandle; shopify: ShopifyAdminStandIn }) => Promise<void> | void;
  /** The app asks Shopify's Admin API stand-in (test/support/shopify-admin-standin.ts) instead of Shopify; `shopify` is it. */
  shopifyAdmin?: boolean;
  /** More of the app's environment: its switches, a support contact. */
  appEnv?: Record<string, string>;
  /** Another checkout, built, served instead of this one: to compare a change with the commit before it. */
  buildFrom?: string;
  /**
   * The servers the page may reach: the app only (App Bridge's CDN script then fails fast), the app and
   * the service, or every server on this machine's loopback (a test's own proxy in front of the app).
   */
  pageReaches?: "the app" | "the app and the service" | "every loopback server";
  /** "in each test": no page is opened before a test; the test opens its own with `openPage`, at the size it needs. */
  openPage?: "before each test" | "in each test";
  /**
   * "before each test": each test starts from an empty database and the service's demo data.
   * "once, before the app starts": the tests of the file share one world, and what the app stores as it
   * starts (its purge's job) is there, as in production.
   */
  reset?: "before each test" | "once, before the app starts";
}

export interface AdminInBrowser {
  sandbox: SandboxHandle;
  /** Shopify's Admin API stand-in, with `shopifyAdmin: true`. */
  shopify: ShopifyAdminStandIn;
  server: AppServer;
  browser: Browser;
  /** The test's page (the last it opened), and its browser context: a test file takes them in a beforeEach of its own. */
  readonly page: Page;
  readonly context: BrowserContext;
  /** Opens the test's page (with `openPage: "in each test"`); its errors fail the test like those of a page opened before it. */
  openPage(viewport?: Viewport): Promise<Page>;
  /** The URL the Shopify admin opens an app page at: with a fresh session token. */
  signedUrl(pathname: string, origin?: string): Promise<string>;
  /** Opens an app page as the admin does, and waits until its requests are done. */
  open(pathname: string, origin?: string): Promise<void>;
  /**
   * A picture of the whole page, in test-artifacts/. The window grows to the page's height (up to `tallest`)
   * first: a full-page capture of a scrolled page shows Polaris's sticky table headers in the middle of the table.
   */
  shot(name: string, tallest?: number): Promise<void>;
}

const DEFAULT_VIEWPORT: Viewport = { width: 1200, height: 900 };

/**
 * Registers the hooks that start and stop it all (beforeAll, afterAll) and
 * make each test's world (beforeEach); after each test, the page is closed
 * and any of its errors (uncaught, or written to its console) fails the test.
 * The sandbox, the stand-in, the server and the browser returned stand for
 * the file's (test/support/current.ts); `page` and `context` are the test's.
 */
export function useAdminInBrowser(options: AdminInBrowserOptions = {}): AdminInBrowser {
  const { viewport = DEFAULT_VIEWPORT, seed, appEnv = {}, pageReaches = "the app", openPage = "before each test", reset = "before each test" } = options;
  let sandbox: SandboxHandle | undefined;
  let shopify: ShopifyAdminStandIn | undefined;
  let shopifyServed: { origin: string; close(): Promise<void> } | undefined;
  let server: AppServer | undefined;
  let browser: Browser | undefined;
  /** The pages the test opened: the last is `page`. */
  let pages: AdminBrowserPage[] = [];

  const handles = {
    sandbox: current("The sandbox", () => sandbox),
    shopify: current("Shopify's Admin API stand-in (shopifyAdmin: true)", () => shopify),
    server: current("The served app", () => server),
    browser: current("The browser", () => browser),
  };
  const opened = (): AdminBrowserPage => {
    const last = pages.at(-1);
    if (!last) throw new Error("The test's page is used before it is opened (in beforeEach, or by openPage)");
    return last;
  };

  const resetWorld = async () => {
    sandbox!.reset();
    await resetDatabase();
  };

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    if (options.shopifyAdmin) {
      shopify = new ShopifyAdminStandIn();
      shopifyServed = await shopify.serve();
    }
    if (reset === "once, before the app starts") await resetWorld();
    const adminApi: Record<string, string> = shopifyServed ? { SHOPIFY_ADMIN_API_ORIGIN: shopifyServed.origin } : {};
    server = await startAppServer({ ...sandboxAppEnv(), ...adminApi, ...appEnv }, options.buildFrom);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await shopifyServed?.close();
    await sandbox?.close();
  });

  async function newPage(size = viewport): Promise<Page> {
    const origins = { "the app": [server!.origin], "the app and the service": [server!.origin, sandbox!.baseUrl], "every loopback server": ["http://127.0.0.1:"] }[pageReaches];
    pages.push(await openAdminBrowserPage(browser!, { origins, viewport: size }));
    return opened().page;
  }

  beforeEach(async () => {
    pages = [];
    if (reset === "before each test") await resetWorld();
    await seed?.({ sandbox: handles.sandbox, shopify: handles.shopify });
    if (openPage === "before each test") await newPage();
  });

  afterEach(async () => {
    for (const { context } of pages) await context.close();
    expect(pages.flatMap(({ problems }) => problems), server?.output()).toEqual([]);
  });

  async function signedUrl(pathname: string, origin = server!.origin): Promise<string> {
    const signed = new URL((await adminRequest(pathname)).url);
    return `${origin}${signed.pathname}${signed.search}`;
  }

  return {
    ...handles,
    get page() {
      return opened().page;
    },
    get context() {
      return opened().context;
    },
    openPage: (size) => newPage(size),
    signedUrl,
    async open(pathname, origin) {
      const { page } = opened();
      const url = await signedUrl(pathname, origin);
      const network = watchNetwork(page);
      await page.goto(url);
      await network.settled(200, 15_000);
    },
    async shot(name, tallest = Infinity) {
      const { page } = opened();
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: viewport.width, height: Math.min(tallest, Math.max(viewport.height, height)) });
      await page.waitForTimeout(250);
      await page.screenshot({ path: path.join(artifactsDir, name) });
      await page.setViewportSize(viewport);
    },
  };
}
