// A stand-in for Shopify's App Bridge script (the CDN's app-bridge.js) in
// browser tests: the real one only runs inside the Shopify admin. It defines
// the `shopify` global with what the app's pages use, shaped as App Bridge's
// types (@shopify/app-bridge-types) declare it: app.extensions() answering
// the extensions' placements, loading(), and support.registerHandler().
import type { Page } from "playwright-core";

export const APP_BRIDGE_SCRIPT = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

/** A theme block or embed of app.extensions()'s theme_app_extension. */
export interface ThemeBlockActivation {
  handle: string;
  name: string;
  target: "section" | "head" | "body" | "compliance_head";
  status: "active" | "available" | "unavailable";
  activations: { target: string; themeId: string }[];
}

export type ExtensionInfo =
  | { handle: string; type: "theme_app_extension"; activations: ThemeBlockActivation[] }
  | { handle: string; type: "ui_extension"; activations: { target: string }[] };

/** What the stand-in saw the page do, read back with appBridgeCalls(). */
export interface AppBridgeCalls {
  extensions: number;
  supportHandler: boolean;
}

/**
 * Serves the stand-in in place of App Bridge's script. `extensions`: what
 * app.extensions() answers; "fails": it rejects, as App Bridge does when
 * its App API is not available.
 */
export async function serveAppBridge(page: Page, { extensions }: { extensions: ExtensionInfo[] | "fails" }): Promise<void> {
  const script = `(() => {
  const answer = ${JSON.stringify(extensions)};
  const calls = { extensions: 0, supportHandler: false };
  window.__appBridgeCalls = calls;
  window.shopify = {
    app: {
      extensions() {
        calls.extensions += 1;
        return answer === "fails" ? Promise.reject(new Error("The App API is not available")) : Promise.resolve(JSON.parse(JSON.stringify(answer)));
      },
    },
    loading() {},
    support: {
      registerHandler(callback) {
        calls.supportHandler = typeof callback === "function";
        return Promise.resolve();
      },
    },
  };
})();`;
  await page.route(APP_BRIDGE_SCRIPT, (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: script }));
}

export function appBridgeCalls(page: Page): Promise<AppBridgeCalls> {
  return page.evaluate(() => (window as unknown as { __appBridgeCalls: AppBridgeCalls }).__appBridgeCalls);
}

/** The app's extensions as app.extensions() reports them, each placed or not as asked. */
export function appExtensions(placed: { embed?: boolean; linksBlock?: boolean; thankYou?: boolean; orderStatus?: boolean; profile?: boolean }): ExtensionInfo[] {
  const theme = "gid://shopify/OnlineStoreTheme/1";
  return [
    {
      handle: "referral-theme",
      type: "theme_app_extension",
      activations: [
        {
          handle: "referral-tracking",
          name: "Referral tracking",
          target: "body",
          status: placed.embed ? "active" : "available",
          activations: placed.embed ? [{ target: "body", themeId: theme }] : [],
        },
        {
          handle: "referral-links",
          name: "Referral links",
          target: "section",
          status: placed.linksBlock ? "active" : "available",
          activations: placed.linksBlock ? [{ target: "template--index/apps_Xy7k2/referral_links_Qa91", themeId: theme }] : [],
        },
      ],
    },
    {
      handle: "referral-share-link",
      type: "ui_extension",
      activations: [
        ...(placed.thankYou ? [{ target: "purchase.thank-you.block.render" }] : []),
        ...(placed.orderStatus ? [{ target: "customer-account.order-status.block.render" }] : []),
      ],
    },
    { handle: "referral-links-account", type: "ui_extension", activations: placed.profile ? [{ target: "customer-account.profile.block.render" }] : [] },
  ];
}
