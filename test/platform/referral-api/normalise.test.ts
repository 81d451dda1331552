import { describe, expect, it } from "vitest";
import { normaliseAmbassador } from "../../../app/platform/referral-api/normalise/ambassador";
import { normaliseAmbassadorResult } from "../../../app/platform/referral-api/normalise/ambassador-result";
import { normaliseCampaign } from "../../../app/platform/referral-api/normalise/campaign";
import { normaliseCommission } from "../../../app/platform/referral-api/normalise/commission";
import { normaliseCompanyStats } from "../../../app/platform/referral-api/normalise/company-stats";
import { normaliseEmailStatsEntry } from "../../../app/platform/referral-api/normalise/email-stats";
import { normaliseGroup } from "../../../app/platform/referral-api/normalise/group";
import { normalisePage } from "../../../app/platform/referral-api/normalise/page";
import { normaliseShortCode } from "../../../app/platform/referral-api/normalise/short-code";
import { normaliseBalanceChange } from "../../../app/platform/referral-api/normalise/balance-change";
import { normaliseMultiEventResult } from "../../../app/platform/referral-api/operations/record-multi-event";
import { MalformedResponseError } from "../../../app/platform/referral-api/field-reader";

const campaignLink = {
  campaign_uid: "1001",
  campaign_name: "Friends & Family",
  campaign_description: "Give 10%, get 10%",
  sandbox: "0",
  private: "0",
  social_enabled: "1",
  url: "https://example.test/r/ALICE10",
  total_money_earned: "12.5",
  total_points_earned: "0",
};

const ambassadorFromGet = {
  first_name: "Alice",
  last_name: null,
  created_at: "2024-03-01T10:20:30.123456+0000",
  email: "alice@example.com",
  uid: "amb-alice",
  balance_money: "25.10",
  balance_points: 40,
  money_paid: "0.00",
  points_paid: "0",
  memorable_url: "https://example.test/alice",
  unique_referrals: "3",
  sandbox: "0",
  custom1: null,
  custom2: "x",
  custom3: null,
  custom4: "2024-01-31",
  groups: "1, 2",
  street: null,
  city: "Lyon",
  state: null,
  zip: null,
  country: "FR",
  phone: null,
  company: "",
  payservice1_email: "alice@pay.example",
  status: "enrolled",
  campaign_links: [campaignLink],
};

describe("ambassador", () => {
  it("normalises the ambassador/get sample", () => {
    const a = normaliseAmbassador(ambassadorFromGet);
    expect(a).toMatchObject({
      email: "alice@example.com",
      firstName: "Alice",
      lastName: null,
      uid: "amb-alice",
      balanceMoney: "25.10",
      balancePoints: "40.00",
      moneyPaid: "0.00",
      pointsPaid: "0.00",
      uniqueReferrals: 3,
      sandbox: false,
      custom2: "x",
      custom4: "2024-01-31",
      groups: ["1", "2"],
      city: "Lyon",
      company: "",
      payoutEmail: "alice@pay.example",
      status: "enrolled",
      fraudScore: null,
      statsSummary: null,
      extra: {},
    });
    expect(a.createdAt?.toISOString()).toBe("2024-03-01T10:20:30.123Z");
    expect(a.campaignLinks).toEqual([
      {
        campaignUid: "1001",
        campaignName: "Friends & Family",
        campaignDescription: "Give 10%, get 10%",
        sandbox: false,
        private: false,
        socialEnabled: true,
        url: "https://example.test/r/ALICE10",
        totalMoneyEarned: "12.50",
        totalPointsEarned: "0.00",
        uniqueReferrals: null,
        stats: null,
        extra: {},
      },
    ]);
  });

  it("accepts the number variants and boolean sandbox of an auto-created ambassador", () => {
    const a = normaliseAmbassador({
      email: "new@example.com",
      balance_money: 0,
      balance_points: "0",
      unique_referrals: 0,
      sandbox: true,
    });
    expect(a).toMatchObject({ balanceMoney: "0.00", balancePoints: "0.00", uniqueReferrals: 0, sandbox: true });
    expect(a.groups).toEqual([]);
    expect(a.campaignLinks).toEqual([]);
    expect(a.createdAt).toBeNull();
  });

  it("normalises the list fields (fraud) and balance fields", () => {
    const a = normaliseAmbassador({
      email: "bob@example.com",
      fraud_score: 12.5,
      fraud_score_human_readable: null,
      fraud_score_percent_ui: 13,
      fraud_reasons: { velocity: 1 },
      platform_id: 7,
      count_shares: "4",
    });
    expect(a).toMatchObject({
      fraudScore: 12.5,
      fraudScoreHumanReadable: null,
      fraudScorePercentUi: 13,
      fraudReasons: { velocity: 1 },
      platformId: 7,
      countShares: 4,
    });
  });

  it("keeps unknown fields under extra", () => {
    const a = normaliseAmbassador({ email: "a@example.com", custom7: "seven", loyalty_tier: { name: "gold" } });
    expect(a.extra).toEqual({ custom7: "seven", loyalty_tier: { name: "gold" } });
  });

  it("refuses an ambassador without email", () => {
    expect(() => normaliseAmbassador({ uid: "x" })).toThrow(MalformedResponseError);
    expect(() => normaliseAmbassador("nope")).toThrow(MalformedResponseError);
  });
});

