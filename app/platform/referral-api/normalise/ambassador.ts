import { readFields } from "../field-reader";
import type { Ambassador } from "../types";
import { normaliseCampaignLink } from "./campaign-link";
import { normaliseStatsSummary } from "./stats";

export function normaliseAmbassador(raw: unknown): Ambassador {
  const r = readFields(raw, "ambassador");
  const statsSummary = r.object("stats_summary");
  return {
    email: r.requiredText("email"),
    firstName: r.text("first_name"),
    lastName: r.text("last_name"),
    uid: r.text("uid"),
    createdAt: r.date("created_at"),
    balanceMoney: r.money("balance_money"),
    balancePoints: r.money("balance_points"),
    moneyPaid: r.money("money_paid"),
    pointsPaid: r.money("points_paid"),
    memorableUrl: r.text("memorable_url"),
    uniqueReferrals: r.number("unique_referrals"),
    sandbox: r.flag("sandbox"),
    custom1: r.text("custom1"),
    custom2: r.text("custom2"),
    custom3: r.text("custom3"),
    custom4: r.text("custom4"),
    groups: r.list("groups"),
    street: r.text("street"),
    city: r.text("city"),
    state: r.text("state"),
    zip: r.text("zip"),
    country: r.text("country"),
    phone: r.text("phone"),
    company: r.text("company"),
    payoutEmail: r.text("payservice1_email", "paypal_email"),
    status: r.text("status"),
    platformId: r.number("platform_id"),
    countShares: r.number("count_shares"),
    campaignLinks: r.array("campaign_links").map(normaliseCampaignLink),
    fraudScore: r.number("fraud_score"),
    fraudScoreHumanReadable: r.text("fraud_score_human_readable"),
    fraudScorePercentUi: r.number("fraud_score_percent_ui"),
    fraudReasons: r.object("fraud_reasons"),
    statsSummary: statsSummary ? normaliseStatsSummary(statsSummary) : null,
    extra: r.extra(),
  };
}
