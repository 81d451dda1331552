import { beforeEach, describe, expect, it } from "vitest";
import { runCommissionBulk } from "../../../app/domains/commissions/commission-bulk.server";
import { commissionEntry } from "../../../app/domains/commissions/commission-entry";
import prisma from "../../../app/wiring/db.server";
import { action, loader } from "../../../app/routes/app.commissions";
import { connectShop, rotateSandboxToken, sandboxCommissions, SEED, shopServiceClient, testPipeline, useTestSandbox } from "../../support/pipeline";
import { installShop } from "../../support/sessions";
import { TEST_SHOP } from "../../support/shopify-requests";
import { load, submit, type ActionBody } from "../../entry/admin/admin-requests";
import { receiveOrder, recordOf } from "../../entry/admin/fixtures";

const { bobPending, aliceApproved, alicePointsPending, aliceDenied } = SEED.commissions;
const sandbox = useTestSandbox();

beforeEach(async () => {
  await installShop();
  await connectShop(sandbox);
});

async function list(query = "", shop?: string) {
  const { list: answer, notConnected, ...page } = await load(loader, `/app/commissions${query}`, { shop });
  const list = answer?.ok ? answer.value : null;
  return { ...page, list, rows: list?.rows ?? [], error: answer && !answer.ok ? answer.error : notConnected, notConnected: notConnected !== null };
}

const decide = (decision: string, commissions: string[]) =>
  submit(action, "/app/commissions", { intent: "decide", decision, commissions });

/** The per-row report of an approve/deny that went through. */
function reportOf(body: ActionBody<typeof action>) {
  if (!("results" in body)) throw new Error(`Expected a per-row report: ${JSON.stringify(body)}`);
  return body;
}

const stateOf = async (transactionId: string) => (await sandboxCommissions(sandbox, transactionId))[0]!.state;

