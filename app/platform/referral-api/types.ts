import type { Money } from "./money";

/**
 * Normalised shapes of the service's resources.
 *
 * - Names are camelCase; values have one type each: counts are numbers, amounts
 *   are exact `Money` strings, flags are booleans, dates are `Date`s (UTC).
 * - A field the response did not carry, or carried as null, is `null`; lists are
 *   `[]` when absent. Totals inside statistics default to 0 / "0.00".
 * - Every field the client does not know is kept, untouched, under `extra`.
 */

/** A known value, or whatever new value the service sends. */
export type KnownOr<T extends string> = T | (string & {});

export type Extra = Record<string, unknown>;

export type AmbassadorStatus = KnownOr<"enrolled" | "prospect" | "banned" | "unsubscribed">;
export type CommissionStatus = "pending" | "approved" | "denied";
export type FraudStatus = KnownOr<
  "flagged" | "fraudulent" | "immune" | "null" | "passed" | "scanning" | "unflagged"
>;
export type RewardTypeCode = KnownOr<"P" | "F" | "N" | "M" | "D">;

export interface CommissionTotals {
  pendingCount: number;
  approvedCount: number;
  deniedCount: number;
  pendingSum: Money;
  approvedSum: Money;
  deniedSum: Money;
  extra: Extra;
}

export interface RevenueTotals {
  pendingSum: Money;
  approvedSum: Money;
  deniedSum: Money;
  extra: Extra;
}

export interface ChannelStats {
  countShares: number | null;
  /** null where the service writes "N/A" (the email channel). */
  countClicks: number | null;
  uniqueReferrals: number | null;
  commissions: CommissionTotals | null;
  revenue: RevenueTotals | null;
  extra: Extra;
}

export interface StatsBlock {
  commissions: CommissionTotals;
  revenue: RevenueTotals;
  countClicks: number;
  countShares: number;
  uniqueReferrals: number;
  channels: Record<string, ChannelStats>;
  extra: Extra;
}

export interface StatsSummary extends StatsBlock {
  startDate: Date | null;
  endDate: Date | null;
}

export interface CampaignLink {
  /** Nullable: a link without it is still shown rather than failing the whole answer. */
  campaignUid: string | null;
  campaignName: string | null;
  campaignDescription: string | null;
  sandbox: boolean | null;
  private: boolean | null;
  socialEnabled: boolean | null;
  url: string | null;
  totalMoneyEarned: Money | null;
  totalPointsEarned: Money | null;
  /** ambassador/stats only. */
  uniqueReferrals: number | null;
  /** ambassador/stats only. */
  stats: StatsBlock | null;
  extra: Extra;
}

export interface Ambassador {
  email: string;
  firstName: string | null;
  lastName: string | null;
  uid: string | null;
  createdAt: Date | null;
  balanceMoney: Money | null;
  balancePoints: Money | null;
  moneyPaid: Money | null;
  pointsPaid: Money | null;
  memorableUrl: string | null;
  uniqueReferrals: number | null;
  sandbox: boolean | null;
  custom1: string | null;
  custom2: string | null;
  custom3: string | null;
  /** A `YYYY-MM-DD` date by convention, kept as the text sent. */
  custom4: string | null;
  /** Group IDs (the service sends them comma-separated). */
  groups: string[];
  street: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
  phone: string | null;
  company: string | null;
  /** `payservice1_email` (set through the `paypal_email` parameter). */
  payoutEmail: string | null;
  status: AmbassadorStatus | null;
  platformId: number | null;
  countShares: number | null;
  campaignLinks: CampaignLink[];
  /** ambassador/all only. */
  fraudScore: number | null;
  fraudScoreHumanReadable: string | null;
  fraudScorePercentUi: number | null;
  fraudReasons: Record<string, unknown> | null;
  /** ambassador/stats only. */
  statsSummary: StatsSummary | null;
  extra: Extra;
}

export interface ReferringAmbassador {
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  uid: string | null;
  commission: Money | null;
  balanceMoney: Money | null;
  balancePoints: Money | null;
  memorableUrl: string | null;
  uniqueReferrals: number | null;
  sandbox: boolean | null;
  custom1: string | null;
  custom2: string | null;
  custom3: string | null;
  extra: Extra;
}