describe("event/record answer", () => {
  it("normalises referring ambassador and ambassador; an empty referrer is null", () => {
    const result = normaliseAmbassadorResult({
      referring_ambassador: {
        first_name: "Alice",
        email: "alice@example.com",
        uid: "amb-alice",
        commission: 4.5,
        balance_money: "29.60",
        balance_points: "0",
        unique_referrals: 4,
        sandbox: "0",
      },
      ambassador: { email: "buyer@example.com", sandbox: "0", groups: "", campaign_links: [campaignLink] },
    });
    expect(result.referringAmbassador).toMatchObject({ email: "alice@example.com", commission: "4.50", balanceMoney: "29.60", uniqueReferrals: 4 });
    expect(result.ambassador.email).toBe("buyer@example.com");
    expect(result.company).toBeNull();

    expect(normaliseAmbassadorResult({ referring_ambassador: {}, ambassador: { email: "b@example.com" } }).referringAmbassador).toBeNull();
    expect(normaliseAmbassadorResult({ referring_ambassador: [], ambassador: { email: "b@example.com" } }).referringAmbassador).toBeNull();
    expect(normaliseAmbassadorResult({ ambassador: { email: "b@example.com" } }).referringAmbassador).toBeNull();
  });
});

describe("ambassador/stats answer", () => {
  const stats = {
    commissions: { pending_count: "1", approved_count: 2, denied_count: "0", pending_sum: "1.10", approved_sum: 2.2, denied_sum: "0" },
    revenue: { pending_sum: "11", approved_sum: "22.00", denied_sum: "0.00" },
    count_clicks: "10",
    count_shares: "3",
    unique_referrals: "2",
    channels: {
      email: { count_shares: "1", count_clicks: "N/A", unique_referrals: "0", commissions: { pending_count: "0" }, revenue: {} },
      facebook: { count_shares: 2, count_clicks: "10", unique_referrals: "2" },
    },
  };

  it("normalises the summary, per-campaign stats and channels", () => {
    const result = normaliseAmbassadorResult({
      referring_ambassador: {},
      ambassador: {
        email: "alice@example.com",
        stats_summary: { ...stats, start_date: "2024-01-01", end_date: "2024-01-31" },
        campaign_links: [{ ...campaignLink, unique_referrals: "2", stats }],
      },
      company: { company_name: "Demo Outfitters", point_name: "stars", outgoing_email: null },
    });
    const summary = result.ambassador.statsSummary!;
    expect(summary.startDate?.toISOString()).toBe("2024-01-01T00:00:00.000Z");
    expect(summary.endDate?.toISOString()).toBe("2024-01-31T00:00:00.000Z");
    expect(summary.commissions).toEqual({
      pendingCount: 1,
      approvedCount: 2,
      deniedCount: 0,
      pendingSum: "1.10",
      approvedSum: "2.20",
      deniedSum: "0.00",
      extra: {},
    });
    expect(summary.revenue).toMatchObject({ pendingSum: "11.00", approvedSum: "22.00", deniedSum: "0.00" });
    expect(summary.countClicks).toBe(10);
    expect(summary.channels.email.countClicks).toBeNull();
    expect(summary.channels.email.commissions?.pendingSum).toBe("0.00");
    expect(summary.channels.facebook).toMatchObject({ countShares: 2, countClicks: 10, commissions: null, revenue: null });
    expect(result.ambassador.campaignLinks[0].uniqueReferrals).toBe(2);
    expect(result.ambassador.campaignLinks[0].stats?.countShares).toBe(3);
    expect(result.company).toMatchObject({ companyName: "Demo Outfitters", pointName: "stars", outgoingEmail: null, avatarUrl: null });
  });
});