describe("commissions page", () => {
  it("lists commission/all with campaign names, fraud status and filters", async () => {
    const all = await list();
    expect(all.rows).toHaveLength(5);
    expect(all.list).toMatchObject({ page: 1, hasMore: false });
    const bob = all.rows.find((r) => r.uid === bobPending.commission_uid);
    expect(bob).toMatchObject({
      status: "pending",
      ambassadorEmail: "bob@example.com",
      campaignName: "Friends & Family",
      amount: "8.00",
      fraud: { status: "passed", reasons: [] },
      order: null,
    });
    expect(all.rows.find((r) => r.uid === alicePointsPending.commission_uid)).toMatchObject({
      amountUnit: "points",
      campaignName: "Points Club",
    });
    expect(all.list?.pointName).toBe("points");

    const pending = await list("?status=pending");
    expect(pending.rows.map((r) => r.uid).sort()).toEqual([bobPending.commission_uid, alicePointsPending.commission_uid]);
    const alice = await list("?email=alice@example.com&welcome=exclude");
    expect(alice.rows.map((r) => r.uid)).toContain(alicePointsPending.commission_uid);
    expect(alice.rows.every((r) => r.ambassadorEmail === "alice@example.com")).toBe(true);

    const bad = await list("?email=not-an-email&from=2024-13-45&status=maybe");
    expect(Object.keys(bad.filterErrors).sort()).toEqual(["email", "from", "status"]);
    expect(bad.rawFilters.email).toBe("not-an-email");
    expect(bad.rows).toHaveLength(5);
  });

  it("approves a pending commission and denies another, through commission/update", async () => {
    const approved = await decide("approve", [bobPending.commission_uid]);
    expect(approved).toMatchObject({
      status: 200,
      body: { ok: true, succeeded: 1, failed: 0, results: [{ uid: bobPending.commission_uid, ok: true, message: "Approved" }] },
    });
    expect(await stateOf(bobPending.transaction_uid)).toBe("approved");

    const denied = await decide("deny", [alicePointsPending.commission_uid]);
    expect(reportOf(denied.body).results).toEqual([{ uid: alicePointsPending.commission_uid, ok: true, message: "Denied" }]);
    expect(await stateOf(alicePointsPending.transaction_uid)).toBe("denied");
  });

  it("reports per row in bulk, and why a commission that isn't pending did not change", async () => {
    const { status, body } = await decide("approve", [
      bobPending.commission_uid,
      aliceApproved.commission_uid,
      aliceDenied.commission_uid,
      "987654",
    ]);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, succeeded: 1, failed: 3 });
    const byUid = Object.fromEntries(reportOf(body).results.map((r) => [r.uid, r]));
    expect(byUid[bobPending.commission_uid]).toMatchObject({ ok: true });
    expect(byUid[aliceApproved.commission_uid]).toMatchObject({
      ok: false,
      message: expect.stringMatching(/only pending commissions/),
    });
    expect(byUid[aliceDenied.commission_uid].message).toMatch(/only pending commissions/);
    expect(byUid["987654"].message).toMatch(/doesn't know this commission/);
    expect(await stateOf(aliceDenied.transaction_uid)).toBe("denied");
  });

  it("checks the form", async () => {
    expect(await decide("approve", [])).toMatchObject({
      status: 400,
      body: { ok: false, fieldErrors: { commissions: expect.any(String) } },
    });
    expect(await decide("refund", [bobPending.commission_uid])).toMatchObject({
      status: 400,
      body: { fieldErrors: { decision: expect.any(String) } },
    });
    expect(await decide("approve", ["5002; DROP"])).toMatchObject({ status: 400 });
    expect(await stateOf(bobPending.transaction_uid)).toBe("pending");
  });

  it("links a commission to this shop's Shopify order, and its state follows a decision", async () => {
    const orderId = await receiveOrder();
    await testPipeline().drain();

    const page = await list("?status=pending");
    const ours = page.rows.find((r) => r.transactionId === orderId)!;
    expect(ours.order).toEqual({
      id: orderId,
      name: expect.any(String),
      url: `https://admin.shopify.com/store/referral-demo/orders/${orderId}`,
    });

    await decide("approve", [`${ours.uid}:${orderId}:${ours.campaignUid}`]);
    expect(await recordOf(orderId)).toMatchObject({ commissionState: "approved" });

    const byOrder = await list(`?order=${orderId}`);
    expect(byOrder.list?.orderFilter).toMatchObject({ id: orderId, known: true });
    expect(byOrder.rows.map((r) => r.status)).toEqual(["approved"]);
  });

  it("sends Flow one approval per commission of an order recorded in two campaigns, approved together on the page", async () => {
    // GIVEN a shop with Flow on, and an order recorded in two campaigns, each with a pending commission
    await connectShop(sandbox, { campaignUids: "1001,1003" });
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    const orderId = await receiveOrder({ noteAttributes: [], discountCodes: ["ALICE-15"] });
    await testPipeline().drain();
    const rows = (await list(`?order=${orderId}`)).rows;
    expect(rows.map((r) => r.campaignUid).sort()).toEqual(["1001", "1003"]);

    // WHEN the merchant selects both and approves them (the page sends each as "uid:order:campaign")
    const approved = await decide("approve", rows.map((r) => commissionEntry({ commissionUid: r.uid, transactionId: r.transactionId, campaignUid: r.campaignUid })));
    expect(approved).toMatchObject({ status: 200, body: { ok: true, succeeded: 2, failed: 0 } });

    // THEN the order's state is approved, and Flow hears of each campaign's approval
    expect(await recordOf(orderId)).toMatchObject({ commissionState: "approved" });
    const triggers = await prisma.job.findMany({ where: { shop: TEST_SHOP, kind: "flow.trigger", key: { contains: "commission-approved" } } });
    expect(triggers.map((j) => j.key).sort()).toEqual([
      `${TEST_SHOP}:flow.trigger:commission-approved:order:${orderId}:campaign:1001`,
      `${TEST_SHOP}:flow.trigger:commission-approved:order:${orderId}:campaign:1003`,
    ]);
  });

  it("never links another shop's orders", async () => {
    const other = "other-store.myshopify.com";
    await installShop(other);
    await connectShop(sandbox, { shop: other });
    const theirs = await receiveOrder({}, other);
    await testPipeline().drain();

    const page = await list();
    const row = page.rows.find((r) => r.transactionId === theirs)!;
    expect(row.order).toBeNull();
    expect((await list(`?order=${theirs}`)).list).toMatchObject({ rows: [], orderFilter: { known: false } });
    expect(await prisma.orderRecord.count({ where: { shop: TEST_SHOP } })).toBe(0);
  });

  it("shows the way to Settings when the credentials are refused", async () => {
    await rotateSandboxToken(sandbox, "rotated");
    const page = await list();
    expect(page.list).toBeNull();
    expect(page.error).toMatchObject({
      title: "The referral service refused your credentials",
      action: { url: "/app/settings" },
    });
    expect((await prisma.shop.findUniqueOrThrow({ where: { shop: TEST_SHOP } })).connectionStatus).toBe("broken");
    expect((await list()).notConnected).toBe(true);
  });
});

