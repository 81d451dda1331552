import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../../app/wiring/db.server";
import { action as campaignsAction, loader as campaignsLoader } from "../../../app/routes/app.campaigns";
import { loader as dashboardLoader } from "../../../app/routes/app._index";
import { loader as ambassadorsLoader } from "../../../app/routes/app.ambassadors._index";
import { action as ambassadorAction, loader as ambassadorLoader } from "../../../app/routes/app.ambassadors.$email";
import { connectShop, sandboxFaults, testPipeline, useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
import { load, submit, type LoaderData } from "./admin-requests";
import { failedOrder, receiveOrder, recordJobOf } from "./fixtures";
import { sandboxClient } from "../../support/sandbox-client";

const sandbox = useTestSandbox();

beforeEach(async () => {
  await installShop();
});

/** Narrows a page's data to the branch it must be in. */
function expectOk<T extends { ok: boolean }>(data: T): Extract<T, { ok: true }> {
  if (!data.ok) throw new Error(`Expected the page to load: ${JSON.stringify(data)}`);
  return data as Extract<T, { ok: true }>;
}

/** An ambassador page's detail, once the service answered with it. */
async function ambassadorOf(path: string, email: string) {
  const data = expectOk(await load(ambassadorLoader, path, { params: { email } }));
  if (!data.detail?.ok || !data.detail.value) throw new Error(`Expected the ambassador: ${JSON.stringify(data)}`);
  return { ...data, detail: data.detail.value };
}

const serviceClient = () => sandboxClient(sandbox);

describe("dashboard", () => {
  it("shows the setup steps and no figures before the program is connected", async () => {
    const data = await load(dashboardLoader, "/app");
    expect(data).toMatchObject({
      connection: { status: "not_connected" },
      program: null,
      trackedCampaigns: 0,
      embedSeen: false,
    });
    expect(data.daily.points).toHaveLength(30);
    expect(data.daily.totalOrders).toBe(0);
  });

  it("shows program figures, sync health and referred orders per day", async () => {
    await connectShop(sandbox);
    const pipeline = testPipeline();
    await receiveOrder({ subtotal: "90.00" });
    await receiveOrder({ subtotal: "40.00" });
    await pipeline.drain();
    await failedOrder(sandbox, pipeline);

    const data = await load(dashboardLoader, "/app");

    const figures = expectOk(data.program!).value;
    expect(figures).toMatchObject({ activeAmbassadors: expect.any(Number), clicks: 3, activeCampaigns: 3 });
    expect(figures.commissions.find((c) => c.state === "pending")).toMatchObject({ count: 4 });
    expect(data.health.counts).toMatchObject({ recorded: 2, failed: 1, queued: 0 });
    expect(data.health.lastSuccessAt).not.toBeNull();
    expect(data.embedSeen).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect(data.daily.points.at(-1)).toEqual({ date: today, orders: 2, revenue: "130.00" });
    expect(data.daily).toMatchObject({ totalOrders: 2, totalRevenue: "130.00", currency: "USD" });
  });

  it("keeps the local figures when the service is down, with words to act on", async () => {
    await connectShop(sandbox);
    await sandboxFaults(sandbox, { failNext: 5 });
    const data = await load(dashboardLoader, "/app");
    expect(data.program).toMatchObject({ ok: false });
    expect(data.program && !data.program.ok && data.program.error).toMatchObject({ title: "The referral service had a problem", retryable: true });
    expect(data.health.counts.recorded).toBe(0);
  });
});

describe("campaigns", () => {
  it("shows active campaigns with rewards in words, dates, flags and tracking", async () => {
    await connectShop(sandbox, { campaignUids: "1001" });
    const data = expectOk(expectOk(await load(campaignsLoader, "/app/campaigns")).program).value;
    const [friends, vip, points] = data.campaigns;
    expect(friends).toMatchObject({
      uid: "1001",
      name: "Friends & Family",
      initialReward: "10% of revenue",
      recurringReward: "5% of revenue",
      landingPage: "https://demo-outfitters.example/",
      startDate: "2024-01-01T00:00:00.000Z",
      endDate: null,
      tracked: true,
      private: false,
      autoApprove: false,
    });
    expect(vip).toMatchObject({
      initialReward: "15.00 flat",
      recurringReward: "no reward",
      private: true,
      autoApprove: true,
      tracked: false,
    });
    expect(points).toMatchObject({ initialReward: "50 points", recurringReward: "2% of revenue in points" });
    expect(data.campaigns.find((c) => c.uid === "1004")).toMatchObject({ sandbox: true });
  });

  it("tracks a campaign from the page and resumes orders held for want of one", async () => {
    await connectShop(sandbox, { campaignUids: "" });
    const orderId = await receiveOrder();
    await testPipeline().drain();
    expect((await recordJobOf(orderId)).status).toBe("paused");

    const tracked = await submit(campaignsAction, "/app/campaigns", { intent: "track", campaignUid: "1002" });
    expect(tracked.body).toMatchObject({ ok: true, resumedJobs: 1 });
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).campaignUids).toBe("1002");

    expect((await submit(campaignsAction, "/app/campaigns", { intent: "track", campaignUid: "1005" })).status).toBe(400);
    await submit(campaignsAction, "/app/campaigns", { intent: "untrack", campaignUid: "1002" });
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).campaignUids).toBe("");
  });

  it("saves a campaign's policy for a referred customer's later orders, and refuses a first N without a number", async () => {
    await connectShop(sandbox);
    const saved = await submit(campaignsAction, "/app/campaigns", { intent: "repeat-policy", campaignUid: "1001", policy: "first_n", firstN: "3" });
    expect(saved.body).toMatchObject({ ok: true, intent: "repeat-policy" });
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).repeatPolicies).toBe(JSON.stringify({ "1001": { policy: "first_n", firstN: 3 } }));
    const campaigns = expectOk(expectOk(await load(campaignsLoader, "/app/campaigns")).program).value.campaigns;
    expect(campaigns.find((c) => c.uid === "1001")).toMatchObject({ repeatPolicy: { policy: "first_n", firstN: 3 }, paysRecurring: true });
    expect(campaigns.find((c) => c.uid === "1002")).toMatchObject({ repeatPolicy: { policy: "as_paid" }, paysRecurring: false });

    const refused = await submit(campaignsAction, "/app/campaigns", { intent: "repeat-policy", campaignUid: "1001", policy: "first_n", firstN: "zero" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ fieldErrors: { firstN: expect.stringContaining("whole number") } });
    await submit(campaignsAction, "/app/campaigns", { intent: "repeat-policy", campaignUid: "1001", policy: "as_paid" });
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).repeatPolicies).toBe("");
  });

  it("asks to connect first", async () => {
    const data = await load(campaignsLoader, "/app/campaigns");
    expect(data).toMatchObject({ ok: false, notConnected: true, error: { action: { url: "/app/settings" } } });
  });
});

