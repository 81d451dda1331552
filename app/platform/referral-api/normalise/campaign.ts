import { readFields } from "../field-reader";
import { isRecord } from "../scalars";
import type { Campaign, Reward } from "../types";

function normaliseReward(raw: unknown): Reward | null {
  if (!isRecord(raw)) return null;
  const r = readFields(raw, "reward");
  return {
    typeCode: (r.text("type_code") ?? "D").trim().toUpperCase(),
    typeText: r.text("type_text"),
    amount: r.money("amount"),
    extra: r.extra(),
  };
}

export function normaliseCampaign(raw: unknown): Campaign {
  const r = readFields(raw, "campaign");
  return {
    campaignUid: r.requiredText("campaign_uid"),
    campaignName: r.text("campaign_name"),
    campaignDescription: r.text("campaign_description"),
    initialReward: normaliseReward(r.raw("initial_reward")),
    recurringReward: normaliseReward(r.raw("recurring_reward")),
    landingPage: r.text("landing_page"),
    requiredQueryParams: r.text("required_query_params"),
    sandbox: r.flag("sandbox"),
    private: r.flag("private"),
    socialEnabled: r.flag("social_enabled"),
    autoApproveCommissions: r.flag("auto_approve_commissions"),
    discountValue: r.text("discount_value"),
    startDate: r.unixDate("start_date"),
    endDate: r.unixDate("end_date"),
    userMessage: r.text("user_message"),
    companyMessage: r.text("company_message"),
    subject: r.text("subject"),
    socialMessage: r.text("social_message"),
    linkedinMessage: r.text("linkedin_message"),
    twitterMessage: r.text("twitter_message"),
    extra: r.extra(),
  };
}