describe("campaign", () => {
  it("normalises company/get campaigns with rewards, flags and Unix dates", () => {
    const c = normaliseCampaign({
      campaign_uid: "1001",
      campaign_name: "Friends & Family",
      campaign_description: "",
      initial_reward: { type_text: "Percentage monetary", type_code: "P", amount: "10" },
      recurring_reward: { type_text: "Percentage monetary", type_code: "P", amount: "5.00" },
      landing_page: "https://shop.example/",
      required_query_params: "?ref={short_code}&c={campaign_uid}",
      sandbox: "0",
      private: "1",
      social_enabled: "1",
      auto_approve_commissions: "0",
      discount_value: "10",
      start_date: "1704067200",
      end_date: null,
      user_message: "u",
      company_message: "c",
      subject: "s",
      social_message: "m",
      twitter_message: "t",
    });
    expect(c).toMatchObject({
      campaignUid: "1001",
      initialReward: { typeCode: "P", typeText: "Percentage monetary", amount: "10.00" },
      recurringReward: { typeCode: "P", amount: "5.00" },
      requiredQueryParams: "?ref={short_code}&c={campaign_uid}",
      sandbox: false,
      private: true,
      socialEnabled: true,
      autoApproveCommissions: false,
      discountValue: "10",
      endDate: null,
      linkedinMessage: null,
      twitterMessage: "t",
      extra: {},
    });
    expect(c.startDate?.toISOString()).toBe("2024-01-01T00:00:00.000Z");
  });

  it("accepts numbers for Unix dates and a missing recurring reward", () => {
    const c = normaliseCampaign({ campaign_uid: 1003, start_date: 1704067200, end_date: "1735689600" });
    expect(c.campaignUid).toBe("1003");
    expect(c.startDate?.toISOString()).toBe("2024-01-01T00:00:00.000Z");
    expect(c.endDate?.toISOString()).toBe("2025-01-01T00:00:00.000Z");
    expect(c.recurringReward).toBeNull();
  });
});

