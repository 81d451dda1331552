import { readFields } from "../field-reader";
import type { CampaignLink } from "../types";
import { normaliseStatsBlock } from "./stats";

export function normaliseCampaignLink(raw: unknown): CampaignLink {
  const r = readFields(raw, "campaign link");
  const stats = r.object("stats");
  return {
    campaignUid: r.text("campaign_uid"),
    campaignName: r.text("campaign_name"),
    campaignDescription: r.text("campaign_description"),
    sandbox: r.flag("sandbox"),
    private: r.flag("private"),
    socialEnabled: r.flag("social_enabled"),
    url: r.text("url"),
    totalMoneyEarned: r.money("total_money_earned"),
    totalPointsEarned: r.money("total_points_earned"),
    uniqueReferrals: r.number("unique_referrals"),
    stats: stats ? normaliseStatsBlock(stats) : null,
    extra: r.extra(),
  };
}
