// The visitor's consent, read from Shopify's Customer Privacy API
// (window.Shopify.customerPrivacy), which Hydrogen's useCustomerPrivacy loads
// and which a Storefront API front end can load itself. As the theme embed,
// the kit waits for both analytics and marketing: the code is a marketing
// identifier kept on the device and written to the cart for attribution.

/** The part of the Customer Privacy API the kit reads. */
export interface CustomerPrivacy {
  analyticsProcessingAllowed?(): boolean;
  marketingAllowed?(): boolean;
}

interface ConsentDetail {
  analyticsAllowed?: unknown;
  marketingAllowed?: unknown;
}

type PrivacyWindow = Window & { Shopify?: { customerPrivacy?: CustomerPrivacy } };

/** Whether the API, as it stands, allows both. */
export function consentGiven(privacy: CustomerPrivacy | undefined): boolean {
  try {
    return privacy?.analyticsProcessingAllowed?.() === true && privacy?.marketingAllowed?.() === true;
  } catch {
    return false;
  }
}

// Shopify's API announces itself with consentTrackingApiLoaded; Hydrogen's hook with
// shopifyCustomerPrivacyApiLoaded. A choice made on the banner is visitorConsentCollected.
const LOADED_EVENTS = ["consentTrackingApiLoaded", "shopifyCustomerPrivacyApiLoaded"];
const COLLECTED_EVENT = "visitorConsentCollected";

/**
 * Calls `allowed` once, as soon as the visitor allows analytics and marketing:
 * at once when they already have, or when they choose to on the banner. A refusal
 * calls nothing (the visitor may still change their mind on a later page).
 * Returns a function that stops waiting.
 */
export function whenConsented(win: Window, allowed: () => void): () => void {
  const doc = win.document;
  let done = false;
  const stop = () => {
    done = true;
    for (const name of LOADED_EVENTS) doc.removeEventListener(name, check);
    doc.removeEventListener(COLLECTED_EVENT, collected);
  };
  const once = () => {
    if (done) return;
    stop();
    allowed();
  };
  function check() {
    if (consentGiven((win as PrivacyWindow).Shopify?.customerPrivacy)) once();
  }
  function collected(event: Event) {
    const detail = ((event as CustomEvent<ConsentDetail>).detail ?? {}) as ConsentDetail;
    if (detail.analyticsAllowed === true && detail.marketingAllowed === true) once();
  }
  for (const name of LOADED_EVENTS) doc.addEventListener(name, check);
  doc.addEventListener(COLLECTED_EVENT, collected);
  check();
  return stop;
}
