import { beforeEach, describe, expect, it } from "vitest";
import prisma from "../../app/db.server";
import { action, loader } from "../../app/routes/app.commissions";
import { connectShop, rotateSandboxToken, sandboxCommissions, SEED, testPipeline, useTestSandbox } from "../support/pipeline";
import { installShop } from "../support/sessions";
import { TEST_SHOP } from "../support/shopify-requests";
import { load, submit, type ActionBody } from "./admin-requests";
import { receiveOrder, recordOf } from "./fixtures";

const { bobPending, aliceApproved, alicePointsPending, aliceDenied } = SEED.commissions;
const sandbox = useTestSandbox();

beforeEach(async () => {
  await installShop();
  await connectShop(sandbox);
});

async function list(query = "", shop?: string) {
  const page = await load(loader, `/app/commissions${query}`, { shop });
  return { ...page, rows: page.list?.rows ?? [] };
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

    await decide("approve", [`${ours.uid}:${orderId}`]);
    expect(await recordOf(orderId)).toMatchObject({ commissionState: "approved" });

    const byOrder = await list(`?order=${orderId}`);
    expect(byOrder.list?.orderFilter).toMatchObject({ id: orderId, known: true });
    expect(byOrder.rows.map((r) => r.status)).toEqual(["approved"]);
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
