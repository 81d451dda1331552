import type { OfferSettings } from "./offer-settings";

// The input of Shopify's discountCode{Basic,FreeShipping}{Create,Update} for
// an offer. Pure: the same settings always give the same input, so what was
// last written can be compared with what should be there now.

export interface DiscountFacts {
  title: string;
  /** The campaign's dates; a campaign without a start starts when the offer is made. */
  startsAt: Date;
  endsAt: Date | null;
  /** The value to give (percent or amount); ignored for free shipping. */
  value: string | null;
  /** The "no earlier orders" segment, when the offer is for new customers. */
  segmentId: string | null;
}

export type DiscountMutation = "basic" | "free_shipping";

export function discountMutationOf(settings: Pick<OfferSettings, "kind">): DiscountMutation {
  return settings.kind === "free_shipping" ? "free_shipping" : "basic";
}

/** Shopify allows 255 characters. */
export function discountTitle(programName: string, campaignName: string): string {
  return `${programName} referral: ${campaignName}`.slice(0, 255);
}

export function discountInput(settings: OfferSettings, facts: DiscountFacts): Record<string, unknown> {
  const context =
    settings.eligibility === "new_customers" && facts.segmentId ? { customerSegments: { add: [facts.segmentId] } } : { all: "ALL" };
  const common = {
    title: facts.title,
    startsAt: facts.startsAt.toISOString(),
    endsAt: facts.endsAt?.toISOString() ?? null,
    context,
    appliesOncePerCustomer: settings.oncePerCustomer,
    minimumRequirement: settings.minimumSubtotal ? { subtotal: { greaterThanOrEqualToSubtotal: settings.minimumSubtotal } } : null,
    combinesWith: {
      orderDiscounts: settings.combinesOrder,
      productDiscounts: settings.combinesProduct,
      // A shipping discount never combines with another shipping discount.
      shippingDiscounts: settings.kind === "free_shipping" ? false : settings.combinesShipping,
    },
  };
  if (settings.kind === "free_shipping") return { ...common, destination: { all: true } };
  const value =
    settings.kind === "percentage"
      ? { percentage: Number(facts.value) / 100 }
      : { discountAmount: { amount: facts.value, appliesOnEachItem: false } };
  return { ...common, customerGets: { value, items: { all: true } } };
}

/** The segment Shopify checks for "new customers only". */
export const NEW_CUSTOMERS_SEGMENT = { name: "Referral Bridge: customers without orders", query: "number_of_orders = 0" } as const;