describe("commission", () => {
  const sample = {
    commission_uid: "5001",
    campaign_uid: "1001",
    affiliate_uid: "amb-alice",
    referring_uid: "amb-alice",
    remote_customer_email: "buyer@example.com",
    remote_customer_id: null,
    affiliate_email: "alice@example.com",
    affiliate_first_name: "Alice",
    affiliate_last_name: "A",
    revenue_amount: "100.00",
    commission_amount: "10.00",
    created_at: "2024-03-01 10:20:30.123",
    transaction_id: null,
    is_approved: "0",
    is_sandbox: "0",
    is_trial: "0",
    is_welcome_bonus: "1",
    event_data1: null,
    event_data2: "e2",
    event_data3: null,
    fraud: { status: "passed", score: 3, reasons: [] },
  };

  it("normalises the commission/all sample", () => {
    const c = normaliseCommission(sample);
    expect(c).toMatchObject({
      commissionUid: "5001",
      remoteCustomerId: null,
      revenueAmount: "100.00",
      commissionAmount: "10.00",
      transactionId: null,
      status: "pending",
      isSandbox: false,
      isTrial: false,
      isWelcomeBonus: true,
      eventData2: "e2",
      fraud: { status: "passed", score: 3, reasons: [], extra: {} },
      extra: {},
    });
    expect(c.createdAt?.toISOString()).toBe("2024-03-01T10:20:30.123Z");
  });

  it.each([
    ["0", "pending"],
    ["1", "approved"],
    ["2", "denied"],
    [0, "pending"],
    [1, "approved"],
    [2, "denied"],
    ["approved", "approved"],
    ["9", null],
    [null, null],
  ])("reads is_approved %j as %j", (value, status) => {
    expect(normaliseCommission({ ...sample, is_approved: value }).status).toBe(status);
  });

  it("accepts number amounts without drift, upper-case fraud status and no fraud block", () => {
    const c = normaliseCommission({ ...sample, commission_uid: 5002, revenue_amount: 19.99, commission_amount: 1.999, fraud: null });
    expect(c.commissionUid).toBe("5002");
    expect(c.revenueAmount).toBe("19.99");
    expect(c.commissionAmount).toBe("1.999");
    expect(c.fraud).toBeNull();
    expect(normaliseCommission({ ...sample, fraud: { status: "Flagged", score: "87", reasons: ["velocity"] } }).fraud).toMatchObject({
      status: "flagged",
      score: 87,
      reasons: ["velocity"],
    });
  });
});

