// The part of a browser window the kit touches, for tests in Node: a location,
// a document that carries events, and Shopify's Customer Privacy API with the
// visitor's current choice. The Chromium test (kit.browser.test.ts) runs the
// kit in a real page instead.

export interface PrivacyWindow {
  window: Window;
  /** The visitor chooses on the banner: the API's answers change and visitorConsentCollected is sent. */
  choose(choice: { analytics: boolean; marketing: boolean }): void;
}

export function privacyWindow(href: string, initial: { analytics: boolean; marketing: boolean } | null): PrivacyWindow {
  const document = new EventTarget();
  let choice = initial;
  const customerPrivacy = {
    analyticsProcessingAllowed: () => choice?.analytics === true,
    marketingAllowed: () => choice?.marketing === true,
  };
  const win = { document, location: { href, protocol: new URL(href).protocol }, Shopify: initial ? { customerPrivacy } : {} };
  return {
    window: win as unknown as Window,
    choose(next) {
      choice = next;
      (win.Shopify as { customerPrivacy?: typeof customerPrivacy }).customerPrivacy = customerPrivacy;
      document.dispatchEvent(new CustomEvent("visitorConsentCollected", { detail: { analyticsAllowed: next.analytics, marketingAllowed: next.marketing, preferencesAllowed: true, saleOfDataAllowed: true } }));
    },
  };
}
