import { shopifyOrder, shopifyRefund } from "../lib/sample-orders";

// The demo's orders: one per way a referral reaches an order, plus the
// awkward cases. Each says what the merchant should see afterwards.

export const linkOrder = shopifyOrder({
  name: "#1001",
  email: "jon@example.com",
  noteAttributes: [{ name: "_referral_code", value: "ALICE10" }],
  subtotal: "120.00",
});
export const landingOrder = shopifyOrder({
  name: "#1002",
  email: "maria@example.com",
  customerEmail: "maria@example.com",
  landingSite: "/products/merino-hoodie?mbsy=BOB10&utm_source=newsletter",
  subtotal: "80.00",
});
export const couponOrder = shopifyOrder({
  name: "#1003",
  email: "li@example.com",
  customerEmail: "li@example.com",
  discountCodes: ["ALICE-15"],
  subtotal: "60.00",
});
export const plainOrder = shopifyOrder({ name: "#1004", email: "sam@example.com", customerEmail: "sam@example.com" });
export const flakyOrder = shopifyOrder({
  name: "#1005",
  email: "ana@example.com",
  customerEmail: "ana@example.com",
  noteAttributes: [{ name: "_referral_code", value: "BOB10" }],
  subtotal: "45.50",
});
export const promoOrder = shopifyOrder({
  name: "#1006",
  email: "kim@example.com",
  customerEmail: "kim@example.com",
  discountCodes: ["SUMMER20"],
  subtotal: "70.00",
});
export const selfReferralOrder = shopifyOrder({
  name: "#1007",
  email: "Alice+shop@example.com",
  customerEmail: "Alice+shop@example.com",
  noteAttributes: [{ name: "_referral_code", value: "ALICE10" }],
  subtotal: "50.00",
});
export const partialRefund = shopifyRefund(couponOrder.id, ["20.00"]);

export interface Expectation {
  order: { id: number; name: string };
  how: string;
  status: string;
  /** The commission at the service afterwards, or null for none. */
  commission: { state: string; revenue: string } | null;
}

export const EXPECTATIONS: Expectation[] = [
  { order: linkOrder, how: "share link (cart attribute)", status: "recorded", commission: { state: "pending", revenue: "120.00" } },
  { order: landingOrder, how: "landing page ?mbsy=, then cancelled", status: "reversed", commission: { state: "denied", revenue: "80.00" } },
  { order: couponOrder, how: "coupon ALICE-15, then 20.00 refunded", status: "recorded", commission: { state: "pending", revenue: "40.00" } },
  // Nothing to send yet: each waits half an hour for the web pixel's signal, then is not referred.
  { order: plainOrder, how: "no referral", status: "awaiting_signal", commission: null },
  { order: promoOrder, how: "store promo code SUMMER20 only", status: "awaiting_signal", commission: null },
  { order: selfReferralOrder, how: "Alice's own link, Alice buying", status: "blocked", commission: null },
  { order: flakyOrder, how: "service failed its first 2 calls", status: "recorded", commission: { state: "pending", revenue: "45.50" } },
];
