import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dataOf, errorsOf, startTestSandbox, type TestSandbox } from "./helpers";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.sandbox.close());
beforeEach(() => t.sandbox.reset());

const record = (params: Record<string, string>) => t.call("event/record", params);

async function commissionsOf(email: string) {
  return dataOf((await t.call("commission/all", { email })).body).commissions as Record<string, string>[];
}

describe("reward arithmetic", () => {
  it("P: a percentage of the revenue, rounded half-up to cents, pending per campaign setting", async () => {
    const { status, body } = await record({
      email: "Zoe@Example.com",
      campaign_uid: "1001",
      short_code: "ALICE10",
      revenue: "123.45",
      transaction_uid: "order-1",
    });

    expect(status).toBe(200);
    const data = dataOf(body);
    expect(data.referring_ambassador).toMatchObject({ email: "alice@example.com", commission: 12.35, balance_money: 12 });
    expect(data.ambassador).toMatchObject({ email: "zoe@example.com", groups: "1" });
    const [created] = (await commissionsOf("alice@example.com")).filter((c) => c.transaction_id === "order-1");
    expect(created).toMatchObject({
      campaign_uid: "1001",
      revenue_amount: "123.45",
      commission_amount: "12.35", // 12.345 -> 12.35
      is_approved: "0",
      remote_customer_email: "zoe@example.com",
    });
  });

  it("P: half a cent rounds up, below half rounds down", async () => {
    const half = dataOf((await record({ email: "c1@example.com", campaign_uid: "1001", short_code: "ALICE10", revenue: "0.05" })).body);
    const below = dataOf((await record({ email: "c2@example.com", campaign_uid: "1001", short_code: "ALICE10", revenue: "0.04" })).body);
    const sandboxTwenty = dataOf((await record({ email: "c3@example.com", campaign_uid: "1004", short_code: "BOBTEST", revenue: "10.03" })).body);

    expect(half.referring_ambassador.commission).toBe(0.01);
    expect(below.referring_ambassador.commission).toBe(0);
    expect(sandboxTwenty.referring_ambassador.commission).toBe(2.01); // 2.006
  });

  it("F: a flat amount, approved by the campaign's auto-approve and added to the balance", async () => {
    const data = dataOf((await record({ email: "v1@example.com", campaign_uid: "1002", short_code: "BOBVIP", revenue: "999.99" })).body);

    expect(data.referring_ambassador.commission).toBe(15);
    expect(data.referring_ambassador.balance_money).toBe(30); // 15.00 seeded + 15.00
    const bob = dataOf((await t.call("ambassador/get", { email: "bob@example.com" })).body).ambassador;
    expect(bob.balance_money).toBe("30.00");
  });

  it("M then N: flat points first, a percentage of the revenue in whole points later", async () => {
    const first = dataOf((await record({ email: "p1@example.com", campaign_uid: "1003", short_code: "ALICEPTS", revenue: "10", is_approved: "1" })).body);
    expect(first.referring_ambassador).toMatchObject({ commission: 50, balance_points: 50 });

    const later = dataOf((await record({ email: "p1@example.com", campaign_uid: "1003", revenue: "123.45", is_approved: "1" })).body);
    expect(later.referring_ambassador).toMatchObject({ commission: 2, balance_points: 52 }); // 2.469 points -> 2

    const points = (await commissionsOf("alice@example.com")).filter((c) => c.campaign_uid === "1003");
    expect(points.map((c) => c.commission_amount)).toEqual(["50.00", "50.00", "2.00"]);
  });

  it("D: no commission, but the event is accepted", async () => {
    await record({ email: "v2@example.com", campaign_uid: "1002", short_code: "ALICEVIP", revenue: "50", transaction_uid: "o-1" });
    const { status, body } = await record({ email: "v2@example.com", campaign_uid: "1002", revenue: "80", transaction_uid: "o-2" });

    expect(status).toBe(200);
    expect(dataOf(body).referring_ambassador).toMatchObject({ email: "alice@example.com", commission: null });
    const vip = (await commissionsOf("alice@example.com")).filter((c) => c.campaign_uid === "1002");
    expect(vip).toHaveLength(1);
  });
});

