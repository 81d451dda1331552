// Response shapes of the v2 operations. Numbers the document shows as strings are
// strings; `numeric` switches the string|number fields to numbers where the
// sandbox answers with numbers (see README, "string|number fields").

import { formatCommissionTime, formatOffsetTime, formatUnixSeconds } from "./dates";
import { centsToNumber, formatCents } from "./money";
import type { Ambassador, Campaign, Commission, Reward, Store } from "./state";
import { activeCampaigns, memorableUrl, shareUrl } from "./domain/campaigns";

export const flag = (value: boolean) => (value ? "1" : "0");

const REWARD_TEXT: Record<Reward["type"], string> = {
  P: "Percentage of revenue (money)",
  F: "Flat amount (money)",
  N: "Percentage of revenue (points)",
  M: "Flat amount (points)",
  D: "No reward",
};

export function companyInfo(store: Store) {
  return {
    company_name: store.company.name,
    company_url: store.company.url,
    company_email: store.company.email,
    point_name: store.company.pointName,
    outgoing_email: store.company.outgoingEmail,
  };
}

function reward(r: Reward) {
  return { type_text: REWARD_TEXT[r.type], type_code: r.type, amount: r.amount };
}

export function campaignInfo(campaign: Campaign) {
  return {
    campaign_uid: campaign.uid,
    campaign_name: campaign.name,
    campaign_description: campaign.description,
    initial_reward: reward(campaign.initialReward),
    recurring_reward: reward(campaign.recurringReward),
    landing_page: campaign.landingPage,
    ...(campaign.requiredQueryParams ? { required_query_params: campaign.requiredQueryParams } : {}),
    sandbox: flag(campaign.sandbox),
    private: flag(campaign.private),
    social_enabled: flag(campaign.socialEnabled),
    auto_approve_commissions: flag(campaign.autoApprove),
    discount_value: campaign.discountValue,
    start_date: formatUnixSeconds(campaign.startMs),
    end_date: campaign.endMs === null ? null : formatUnixSeconds(campaign.endMs),
    user_message: campaign.userMessage,
    company_message: campaign.companyMessage,
    subject: campaign.subject,
    social_message: campaign.socialMessage,
    ...(campaign.linkedinMessage !== undefined ? { linkedin_message: campaign.linkedinMessage } : {}),
    ...(campaign.twitterMessage !== undefined ? { twitter_message: campaign.twitterMessage } : {}),
  };
}

function balances(ambassador: Ambassador, numeric: boolean) {
  return numeric
    ? { balance_money: centsToNumber(ambassador.balanceCents), balance_points: ambassador.balancePoints }
    : { balance_money: formatCents(ambassador.balanceCents), balance_points: String(ambassador.balancePoints) };
}

export interface ShapeOptions {
  numeric?: boolean;
  /** Overrides the sandbox field (ambassador/get with auto_create=1 and no sandbox parameter). */
  sandboxAsBoolean?: boolean;
}

/** Fields shared by every ambassador shape. */
export function ambassadorCore(store: Store, a: Ambassador, options: ShapeOptions = {}) {
  const referrals = store.uniqueReferrals(a.id);
  return {
    first_name: a.firstName,
    last_name: a.lastName,
    email: a.email,
    uid: a.uid,
    ...balances(a, options.numeric ?? false),
    memorable_url: memorableUrl(store, a),
    unique_referrals: options.numeric ? referrals : String(referrals),
    sandbox: options.sandboxAsBoolean ? a.sandbox : flag(a.sandbox),
    custom1: a.custom.custom1,
    custom2: a.custom.custom2,
    custom3: a.custom.custom3,
  };
}

export function referringAmbassador(store: Store, a: Ambassador, commission: number | null, options: ShapeOptions = {}) {
  return { ...ambassadorCore(store, a, options), commission };
}

export function address(a: Ambassador) {
  return { ...a.address };
}

function earned(store: Store, a: Ambassador, campaignUid: string) {
  let cents = 0;
  let points = 0;
  for (const c of store.commissionsOf(a.id)) {
    if (c.campaignUid !== campaignUid || c.state !== 1) continue;
    if (c.unit === "money") cents += c.amountHundredths;
    else points += Math.round(c.amountHundredths / 100);
  }
  return { total_money_earned: formatCents(cents), total_points_earned: String(points) };
}

