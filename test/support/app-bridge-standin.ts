// A stand-in for Shopify's App Bridge script in browser tests: the real one
// loads from Shopify's CDN and talks to the admin around the app's iframe,
// neither of which a test has. It plays the admin's part of what the app
// uses, shaped as Shopify documents it (@shopify/app-bridge-types):
// - `ui-save-bar` elements with show/hide/toggle/showing, whose child
//   buttons (variant="primary": Save; the other: Discard) the admin's bar
//   clicks; `discardConfirmation` asks before discarding;
// - `shopify.saveBar.show/hide/toggle/leaveConfirmation`: leaving while a
//   save bar shows asks "Leave page?", and resolves only when the merchant
//   leaves;
// - `shopify.scopes.query/request`, answered by the test (grantScopes);
// - `shopify.app.extensions()`, answering the extensions' placements the
//   test gives (or failing, as it does when its App API is not available),
//   `shopify.loading()` and `shopify.support.registerHandler()`.
// The admin's bar and dialogs are drawn in the page, so the test clicks
// them as a merchant would.
import type { Page } from "playwright-core";

export const APP_BRIDGE_URL = "https://cdn.shopify.com/shopifycloud/app-bridge.js";

export interface AppBridgeStandIn {
  /** What the merchant answers the next permission dialogs: grant or decline. */
  answerScopeRequests(answer: "grant" | "decline"): void;
  /** The scopes the shop has granted, as shopify.scopes.query answers. */
  granted: string[];
  /** Each scope request's scopes, in order. */
  requests: string[][];
}

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
  /** Calls of app.extensions() whose answer (or refusal) the page has been handed. */
  extensionsAnswered: number;
  supportHandler: boolean;
}

export interface StandInOptions {
  /** The scopes the shop has granted. */
  granted?: string[];
  onGrant?(scopes: string[]): void;
  /** What app.extensions() answers; "fails" (the default): it rejects, so the page keeps the server's checks. */
  extensions?: ExtensionInfo[] | "fails";
}

type StandInState = AppBridgeStandIn & { answer: "grant" | "decline"; required: string[]; options: StandInOptions };

/** Each page's stand-in: a page's functions are exposed once, and a later call gives it new answers. */
const standIns = new WeakMap<Page, StandInState>();

/** Serves the stand-in for App Bridge's script to `page` (route it before any other route that aborts the CDN). */
export async function standInAppBridge(page: Page, options: StandInOptions = {}): Promise<AppBridgeStandIn> {
  const granted = options.granted ?? [];
  const fresh: StandInState = {
    answer: "decline",
    granted: [...granted],
    required: granted,
    requests: [],
    options,
    answerScopeRequests(answer) {
      fresh.answer = answer;
    },
  };
  const known = standIns.get(page);
  standIns.set(page, fresh);
  if (known) return fresh;

  const state = () => standIns.get(page)!;
  await page.exposeFunction("__appBridgeScopesQuery", () => ({ granted: state().granted, required: state().required, optional: [] }));
  await page.exposeFunction("__appBridgeScopesRequest", (scopes: string[]) => {
    const now = state();
    now.requests.push(scopes);
    if (now.answer === "grant") {
      now.granted = [...new Set([...now.granted, ...scopes])];
      now.options.onGrant?.(now.granted);
    }
    return { result: now.answer === "grant" ? "granted-all" : "declined-all", detail: { granted: now.granted, required: now.required, optional: [] } };
  });
  await page.exposeFunction("__appBridgeExtensions", () => {
    const extensions = state().options.extensions ?? "fails";
    if (extensions === "fails") throw new Error("The App API is not available");
    return extensions;
  });
  await page.route(APP_BRIDGE_URL, (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: `(${script.toString()})();` }));
  return fresh;
}

