/**
 * The JSON a signed-in customer's share links are answered with, by the app
 * proxy (`/apps/referrals/links`, read by extensions/referral-theme/assets/
 * referral-links.js) and by the customer account extension's backend route.
 * Amounts are exact decimal strings; the readers format them, except that the
 * app proxy adds `display` texts already formatted when the theme block names
 * its locale and currency (share-links-display.ts).
 *
 * Customers read these answers in their own language, so the blocks show their
 * own translated texts (each extension's locales/ folder), chosen by `status`
 * and, for `not_enrolled`, by `reason`. `message` is the English text, kept for
 * extension versions already live that still show it.
 */

export interface ShareLink {
  campaignUid: string | null;
  campaignName: string;
  description: string;
  /** Always an http(s) URL. */
  url: string;
  socialEnabled: boolean;
  totalMoneyEarned: string;
  totalPointsEarned: string;
  /** The two amounts formatted for the storefront (app proxy only, when asked). */
  display?: { totalMoneyEarned: string; totalPointsEarned: string };
}

export interface ShareLinksAmbassador {
  firstName: string | null;
  email: string;
  balanceMoney: string;
  balancePoints: string;
  moneyPaid: string;
  pointsPaid: string;
  uniqueReferrals: number;
  /** The company's name for its point unit; null when the service did not say. */
  pointName: string | null;
  /** The balances formatted for the storefront (app proxy only, when asked). */
  display?: { balanceMoney: string; balancePoints: string; moneyPaid: string; pointsPaid: string };
}

export type ShareLinksAnswer =
  | { status: "ok"; ambassador: ShareLinksAmbassador; links: ShareLink[] }
  /** No signed-in customer: the storefront shows its sign-in prompt. */
  | { status: "guest" }
  /** Signed in, but not an ambassador (and the shop does not enrol automatically). */
  | { status: "not_enrolled"; reason: NotEnrolledReason; message: string }
  /** The shop has no working connection to the referral program. */
  | { status: "unavailable"; message: string }
  /** A passing failure (the service is slow or down): try again later. */
  | { status: "error"; message: string };

/** Why a signed-in customer has no links: not an ambassador, no email on their account, or their referral account is off. */
export const NOT_ENROLLED_REASONS = ["not_member", "no_email", "inactive", "unverified_email"] as const;
export type NotEnrolledReason = (typeof NOT_ENROLLED_REASONS)[number];

export type ShareLinksStatus = ShareLinksAnswer["status"];