describe("groups, short codes, statistics", () => {
  it("normalises groups with string or number IDs and counts", () => {
    expect(normaliseGroup({ group_id: "1", name: "Customers", description: "", default: "1", total_ambassadors: 3 })).toEqual({
      groupId: "1",
      name: "Customers",
      description: "",
      isDefault: true,
      totalAmbassadors: 3,
      extra: {},
    });
    expect(normaliseGroup({ group_id: 2, name: "VIP", default: 0, total_ambassadors: "1" })).toMatchObject({
      groupId: "2",
      isDefault: false,
      totalAmbassadors: 1,
    });
  });

  it("normalises a short code record", () => {
    expect(
      normaliseShortCode({
        valid: 1,
        sandbox: "0",
        discount_value: "10",
        first_name: "Alice",
        last_name: "A",
        email: "alice@example.com",
        uid: "amb-alice",
        campaign_uid: "1001",
        campaign_name: "Friends & Family",
        campaign_description: "",
        custom1: null,
        status: "enrolled",
        shiny_new_field: true,
      }),
    ).toMatchObject({ valid: true, sandbox: false, campaignUid: "1001", status: "enrolled", custom1: null, extra: { shiny_new_field: true } });
  });

  it("normalises company statistics (all strings) with defaults", () => {
    const s = normaliseCompanyStats({
      production: {
        ambassadors: { activated_count: "2", deactivated_count: "1" },
        campaigns: { active_count: "3" },
        commissions: { pending_count: "1", approved_count: "0", denied_count: "0", pending_sum: "1.5", approved_sum: "0", denied_sum: "0" },
        revenue: { pending_sum: "15", approved_sum: "0", denied_sum: "0" },
        payouts: { pending_count: "0", paid_count: "1", denied_count: "0", pending_sum: "0", paid_sum: "5.5", denied_sum: "0" },
        clicks: { count: "42" },
      },
      sandbox: { campaigns: { active_count: "1" }, clicks: { count: "0" } },
    });
    expect(s.production).toMatchObject({
      activatedAmbassadors: 2,
      deactivatedAmbassadors: 1,
      activeCampaigns: 3,
      clicks: 42,
      commissions: { pendingCount: 1, pendingSum: "1.50" },
      revenue: { pendingSum: "15.00" },
      payouts: { paidCount: 1, paidSum: "5.50" },
    });
    expect(s.sandbox).toMatchObject({ activeCampaigns: 1, clicks: 0 });
    expect(normaliseCompanyStats({}).production.commissions.approvedSum).toBe("0.00");
  });

  it("normalises an email statistics entry", () => {
    const e = normaliseEmailStatsEntry({ date: "2024-03-01", delivered: 5, opens: "2", unique_opens: 1 });
    expect(e.date?.toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(e).toMatchObject({ delivered: 5, opens: 2, uniqueOpens: 1, bounces: 0 });
  });

  it("normalises balance/add answers (old as string, new as number)", () => {
    const b = normaliseBalanceChange({
      ambassador: { email: "alice@example.com", balance_money: "30.10", platform_id: 1, count_shares: "0" },
      company: { company_name: "Demo Outfitters" },
      balance: { old: "25.10", new: 30.1, type: "money" },
    });
    expect(b.balance).toEqual({ old: "25.10", new: "30.10", type: "money", extra: {} });
    expect(b.ambassador).toMatchObject({ balanceMoney: "30.10", platformId: 1, countShares: 0 });
  });
});

describe("pages", () => {
  it("a full page may have more; a short or empty one has not", () => {
    const full = { ambassadors: Array.from({ length: 100 }, (_, i) => ({ email: `a${i}@example.com` })) };
    expect(normalisePage(full, "ambassadors", 1, (x) => x).hasMore).toBe(true);
    expect(normalisePage({ ambassadors: [{ email: "a" }] }, "ambassadors", 2, (x) => x).hasMore).toBe(false);
    expect(normalisePage({ ambassadors: [] }, "ambassadors", 3, (x) => x).hasMore).toBe(false);
    expect(normalisePage({}, "ambassadors", 3, (x) => x).items).toEqual([]);
  });

  it("paging metadata, when present, decides and is kept", () => {
    const short = { commissions: [{ id: 1 }], next: "page-2" };
    expect(normalisePage(short, "commissions", 1, (x) => x)).toMatchObject({ hasMore: true, extra: { next: "page-2" } });
    expect(normalisePage({ commissions: [{ id: 1 }], total_pages: "3" }, "commissions", 3, (x) => x).hasMore).toBe(false);
    expect(normalisePage({ commissions: [{ id: 1 }], has_more: false }, "commissions", 1, (x) => x).hasMore).toBe(false);
  });
});

describe("event/multi_record answer", () => {
  it("keeps each campaign's result, failed ones with their strings", () => {
    const result = normaliseMultiEventResult({
      item: {
        campaign_1001: {
          code: "200",
          type: "OK",
          message: "OK: The request was successful.",
          data: { referring_ambassador: { email: "alice@example.com" }, ambassador: { email: "buyer@example.com" }, company: { company_name: "Demo" } },
        },
        campaign_9999: {
          code: "400",
          type: "BAD REQUEST",
          message: "BAD REQUEST: The parameters provided were invalid.",
          errors: ["The campaign_uid 9999 has expired, does not exist or does not belong to the company."],
        },
        campaign_1002: {
          code: "400",
          type: "BAD REQUEST",
          message: "BAD REQUEST: The parameters provided were invalid.",
          errors: { error: ["A commission with this transaction_uid already exists for this campaign."] },
        },
      },
    });
    expect(result.items).toHaveLength(3);
    expect(result.items[0]).toMatchObject({ campaignUid: "1001", ok: true, code: "200" });
    expect(result.items[0].ok && result.items[0].data.company?.companyName).toBe("Demo");
    expect(result.items[1]).toEqual({
      campaignUid: "9999",
      ok: false,
      code: "400",
      message: "BAD REQUEST: The parameters provided were invalid.",
      errors: ["The campaign_uid 9999 has expired, does not exist or does not belong to the company."],
      duplicate: false,
    });
    expect(result.items[2]).toMatchObject({ campaignUid: "1002", ok: false, duplicate: true });
  });
});