describe("commissions page: lists longer than a page, and decisions on all of them", () => {
  async function addPending(count: number, email = (i: number) => `ambassador${i}@example.com`) {
    const client = await shopServiceClient();
    for (let i = 0; i < count; i += 1) {
      await client.addCommission({ email: email(i), autoCreate: true, campaignUid: "1001", amount: "5.00", revenue: "50.00", isApproved: false });
    }
  }

  const decideAll = (decision: string, filters = "") => submit(action, "/app/commissions", { intent: "decide-all", decision, filters });

  it("pages the list by 25 on the server, four pages to each of the service's pages of 100", async () => {
    // GIVEN 125 commissions: the seed's five and 120 more
    await addPending(120);
    // WHEN the merchant pages through the list
    const pages = [];
    for (let page = 1; page <= 6; page += 1) pages.push(await list(`?page=${page}`));
    // THEN five pages of 25 hold every commission once, and the last says so
    expect(pages.map((p) => p.rows.length)).toEqual([25, 25, 25, 25, 25, 0]);
    expect(pages.map((p) => p.list?.hasMore)).toEqual([true, true, true, true, false, false]);
    expect(pages.map((p) => p.list?.page)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(new Set(pages.flatMap((p) => p.rows.map((r) => r.uid))).size).toBe(125);
  });

  it("approves every pending commission matching the filters, on every page, as a job with its progress on the page", async () => {
    // GIVEN 150 more pending commissions, 30 of them bob's
    await addPending(150, (i) => (i % 5 === 0 ? "bob@example.com" : `ambassador${i}@example.com`));
    const bobsBefore = (await sandboxCommissions(sandbox)).filter((c) => c.affiliate_email === "bob@example.com" && c.state === "pending").length;
    expect(bobsBefore).toBe(31);

    // WHEN the merchant approves all of bob's
    const started = await decideAll("approve", "email=bob%40example.com&page=2");
    expect(started).toMatchObject({ status: 200, body: { ok: true, bulkStarted: expect.any(String) } });
    // THEN nothing changed yet: the page shows the run, and a second one is refused while it runs
    expect((await list()).bulk).toMatchObject({ status: "running", decision: "approve", phase: "collect" });
    expect(await decideAll("deny")).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/running/) } } });

    await testPipeline().drain();
    const { bulk } = await list();
    expect(bulk).toMatchObject({ status: "done", total: 31, position: 31, succeeded: 31, skipped: 0, failed: 0, failures: [] });
    const ledger = await sandboxCommissions(sandbox);
    expect(ledger.filter((c) => c.affiliate_email === "bob@example.com" && c.state === "pending")).toEqual([]);
    expect(ledger.filter((c) => c.affiliate_email !== "bob@example.com" && c.state === "pending")).toHaveLength(121);
  });

  it("resumes where it stopped after a crash, and decides nothing twice", async () => {
    await addPending(130);
    const started = await decideAll("deny", "status=pending");
    const runId = (started.body as { bulkStarted: string }).bulkStarted;
    const client = await shopServiceClient();
    let updates = 0;
    // GIVEN a run cut off right after the service denied its 40th commission, before the app stored it
    const crashing = {
      ...client,
      async updateCommission(params: Parameters<typeof client.updateCommission>[0]) {
        const answer = await client.updateCommission(params);
        updates += 1;
        if (updates === 40) throw new Error("killed");
        return answer;
      },
    };
    const deps = { db: prisma, client: crashing, now: () => new Date() };
    await expect(runCommissionBulk(deps, TEST_SHOP, runId)).rejects.toThrow("killed");
    expect(await prisma.commissionBulkRun.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: "running", phase: "decide", total: 132, position: 39 });

    // WHEN it runs again
    await runCommissionBulk({ ...deps, client }, TEST_SHOP, runId);
    // THEN the 40th is found already denied, and every other one is denied once
    expect(await prisma.commissionBulkRun.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({
      status: "done",
      position: 132,
      succeeded: 131,
      skipped: 1,
      failed: 0,
    });
    const ledger = await sandboxCommissions(sandbox);
    expect(ledger.filter((c) => c.state === "pending")).toEqual([]);
    expect(ledger.filter((c) => c.state === "denied")).toHaveLength(133);
  });

  it("sends Flow each campaign's approval of an order the run approves", async () => {
    await connectShop(sandbox, { campaignUids: "1001,1003" });
    await prisma.shop.update({ where: { shop: TEST_SHOP }, data: { flowTriggers: true } });
    const orderId = await receiveOrder({ noteAttributes: [], discountCodes: ["ALICE-15"] });
    await testPipeline().drain();

    await decideAll("approve", "email=alice%40example.com");
    await testPipeline().drain();

    expect((await list()).bulk).toMatchObject({ status: "done", failed: 0 });
    expect(await recordOf(orderId)).toMatchObject({ commissionState: "approved" });
    const keys = (await prisma.job.findMany({ where: { shop: TEST_SHOP, kind: "flow.trigger" } })).map((j) => j.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        `${TEST_SHOP}:flow.trigger:commission-approved:order:${orderId}:campaign:1001`,
        `${TEST_SHOP}:flow.trigger:commission-approved:order:${orderId}:campaign:1003`,
      ]),
    );
  });

  it("refuses what it can't do", async () => {
    expect(await decideAll("approve", "status=approved")).toMatchObject({ status: 400, body: { error: { message: expect.stringMatching(/Only pending/) } } });
    expect(await decideAll("approve", "email=not-an-email")).toMatchObject({ status: 400 });
    expect(await decideAll("refund")).toMatchObject({ status: 400 });
    expect(await prisma.commissionBulkRun.count()).toBe(0);
    expect(await prisma.job.count({ where: { kind: "commissions.bulk-decide" } })).toBe(0);
  });
});
