/**
 * The JSON a signed-in customer's share links are answered with, by the app
 * proxy (`/apps/referrals/links`, read by extensions/referral-theme/assets/
 * referral-links.js) and by the customer account extension's backend route.
 * Amounts are exact decimal strings; the readers format them.
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
}

export type ShareLinksAnswer =
  | { status: "ok"; ambassador: ShareLinksAmbassador; links: ShareLink[] }
  /** No signed-in customer: the storefront shows its sign-in prompt. */
  | { status: "guest" }
  /** Signed in, but not an ambassador (and the shop does not enrol automatically). */
  | { status: "not_enrolled"; message: string }
  /** The shop has no working connection to the referral program. */
  | { status: "unavailable"; message: string }
  /** A passing failure (the service is slow or down): try again later. */
  | { status: "error"; message: string };

export type ShareLinksStatus = ShareLinksAnswer["status"];
