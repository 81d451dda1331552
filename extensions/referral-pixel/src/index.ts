// Referral Bridge web pixel. Keeps the referral code from the landing URL (the
// theme embed's parameters, first or last touch, same lifetime) and sends it
// with the checkout token and order id at checkout_completed. Nothing is kept
// or sent without analytics and marketing consent; nothing is ever thrown.
import { register } from "@shopify/web-pixels-extension";

const KEY = "referral_bridge_pixel";
const DAY = 864e5;

interface Kept {
  c: string; // code
  k: string; // campaign
  x: number; // expires at (ms)
}

interface Consent {
  analyticsProcessingAllowed: boolean;
  marketingAllowed: boolean;
}

const allowed = (consent: Consent) => consent.analyticsProcessingAllowed === true && consent.marketingAllowed === true;

// Trimmed, case kept; anything absurd (too long, markup or control characters) is ignored.
function clean(value: string | null | undefined): string {
  const trimmed = (value ?? "").trim();
  return trimmed.length <= 100 && !/[<>"]|[^\x20-\uffff]/.test(trimmed) ? trimmed : "";
}

register(({ analytics, browser, init, settings, customerPrivacy }) => {
  let consent: Consent = init.customerPrivacy;
  const codeParam = clean(settings.codeParam) || "mbsy";
  const campaignParam = clean(settings.campaignParam) || "campaignid";
  const lastTouch = settings.attribution === "last_touch";
  const days = Number(settings.lifetimeDays) > 0 ? Number(settings.lifetimeDays) : 30;
  const endpoint = typeof settings.appUrl === "string" && /^https?:\/\//.test(settings.appUrl)
    ? settings.appUrl.replace(/\/$/, "") + "/api/pixel"
    : "";

  customerPrivacy.subscribe("visitorConsentCollected", (event) => {
    consent = event.customerPrivacy;
  });

  async function read(): Promise<Kept | null> {
    try {
      const kept = JSON.parse((await browser.localStorage.getItem(KEY)) ?? "null") as Kept | null;
      return kept && typeof kept.c === "string" && kept.c && kept.x > Date.now() ? kept : null;
    } catch {
      return null;
    }
  }

  analytics.subscribe("page_viewed", async (event) => {
    try {
      if (!allowed(consent)) return;
      const params = new URL(event.context.document.location.href).searchParams;
      const code = clean(params.get(codeParam));
      if (!code) return;
      const kept = await read();
      if (kept && kept.c !== code && !lastTouch) return;
      const record: Kept = { c: code, k: clean(params.get(campaignParam)), x: Date.now() + days * DAY };
      await browser.localStorage.setItem(KEY, JSON.stringify(record));
    } catch {
      // Never break the page.
    }
  });

  analytics.subscribe("checkout_completed", async (event) => {
    try {
      if (!allowed(consent) || !endpoint) return;
      const checkout = event.data.checkout;
      const kept = await read();
      if (!kept || !checkout.token) return;
      const body = JSON.stringify({
        shop: init.data.shop.myshopifyDomain,
        checkoutToken: checkout.token,
        orderId: checkout.order?.id ?? null,
        code: kept.c,
        campaign: kept.k,
      });
      await fetch(endpoint, { method: "POST", keepalive: true, headers: { "Content-Type": "text/plain" }, body });
    } catch {
      // Never break the page.
    }
  });
});