describe("ambassadors", () => {
  it("lists ambassadors with filters and the program's groups", async () => {
    await connectShop(sandbox);
    const listOf = (data: Pick<LoaderData<typeof ambassadorsLoader>, "list">) => (data.list?.ok ? data.list.value : null);
    const all = await load(ambassadorsLoader, "/app/ambassadors");
    const rows = listOf(all)?.rows ?? [];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.find((r) => r.email === "alice@example.com")).toMatchObject({
      name: "Alice Archer",
      balanceMoney: "12.00",
      uniqueReferrals: 3,
    });
    expect(listOf(all)?.groups.map((g) => g.name)).toEqual(["Customers", "VIP"]);

    const rich = await load(ambassadorsLoader, "/app/ambassadors?minMoney=13");
    expect(listOf(rich)?.rows.map((r) => r.email)).toEqual(["bob@example.com"]);
    const bad = await load(ambassadorsLoader, "/app/ambassadors?minMoney=lots&minReferrals=2");
    expect(bad.filterErrors).toEqual({ minMoney: expect.any(String) });
    // The valid filter still applies: exactly the ambassadors with two or more referrals (there are some).
    const twoOrMore = listOf(all)!.rows.filter((r) => (r.uniqueReferrals ?? 0) >= 2).map((r) => r.email);
    expect(twoOrMore.length).toBeGreaterThan(0);
    expect(listOf(bad)?.rows.map((r) => r.email)).toEqual(twoOrMore);
  });

  it("shows an ambassador's stats for a date range, per campaign and channel, with share links", async () => {
    await connectShop(sandbox);
    const email = "alice@example.com";
    const data = await ambassadorOf(`/app/ambassadors/${encodeURIComponent(email)}`, email);
    expect(data.detail).toMatchObject({
      email,
      name: "Alice Archer",
      status: "enrolled",
      active: true,
      range: { from: null, to: null },
    });
    expect(data.detail.summary).toMatchObject({ clicks: 3, shares: 2, referrals: 3 });
    expect(data.detail.channels.map((c) => c.name).sort()).toEqual(["email", "facebook"]);
    expect(data.detail.channels.find((c) => c.name === "email")?.clicksTracked).toBe(false);
    expect(data.detail.campaigns[0]).toMatchObject({ name: "Friends & Family", url: expect.stringContaining("/s/ALICE10") });

    const ranged = await ambassadorOf(`/app/ambassadors/${email}?from=2020-01-01&to=2020-12-31`, email);
    expect(ranged.detail.range).toEqual({ from: "2020-01-01", to: "2020-12-31" });
    expect(ranged.detail.summary).toMatchObject({ clicks: 0, referrals: 0 });
    const backwards = expectOk(
      await load(ambassadorLoader, `/app/ambassadors/${email}?from=2021-01-01&to=2020-12-31`, { params: { email } })
    );
    expect(backwards.rangeErrors.to).toBeDefined();

    expect(
      await load(ambassadorLoader, "/app/ambassadors/nobody@example.com", { params: { email: "nobody@example.com" } })
    ).toMatchObject({ ok: true, detail: { ok: true, value: null } });
    expect(await load(ambassadorLoader, "/app/ambassadors/x", { params: { email: "not an email" } })).toMatchObject({ ok: false });
  });

  it("deactivates, activates and regroups an ambassador", async () => {
    await connectShop(sandbox);
    const email = "carol@example.com";
    const path = `/app/ambassadors/${email}`;
    const status = async () => (await serviceClient().getAmbassador({ email })).ambassador;

    expect((await submit(ambassadorAction, path, { intent: "deactivate" }, { params: { email } })).body).toMatchObject({
      ok: true,
      message: "Ambassador deactivated.",
    });
    expect((await status()).status).toBe("banned");
    expect((await ambassadorOf(path, email)).detail.active).toBe(false);
    await submit(ambassadorAction, path, { intent: "activate" }, { params: { email } });
    expect((await status()).status).not.toBe("banned");

    await submit(ambassadorAction, path, { intent: "groups", groups: ["1", "2"] }, { params: { email } });
    expect((await status()).groups.sort()).toEqual(["1", "2"]);
    await submit(ambassadorAction, path, { intent: "groups" }, { params: { email } });
    expect((await status()).groups).toEqual([]);
    expect((await submit(ambassadorAction, path, { intent: "ban-forever" }, { params: { email } })).status).toBe(400);
  });
});
