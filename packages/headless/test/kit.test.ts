// The kit's parts on their own: the cart rule through its own Storefront API
// client (against the validating stand-in), the friend's offer rule, the
// consent wait, the settings. No database, no app.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStorefrontStandIn, type StorefrontStandIn } from "../../../test/support/storefront-standin";
import { applyReferralToCart, fetchShareLinks, landOn, offerCode, storefrontCart, trackingSettings, whenConsented, type Landing } from "../src";
import { privacyWindow } from "./support/privacy-window";

let api: StorefrontStandIn;
beforeAll(async () => {
  api = await startStorefrontStandIn({ shop: "referral-demo.myshopify.com" });
  api.discountCodes.add("ALICE10");
  api.discountCodes.add("SUMMER");
});
afterAll(() => api?.close());

const NOW = Date.UTC(2026, 10, 29);
const land = (href: string): Landing => landOn(new URL(href), null, trackingSettings(), NOW);

function kitCart() {
  let cartId: string | undefined;
  const cart = storefrontCart({ storeDomain: api.origin, publicAccessToken: "public-token", getCartId: () => cartId, setCartId: (id) => void (cartId = id) });
  return { cart, cartId: () => cartId };
}

describe("the kit's own Storefront API cart client", () => {
  it("creates the cart with the attributes and the offer code, then adds to an existing cart without dropping its other codes", async () => {
    const first = kitCart();
    const created = await applyReferralToCart(first.cart, land("https://shop.example/?mbsy=ALICE10&campaignid=1001"), { offerCampaigns: ["1001"] });
    expect(created.created).toBe(true);
    expect(api.carts.get(first.cartId()!)).toMatchObject({
      attributes: [
        { key: "_referral_code", value: "ALICE10" },
        { key: "_referral_campaign", value: "1001" },
      ],
      discountCodes: [{ code: "ALICE10", applicable: true }],
    });

    // A visitor who already has a cart with the store's own code.
    const second = kitCart();
    await second.cart.create({ attributes: [], discountCodes: ["SUMMER"] });
    const updated = await applyReferralToCart(second.cart, land("https://shop.example/?mbsy=ALICE10"), { offerCampaigns: ["1001"] });
    expect(updated).toMatchObject({ created: false, attributesWritten: true, discountCodeApplied: "ALICE10" });
    expect(api.carts.get(second.cartId()!)!.discountCodes.map((d) => d.code)).toEqual(["SUMMER", "ALICE10"]);
    expect(api.calls.filter((c) => c.invalid.length > 0)).toEqual([]);
  });

  it("reports a cart the Storefront API does not know as an error, not as success", async () => {
    const { cart } = kitCart();
    await expect(cart.updateAttributes("gid://shopify/Cart/nosuchcart", [])).rejects.toThrow(/cartAttributesUpdate: The specified cart does not exist/);
  });
});

describe("the friend's offer", () => {
  it("is applied for a campaign with a live offer, or a link with no campaign; never for another campaign or with no live offer", () => {
    expect(offerCode(land("https://s.example/?mbsy=ALICE10&campaignid=1001"), ["1001"])).toBe("ALICE10");
    expect(offerCode(land("https://s.example/?mbsy=ALICE10"), ["1001"])).toBe("ALICE10");
    expect(offerCode(land("https://s.example/?mbsy=ALICE10&campaignid=1002"), ["1001"])).toBeNull();
    expect(offerCode(land("https://s.example/?mbsy=ALICE10"), [])).toBeNull();
    expect(offerCode(land("https://s.example/?mbsy=ALICE10"), ["none"])).toBeNull();
    expect(offerCode(land("https://s.example/"), ["1001"])).toBeNull();
  });
});

describe("the consent wait", () => {
  it("runs when Hydrogen announces the Customer Privacy API with consent already given", () => {
    const page = privacyWindow("https://s.example/", null);
    let ran = 0;
    whenConsented(page.window, () => ran++);
    expect(ran).toBe(0);
    (page.window as unknown as { Shopify: object }).Shopify = { customerPrivacy: { analyticsProcessingAllowed: () => true, marketingAllowed: () => true } };
    page.window.document.dispatchEvent(new CustomEvent("shopifyCustomerPrivacyApiLoaded"));
    page.window.document.dispatchEvent(new CustomEvent("consentTrackingApiLoaded"));
    expect(ran).toBe(1);
  });

  it("can be stopped before the visitor chooses", () => {
    const page = privacyWindow("https://s.example/", { analytics: false, marketing: false });
    let ran = 0;
    const stop = whenConsented(page.window, () => ran++);
    stop();
    page.choose({ analytics: true, marketing: true });
    expect(ran).toBe(0);
  });
});

describe("the settings and the share links client", () => {
  it("falls back to the embed's defaults for anything out of range", () => {
    expect(trackingSettings({ codeParam: " ", lifetimeDays: 0, attribution: "sometimes" as never })).toEqual(trackingSettings());
    expect(trackingSettings({ codeParam: "ref", lifetimeDays: 7, attribution: "last_touch" })).toEqual({ codeParam: "ref", campaignParam: "campaignid", lifetimeDays: 7, attribution: "last_touch" });
  });

  it("asks nothing for a visitor who is not signed in", async () => {
    const asked: string[] = [];
    const state = await fetchShareLinks({ appUrl: "https://app.example", shop: "s.myshopify.com", customerAccessToken: undefined, fetch: async (url) => (asked.push(String(url)), new Response()) });
    expect(state).toEqual({ kind: "guest" });
    expect(asked).toEqual([]);
  });
});
