import { compareMoney } from "../../platform/referral-api/money";
import type { StoreCredit } from "./shopify-customers.server";

// Did a store credit whose answer never came land? Shopify's credit carries
// no note or reference, so the only witness is the customer's account: the
// credits made to it since the call began. The balance is no witness, since
// the customer may have spent some of it meanwhile.

/**
 * Shopify's clock and the app's differ a little: a credit stamped up to this
 * long before the attempt began (by the app's clock) may still be its own.
 */
export const CLOCK_SKEW_MS = 2 * 60_000;

export type Landed =
  | { landed: "yes"; transactionId: string }
  | { landed: "no" }
  | { landed: "unclear"; why: "several" | "rival" | "unreadable" };

export interface LandedInput {
  /** The payout's amount, in the account's currency. */
  amount: string;
  /** The account's credits since the attempt began, less the clock's skew (storeCreditsSince). */
  credits: StoreCredit[];
  /** Whether `credits` is every credit since then. */
  complete: boolean;
  /** Transactions already known to be other payouts'. */
  matched: ReadonlySet<string>;
  /** Other payouts of the same amount to the same account whose credit is unsettled too (sent, answer lost). */
  rivals: number;
}

/**
 * The credits of the amount since the attempt began, not made by an order,
 * not another payout's. None: it did not land. As many as the unsettled
 * payouts of that amount to the account (this one and its rivals): every one
 * landed, and this one takes the oldest not yet taken (credits of one amount
 * to one account cannot be told apart, and the unique transaction of a
 * payout keeps two from taking the same). Any other count, or a list the
 * app could not read to its end: the merchant decides.
 */
export function didCreditLand(input: LandedInput): Landed {
  if (!input.complete) return { landed: "unclear", why: "unreadable" };
  const candidates = input.credits
    .filter((credit) => !credit.fromOrder && !input.matched.has(credit.id) && compareMoney(credit.amount, input.amount) === 0)
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  if (candidates.length === 0) return { landed: "no" };
  const unsettled = 1 + input.rivals;
  if (candidates.length === unsettled) return { landed: "yes", transactionId: candidates[0]!.id };
  return { landed: "unclear", why: candidates.length > unsettled ? "several" : "rival" };
}
