import type { GuardMode, GuardRule } from "../../domains/referrals/guard-settings";
import type { APPROVALS, REVENUE_BASES, SCOPES, TEST_ORDER_RULES, TRIGGERS } from "../../domains/referrals/pipeline-settings";

// Words for each allowed value of app/domains/referrals/pipeline-settings.ts. The
// Record types make a new value there fail to compile here until it has words.

export interface OptionWords {
  label: string;
  helpText?: string;
}

export const TRIGGER_WORDS: Record<(typeof TRIGGERS)[number], OptionWords> = {
  orders_paid: { label: "When the order is paid", helpText: "Recommended: unpaid orders never earn a commission." },
  orders_create: {
    label: "When the order is placed",
    helpText: "Faster, but unpaid orders are recorded too (and denied if cancelled).",
  },
};

export const SCOPE_WORDS: Record<(typeof SCOPES)[number], OptionWords> = {
  with_code: { label: "Only orders with a referral code", helpText: "A share link or a referrer's coupon was used." },
  all_orders: {
    label: "Every order",
    helpText: "Orders without a code are sent too, so repeat orders of referred customers earn recurring rewards.",
  },
};

export const APPROVAL_WORDS: Record<(typeof APPROVALS)[number], OptionWords> = {
  campaign: { label: "As each campaign is set up", helpText: "The campaign's auto-approve setting decides." },
  pending: { label: "Pending: I approve each one", helpText: "Review commissions in Commissions before they are paid." },
  approved: { label: "Approved at once", helpText: "Cancellations can no longer deny a commission once it is approved." },
};

export const REVENUE_WORDS: Record<(typeof REVENUE_BASES)[number], OptionWords> = {
  subtotal_after_discounts: {
    label: "Subtotal after discounts",
    helpText: "Products only, after discounts; no shipping or tax.",
  },
  subtotal_before_discounts: { label: "Subtotal before discounts", helpText: "Products at full price; no shipping or tax." },
  total: { label: "Order total", helpText: "Everything the customer paid, including shipping and tax." },
};

export const TEST_ORDER_WORDS: Record<(typeof TEST_ORDER_RULES)[number], OptionWords> = {
  skip: { label: "Ignore test orders" },
  send: { label: "Send test orders as sandbox events", helpText: "Useful while trying the integration with a sandbox campaign." },
};

export const GUARD_MODE_WORDS: Record<GuardMode, OptionWords> = {
  off: { label: "Off" },
  flag: { label: "Flag for review", helpText: "Recorded as pending with the reason, so you can deny it in Commissions." },
  block: { label: "Block", helpText: "Not recorded; the order shows as blocked in Activity with the reason." },
};

/** The settings form's field for a guard rule. */
export const guardField = (rule: GuardRule) => `guard_${rule}` as const;

export function choicesOf<T extends string>(words: Record<T, OptionWords>): { value: T; label: string; helpText?: string }[] {
  return (Object.entries(words) as [T, OptionWords][]).map(([value, w]) => ({ value, ...w }));
}