export interface Company {
  companyName: string | null;
  companyUrl: string | null;
  companyEmail: string | null;
  /** Name of the point unit. */
  pointName: string | null;
  outgoingEmail: string | null;
  avatarUrl: string | null;
  extra: Extra;
}

export interface Reward {
  typeCode: RewardTypeCode;
  typeText: string | null;
  amount: Money | null;
  extra: Extra;
}

export interface Campaign {
  campaignUid: string;
  campaignName: string | null;
  campaignDescription: string | null;
  initialReward: Reward | null;
  recurringReward: Reward | null;
  landingPage: string | null;
  /** Template using `{short_code}` and `{campaign_uid}`. */
  requiredQueryParams: string | null;
  sandbox: boolean | null;
  private: boolean | null;
  socialEnabled: boolean | null;
  autoApproveCommissions: boolean | null;
  discountValue: string | null;
  startDate: Date | null;
  endDate: Date | null;
  userMessage: string | null;
  companyMessage: string | null;
  subject: string | null;
  socialMessage: string | null;
  linkedinMessage: string | null;
  twitterMessage: string | null;
  extra: Extra;
}

export interface CommissionFraud {
  status: FraudStatus | null;
  /** Percent of suspiciousness, 0-100. */
  score: number | null;
  reasons: string[];
  extra: Extra;
}

export interface Commission {
  commissionUid: string;
  campaignUid: string | null;
  affiliateUid: string | null;
  referringUid: string | null;
  remoteCustomerEmail: string | null;
  remoteCustomerId: string | null;
  affiliateEmail: string | null;
  affiliateFirstName: string | null;
  affiliateLastName: string | null;
  revenueAmount: Money | null;
  commissionAmount: Money | null;
  createdAt: Date | null;
  transactionId: string | null;
  /** From `is_approved`: "0" pending, "1" approved, "2" denied. null for an unknown value. */
  status: CommissionStatus | null;
  isSandbox: boolean | null;
  isTrial: boolean | null;
  isWelcomeBonus: boolean | null;
  eventData1: string | null;
  eventData2: string | null;
  eventData3: string | null;
  fraud: CommissionFraud | null;
  extra: Extra;
}

export interface Group {
  groupId: string;
  name: string | null;
  description: string | null;
  isDefault: boolean | null;
  totalAmbassadors: number | null;
  extra: Extra;
}

export interface GroupMember {
  email: string;
  extra: Extra;
}

export interface ShortCode {
  valid: boolean | null;
  sandbox: boolean | null;
  discountValue: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  uid: string | null;
  campaignUid: string | null;
  campaignName: string | null;
  campaignDescription: string | null;
  custom1: string | null;
  custom2: string | null;
  custom3: string | null;
  status: AmbassadorStatus | null;
  extra: Extra;
}

export interface PayoutTotals {
  pendingCount: number;
  paidCount: number;
  deniedCount: number;
  pendingSum: Money;
  paidSum: Money;
  deniedSum: Money;
  extra: Extra;
}

export interface CompanyStats {
  production: {
    activatedAmbassadors: number;
    deactivatedAmbassadors: number;
    activeCampaigns: number;
    commissions: CommissionTotals;
    revenue: RevenueTotals;
    payouts: PayoutTotals;
    clicks: number;
    extra: Extra;
  };
  sandbox: {
    activeCampaigns: number;
    clicks: number;
    extra: Extra;
  };
  extra: Extra;
}

export interface EmailStatsEntry {
  date: Date | null;
  delivered: number;
  unsubscribes: number;
  invalidEmail: number;
  bounces: number;
  repeatUnsubscribes: number;
  uniqueClicks: number;
  blocked: number;
  spamDrop: number;
  repeatBounces: number;
  repeatSpamreports: number;
  requests: number;
  spamreports: number;
  clicks: number;
  opens: number;
  uniqueOpens: number;
  extra: Extra;
}

/** One page of a v2 list operation (at most 100 items). */
export interface Page<T> {
  items: T[];
  page: number;
  /** From paging metadata when the service sends some, else "the page was full". */
  hasMore: boolean;
  /** Other keys of `response.data` (e.g. paging metadata). */
  extra: Extra;
}
