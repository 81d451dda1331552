import { landOn, type Landing } from "./landing";
import { whenConsented } from "./consent";
import { browserStore, type ReferralStore } from "./storage";
import { trackingSettings, type TrackingSettings } from "./settings";

export interface TrackOptions {
  window: Window;
  settings?: Partial<TrackingSettings>;
  /** Where the code is kept between visits; the browser's first-party storage by default. */
  store?: ReferralStore;
  now?(): number;
  /**
   * Puts the landing on the visitor's cart: in Hydrogen, a POST to the
   * storefront's own route that calls applyReferralToCart with the cart
   * handler; elsewhere applyReferralToCart with storefrontCart. A failure is
   * quiet: the next page view tries again.
   */
  apply(landing: Landing): Promise<unknown>;
}

/**
 * Call once per page view in the browser. The landing URL is read now; nothing
 * is kept, stored or written to the cart until the visitor allows analytics and
 * marketing (the Customer Privacy API). Returns a function that stops waiting.
 */
export function trackReferral(options: TrackOptions): () => void {
  const url = new URL(options.window.location.href);
  const settings = trackingSettings(options.settings);
  return whenConsented(options.window, () => {
    try {
      const store = options.store ?? browserStore(options.window);
      const previous = store.read();
      const landing = landOn(url, previous, settings, options.now?.() ?? Date.now());
      if (JSON.stringify(landing.kept) !== JSON.stringify(previous)) store.write(landing.kept);
      if (landing.kept || landing.arrived) options.apply(landing).catch(() => undefined);
    } catch {
      // Never break the storefront.
    }
  });
}
