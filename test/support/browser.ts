// Shared helper for browser tests: one headless Chromium (Debian's /usr/bin/chromium)
// driven by playwright-core, with flags that keep it quiet and off the network.
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type LaunchOptions, type Page } from "playwright-core";
import { describe } from "vitest";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Browser suites run where Chromium is installed, and always in CI
 * (REQUIRE_BROWSER=1), where a missing browser fails instead of skipping.
 */
export const browserAvailable = existsSync(chromiumPath) || process.env.REQUIRE_BROWSER === "1";

export const describeInBrowser = describe.skipIf(!browserAvailable);

if (!browserAvailable) {
  console.warn(`Browser tests skipped: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH).`);
}

/** `test-artifacts/` at the repository root (screenshots and the like); created on import. */
export const artifactsDir = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
mkdirSync(artifactsDir, { recursive: true });

export function launchBrowser(options: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    ...options,
    args: [...chromiumArgs, ...(options.args ?? [])],
  });
}

/**
 * Follows a page's requests so a test can wait until the page's own scripts are
 * done talking to the server: no request in flight and none started or finished
 * for `quietMs`. Much faster than `networkidle` (a fixed 500 ms), and it also
 * catches requests that start after the load event.
 */
export function watchNetwork(page: Page): { settled(quietMs?: number, timeoutMs?: number): Promise<void> } {
  let inFlight = 0;
  let lastChange = Date.now();
  page.on("request", () => {
    inFlight++;
    lastChange = Date.now();
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastChange = Date.now();
  };
  page.on("requestfinished", done);
  page.on("requestfailed", done);
  return {
    async settled(quietMs = 120, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      // A request the last action starts may not be announced yet: stay at least quietMs from now.
      lastChange = Math.max(lastChange, Date.now());
      while (inFlight > 0 || Date.now() - lastChange < quietMs) {
        if (Date.now() > deadline) throw new Error(`The page's network did not settle (${inFlight} request(s) in flight)`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

/**
 * Resolves once the page has painted `frames` more frames: what it had
 * committed or scheduled for its next frame when called is then on screen.
 * Proof that a change is not merely late, where a fixed sleep only hopes so.
 */
export function afterPaints(page: Page, frames = 2): Promise<void> {
  return page.evaluate(
    (count) =>
      new Promise<void>((resolve) => {
        const next = (left: number) => requestAnimationFrame(() => (left <= 1 ? setTimeout(resolve, 0) : next(left - 1)));
        next(count);
      }),
    frames
  );
}

export interface AdminBrowserPage {
  context: BrowserContext;
  page: Page;
  /** The page's uncaught errors and console errors (a resource that failed to load aside). */
  problems: string[];
}

/**
 * A page opened as a merchant's browser opens the admin's iframe: a person's
 * user agent (Shopify's library answers "HeadlessChrome", a bot, with 410
 * Gone), only `origins` answering (so App Bridge's CDN script fails fast, or
 * its stand-in answers when routed after this), and the page's errors kept.
 */
export async function openAdminBrowserPage(
  browser: Browser,
  { origins, viewport = { width: 1200, height: 900 } }: { origins: string[]; viewport?: { width: number; height: number } },
): Promise<AdminBrowserPage> {
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor: 1,
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${browser.version()} Safari/537.36`,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  await page.route("**/*", (route) => {
    const url = route.request().url();
    return url.startsWith("data:") || origins.some((origin) => url.startsWith(origin)) ? route.continue() : route.abort();
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.stack ?? error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(`console: ${message.text()}`);
  });
  return { context, page, problems };
}
