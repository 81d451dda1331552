import type { RuleVerdict } from "./guard";

// Why an order was credited or not, as the activity page shows it: every
// referral signal on the order, which one won and why, and each guard
// rule's verdict. Stored as JSON on the order's record.

export type SignalSource = "cart_attribute" | "pixel" | "landing_page" | "discount_code" | "offer_code";

export interface SignalNote {
  source: SignalSource;
  code: string;
  /** What became of it, in the merchant's words. */
  outcome: string;
  won?: boolean;
}

export interface Explanation {
  signals: SignalNote[];
  winner: { code: string; source: SignalSource; sentAs: "short_code" | "coupon_code"; referrer?: string; why: string } | null;
  guard: RuleVerdict[];
  /** A later order of a customer the app recorded as referred: what became of it in each such campaign (repeat-purchase.ts). */
  repeat?: string[];
  decision: string;
}

export const SIGNAL_NAMES: Record<SignalSource, string> = {
  cart_attribute: "Referral link (kept in the cart)",
  pixel: "Referral link (seen by the web pixel at checkout)",
  landing_page: "Referral link (landing page)",
  discount_code: "Discount code",
  offer_code: "Offer code (the friend's discount)",
};

export function readExplanation(text: string | null | undefined): Explanation | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Explanation;
    return value && Array.isArray(value.signals) && Array.isArray(value.guard) ? value : null;
  } catch {
    return null;
  }
}