// Runs in the page: no closure over the test's variables.
function script() {
  const bars = new Map<string, HTMLElement & { showing: boolean }>();
  const showingBars = () => [...bars.values()].filter((bar) => bar.showing && bar.isConnected);

  const admin = document.createElement("div");
  admin.setAttribute("data-app-bridge-standin", "");
  admin.style.cssText = "position:fixed;top:0;left:0;right:0;z-index:100000;font:14px sans-serif";
  // Added on first use, from an effect of the page, so after React has hydrated the document it owns.
  const attach = () => {
    if (!admin.isConnected) document.body.append(admin);
  };

  function dialog(title: string, confirm: string, cancel: string): Promise<boolean> {
    attach();
    return new Promise((resolve) => {
      const box = document.createElement("div");
      box.setAttribute("role", "alertdialog");
      box.setAttribute("aria-label", title);
      box.style.cssText = "background:#fff;border:1px solid #333;padding:12px;margin:8px";
      const heading = document.createElement("p");
      heading.textContent = title;
      box.append(heading);
      for (const [label, answer] of [
        [cancel, false],
        [confirm, true],
      ] as const) {
        const button = document.createElement("button");
        button.textContent = label;
        button.onclick = () => {
          box.remove();
          resolve(answer);
        };
        box.append(button);
      }
      admin.append(box);
    });
  }

  function render() {
    admin.querySelectorAll("[data-save-bar]").forEach((node) => node.remove());
    const bar = showingBars().at(-1);
    if (!bar) return;
    attach();
    const region = document.createElement("div");
    region.setAttribute("data-save-bar", "");
    region.setAttribute("role", "region");
    region.setAttribute("aria-label", "Unsaved changes");
    region.style.cssText = "background:#1a1a1a;color:#fff;padding:8px;display:flex;gap:8px";
    region.append("Unsaved changes");
    const children = [...bar.querySelectorAll("button")];
    const save = children.find((b) => b.getAttribute("variant") === "primary");
    const discard = children.find((b) => b.getAttribute("variant") !== "primary");
    for (const [label, target, isDiscard] of [
      ["Discard", discard, true],
      ["Save", save, false],
    ] as const) {
      if (!target) continue;
      const button = document.createElement("button");
      button.textContent = label;
      button.disabled = target.disabled || target.hasAttribute("loading");
      button.onclick = async () => {
        if (isDiscard && bar.hasAttribute("discardconfirmation") && bar.getAttribute("discardconfirmation") !== "false") {
          if (!(await dialog("Discard all unsaved changes?", "Discard changes", "Continue editing"))) return;
        }
        target.click();
      };
      region.append(button);
    }
    admin.prepend(region);
  }

  // The save bar's own buttons are the admin's to show, not the page's (a sheet, not a node React would meet).
  const sheet = new CSSStyleSheet();
  sheet.replaceSync("ui-save-bar { display: none; }");
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];

  class UISaveBar extends HTMLElement {
    showing = false;
    private observer = new MutationObserver(() => render());
    connectedCallback() {
      if (this.id) bars.set(this.id, this);
      this.observer.observe(this, { subtree: true, attributes: true, childList: true });
    }
    disconnectedCallback() {
      this.observer.disconnect();
      if (bars.get(this.id) === this) bars.delete(this.id);
      render();
    }
    get discardConfirmation() {
      return this.hasAttribute("discardconfirmation");
    }
    async show() {
      this.showing = true;
      render();
      this.dispatchEvent(new Event("show"));
    }
    async hide() {
      this.showing = false;
      render();
      this.dispatchEvent(new Event("hide"));
    }
    async toggle() {
      return this.showing ? this.hide() : this.show();
    }
  }
  customElements.define("ui-save-bar", UISaveBar);

  const call = (name: string, ...args: unknown[]) => (window as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!(...args);
  const calls = { extensions: 0, extensionsAnswered: 0, supportHandler: false };
  (window as unknown as { __appBridgeCalls: typeof calls }).__appBridgeCalls = calls;
  (window as unknown as { shopify: unknown }).shopify = {
    app: {
      extensions: () => {
        calls.extensions += 1;
        return call("__appBridgeExtensions").finally(() => (calls.extensionsAnswered += 1));
      },
    },
    loading: () => {},
    support: {
      registerHandler: async (callback: unknown) => {
        calls.supportHandler = typeof callback === "function";
      },
    },
    saveBar: {
      show: async (id: string) => (bars.get(id) as UISaveBar | undefined)?.show(),
      hide: async (id: string) => (bars.get(id) as UISaveBar | undefined)?.hide(),
      toggle: async (id: string) => (bars.get(id) as UISaveBar | undefined)?.toggle(),
      // Resolves when the merchant leaves; "Stay" leaves it unresolved, as the admin does.
      leaveConfirmation: () =>
        new Promise<void>((resolve) => {
          if (showingBars().length === 0) return resolve();
          void dialog("Leave page with unsaved changes?", "Leave page", "Stay").then((leave) => leave && resolve());
        }),
    },
    scopes: {
      query: () => call("__appBridgeScopesQuery"),
      request: (scopes: string[]) => call("__appBridgeScopesRequest", scopes),
      revoke: async () => {
        throw new Error("The App Bridge stand-in does not revoke scopes");
      },
    },
  };
}

export function appBridgeCalls(page: Page): Promise<AppBridgeCalls> {
  return page.evaluate(() => (window as unknown as { __appBridgeCalls: AppBridgeCalls }).__appBridgeCalls);
}

/** The app's extensions as app.extensions() reports them, each placed or not as asked. */
export function appExtensions(placed: { embed?: boolean; linksBlock?: boolean; thankYou?: boolean; orderStatus?: boolean; profile?: boolean; posTile?: boolean }): ExtensionInfo[] {
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
    { handle: "referral-pos", type: "ui_extension", activations: placed.posTile ? [{ target: "pos.home.tile.render" }] : [] },
  ];
}
