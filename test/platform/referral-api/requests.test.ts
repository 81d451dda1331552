import { describe, expect, it } from "vitest";
import { createReferralClient } from "../../../app/platform/referral-api";
import { fakeFetch, ok } from "./support/fake-fetch";

const BASE = "https://referrals.example.test/";

function clientWith(...answers: Response[]) {
  const fake = fakeFetch(...answers);
  const client = createReferralClient({ baseUrl: BASE, username: "shop user", token: "s3cr3t/tok", fetch: fake.fetch });
  return { client, calls: fake.calls };
}

const ambassadorData = ok({ referring_ambassador: {}, ambassador: { email: "buyer@example.com" } });

describe("request shapes", () => {
  it("POSTs event/record as a form to the exact path, with flags as 1/0", async () => {
    const { client, calls } = clientWith(ambassadorData);
    await client.recordEvent({
      email: "buyer@example.com",
      campaignUid: 1001,
      shortCode: "ALICE10",
      revenue: 19.99,
      transactionUid: "order-1",
      isApproved: false,
      autoCreate: true,
      addToGroupId: ["1", "2"],
      eventData1: "e1",
      custom4: new Date("2024-02-03T00:00:00Z"),
    });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call.method).toBe("POST");
    expect(call.url).toBe("https://referrals.example.test/api/v2/shop%20user/s3cr3t%2Ftok/json/event/record/");
    expect(call.headers["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
    expect(Object.fromEntries(new URLSearchParams(call.body as string))).toEqual({
      email: "buyer@example.com",
      campaign_uid: "1001",
      short_code: "ALICE10",
      revenue: "19.99",
      transaction_uid: "order-1",
      is_approved: "0",
      auto_create: "1",
      add_to_group_id: "1,2",
      event_data1: "e1",
      custom4: "2024-02-03",
    });
  });

  it("sends GET operations with a query string and no body", async () => {
    const { client, calls } = clientWith(ambassadorData);
    await client.getAmbassador({ email: "a+b@example.com", autoCreate: true, sandbox: false, payoutEmail: "p@example.com", setGroups: [1, 2] });
    const url = new URL(calls[0].url);
    expect(calls[0].method).toBe("GET");
    expect(calls[0].body).toBeNull();
    expect(url.pathname).toBe("/api/v2/shop%20user/s3cr3t%2Ftok/json/ambassador/get/");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      email: "a+b@example.com",
      auto_create: "1",
      sandbox: "0",
      paypal_email: "p@example.com",
      set_groups: "1,2",
    });
  });

  it.each([
    ["recordMultiEvent", { email: "x@example.com", campaignUid: [1001, 1002] }, "POST", "event/multi_record", ok({ item: {} }), { campaign_uid: "1001,1002", email: "x@example.com" }],
    ["getAmbassadorStats", { email: "x@example.com", startDate: new Date("2024-01-01T00:00:00Z") }, "GET", "ambassador/stats", ambassadorData, { email: "x@example.com", start_date: "2024-01-01" }],
    ["listAmbassadors", { minMoney: "1.5", isActive: true, createdAfter: "2024-01-01" }, "GET", "ambassador/all", ok({ ambassadors: [] }), { created_at__gte: "2024-01-01", is_active: "1", min_money: "1.5", page: "1" }],
    ["updateAmbassador", { uid: "amb-1", isDeactivated: true }, "POST", "ambassador/update", ok({ message: "done" }), { is_deactivated: "1", uid: "amb-1" }],
    ["addBalance", { email: "x@example.com", amount: "5", type: "money" }, "POST", "balance/add", ok({ balance: {} }), { amount: "5", email: "x@example.com", type: "money" }],
    ["deductBalance", { email: "x@example.com", amount: 5, type: "points" }, "POST", "balance/deduct", ok({ balance: {} }), { amount: "5", email: "x@example.com", type: "points" }],
    ["getShortCode", { shortCode: "ALICE10", sandbox: true }, "GET", "shortcode/get", ok({ shortcode: {} }), { sandbox: "1", short_code: "ALICE10" }],
    ["getCompany", undefined, "GET", "company/get", ok({ company: {}, campaigns: [] }), {}],
    ["getCompanyStats", undefined, "GET", "company/stats", ok({ company: {}, stats: {} }), {}],
    ["getCompanyToken", undefined, "GET", "company/token", ok({ token: "sso" }), {}],
    ["getCompanyEmails", { startDate: "2024-01-01", endDate: "2024-01-31", aggregate: true }, "GET", "company/emails", ok({ total: [] }), { aggregate: "1", end_date: "2024-01-31", start_date: "2024-01-01" }],
    ["listGroups", undefined, "GET", "group/all", ok({ groups: [] }), {}],
    ["getGroup", { groupId: 2, page: 3 }, "POST", "group/get", ok({ group: { group_id: "2" }, ambassadors: [] }), { group_id: "2", page: "3" }],
    ["listCommissions", { status: "denied", sandbox: false, createdBefore: "2024-02-01" }, "POST", "commission/all", ok({ commissions: [] }), { created_at__lte: "2024-02-01", is_approved: "2", page: "1", sandbox: "0" }],
    ["updateCommission", { transactionUid: "order-1", campaignUid: 1001, status: "approved" }, "GET", "commission/update", ok({ message: "ok" }), { campaign_uid: "1001", is_approved: "1", transaction_uid: "order-1" }],
    ["addCommission", { email: "x@example.com", campaignUid: 1001, amount: "2.50", isApproved: true }, "POST", "commission/add", ok({ message: "ok", commission_uid: 9 }), { amount: "2.50", campaign_uid: "1001", email: "x@example.com", is_approved: "1" }],
    ["removePersonalData", { email: "x@example.com", confirm: true }, "POST", "compliance/remove", ok({}), { confirm: "1", email: "x@example.com" }],
  ] as const)("%s sends %j as %s %s", async (method, params, httpMethod, operation, answer, expected) => {
    const { client, calls } = clientWith(answer);
    await (client[method] as (p?: unknown) => Promise<unknown>)(params);
    expect(calls[0].method).toBe(httpMethod);
    const url = new URL(calls[0].url);
    expect(url.pathname).toBe(`/api/v2/shop%20user/s3cr3t%2Ftok/json/${operation}/`);
    const sent = Object.fromEntries(httpMethod === "GET" ? url.searchParams : new URLSearchParams(calls[0].body as string));
    if (httpMethod === "POST") expect(calls[0].headers["content-type"]).toMatch(/x-www-form-urlencoded/);
    expect(Object.values(sent).every((v) => typeof v === "string")).toBe(true);
    expect(sent).toEqual(expected);
  });

  it("maps commission statuses to is_approved codes", async () => {
    const { client, calls } = clientWith(ok({ commissions: [] }), ok({ message: "ok" }));
    await client.listCommissions({ status: "pending" });
    await client.updateCommission({ commissionUid: "5", status: "denied" });
    expect(new URLSearchParams(calls[0].body as string).get("is_approved")).toBe("0");
    expect(new URLSearchParams(calls[0].body as string).get("page")).toBe("1");
    expect(new URL(calls[1].url).searchParams.get("is_approved")).toBe("2");
  });

  it("returns typed results: group page, company token, commission uid as text", async () => {
    const { client } = clientWith(
      ok({ group: { group_id: 2, name: "VIP", default: "0" }, ambassadors: [{ email: "a@example.com" }] }),
      ok({ token: "one-time" }),
      ok({ message: "Commission added.", commission_uid: 77 }),
    );
    const group = await client.getGroup({ groupId: 2 });
    expect(group).toMatchObject({ group: { groupId: "2", name: "VIP", isDefault: false }, items: [{ email: "a@example.com" }], page: 1, hasMore: false });
    expect(await client.getCompanyToken()).toEqual({ token: "one-time" });
    expect(await client.addCommission({ uid: "u", campaignUid: "1001", amount: 1 })).toMatchObject({ commissionUid: "77" });
  });

  it("does not accept a missing or relative base URL or empty credentials", () => {
    const fetch = fakeFetch(ok({})).fetch;
    expect(() => createReferralClient({ baseUrl: "", username: "u", token: "t", fetch })).toThrow(TypeError);
    expect(() => createReferralClient({ baseUrl: "/api", username: "u", token: "t", fetch })).toThrow(TypeError);
    expect(() => createReferralClient({ baseUrl: "ftp://x", username: "u", token: "t", fetch })).toThrow(TypeError);
    expect(() => createReferralClient({ baseUrl: BASE, username: "u", token: "", fetch })).toThrow(TypeError);
  });

  it("strips any number of trailing slashes from the base", async () => {
    const fake = fakeFetch(ok({ groups: [] }));
    const client = createReferralClient({ baseUrl: "http://h.test/prefix//", username: "u", token: "t", fetch: fake.fetch });
    await client.listGroups();
    expect(fake.calls[0].url).toBe("http://h.test/prefix/api/v2/u/t/json/group/all/");
  });
});
