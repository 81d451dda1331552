import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dataOf, errorsOf, startTestSandbox, type TestSandbox } from "./helpers";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.sandbox.close());
beforeEach(() => t.sandbox.reset());

const NOT_PENDING = "You can change state of pending commission only.";

async function balanceOf(email: string) {
  const a = dataOf((await t.call("ambassador/get", { email })).body).ambassador;
  return { money: a.balance_money as string, points: a.balance_points as string };
}

async function commission(uid: string) {
  const all = dataOf((await t.call("commission/all", {})).body).commissions as Record<string, string>[];
  return all.find((c) => c.commission_uid === uid)!;
}

describe("commission state machine", () => {
  it("pending -> approved credits the balance once; approved cannot change again", async () => {
    // GIVEN a pending 10% commission of 8.80
    await t.call("event/record", { email: "s1@example.com", campaign_uid: "1001", short_code: "ALICE10", revenue: "88", transaction_uid: "sm-1" });
    const [created] = (dataOf((await t.call("commission/all", { is_approved: "0", email: "alice@example.com" })).body).commissions as Record<string, string>[])
      .filter((c) => c.transaction_id === "sm-1");
    expect(created.commission_amount).toBe("8.80");
    expect((await balanceOf("alice@example.com")).money).toBe("12.00");

    // WHEN it is approved
    const approve = await t.call("commission/update", { commission_uid: created.commission_uid, is_approved: "1" });

    // THEN the balance grows by the amount, and a second change is refused
    expect(approve.status).toBe(200);
    expect(dataOf(approve.body).message).toEqual(expect.any(String));
    expect((await commission(created.commission_uid)).is_approved).toBe("1");
    expect((await balanceOf("alice@example.com")).money).toBe("20.80");
    const again = await t.call("commission/update", { commission_uid: created.commission_uid, is_approved: "2" });
    expect(again.status).toBe(400);
    expect(errorsOf(again.body)).toEqual([NOT_PENDING]);
    expect((await balanceOf("alice@example.com")).money).toBe("20.80");
  });

  it("pending -> denied adds nothing; denied cannot be approved", async () => {
    const deny = await t.call("commission/update", { commission_uid: "5002", is_approved: "2" });
    expect(deny.status).toBe(200);
    expect((await balanceOf("bob@example.com")).money).toBe("15.00");

    const approve = await t.call("commission/update", { commission_uid: "5002", is_approved: "1" });
    expect(errorsOf(approve.body)).toEqual([NOT_PENDING]);
    expect((await commission("5002")).is_approved).toBe("2");
  });

  it("approving a points commission credits points", async () => {
    await t.call("commission/update", { commission_uid: "5005", is_approved: "1" }, "POST");
    expect(await balanceOf("alice@example.com")).toEqual({ money: "12.00", points: "50" });
  });

  it("finds commissions by transaction_uid, narrowed by campaign_uid or all pending ones", async () => {
    await t.call("event/multi_record", { email: "s2@example.com", campaign_uid: "1001,1003", short_code: "BOB10", revenue: "30", transaction_uid: "tx-9" });

    const narrowed = await t.call("commission/update", { transaction_uid: "tx-9", campaign_uid: "1003", is_approved: "2" });
    expect(narrowed.status).toBe(200);
    const both = await t.call("commission/update", { transaction_uid: "tx-9", is_approved: "1" });
    expect(dataOf(both.body).message).toBe("The commission was updated."); // only 1001 was still pending
    const states = (dataOf((await t.call("commission/all", { email: "bob@example.com" })).body).commissions as Record<string, string>[])
      .filter((c) => c.transaction_id === "tx-9")
      .map((c) => [c.campaign_uid, c.is_approved]);
    expect(states).toEqual([
      ["1001", "1"],
      ["1003", "2"],
    ]);
  });

  it("recomputes a percentage commission from a new revenue and keeps event data", async () => {
    const update = await t.call("commission/update", { commission_uid: "5002", revenue: "45.55", event_data1: "partial refund" });
    expect(update.status).toBe(200);
    expect(await commission("5002")).toMatchObject({ revenue_amount: "45.55", commission_amount: "4.56", event_data1: "partial refund", is_approved: "0" });

    const flat = await t.call("commission/update", { commission_uid: "5005", revenue: "10" });
    expect(flat.status).toBe(200);
    expect((await commission("5005")).commission_amount).toBe("50.00");
  });
});