describe("referrers", () => {
  it("pays a recurring commission to the original referrer for a later event without code", async () => {
    await record({ email: "r1@example.com", campaign_uid: "1001", short_code: "BOB10", revenue: "100" });
    const later = dataOf((await record({ email: "r1@example.com", campaign_uid: "1001", revenue: "100", short_code: "ALICE10" })).body);

    expect(later.referring_ambassador.email).toBe("bob@example.com"); // first referrer keeps the customer
    expect(later.referring_ambassador.commission).toBe(5); // recurring 5%
    const customer = dataOf((await t.call("ambassador/get", { email: "r1@example.com" })).body);
    expect(customer.referring_ambassador.email).toBe("bob@example.com");
  });

  it("finds the referrer from a coupon code (case-insensitive)", async () => {
    const data = dataOf((await record({ email: "k1@example.com", campaign_uid: "1001", coupon_code: "alice-15", revenue: "20" })).body);
    expect(data.referring_ambassador).toMatchObject({ email: "alice@example.com", commission: 2 });
  });

  it("maps product_id to its campaign", async () => {
    await record({ email: "k2@example.com", product_id: "503", short_code: "BOBPTS", revenue: "20" });
    const [commission] = (await commissionsOf("bob@example.com")).filter((c) => c.campaign_uid === "1003");
    expect(commission.commission_amount).toBe("50.00");
  });

  it("is_approved overrides the campaign's auto-approve both ways", async () => {
    const approved = dataOf((await record({ email: "a1@example.com", campaign_uid: "1001", short_code: "ALICE10", revenue: "50", is_approved: "1" })).body);
    expect(approved.referring_ambassador.balance_money).toBe(17); // 12 + 5

    const pending = dataOf((await record({ email: "a2@example.com", campaign_uid: "1002", short_code: "BOBVIP", revenue: "50", is_approved: "0" })).body);
    expect(pending.referring_ambassador.balance_money).toBe(15); // unchanged
  });

  const rejections: [string, Record<string, string>, string][] = [
    ["an unknown short code", { short_code: "NOPE" }, "The short_code NOPE does not exist."],
    ["an unknown coupon code", { coupon_code: "SUMMER" }, "The coupon_code SUMMER does not exist."],
    ["no code for an unreferred customer", {}, "The following POST parameter is required: short_code or coupon_code."],
    ["a deactivated referrer", { short_code: "CAROL10" }, "The referring ambassador carol@example.com is deactivated and cannot earn commissions."],
    ["an ended campaign", { campaign_uid: "1005", short_code: "ALICESPRING" }, "The campaign_uid 1005 has expired, does not exist or does not belong to the company."],
  ];
  it.each(rejections)("rejects %s", async (_name, extra, message) => {
    const { status, body } = await record({ email: "x@example.com", campaign_uid: "1001", revenue: "10", ...extra });
    expect(status).toBe(400);
    expect(errorsOf(body)).toEqual([message]);
    const missing = await t.call("ambassador/get", { email: "x@example.com" });
    expect(missing.status).toBe(404); // nothing was created
  });

  it("rejects self-referral", async () => {
    const { status, body } = await record({ email: "alice@example.com", campaign_uid: "1001", short_code: "ALICE10", revenue: "10" });
    expect(status).toBe(400);
    expect(errorsOf(body)[0]).toMatch(/cannot refer themselves/);
  });
});

describe("duplicates", () => {
  it("creates one commission per transaction_uid and campaign; the repeat gets the duplicate error", async () => {
    const params = { email: "d1@example.com", campaign_uid: "1001", short_code: "ALICE10", revenue: "40", transaction_uid: "order-77" };
    const first = await record(params);
    const second = await record(params);

    expect(first.status).toBe(200);
    expect(second.status).toBe(400);
    expect(errorsOf(second.body)).toEqual(["A commission with this transaction_uid already exists for this campaign."]);
    const mine = (await commissionsOf("alice@example.com")).filter((c) => c.transaction_id === "order-77");
    expect(mine).toHaveLength(1);

    const otherCampaign = await record({ ...params, campaign_uid: "1003", short_code: "ALICEPTS" });
    expect(otherCampaign.status).toBe(200);
  });

  it("multi_record: answers per campaign, outer 200, duplicates per campaign on repeat", async () => {
    const params = { email: "m1@example.com", campaign_uid: "1001,1003,4242", short_code: "BOB10", revenue: "60", transaction_uid: "multi-1" };
    const { status, body } = await t.call("event/multi_record", params);

    expect(status).toBe(200);
    expect(body.response.code).toBe("200");
    const item = dataOf(body).item;
    expect(Object.keys(item).sort()).toEqual(["campaign_1001", "campaign_1003", "campaign_4242"]);
    expect(item.campaign_1001).toMatchObject({ code: "200", type: "OK", data: { referring_ambassador: { email: "bob@example.com", commission: 6 } } });
    expect(item.campaign_1001.data.company.company_name).toBe("Demo Outfitters");
    expect(item.campaign_1003.data.referring_ambassador.commission).toBe(50);
    expect(item.campaign_4242).toEqual({
      code: "400",
      type: "BAD REQUEST",
      message: "BAD REQUEST: The parameters provided were invalid.",
      errors: ["The campaign_uid 4242 has expired, does not exist or does not belong to the company."],
    });

    const repeat = dataOf((await t.call("event/multi_record", params)).body).item;
    expect(repeat.campaign_1001.errors).toEqual(["A commission with this transaction_uid already exists for this campaign."]);
    expect(repeat.campaign_1003.code).toBe("400");
    expect((await commissionsOf("bob@example.com")).filter((c) => c.transaction_id === "multi-1")).toHaveLength(2);
  });

  it("records every event call in the ledger with its params and result", async () => {
    await record({ email: "l1@example.com", campaign_uid: "1001", short_code: "ALICE10", revenue: "10" });
    await record({ email: "l1@example.com", campaign_uid: "9999", short_code: "ALICE10" });
    const ledger = (await t.control("/ledger")).body;

    expect(ledger.events).toHaveLength(2);
    expect(ledger.events[0]).toMatchObject({ operation: "event/record", params: { email: "l1@example.com" }, result: { status: 200 } });
    expect(ledger.events[1].result.status).toBe(400);
    expect(ledger.requests.map((r: { operation: string }) => r.operation)).toContain("event/record");
  });
});
