import { describe, expect, it } from "vitest";
import { describeReward } from "../../../app/platform/referral-api";
import { failureOf } from "./support/failure";
import { useSandbox } from "./support/sandbox";

const sandbox = useSandbox();

describe("company operations against the sandbox", () => {
  it("company/get returns the company and its active campaigns, normalised", async () => {
    const { company, campaigns } = await sandbox.client().getCompany();
    expect(company).toMatchObject({ companyName: "Demo Outfitters", pointName: "points", outgoingEmail: null });
    const byUid = Object.fromEntries(campaigns.map((c) => [c.campaignUid, c]));
    expect(Object.keys(byUid)).toEqual(expect.arrayContaining(["1001", "1002", "1003", "1004"]));
    expect(byUid["1005"]).toBeUndefined();

    expect(byUid["1001"]).toMatchObject({ autoApproveCommissions: false, private: false, endDate: null });
    expect(byUid["1001"].startDate).toBeInstanceOf(Date);
    expect(describeReward(byUid["1001"].initialReward!)).toBe("10% of revenue");
    expect(describeReward(byUid["1001"].recurringReward!)).toBe("5% of revenue");
    expect(byUid["1002"]).toMatchObject({ autoApproveCommissions: true, private: true });
    expect(describeReward(byUid["1002"].initialReward!)).toBe("15.00 flat");
    expect(describeReward(byUid["1003"].initialReward!, { pointName: company.pointName ?? undefined })).toBe("50 points");
    expect(describeReward(byUid["1003"].recurringReward!)).toBe("2% of revenue in points");
    expect(byUid["1004"]).toMatchObject({ sandbox: true, autoApproveCommissions: true });
    expect(byUid["1004"].initialReward?.amount).toBe("20.00");
  });

  it("company/stats returns production and sandbox figures as numbers and exact sums", async () => {
    const { company, stats } = await sandbox.client().getCompanyStats();
    expect(company?.companyName).toBe("Demo Outfitters");
    expect(stats.production.activatedAmbassadors).toBeGreaterThan(0);
    expect(typeof stats.production.deactivatedAmbassadors).toBe("number");
    expect(stats.production.activeCampaigns).toBeGreaterThanOrEqual(3);
    expect(stats.production.commissions.approvedCount).toBeGreaterThan(0);
    expect(stats.production.commissions.approvedSum).toMatch(/^\d+\.\d{2,}$/);
    expect(stats.production.revenue.approvedSum).toMatch(/^\d+\.\d{2,}$/);
    expect(typeof stats.production.payouts.paidCount).toBe("number");
    expect(typeof stats.sandbox.activeCampaigns).toBe("number");
  });

  it("company/token returns a one-time token", async () => {
    const first = await sandbox.client().getCompanyToken();
    const second = await sandbox.client().getCompanyToken();
    expect(first.token).toMatch(/\S{8,}/);
    expect(second.token).not.toBe(first.token);
  });

  it("company/emails returns statistics for a period, aggregated or per day", async () => {
    const client = sandbox.client();
    const today = await client.getCompanyEmails();
    expect(Array.isArray(today.total)).toBe(true);

    const period = await client.getCompanyEmails({ startDate: "2024-01-01", endDate: "2024-01-07" });
    expect(period.total.length).toBeGreaterThan(0);
    expect(period.total.every((e) => e.date instanceof Date && typeof e.delivered === "number")).toBe(true);
    expect(Object.keys(period.emailTypes)).toEqual(
      expect.arrayContaining(["newAmbassador", "pendingCommission", "approvedCommission", "deniedCommission", "fulfilledPayout", "deniedPayout"]),
    );
    const combined = await client.getCompanyEmails({ startDate: new Date("2024-01-01T00:00:00Z"), endDate: new Date("2024-01-07T00:00:00Z"), aggregate: true });
    expect(combined.total.length).toBeLessThanOrEqual(1);

    const half = await failureOf(client.getCompanyEmails({ startDate: "2024-01-01" } as never));
    expect(half).toMatchObject({ kind: "invalid_request", errors: ["The following GET/POST parameter is required: end_date."] });
  });
});
