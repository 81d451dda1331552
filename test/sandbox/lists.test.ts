import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dataOf, startTestSandbox, type TestSandbox } from "./helpers";

let t: TestSandbox;

beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.sandbox.close());
beforeEach(() => t.sandbox.reset());

const SEEDED_AMBASSADORS = 7; // alice, bob, carol + the referred customers dan, erin, frank, gina
const SEEDED_COMMISSIONS = 5;

async function emailsOf(params: Record<string, string>) {
  const { status, body } = await t.call("ambassador/all", params);
  expect(status).toBe(200);
  return (dataOf(body).ambassadors as { email: string }[]).map((a) => a.email);
}

async function commissionUids(params: Record<string, string>) {
  const { status, body } = await t.call("commission/all", params);
  expect(status).toBe(200);
  return (dataOf(body).commissions as { commission_uid: string }[]).map((c) => c.commission_uid);
}

describe("paging", () => {
  it("ambassador/all and group/get give at most 100 per page", async () => {
    for (let batch = 0; batch < 4; batch++) {
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          t.call("ambassador/get", { email: `bulk${batch * 30 + i}@example.com`, auto_create: "1" }),
        ),
      );
    }
    const total = SEEDED_AMBASSADORS + 120;

    expect(await emailsOf({})).toHaveLength(100);
    expect(await emailsOf({ page: "2" })).toHaveLength(total - 100);
    expect(await emailsOf({ page: "3" })).toHaveLength(0);
    const all = [...(await emailsOf({ page: "1" })), ...(await emailsOf({ page: "2" }))];
    expect(new Set(all).size).toBe(total);

    const group = async (page: string) => dataOf((await t.call("group/get", { group_id: "1", page })).body);
    const first = await group("1");
    expect(first.group).toEqual({ group_id: "1", name: "Customers", description: expect.any(String), default: "1" });
    expect(first.ambassadors).toHaveLength(100);
    expect((await group("2")).ambassadors).toHaveLength(total - 100);

    const groups = dataOf((await t.call("group/all")).body).groups;
    expect(groups).toEqual([
      expect.objectContaining({ group_id: "1", default: "1", total_ambassadors: total }),
      expect.objectContaining({ group_id: "2", name: "VIP", default: "0", total_ambassadors: 1 }),
    ]);
  });

  it("commission/all gives at most 100 per page", async () => {
    for (let batch = 0; batch < 3; batch++) {
      await Promise.all(
        Array.from({ length: 35 }, (_, i) =>
          t.call("commission/add", { email: "bob@example.com", campaign_uid: "1001", amount: "1.00", transaction_uid: `bulk-${batch}-${i}` }),
        ),
      );
    }
    expect(await commissionUids({})).toHaveLength(100);
    expect(await commissionUids({ page: "2" })).toHaveLength(SEEDED_COMMISSIONS + 105 - 100);
  });
});