describe("commission/add", () => {
  it("adds a pending commission and answers its uid as an integer", async () => {
    const { status, body } = await t.call("commission/add", { uid: "amb-bob", email: "ignored@example.com", campaign_uid: "1001", amount: "7.5", transaction_uid: "manual-1" });
    expect(status).toBe(200);
    const uid = dataOf(body).commission_uid;
    expect(Number.isInteger(uid)).toBe(true);
    expect(await commission(String(uid))).toMatchObject({ affiliate_email: "bob@example.com", commission_amount: "7.50", is_approved: "0" });

    const duplicate = await t.call("commission/add", { uid: "amb-bob", campaign_uid: "1001", amount: "7.5", transaction_uid: "manual-1" });
    expect(errorsOf(duplicate.body)).toEqual(["A commission with this transaction_uid already exists for this campaign."]);
  });

  it("needs an existing ambassador unless auto_create=1", async () => {
    const missing = await t.call("commission/add", { email: "ghost@example.com", campaign_uid: "1001", amount: "1" });
    expect(missing.status).toBe(404);
    const created = await t.call("commission/add", { email: "ghost@example.com", campaign_uid: "1001", amount: "1", auto_create: "1", is_approved: "1" });
    expect(created.status).toBe(200);
    expect((await balanceOf("ghost@example.com")).money).toBe("1.00");
  });
});

describe("balances", () => {
  it("adds and deducts money and points", async () => {
    const add = dataOf((await t.call("balance/add", { email: "alice@example.com", type: "money", amount: "10.50" })).body);
    expect(add.balance).toEqual({ old: "12.00", new: 22.5, type: "money" });
    expect(add.ambassador).toMatchObject({ email: "alice@example.com", balance_money: 22.5, platform_id: expect.any(Number) });
    expect(add.company.company_name).toBe("Demo Outfitters");

    const deduct = dataOf((await t.call("balance/deduct", { email: "alice@example.com", type: "points", amount: "0" })).body);
    expect(deduct).toBeUndefined(); // amount 0 is refused

    const points = dataOf((await t.call("balance/add", { email: "alice@example.com", type: "points", amount: "30" })).body);
    expect(points.balance).toEqual({ old: "0", new: 30, type: "points" });
    const tooMuch = await t.call("balance/deduct", { email: "alice@example.com", type: "money", amount: "100" });
    expect(tooMuch.status).toBe(400);
    expect(await balanceOf("alice@example.com")).toEqual({ money: "22.50", points: "30" });
  });
});

