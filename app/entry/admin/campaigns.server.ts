import { z } from "zod";
import { describeReward, type Campaign, type CompanyDetails } from "../../platform/referral-api";
import { webUrlOrNull } from "../../platform/text/web-url";

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
}

function rewardWords(reward: Campaign["initialReward"], pointName: string): string {
  return reward ? describeReward(reward, { pointName }) : "no reward";
}

export function campaignViews(details: CompanyDetails, trackedUids: readonly string[]): CampaignView[] {
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
  }));
}

/** Tracked campaigns that are no longer active at the service: orders for them would fail. */
export function missingTrackedCampaigns(details: CompanyDetails, trackedUids: readonly string[]): string[] {
  const active = new Set(details.campaigns.map((c) => c.campaignUid));
  return trackedUids.filter((uid) => !active.has(uid));
}
