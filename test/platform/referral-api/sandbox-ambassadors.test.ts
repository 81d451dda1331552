import { describe, expect, it } from "vitest";
import type { ReferralApiError, ReferralApiErrorKind } from "../../../app/platform/referral-api";
import { failureOf } from "./support/failure";
import { useSandbox } from "./support/sandbox";

const sandbox = useSandbox();

function expectKind(error: ReferralApiError, kind: ReferralApiErrorKind, errors?: string[]) {
  expect(error.kind).toBe(kind);
  if (errors) expect(error.errors).toEqual(errors);
}

describe("ambassador operations against the sandbox", () => {
  it("ambassador/get returns a seeded ambassador with share links", async () => {
    const client = sandbox.client();
    const { ambassador, referringAmbassador } = await client.getAmbassador({ email: "alice@example.com" });
    expect(ambassador).toMatchObject({ email: "alice@example.com", uid: "amb-alice", firstName: "Alice", status: "enrolled" });
    expect(ambassador.createdAt).toBeInstanceOf(Date);
    expect(ambassador.balanceMoney).toMatch(/^\d+\.\d{2,}$/);
    expect(ambassador.sandbox).toBe(false);
    const links = Object.fromEntries(ambassador.campaignLinks.map((l) => [l.campaignUid, l]));
    expect(links["1001"]).toMatchObject({ campaignName: "Friends & Family", sandbox: false });
    expect(links["1001"].url).toContain("ALICE10");
    expect(links["1001"].totalMoneyEarned).toMatch(/^\d+\.\d{2}$/);
    expect(referringAmbassador === null || typeof referringAmbassador === "object").toBe(true);
  });

  it("ambassador/get creates with autoCreate and the given status; without it an unknown email is not found", async () => {
    const client = sandbox.client();
    expectKind(await failureOf(client.getAmbassador({ email: "nobody@example.com" })), "not_found");

    const { ambassador } = await client.getAmbassador({
      email: "newbie@example.com",
      autoCreate: true,
      status: "prospect",
      firstName: "New",
      uid: "cust-newbie",
      custom4: "2024-05-06",
      setGroups: ["2"],
    });
    expect(ambassador).toMatchObject({ email: "newbie@example.com", status: "prospect", firstName: "New", uid: "cust-newbie", custom4: "2024-05-06" });
    // sandbox absent on auto-create: the service answers a boolean; normalised either way
    expect(typeof ambassador.sandbox).toBe("boolean");
    expect(ambassador.groups).toEqual(["2"]);
    expect(ambassador.balanceMoney).toBe("0.00");
  });

  it("ambassador/get without email gives the documented required-parameter error", async () => {
    const error = await failureOf(sandbox.client().getAmbassador({} as never));
    expectKind(error, "invalid_request", ["The following GET/POST parameter is required: email."]);
    expect(error).toMatchObject({ status: 400, code: "400", retryable: false, operation: "ambassador/get" });
  });

  it("ambassador/stats returns the summary and per-campaign stats", async () => {
    const { ambassador, company } = await sandbox.client().getAmbassadorStats({
      email: "alice@example.com",
      startDate: new Date("2024-01-01T00:00:00Z"),
      endDate: "2030-12-31",
    });
    const summary = ambassador.statsSummary!;
    expect(summary).not.toBeNull();
    expect(summary.startDate?.toISOString()).toBe("2024-01-01T00:00:00.000Z");
    expect(summary.endDate?.toISOString()).toBe("2030-12-31T00:00:00.000Z");
    expect(typeof summary.commissions.approvedCount).toBe("number");
    expect(summary.commissions.approvedSum).toMatch(/^\d+\.\d{2,}$/);
    expect(Object.keys(summary.channels)).toContain("email");
    expect(ambassador.campaignLinks.length).toBeGreaterThan(0);
    expect(ambassador.campaignLinks.every((l) => l.stats !== null && typeof l.uniqueReferrals === "number")).toBe(true);
    expect(company?.companyName).toBe("Demo Outfitters");
  });

  it("ambassador/all lists a page with filters; non-numbers give the documented error", async () => {
    const client = sandbox.client();
    const page = await client.listAmbassadors();
    expect(page.page).toBe(1);
    expect(page.items.map((a) => a.email)).toEqual(expect.arrayContaining(["alice@example.com", "bob@example.com"]));
    expect(page.items.every((a) => typeof a.fraudScore === "number" || a.fraudScore === null)).toBe(true);

    const onlyAlice = await client.listAmbassadors({ email: "alice@example.com" });
    expect(onlyAlice.items.map((a) => a.email)).toEqual(["alice@example.com"]);
    const rich = await client.listAmbassadors({ minMoney: "10.00" });
    expect(rich.items.every((a) => Number(a.balanceMoney) >= 10)).toBe(true);

    const error = await failureOf(client.listAmbassadors({ page: "two", minMoney: "lots" } as never));
    expectKind(error, "invalid_request");
    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]).toMatch(/^The following POST parameters are not numbers\./);
    expect(error.errors[0]).toContain('"page"');
    expect(error.errors[0]).toContain('"min_money"');
  });

  it("iterates past 100 ambassadors across pages", async () => {
    const client = sandbox.client();
    const created = Array.from({ length: 130 }, (_, i) => `paging-${String(i).padStart(3, "0")}@example.com`);
    for (let i = 0; i < created.length; i += 20) {
      await Promise.all(created.slice(i, i + 20).map((email) => client.getAmbassador({ email, autoCreate: true })));
    }
    const first = await client.listAmbassadors({ page: 1 });
    expect(first.items).toHaveLength(100);
    expect(first.hasMore).toBe(true);

    const seen: string[] = [];
    for await (const ambassador of client.iterateAmbassadors()) seen.push(ambassador.email);
    expect(seen.length).toBeGreaterThan(130);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining([...created, "alice@example.com"]));
  });

  it("ambassador/update deactivates (status banned) and reactivates; needs uid or email", async () => {
    const client = sandbox.client();
    const done = await client.updateAmbassador({ uid: "amb-bob", isDeactivated: true, firstName: "Robert" });
    expect(typeof done.message).toBe("string");
    const banned = await client.getAmbassador({ email: "bob@example.com" });
    expect(banned.ambassador).toMatchObject({ status: "banned", firstName: "Robert" });

    await client.updateAmbassador({ email: "bob@example.com", isDeactivated: false });
    const active = await client.listAmbassadors({ email: "bob@example.com", isActive: true });
    expect(active.items.map((a) => a.email)).toEqual(["bob@example.com"]);

    const missing = await failureOf(client.updateAmbassador({ firstName: "x" } as never));
    expectKind(missing, "invalid_request");
    expect(missing.errors[0]).toMatch(/required: uid or email\.$/);
    expectKind(await failureOf(client.updateAmbassador({ uid: "no-such-uid", firstName: "x" })), "not_found");
  });

  it("shortcode/get resolves a referrer's code; unknown codes are not found", async () => {
    const client = sandbox.client();
    const code = await client.getShortCode({ shortCode: "ALICE10" });
    expect(code).toMatchObject({ valid: true, sandbox: false, email: "alice@example.com", uid: "amb-alice", campaignUid: "1001", status: "enrolled" });
    const test = await client.getShortCode({ shortCode: "ALICETEST", sandbox: true });
    expect(test).toMatchObject({ sandbox: true, campaignUid: "1004" });
    expectKind(await failureOf(client.getShortCode({ shortCode: "NOPE-NOPE" })), "not_found");
    const error = await failureOf(client.getShortCode({} as never));
    expectKind(error, "invalid_request", ["The following GET/POST parameter is required: short_code."]);
  });

  it("balance/add and balance/deduct (deprecated) move exact amounts", async () => {
    const client = sandbox.client();
    const before = (await client.getAmbassador({ email: "alice@example.com" })).ambassador.balanceMoney!;
    const added = await client.addBalance({ email: "alice@example.com", amount: "0.10", type: "money" });
    expect(added.balance.old).toBe(before);
    expect(added.balance.type).toBe("money");
    const deducted = await client.deductBalance({ email: "alice@example.com", amount: 0.2, type: "money" });
    expect(deducted.balance.old).toBe(added.balance.new);
    const { addMoney, subtractMoney } = await import("../../../app/platform/referral-api");
    expect(added.balance.new).toBe(addMoney(before, "0.10"));
    expect(deducted.balance.new).toBe(subtractMoney(added.balance.new!, "0.20"));

    const points = await client.addBalance({ email: "alice@example.com", amount: 5, type: "points" });
    expect(points.balance).toMatchObject({ type: "points" });
    expect(points.ambassador?.email).toBe("alice@example.com");

    const error = await failureOf(client.addBalance({ email: "alice@example.com" } as never));
    expectKind(error, "invalid_request", ["The following GET/POST parameters are required: email, type, amount."]);
  });

  it("group/all and group/get list groups and members; non-numbers are refused", async () => {
    const client = sandbox.client();
    const groups = await client.listGroups();
    expect(groups.map((g) => [g.groupId, g.name, g.isDefault])).toEqual(
      expect.arrayContaining([
        ["1", "Customers", true],
        ["2", "VIP", false],
      ]),
    );
    expect(groups.every((g) => typeof g.totalAmbassadors === "number")).toBe(true);

    const customers = groups.find((g) => g.groupId === "1")!;
    const page = await client.getGroup({ groupId: 1 });
    expect(page.group).toMatchObject({ groupId: "1", name: "Customers" });
    expect(page.items.length).toBe(Math.min(customers.totalAmbassadors ?? 0, 100));

    const members: string[] = [];
    for await (const m of client.iterateGroupMembers({ groupId: "1" })) members.push(m.email);
    expect(members.length).toBe(customers.totalAmbassadors);

    const error = await failureOf(client.getGroup({ groupId: "vip", page: "x" } as never));
    expectKind(error, "invalid_request");
    expect(error.errors[0]).toMatch(/^The following GET\/POST parameters are not numbers\./);
    expect(error.errors[0]).toContain('"group_id"');
  });
});