describe("ambassador/all filters", () => {
  it("filters by balance, points, referrals, identity and activity", async () => {
    expect(await emailsOf({ min_money: "12" })).toEqual(["alice@example.com", "bob@example.com"]);
    expect(await emailsOf({ min_money: "12.01" })).toEqual(["bob@example.com"]);
    expect(await emailsOf({ min_referrals: "3" })).toEqual(["alice@example.com"]);
    expect(await emailsOf({ email: "BOB@example.com" })).toEqual(["bob@example.com"]);
    expect(await emailsOf({ uid: "amb-carol" })).toEqual(["carol@example.com"]);
    expect(await emailsOf({ is_active: "0" })).toEqual(["carol@example.com"]);
    expect(await emailsOf({ is_active: "1" })).toHaveLength(SEEDED_AMBASSADORS - 1);
    expect(await emailsOf({ group: "2" })).toEqual(["bob@example.com"]);

    await t.call("balance/add", { email: "carol@example.com", type: "points", amount: "40" });
    expect(await emailsOf({ min_points: "40" })).toEqual(["carol@example.com"]);
  });

  it("filters by creation date: bare dates cover whole days, date-times are exact", async () => {
    // alice 2024-02-01T10:00, bob 2024-02-05T09:30, carol 2024-02-10T15:45
    expect(await emailsOf({ created_at__lte: "2024-02-05" })).toEqual(["alice@example.com", "bob@example.com"]);
    expect(await emailsOf({ created_at__lte: "2024-02-05T09:00:00Z" })).toEqual(["alice@example.com"]);
    expect(await emailsOf({ created_at__gte: "2024-02-05", created_at__lte: "2024-02-10" })).toEqual([
      "bob@example.com",
      "carol@example.com",
    ]);
    expect(await emailsOf({ created_at__gte: "2024-02-05T09:30:01Z", created_at__lte: "2024-02-28" })).toEqual(["carol@example.com"]);
  });

  it("filters by sandbox", async () => {
    await t.call("ambassador/get", { email: "tester@example.com", auto_create: "1", sandbox: "1" });
    expect(await emailsOf({ sandbox: "1" })).toEqual(["tester@example.com"]);
    expect(await emailsOf({ sandbox: "0" })).toHaveLength(SEEDED_AMBASSADORS);
  });

  it("answers the list item shape with fraud fields", async () => {
    const [alice] = dataOf((await t.call("ambassador/all", { email: "alice@example.com" })).body).ambassadors;
    expect(alice).toMatchObject({
      uid: "amb-alice",
      balance_money: "12.00",
      money_paid: "0.00",
      sandbox: "0",
      fraud_score: 0,
      fraud_score_human_readable: null,
      fraud_reasons: {},
    });
    expect(alice.created_at).toBe("2024-02-01T10:00:00.000000+0000");
  });
});

describe("commission/all filters", () => {
  it("filters by state, earner, welcome bonus and sandbox", async () => {
    expect(await commissionUids({ is_approved: "0" })).toEqual(["5002", "5005"]);
    expect(await commissionUids({ is_approved: "1" })).toEqual(["5001", "5004"]);
    expect(await commissionUids({ email: "alice@example.com" })).toEqual(["5001", "5003", "5005"]);
    expect(await commissionUids({ uid: "amb-bob" })).toEqual(["5002", "5004"]);
    expect(await commissionUids({ is_welcome_bonus: "1" })).toEqual(["5004"]);

    await t.call("event/record", { email: "s@example.com", campaign_uid: "1004", short_code: "ALICETEST", revenue: "10" });
    const sandboxOnly = dataOf((await t.call("commission/all", { sandbox: "1" })).body).commissions;
    expect(sandboxOnly).toHaveLength(1);
    expect(sandboxOnly[0]).toMatchObject({ campaign_uid: "1004", is_sandbox: "1", is_approved: "1", commission_amount: "2.00" });
    expect(await commissionUids({ sandbox: "0" })).toHaveLength(SEEDED_COMMISSIONS);
  });

  it("takes a bare date as midnight: lte excludes that day, gte includes it", async () => {
    // 5001 2024-03-01, 5002 2024-03-05 12:00, 5003 2024-03-10, 5004 2024-03-11, 5005 2024-03-12
    expect(await commissionUids({ created_at__lte: "2024-03-05" })).toEqual(["5001"]);
    expect(await commissionUids({ created_at__lte: "2024-03-06" })).toEqual(["5001", "5002"]);
    expect(await commissionUids({ created_at__gte: "2024-03-10", created_at__lte: "2024-03-12" })).toEqual(["5003", "5004"]);
    expect(await commissionUids({ created_at__gte: "2024-03-05T12:00:00.500Z", created_at__lte: "2024-03-05T12:00:00.500Z" })).toEqual(["5002"]);
  });

  it("rejects a date it cannot read", async () => {
    const { status } = await t.call("commission/all", { created_at__gte: "last tuesday" });
    expect(status).toBe(400);
  });
});
