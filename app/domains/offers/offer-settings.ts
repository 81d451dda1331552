// What the merchant chooses for a campaign's friend's offer, as the card's
// form sends it and as the discount in Shopify is written from it. The card
// imports this module, so the form's schema lives in offer-form.server.ts.

export const OFFER_KINDS = ["percentage", "fixed_amount", "free_shipping"] as const;
export type OfferKind = (typeof OFFER_KINDS)[number];

/** Both are rules Shopify itself enforces at checkout (a customer segment, appliesOncePerCustomer). */
export const ELIGIBILITIES = ["new_customers", "everyone"] as const;
export type Eligibility = (typeof ELIGIBILITIES)[number];

export const OFFER_KIND_LABELS: Record<OfferKind, string> = {
  percentage: "Percentage off",
  fixed_amount: "Fixed amount off",
  free_shipping: "Free shipping",
};

export const ELIGIBILITY_LABELS: Record<Eligibility, string> = {
  new_customers: "New customers only (no earlier orders)",
  everyone: "Everyone",
};

export interface OfferSettings {
  kind: OfferKind;
  /** null: the campaign's discount_value at the referral service. */
  value: string | null;
  eligibility: Eligibility;
  oncePerCustomer: boolean;
  minimumSubtotal: string | null;
  combinesOrder: boolean;
  combinesProduct: boolean;
  combinesShipping: boolean;
}

export const OFFER_DEFAULTS: OfferSettings = {
  kind: "percentage",
  value: null,
  eligibility: "new_customers",
  oncePerCustomer: true,
  minimumSubtotal: null,
  combinesOrder: false,
  combinesProduct: false,
  combinesShipping: true,
};

/** An amount as the card's form takes it: up to 9 digits and 2 decimals. */
export const DECIMAL_AMOUNT = /^\d{1,9}(\.\d{1,2})?$/;

/** The value the discount gives: the merchant's, else the campaign's discount_value when it is a number. */
export function effectiveValue(settings: Pick<OfferSettings, "kind" | "value">, campaignDiscountValue: string | null): string | null {
  if (settings.kind === "free_shipping") return null;
  if (settings.value !== null) return settings.value;
  const fromCampaign = campaignDiscountValue?.trim().replace(/%$/, "");
  return fromCampaign && DECIMAL_AMOUNT.test(fromCampaign) && Number(fromCampaign) > 0 ? fromCampaign : null;
}

/** The offer in the merchant's words, e.g. "10% off" or "Free shipping". */
export function describeOffer(kind: OfferKind, value: string | null, currency?: string): string {
  if (kind === "free_shipping") return "Free shipping";
  if (value === null) return "No amount set";
  return kind === "percentage" ? `${value}% off` : `${value}${currency ? ` ${currency}` : ""} off`;
}