describe("ambassadors", () => {
  it("creates with flags: groups, deactivation, status", async () => {
    const vip = dataOf((await t.call("ambassador/get", { email: "g1@example.com", auto_create: "1", add_to_group_id: "2" })).body).ambassador;
    expect(vip.groups).toBe("2");
    const none = dataOf((await t.call("ambassador/get", { email: "g2@example.com", auto_create: "1", add_to_group_id: "-1" })).body).ambassador;
    expect(none.groups).toBe("");
    const prospect = dataOf((await t.call("ambassador/get", { email: "g3@example.com", auto_create: "1", deactivate_new_ambassador: "1" })).body).ambassador;
    expect(prospect.status).toBe("prospect");
    const unsubscribed = dataOf((await t.call("ambassador/get", { email: "g4@example.com", auto_create: "1", status: "unsubscribed" })).body).ambassador;
    expect(unsubscribed.status).toBe("unsubscribed");
    expect(unsubscribed.campaign_links).toHaveLength(4);
    expect(unsubscribed.campaign_links[0].url).toMatch(/\/s\/[A-Z0-9]+$/);

    const regrouped = dataOf((await t.call("ambassador/get", { email: "alice@example.com", set_groups: "1,2" })).body).ambassador;
    expect(regrouped.groups).toBe("1,2");
    const unknownGroup = await t.call("ambassador/get", { email: "g5@example.com", auto_create: "1", add_to_group_id: "77" });
    expect(unknownGroup.status).toBe(400);
  });

  it("updates by uid: deactivation bans, reactivation enrols, email changes", async () => {
    await t.call("ambassador/update", { uid: "amb-bob", is_deactivated: "1" });
    expect(dataOf((await t.call("ambassador/get", { email: "bob@example.com" })).body).ambassador.status).toBe("banned");
    const refused = await t.call("event/record", { email: "n1@example.com", campaign_uid: "1001", short_code: "BOB10" });
    expect(refused.status).toBe(400);

    await t.call("ambassador/update", { uid: "amb-bob", is_deactivated: "0", new_email: "robert@example.com", first_name: "Robert" });
    const bob = dataOf((await t.call("ambassador/get", { email: "robert@example.com" })).body).ambassador;
    expect(bob).toMatchObject({ status: "enrolled", first_name: "Robert", uid: "amb-bob" });
    expect((await t.call("ambassador/update", { email: "nobody@example.com" })).status).toBe(404);
  });

  it("reports stats per campaign and per channel for a date range", async () => {
    const data = dataOf((await t.call("ambassador/stats", { email: "alice@example.com", start_date: "2024-01-01", end_date: "2024-12-31" })).body);
    const summary = data.ambassador.stats_summary;
    expect(summary).toMatchObject({
      start_date: "2024-01-01",
      end_date: "2024-12-31",
      count_clicks: "3",
      count_shares: "2",
      unique_referrals: "3",
      commissions: { pending_count: "1", approved_count: "1", denied_count: "1", approved_sum: "12.00", denied_sum: "4.56" },
      revenue: { approved_sum: "120.00", denied_sum: "45.55", pending_sum: "60.00" },
    });
    expect(summary.channels.email.count_clicks).toBe("N/A");
    expect(summary.channels.facebook.count_clicks).toBe("2");
    const family = data.ambassador.campaign_links.find((l: { campaign_uid: string }) => l.campaign_uid === "1001");
    expect(family.unique_referrals).toBe("2");
    expect(family.stats.commissions.approved_count).toBe("1");
    expect(data.company.company_name).toBe("Demo Outfitters");

    const empty = dataOf((await t.call("ambassador/stats", { email: "alice@example.com", start_date: "2025-01-01", end_date: "2025-01-31" })).body);
    expect(empty.ambassador.stats_summary.commissions.pending_count).toBe("0");
  });
});

describe("short codes and company", () => {
  it("looks up short codes with validity and the sandbox filter", async () => {
    const alice = dataOf((await t.call("shortcode/get", { short_code: "alice10" })).body).shortcode;
    expect(alice).toMatchObject({ valid: 1, sandbox: "0", email: "alice@example.com", campaign_uid: "1001", discount_value: "10", status: "enrolled" });
    const carol = dataOf((await t.call("shortcode/get", { short_code: "CAROL10" })).body).shortcode;
    expect(carol.valid).toBe(0);
    expect((await t.call("shortcode/get", { short_code: "ALICETEST", sandbox: "0" })).status).toBe(404);
    expect((await t.call("shortcode/get", { short_code: "ALICETEST", sandbox: "1" })).status).toBe(200);
  });

  it("gives one-time tokens, company stats and email stats", async () => {
    const one = dataOf((await t.call("company/token")).body).token;
    const two = dataOf((await t.call("company/token")).body).token;
    expect(one).toMatch(/^[0-9a-f]{40}$/);
    expect(one).not.toBe(two);

    const stats = dataOf((await t.call("company/stats")).body).stats;
    expect(stats.production.ambassadors).toEqual({ activated_count: "6", deactivated_count: "1" });
    expect(stats.production.commissions).toMatchObject({ pending_count: "2", pending_sum: "8.00", approved_sum: "27.00" });
    expect(stats.sandbox.campaigns.active_count).toBe("1");

    await t.call("ambassador/get", { email: "w@example.com", auto_create: "1", email_new_ambassador: "1" });
    const emails = dataOf((await t.call("company/emails")).body);
    expect(emails.total).toHaveLength(1);
    expect(emails.email_types.newAmbassador[0].delivered).toBe(1);
    expect(Object.keys(emails.email_types)).toEqual([
      "newAmbassador",
      "pendingCommission",
      "approvedCommission",
      "deniedCommission",
      "fulfilledPayout",
      "deniedPayout",
    ]);
    const week = dataOf((await t.call("company/emails", { start_date: "2024-03-01", end_date: "2024-03-07" })).body);
    expect(week.total.map((e: { date: string }) => e.date)).toHaveLength(7);
    const lonely = await t.call("company/emails", { start_date: "2024-03-01" });
    expect(errorsOf(lonely.body)).toEqual(["The following GET/POST parameter is required: end_date."]);
  });
});
