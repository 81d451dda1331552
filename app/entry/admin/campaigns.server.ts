import { z } from "zod";
import { describeReward, type Campaign, type CompanyDetails } from "../../platform/referral-api";
import { webUrlOrNull } from "../../platform/text/web-url";
import { DEFAULT_REPEAT_POLICY, readRepeatPolicies, REPEAT_POLICIES, type RepeatPolicy } from "../../domains/referrals";

/** The Campaigns page's form for what a referred customer's later orders earn in one campaign. */
export const repeatPolicyFormSchema = z
  .object({
    campaignUid: z.string().regex(/^[\w-]{1,40}$/, "This campaign id isn't valid."),
    policy: z.enum(REPEAT_POLICIES, { message: "Choose which later orders earn." }),
    firstN: z.string().optional(),
  })
  .transform((form, ctx): { campaignUid: string; policy: RepeatPolicy } => {
    if (form.policy !== "first_n") return { campaignUid: form.campaignUid, policy: { policy: form.policy } };
    const n = Number(form.firstN);
    if (!Number.isInteger(n) || n < 1 || n > 1000) {
      ctx.addIssue({ code: "custom", path: ["firstN"], message: "Enter how many renewals earn: a whole number from 1 to 1000." });
      return z.NEVER;
    }
    return { campaignUid: form.campaignUid, policy: { policy: "first_n", firstN: n } };
  });

/** The shop's policies with one campaign's changed, as Shop.repeatPolicies stores them (the default is left out). */
export function withRepeatPolicy(stored: string | null | undefined, campaignUid: string, policy: RepeatPolicy): string {
  const policies = readRepeatPolicies(stored);
  if (policy.policy === DEFAULT_REPEAT_POLICY.policy) delete policies[campaignUid];
  else policies[campaignUid] = policy;
  return Object.keys(policies).length > 0 ? JSON.stringify(policies) : "";
}

/** The Campaigns page's track / untrack form. */
export const campaignTrackingSchema = z.object({
  intent: z.enum(["track", "untrack"], { message: "Choose track or untrack." }),
  campaignUid: z.string().regex(/^[\w-]{1,40}$/, "This campaign id isn't valid."),
});

/** A campaign as the admin shows it: rewards in words, dates as ISO text. */
export interface CampaignView {
  uid: string;
  name: string;
  description: string | null;
  initialReward: string;
  recurringReward: string;
  landingPage: string | null;
  startDate: string | null;
  endDate: string | null;
  private: boolean;
  sandbox: boolean;
  autoApprove: boolean;
  socialEnabled: boolean;
  discountValue: string | null;
  tracked: boolean;
  /** Which later orders of a referred customer are sent in this campaign. */
  repeatPolicy: RepeatPolicy;
  /** The campaign pays a recurring reward (not "none"). */
  paysRecurring: boolean;
}

function rewardWords(reward: Campaign["initialReward"], pointName: string): string {
  return reward ? describeReward(reward, { pointName }) : "no reward";
}

export function campaignViews(details: CompanyDetails, trackedUids: readonly string[], storedPolicies = ""): CampaignView[] {
  const policies = readRepeatPolicies(storedPolicies);
  const pointName = details.company.pointName ?? "points";
  return details.campaigns.map((c) => ({
    uid: c.campaignUid,
    name: c.campaignName ?? `Campaign ${c.campaignUid}`,
    description: c.campaignDescription,
    initialReward: rewardWords(c.initialReward, pointName),
    recurringReward: rewardWords(c.recurringReward, pointName),
    landingPage: webUrlOrNull(c.landingPage),
    startDate: c.startDate?.toISOString() ?? null,
    endDate: c.endDate?.toISOString() ?? null,
    private: c.private ?? false,
    sandbox: c.sandbox ?? false,
    autoApprove: c.autoApproveCommissions ?? false,
    socialEnabled: c.socialEnabled ?? false,
    discountValue: c.discountValue,
    tracked: trackedUids.includes(c.campaignUid),
    repeatPolicy: policies[c.campaignUid] ?? DEFAULT_REPEAT_POLICY,
    paysRecurring: c.recurringReward !== null && c.recurringReward.typeCode !== "D",
  }));
}

/** Tracked campaigns that are no longer active at the service: orders for them would fail. */
export function missingTrackedCampaigns(details: CompanyDetails, trackedUids: readonly string[]): string[] {
  const active = new Set(details.campaigns.map((c) => c.campaignUid));
  return trackedUids.filter((uid) => !active.has(uid));
}