export function campaignLink(store: Store, a: Ambassador, campaign: Campaign) {
  const code = a.shortCodes.get(campaign.uid) ?? "";
  return {
    campaign_uid: campaign.uid,
    campaign_name: campaign.name,
    campaign_description: campaign.description,
    sandbox: flag(campaign.sandbox),
    private: flag(campaign.private),
    social_enabled: flag(campaign.socialEnabled),
    url: shareUrl(store, code),
    ...earned(store, a, campaign.uid),
  };
}

export function campaignLinks(store: Store, a: Ambassador) {
  return activeCampaigns(store).map((c) => campaignLink(store, a, c));
}

/** The ambassador of event/record and event/multi_record answers. */
export function eventAmbassador(store: Store, a: Ambassador, options: ShapeOptions = {}) {
  return {
    ...ambassadorCore(store, a, options),
    ...address(a),
    groups: a.groups.join(","),
    campaign_links: campaignLinks(store, a),
  };
}

/** The ambassador of ambassador/get. */
export function fullAmbassador(store: Store, a: Ambassador, options: ShapeOptions = {}) {
  const core = ambassadorCore(store, a, options);
  return {
    first_name: core.first_name,
    last_name: core.last_name,
    created_at: formatOffsetTime(a.createdMs),
    email: core.email,
    uid: core.uid,
    balance_money: core.balance_money,
    balance_points: core.balance_points,
    money_paid: formatCents(a.moneyPaidCents),
    points_paid: String(a.pointsPaid),
    memorable_url: core.memorable_url,
    unique_referrals: core.unique_referrals,
    sandbox: core.sandbox,
    custom1: a.custom.custom1,
    custom2: a.custom.custom2,
    custom3: a.custom.custom3,
    custom4: a.custom.custom4,
    groups: a.groups.join(","),
    ...address(a),
    company: a.company ?? "",
    payservice1_email: a.paypalEmail ?? "",
    status: a.status,
    campaign_links: campaignLinks(store, a),
  };
}

export function listAmbassador(store: Store, a: Ambassador) {
  const core = ambassadorCore(store, a);
  return {
    first_name: core.first_name,
    last_name: core.last_name,
    email: core.email,
    uid: core.uid,
    balance_money: core.balance_money,
    balance_points: core.balance_points,
    money_paid: formatCents(a.moneyPaidCents),
    points_paid: String(a.pointsPaid),
    memorable_url: core.memorable_url,
    unique_referrals: core.unique_referrals,
    sandbox: core.sandbox,
    created_at: formatOffsetTime(a.createdMs, true),
    fraud_score: 0,
    fraud_score_human_readable: null,
    fraud_score_percent_ui: 0,
    fraud_reasons: {},
  };
}

/** The ambassador of balance/add and balance/deduct. */
export function balanceAmbassador(store: Store, a: Ambassador) {
  return {
    ...ambassadorCore(store, a, { numeric: true }),
    platform_id: a.id,
    count_shares: String(store.shares.filter((s) => s.ambassadorId === a.id).length),
  };
}

export function commissionItem(store: Store, c: Commission) {
  const affiliate = store.ambassadors.get(c.affiliateId);
  return {
    commission_uid: String(c.id),
    campaign_uid: c.campaignUid,
    affiliate_uid: affiliate?.uid ?? "",
    referring_uid: c.referringUid ?? "",
    remote_customer_email: c.customerEmail ?? "",
    remote_customer_id: c.customerUid,
    affiliate_email: affiliate?.email ?? "",
    affiliate_first_name: affiliate?.firstName ?? "",
    affiliate_last_name: affiliate?.lastName ?? "",
    revenue_amount: formatCents(c.revenueCents),
    commission_amount: formatCents(c.amountHundredths),
    created_at: formatCommissionTime(c.createdMs),
    transaction_id: c.transactionUid,
    is_approved: String(c.state),
    is_sandbox: flag(c.sandbox),
    is_trial: "0",
    is_welcome_bonus: flag(c.welcomeBonus),
    event_data1: c.eventData[0],
    event_data2: c.eventData[1],
    event_data3: c.eventData[2],
    fraud: { status: "passed", score: 0, reasons: [] as string[] },
  };
}
